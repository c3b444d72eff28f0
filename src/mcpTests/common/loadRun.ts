/**
 * Load mode of `mcp-workbench test` (`--concurrency N`, `--rate R`, `--iterations K`): a file's
 * tests run K times each over one connection, N runs at a time, at most R runs started a second,
 * with the same runner and expectations as a normal run; each request a step makes is timed and
 * reported per step as p50 / p99 / max. Pure: the target, the clock and the sleep are handed in.
 *
 * Percentiles are nearest-rank (the value at rank ⌈p/100 · n⌉ of the sorted times): with fewer
 * than 100 runs p99 is the maximum, which is what a small run can honestly say.
 */
import { runTest, type RunContext, type TestTarget } from './testRunner';
import type { ListKind, TestFile } from './testFormat';

export interface LoadOptions {
  /** Runs in flight at once (≥ 1). */
  concurrency: number;
  /** Runs started per second at most; undefined: as fast as the concurrency allows. */
  rate?: number;
  /** How many times each test runs. */
  iterations: number;
}

export interface StepLoad {
  /** `<test> › <n> <request>`: the n-th request of the test's run. */
  step: string;
  times: number[];
  errors: number;
}

export interface LoadReport {
  runs: number;
  failedRuns: number;
  /** The first failure message of each failing test (one per test), to say why. */
  failures: string[];
  steps: StepLoad[];
  durationMs: number;
  options: LoadOptions;
}

export const DEFAULT_ITERATIONS = 20;

/** Nearest-rank percentile of `values` (0 < p ≤ 100); NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1];
}

/** A target that times each request and files it under the step (the request's order in one run). */
function timedTarget(target: TestTarget, test: string, record: (step: string, ms: number, failed: boolean) => void, now: () => number): TestTarget {
  let n = 0;
  const timed =
    <A extends unknown[]>(what: (...args: A) => string, call: (...args: A) => Promise<unknown>) =>
    async (...args: A) => {
      const step = `${test} › ${++n} ${what(...args)}`;
      const started = now();
      try {
        const result = await call(...args);
        record(step, now() - started, (result as { isError?: unknown } | undefined)?.isError === true);
        return result;
      } catch (error) {
        record(step, now() - started, true);
        throw error;
      }
    };
  return {
    callTool: timed(
      (name: string) => `callTool ${name}`,
      (name, args?: Record<string, unknown>) => target.callTool(name, args),
    ),
    readResource: timed(
      (uri: string) => `readResource ${uri}`,
      (uri) => target.readResource(uri),
    ),
    getPrompt: timed(
      (name: string) => `getPrompt ${name}`,
      (name, args?: Record<string, string>) => target.getPrompt(name, args),
    ),
    list: timed(
      (kind: ListKind) => `list ${kind}`,
      (kind) => target.list(kind),
    ) as TestTarget['list'],
    ...(target.advertises ? { advertises: (kind: ListKind) => target.advertises!(kind) } : {}),
  };
}

export async function runLoad(
  file: TestFile,
  ctx: RunContext,
  options: LoadOptions,
  only?: (name: string) => boolean,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<LoadReport> {
  const now = ctx.now ?? (() => performance.now());
  const tests = file.tests.filter((t) => !only || only(t.name));
  // Round-robin over the tests, so every test is under the same load.
  const queue = Array.from({ length: options.iterations * tests.length }, (_, i) => tests[i % tests.length]);
  const steps = new Map<string, StepLoad>();
  const failures = new Map<string, string>();
  let failedRuns = 0;
  let started = 0;
  const begin = now();
  const record = (step: string, ms: number, failed: boolean) => {
    const s = steps.get(step) ?? { step, times: [], errors: 0 };
    s.times.push(ms);
    if (failed) s.errors++;
    steps.set(step, s);
  };
  const worker = async () => {
    for (;;) {
      const test = queue.shift();
      if (!test) return;
      const index = started++;
      if (options.rate) {
        const due = begin + (index * 1000) / options.rate;
        const wait = due - now();
        if (wait > 0) await sleep(wait);
      }
      // Snapshots are compared, never written, under load.
      const result = await runTest(test, { ...ctx, updateSnapshots: false, target: timedTarget(ctx.target, test.name, record, now) });
      if (result.status === 'failed') {
        failedRuns++;
        if (!failures.has(test.name)) failures.set(test.name, `${test.name}: ${result.failures[0]?.message ?? 'failed'}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, queue.length)) }, worker));
  return { runs: started, failedRuns, failures: [...failures.values()], steps: [...steps.values()], durationMs: now() - begin, options };
}

const ms = (v: number) => (Number.isNaN(v) ? '-' : `${v < 10 ? v.toFixed(1) : Math.round(v)} ms`);

/** The report as text: a header, one line per step (p50, p99, max, errors), then why runs failed. */
export function formatLoad(file: string, report: LoadReport): string {
  const { options } = report;
  const lines = [
    `Load: ${file}: ${report.runs} runs, concurrency ${options.concurrency}${options.rate ? `, at most ${options.rate} runs/s` : ''}, ${(report.durationMs / 1000).toFixed(1)} s; ${report.failedRuns} failed`,
  ];
  const width = Math.max(4, ...report.steps.map((s) => s.step.length));
  lines.push(`  ${'step'.padEnd(width)}  ${'n'.padStart(5)}  ${'errors'.padStart(6)}  ${'p50'.padStart(9)}  ${'p99'.padStart(9)}  ${'max'.padStart(9)}`);
  for (const s of report.steps) {
    lines.push(
      `  ${s.step.padEnd(width)}  ${String(s.times.length).padStart(5)}  ${String(s.errors).padStart(6)}  ${ms(percentile(s.times, 50)).padStart(9)}  ${ms(percentile(s.times, 99)).padStart(9)}  ${ms(percentile(s.times, 100)).padStart(9)}`,
    );
  }
  for (const f of report.failures) lines.push(`  ✗ ${f}`);
  return lines.join('\n') + '\n';
}
