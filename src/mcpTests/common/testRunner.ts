/**
 * Runs saved tests against a server connection and says what passed, what failed and where.
 * Pure: the connection, the snapshots and the clock are handed in (McpServerConnection is a
 * TestTarget as it is), so the command line and VS Code's Testing view run the same code.
 */
import { errorMessage } from '../../shared/common/errors';
import { capabilitySnapshot, diffCapabilities, type CapabilitySnapshot } from './capabilitySnapshot';
import { exactDifferences, normalizeJson, parseJsonPath, subsetDifferences, withoutPaths, type JsonDifference } from './jsonCompare';
import { capabilitySnapshotKey, stepSnapshotKey, type SnapshotFile } from './snapshots';
import { isCapabilityTest, LIST_KINDS, type CapabilityTest, type ListKind, type McpTest, type Step, type StepTest, type TestFile } from './testFormat';
import { validateAgainstSchema } from '../../jsonSchema/common/schemaValidation';

/** What a test talks to: McpServerConnection, or anything with the same four requests. */
export interface TestTarget {
  callTool(name: string, args: Record<string, unknown> | undefined): Promise<unknown>;
  readResource(uri: string): Promise<unknown>;
  getPrompt(name: string, args?: Record<string, string>): Promise<unknown>;
  list(kind: ListKind): Promise<readonly unknown[]>;
  /** Whether the server advertises a list (a capability snapshot takes only those); default: all. */
  advertises?(kind: ListKind): boolean;
}

export interface RunContext {
  target: TestTarget;
  snapshots: SnapshotFile;
  /** Write snapshots that differ or are missing instead of failing. */
  updateSnapshots: boolean;
  /** Milliseconds, for latency budgets (tests pass a clock of their own). Default: performance.now. */
  now?: () => number;
  /** Resolves `${env:…}` / `${input:…}` in a step's strings; errors are reported as the test's failures. */
  resolve?: (value: unknown) => { value: unknown; errors: string[] };
}

export interface TestFailure {
  /** 0-based step, for a step's failure. */
  step?: number;
  message: string;
  differences?: JsonDifference[];
  /** The whole expected and actual value, when the failure compares two values (a diff view shows them). */
  expected?: unknown;
  actual?: unknown;
}

export interface TestResult {
  name: string;
  status: 'passed' | 'failed';
  durationMs: number;
  failures: TestFailure[];
  /** Things worth saying about a passing test: a compatible capability change, a snapshot written. */
  notes: string[];
}

export async function runTests(file: TestFile, ctx: RunContext, only?: (name: string) => boolean): Promise<TestResult[]> {
  const results: TestResult[] = [];
  for (const test of file.tests) if (!only || only(test.name)) results.push(await runTest(test, ctx));
  return results;
}

export async function runTest(test: McpTest, ctx: RunContext): Promise<TestResult> {
  const now = ctx.now ?? (() => performance.now());
  const started = now();
  const failures: TestFailure[] = [];
  const notes: string[] = [];
  try {
    if (isCapabilityTest(test)) await runCapabilityTest(test, ctx, failures, notes);
    else await runStepTest(test, ctx, failures, notes, now);
  } catch (error) {
    failures.push({ message: `The test stopped: ${errorMessage(error)}` });
  }
  return { name: test.name, status: failures.length ? 'failed' : 'passed', durationMs: Math.max(0, now() - started), failures, notes };
}

export function describeStep(step: Step): string {
  if ('callTool' in step) return `callTool ${step.callTool.name}`;
  if ('readResource' in step) return `readResource ${step.readResource.uri}`;
  if ('getPrompt' in step) return `getPrompt ${step.getPrompt.name}`;
  return `list ${step.list}`;
}

async function runStepTest(test: StepTest, ctx: RunContext, failures: TestFailure[], notes: string[], now: () => number): Promise<void> {
  for (const [index, raw] of test.steps.entries()) {
    const resolved = ctx.resolve ? ctx.resolve(raw) : { value: raw, errors: [] };
    if (resolved.errors.length) {
      failures.push({ step: index, message: resolved.errors.join(' ') });
      return;
    }
    const step = resolved.value as Step;
    const expect = step.expect ?? {};
    const fail = (failure: Omit<TestFailure, 'step'>) => failures.push({ step: index, ...failure });
    const before = failures.length;
    const started = now();
    let result: unknown;
    let requestError: string | undefined;
    try {
      result = await perform(step, ctx.target);
    } catch (error) {
      requestError = errorMessage(error);
    }
    const elapsed = now() - started;
    const label = describeStep(step);
    if (requestError !== undefined) {
      // A request the server refused counts as the error a test may expect.
      if (expect.isError !== true) fail({ message: `${label} failed: ${requestError}` });
      else if (expect.maxMs !== undefined && elapsed > expect.maxMs)
        fail({ message: `${label} took ${Math.round(elapsed)} ms, over its budget of ${expect.maxMs} ms` });
      if (failures.length > before) return;
      continue;
    }
    const isError = (result as { isError?: unknown } | undefined)?.isError === true;
    if (expect.isError === true && !isError) fail({ message: `${label} succeeded, but an error was expected` });
    if (expect.isError !== true && isError)
      fail({ message: `${label} returned an error${expect.isError === false ? ', but success was expected' : ''}: ${errorText(result)}` });
    if (expect.maxMs !== undefined && elapsed > expect.maxMs)
      fail({ message: `${label} took ${Math.round(elapsed)} ms, over its budget of ${expect.maxMs} ms` });
    if (expect.match !== undefined) {
      const differences = subsetDifferences(expect.match, result);
      if (differences.length) fail({ message: `${label}: the result does not match`, differences, expected: expect.match, actual: result });
    }
    for (const [key, schema, value] of [
      ['schema', expect.schema, result],
      ['structuredContentSchema', expect.structuredContentSchema, (result as { structuredContent?: unknown } | undefined)?.structuredContent],
    ] as const) {
      if (schema === undefined) continue;
      const check = validateAgainstSchema(schema, value);
      if (check.valid === undefined) fail({ message: `${label}: "${key}" is not a usable JSON Schema: ${check.schemaError}` });
      else if (!check.valid) {
        const at = key === 'schema' ? '$' : '$.structuredContent';
        fail({
          message: `${label}: the ${key === 'schema' ? 'result' : 'structuredContent'} does not satisfy "${key}"`,
          differences: check.issues.map((i) => ({
            path: at + i.pointer.replace(/\/([^/]*)/g, (_m, s: string) => (/^\d+$/.test(s) ? `[${s}]` : `.${s}`)),
            message: i.message,
          })),
          actual: value,
        });
      }
    }
    if (expect.snapshot) {
      const ignore = expect.snapshot === true ? [] : (expect.snapshot.ignore ?? []);
      const paths = ignore.map(parseJsonPath);
      const bad = ignore.filter((_p, i) => !paths[i]);
      if (bad.length)
        fail({ message: `${label}: snapshot.ignore has ${bad.map((p) => JSON.stringify(p)).join(', ')}, not a path like $._meta or $.content[*].annotations` });
      else {
        const kept = withoutPaths(result, paths as NonNullable<(typeof paths)[number]>[]);
        compareSnapshot(stepSnapshotKey(test.name, index), normalizeJson(kept), ctx, (f) => fail({ ...f, message: `${label}: ${f.message}` }), notes);
      }
    }
    // Later steps may depend on this one: stop at the first failing step.
    if (failures.length > before) return;
  }
}

function perform(step: Step, target: TestTarget): Promise<unknown> {
  if ('callTool' in step) return target.callTool(step.callTool.name, step.callTool.arguments ?? {});
  if ('readResource' in step) return target.readResource(step.readResource.uri);
  if ('getPrompt' in step) return target.getPrompt(step.getPrompt.name, step.getPrompt.arguments);
  const kind = step.list;
  return target.list(kind).then((items) => ({ [kind]: items }));
}

function errorText(result: unknown): string {
  const content = (result as { content?: { type?: string; text?: string }[] }).content ?? [];
  const text = content
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join(' ')
    .trim();
  return text || JSON.stringify(result).slice(0, 200);
}

function compareSnapshot(key: string, actual: unknown, ctx: RunContext, fail: (f: Omit<TestFailure, 'step'>) => void, notes: string[]): void {
  const stored = ctx.snapshots.get(key);
  if (ctx.updateSnapshots) {
    if (stored === undefined || exactDifferences(stored, actual).length) {
      ctx.snapshots.set(key, actual);
      notes.push(`snapshot "${key}" ${stored === undefined ? 'written' : 'updated'}`);
    }
    return;
  }
  if (stored === undefined) {
    fail({ message: `no snapshot "${key}" is stored${ctx.snapshots.problem ? ` (${ctx.snapshots.problem})` : ''}; run with --update-snapshots to write it` });
    return;
  }
  const differences = exactDifferences(stored, actual);
  if (differences.length)
    fail({ message: 'the result differs from the snapshot (run with --update-snapshots if the change is intended)', differences, expected: stored, actual });
}

async function runCapabilityTest(test: CapabilityTest, ctx: RunContext, failures: TestFailure[], notes: string[]): Promise<void> {
  const options = test.capabilitySnapshot === true ? {} : test.capabilitySnapshot;
  const kinds = options.lists ?? LIST_KINDS.filter((k) => ctx.target.advertises?.(k) ?? true);
  const lists: Partial<Record<ListKind, readonly unknown[]>> = {};
  for (const kind of kinds) lists[kind] = await ctx.target.list(kind);
  const actual = capabilitySnapshot(lists);
  const key = capabilitySnapshotKey(test.name);
  const stored = ctx.snapshots.get(key) as CapabilitySnapshot | undefined;
  if (ctx.updateSnapshots) {
    if (stored === undefined || exactDifferences(normalizeJson(stored), normalizeJson(actual)).length) {
      ctx.snapshots.set(key, actual);
      notes.push(`capability snapshot "${key}" ${stored === undefined ? 'written' : 'updated'}`);
    }
    return;
  }
  if (stored === undefined) {
    failures.push({
      message: `no capability snapshot "${key}" is stored${ctx.snapshots.problem ? ` (${ctx.snapshots.problem})` : ''}; run with --update-snapshots to write it`,
    });
    return;
  }
  const changes = diffCapabilities(stored, actual);
  const breaking = changes.filter((c) => c.severity === 'breaking');
  const compatible = changes.filter((c) => c.severity === 'compatible');
  const failOnAny = options.failOn === 'any';
  if (breaking.length || (failOnAny && compatible.length)) {
    const shown = failOnAny ? changes : breaking;
    failures.push({
      message: `${breaking.length} breaking and ${compatible.length} compatible change${changes.length === 1 ? '' : 's'} to the server's capabilities (run with --update-snapshots once clients are ready)`,
      differences: shown.map((c) => ({ path: `$.${c.path}`, message: `${c.severity}: ${c.message}` })),
      expected: stored,
      actual,
    });
  } else if (compatible.length) {
    notes.push(
      `${compatible.length} compatible change${compatible.length === 1 ? '' : 's'}: ${compatible.map((c) => `${c.path}: ${c.message}`).join('; ')} (run with --update-snapshots to record)`,
    );
  }
}
