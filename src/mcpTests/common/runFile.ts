/**
 * One test file from text to results: parse it, start its server on a McpServerConnection (or
 * use a connection the caller already has), run its tests, and hand back the snapshot file's
 * new text when it has to be written. File reading and writing stay with the caller.
 */
import type { ConnectionHost, ServerLog } from '../../mcp/connection/connectionTypes';
import { McpServerConnection } from '../../mcp/connection/serverConnection';
import { positionAt } from '../../config/common/serverConfig';
import { parseTestFile, type TestFileProblem } from './parseTestFile';
import type { FileResult } from './reporters';
import { SnapshotFile } from './snapshots';
import { runLoad, type LoadOptions, type LoadReport } from './loadRun';
import { runTests, type TestTarget } from './testRunner';
import { resolveVariables, serverDefinitionFor, type TestEnvironment } from './testServer';

export interface RunFileOptions {
  /** How the file is named in results (a path relative to where the run started). */
  file: string;
  text: string;
  /** The stored snapshot file's text; undefined when there is none. */
  snapshotText: string | undefined;
  env: Omit<TestEnvironment, 'startTimeoutMs'>;
  updateSnapshots: boolean;
  /** Run only the tests whose name passes; default all (only then are unused snapshots dropped). */
  only?: (name: string) => boolean;
  now?: () => number;
  /** Where a connection of the file's own is started; or `connection` for one the caller has. */
  host?: ConnectionHost;
  log?: ServerLog;
  /** A running connection to use instead of starting the file's server (the Testing view's). */
  target?: TestTarget;
  /** Cancels the run: requests of the file's own connection are aborted and no further test starts. */
  signal?: AbortSignal;
  /** Load mode: each test runs many times, some at once; the outcome's `load` has the timings per step. */
  load?: LoadOptions;
}

export interface RunFileOutcome {
  result: FileResult;
  /** The file's problems; any error makes it a bad file (the command line exits 2). */
  problems: TestFileProblem[];
  /** The snapshot file's text to write (only with updateSnapshots, and only when it changed). */
  snapshotText?: string;
  /** In load mode: the runs and each step's times (then `result.tests` is empty). */
  load?: LoadReport;
}

/** "file.mcptest.json:3:5: message" for each problem. */
export function formatProblems(file: string, text: string, problems: readonly TestFileProblem[]): string[] {
  return problems.map((p) => {
    const { line, character } = positionAt(text, p.offset);
    return `${file}:${line + 1}:${character + 1}: ${p.message}`;
  });
}

export async function runTestFile(options: RunFileOptions): Promise<RunFileOutcome> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const done = (result: Omit<FileResult, 'file' | 'durationMs'>, problems: TestFileProblem[] = [], snapshotText?: string): RunFileOutcome => ({
    result: { file: options.file, durationMs: Math.max(0, now() - started), ...result },
    problems,
    snapshotText,
  });
  const parsed = parseTestFile(options.text);
  const errors = parsed.problems.filter((p) => p.severity === 'error');
  if (!parsed.file || errors.length) return done({ tests: [], error: formatProblems(options.file, options.text, errors).join('\n') }, parsed.problems);
  const file = parsed.file;
  const env: TestEnvironment = { ...options.env, startTimeoutMs: file.startTimeoutMs };
  let connection: McpServerConnection | undefined;
  let target = options.target;
  let server: string | undefined;
  try {
    if (!target) {
      const resolved = serverDefinitionFor(file.server, env);
      if (!resolved.definition) return done({ tests: [], error: resolved.error });
      if (!options.host) return done({ tests: [], error: 'No connection host was given to start the server.' });
      connection = new McpServerConnection(resolved.definition, options.host, options.log ?? { log: () => undefined, stderr: () => undefined });
      await connection.start();
      const state = connection.state;
      if (state.kind !== 'running') {
        const why =
          state.kind === 'error' || state.kind === 'needsAuth' ? state.message : state.kind === 'stopped' ? (state.reason ?? 'it stopped') : state.kind;
        return done({ tests: [], error: `The server "${resolved.definition.name}" did not start: ${why}` });
      }
      server = `${state.serverInfo.name} ${state.serverInfo.version}, protocol ${state.protocolVersion}`;
      const c = connection;
      const signal = options.signal;
      target = {
        callTool: (name, args) => c.callTool(name, args, { signal }),
        readResource: (uri) => c.readResource(uri, { signal }),
        getPrompt: (name, args) => c.getPrompt(name, args, { signal }),
        // Under load a list is asked of the server each time; otherwise the connection's cache would be timed.
        list: (kind) => (options.load ? c.refresh(kind) : c.list(kind)),
        advertises: (kind) => c.advertises(kind),
      };
    }
    const snapshots = new SnapshotFile(options.snapshotText);
    const { only, signal } = options;
    if (options.load) {
      const ctx = { target, snapshots, updateSnapshots: false, now, resolve: (value: unknown) => resolveVariables(value, env) };
      const load = await runLoad(file, ctx, options.load, only);
      return { ...done({ tests: [], ...(server ? { server } : {}) }, parsed.problems), load };
    }
    const tests = await runTests(
      file,
      { target, snapshots, updateSnapshots: options.updateSnapshots, now, resolve: (value) => resolveVariables(value, env) },
      only || signal ? (name) => !signal?.aborted && (!only || only(name)) : undefined,
    );
    const everything = !options.only && !signal?.aborted;
    const write = options.updateSnapshots && snapshots.changed(everything) ? snapshots.serialize(everything) : undefined;
    return done({ tests, ...(server ? { server } : {}) }, parsed.problems, write);
  } finally {
    await connection?.dispose();
  }
}
