/** What a scenario module exports and returns, and the fixtures they share. */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { formatRatios, formatTime, type ContestantResult } from './stats';

export const STDIO_FIXTURE = path.resolve(__dirname, '../fixtures/servers/stdioServer.js');
export const HTTP_FIXTURE = path.resolve(__dirname, '../fixtures/servers/httpServer.js');

export interface BenchOptions {
  smoke: boolean;
  /** How many times each scenario repeats (each run reported). */
  runs: number;
  log(line: string): void;
}

export interface GoalResult {
  goal: string;
  measured: string;
  /** Undefined: not judged (smoke run, or nothing to judge). */
  met?: boolean;
  /** Why this machine's numbers cannot decide the goal (then `met` is undefined). */
  inconclusive?: string;
  /** What the other contestants measured, where that tells how to read the goal. */
  context?: string;
}

export interface ScenarioResult {
  id: string;
  title: string;
  /** Counts and settings of this run of the scenario. */
  params: Record<string, unknown>;
  table: { header: string[]; rows: string[][] };
  goals: GoalResult[];
  notes: string[];
  /** Everything measured, for bench/results.json. */
  data: unknown;
}

export interface Scenario {
  id: string;
  run(options: BenchOptions): Promise<ScenarioResult>;
}

/** The environment every contestant's fixture gets: this process's, plus the fixture knobs. */
export function fixtureEnv(knobs: Record<string, string> = {}): Record<string, string | undefined> {
  return { ...process.env, ...knobs };
}

/** The standard latency table: one row per contestant, ratios to the bare SDK per run. */
export function latencyTable(contestants: ContestantResult[]): ScenarioResult['table'] {
  const mid = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
  // Columns against SDK v1 too where the scenario runs it (its own row has no v1 ratios: 1).
  const v1 = contestants.some((c) => c.v1RatioP50);
  return {
    header: [
      'contestant',
      'p50',
      'p99',
      `p50 × bare SDK${v1 ? ' v2' : ''} [each run] ±spread`,
      `p99 × bare SDK${v1 ? ' v2' : ''} [each run] ±spread`,
      ...(v1 ? ['p50 × bare SDK v1 [each run] ±spread', 'p99 × bare SDK v1 [each run] ±spread'] : []),
    ],
    rows: contestants.map((c) => [
      c.label,
      formatTime(mid(c.runs.map((r) => r.p50)), c.unit),
      formatTime(mid(c.runs.map((r) => r.p99)), c.unit),
      c.ratioP50 ? formatRatios(c.ratioP50) : '1 (reference)',
      c.ratioP99 ? formatRatios(c.ratioP99) : '1 (reference)',
      ...(v1 ? [c.v1RatioP50 ? formatRatios(c.v1RatioP50) : '1 (reference)', c.v1RatioP99 ? formatRatios(c.v1RatioP99) : '1 (reference)'] : []),
    ]),
  };
}

/**
 * Judges `values` (the per-run ratios) by their median against `limit`. Smoke runs are not
 * judged. Nor is a goal whose runs fall on both sides of the limit, or one whose caller says
 * the machine's noise decides it (`noise`): a verdict there would be a coin toss, whichever
 * way it fell.
 */
export function goal(goalText: string, values: number[] | undefined, limit: number, options: BenchOptions, noise?: string): GoalResult {
  const measured = formatRatios(values);
  if (!values?.length) return { goal: goalText, measured: 'not measured' };
  if (options.smoke) return { goal: goalText, measured };
  if (noise) return { goal: goalText, measured, inconclusive: noise };
  if (Math.min(...values) <= limit && Math.max(...values) > limit) return { goal: goalText, measured, inconclusive: 'the runs fall on both sides of the limit' };
  const sorted = [...values].sort((a, b) => a - b);
  return { goal: goalText, measured, met: sorted[Math.floor((sorted.length - 1) / 2)] <= limit };
}

/**
 * When even the raw floor's p99 is many times its p50, the slowest calls are the machine
 * (scheduling, other processes), not any client: p99 ratios then say nothing about the host.
 */
export function p99Noise(floor: { runs: { p50: number; p99: number }[] }): string | undefined {
  const worst = Math.max(...floor.runs.map((r) => r.p99 / r.p50));
  return worst > 5 ? `machine noise: the raw floor's p99 is ${worst.toFixed(0)}× its p50` : undefined;
}

/** Starts the HTTP fixture in its own process; resolves with its URL and a stop function. */
export async function startHttpFixtureProcess(env: Record<string, string> = {}): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [HTTP_FIXTURE, '0'], { env: fixtureEnv(env), stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const m = /^LISTENING (\S+)/.exec(line);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`HTTP fixture exited with ${code}`)));
  });
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Runs `node script args` and returns the JSON its last stdout line holds. */
export async function runNodeJson<T>(script: string, args: string[], nodeFlags: string[] = [], env: Record<string, string | undefined> = process.env): Promise<T> {
  const child = spawn(process.execPath, [...nodeFlags, script, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const last = stdout.trim().split('\n').pop() ?? '';
  if (code !== 0) throw new Error(`${path.basename(script)} ${args.join(' ')} exited with ${code}:\n${stderr.slice(-2000)}${stdout.slice(-1000)}`);
  try {
    return JSON.parse(last) as T;
  } catch {
    throw new Error(`${path.basename(script)} printed no JSON result:\n${stdout.slice(-1000)}\n${stderr.slice(-1000)}`);
  }
}
