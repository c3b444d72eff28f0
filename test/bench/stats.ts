/**
 * Numbers and fairness helpers shared by the scenarios.
 *
 * Fairness rules every scenario follows (reviewers: check them in each scenario module):
 * 1. Every contestant talks to the same fixture server code with the same payloads.
 * 2. Warm-up iterations run first and are dropped.
 * 3. Contestants take turns within each iteration, and the order rotates every iteration
 *    (ABC, BCA, CAB, …: `rotation`), so drift in the machine's load hits all of them alike.
 * 4. A scenario runs several times (`runs`); each run's ratios are reported, with their spread.
 * 5. Ratios are always host / bare SDK (the SDK the extension ships); the raw client is the
 *    floor (what the server and the pipe cost on their own), never the reference.
 * Known bias, left in on purpose and said here: in-process contestants share one heap, so
 * garbage the host makes is partly collected during the other contestants' calls. That flatters
 * the host, never the reverse; the flood and activation scenarios run each contestant in its
 * own process instead.
 */

/** Nearest-rank percentile of sorted samples (p in 0..1). */
export function percentile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return NaN;
  const rank = Math.ceil(p * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export interface Summary {
  n: number;
  p50: number;
  p99: number;
  min: number;
  max: number;
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), min: sorted[0], max: sorted[sorted.length - 1] };
}

export function median(values: readonly number[]): number {
  return percentile([...values].sort((a, b) => a - b), 0.5);
}

/** The order of contestants in iteration `i`: rotated by one each iteration. */
export function rotation<T>(contestants: readonly T[], i: number): T[] {
  const k = i % contestants.length;
  return [...contestants.slice(k), ...contestants.slice(0, k)];
}

/** Wall time of `fn` in milliseconds (high resolution). */
export async function timeMs(fn: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * Runs `iterations` rounds (after `warmup` dropped rounds) in which every contestant's `step`
 * runs once, in rotating order; returns each contestant's samples in milliseconds.
 */
export async function interleave<K extends string>(
  contestants: Record<K, () => Promise<unknown>>,
  iterations: number,
  warmup: number,
): Promise<Record<K, number[]>> {
  const names = Object.keys(contestants) as K[];
  const samples = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>;
  for (let i = 0; i < warmup + iterations; i++) {
    for (const name of rotation(names, i)) {
      const ms = await timeMs(contestants[name]);
      if (i >= warmup) samples[name].push(ms);
    }
  }
  return samples;
}

/** One contestant's result in one run. */
export interface ContestantRun {
  p50: number;
  p99: number;
  n: number;
}

/** A contestant over all runs: its per-run summaries and its ratios to the bare SDK. */
export interface ContestantResult {
  name: string;
  label: string;
  unit: 'ms' | 'µs';
  runs: ContestantRun[];
  /** Per run: p50 / bare p50 and p99 / bare p99 (absent for the bare SDK itself). */
  ratioP50?: number[];
  ratioP99?: number[];
  /** The same against the other bare SDK line (SDK v1), where a scenario runs it (issue 30). */
  v1RatioP50?: number[];
  v1RatioP99?: number[];
}

export function ratios(contestant: ContestantRun[], bare: ContestantRun[]): { ratioP50: number[]; ratioP99: number[] } {
  return {
    ratioP50: contestant.map((r, i) => r.p50 / bare[i].p50),
    ratioP99: contestant.map((r, i) => r.p99 / bare[i].p99),
  };
}

/** `1.23 [1.21 1.23 1.30] ±0.05`: median of runs, each run, half the spread. */
export function formatRatios(values: readonly number[] | undefined): string {
  if (!values?.length) return '';
  const m = median(values);
  if (values.length === 1) return m.toFixed(2);
  const spread = (Math.max(...values) - Math.min(...values)) / 2;
  return `${m.toFixed(2)} [${values.map((v) => v.toFixed(2)).join(' ')}] ±${spread.toFixed(2)}`;
}

export function formatTime(ms: number, unit: 'ms' | 'µs'): string {
  if (!Number.isFinite(ms)) return '—';
  if (unit === 'µs') return `${Math.round(ms * 1000)} µs`;
  return ms >= 100 ? `${Math.round(ms)} ms` : `${ms.toFixed(1)} ms`;
}
