/**
 * Runs the chosen tests of one `*.mcptest.json` into a VS Code TestRun with the same pure runner
 * as the command line (runTestFile): against the workbench's own connection of the server the
 * file names (started when it is stopped), or a connection of the file's own for an inline
 * launch. Value mismatches become diff messages at the test's place in the file.
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { McpServerConnection } from '../mcp/connection/serverConnection';
import { redactState } from '../mcp/serverState';
import { oneLine } from '../servers/common/failureText';
import type { Workbench } from '../workbench';
import { parseTestFile } from './common/parseTestFile';
import { failureLines, report } from './common/reporters';
import { runTestFile } from './common/runFile';
import { snapshotPathOf } from './common/snapshots';
import type { TestFailure, TestTarget } from './common/testRunner';
import { debugForTests } from './debugTests';

/** What a run reported for one test item, as the TestRun was told (the integration tests read it). */
export interface RecordedOutcome {
  id: string;
  file: string;
  state: 'passed' | 'failed' | 'errored' | 'skipped';
  messages: { message: string; expected?: string; actual?: string; line?: number }[];
}

/** A TestRun that also keeps what it was told, so a run can be checked from what VS Code got. */
export class RecordingRun {
  readonly outcomes: RecordedOutcome[] = [];
  constructor(readonly run: vscode.TestRun) {}

  private record(item: vscode.TestItem, state: RecordedOutcome['state'], messages: readonly vscode.TestMessage[] = []): void {
    this.outcomes.push({
      id: item.id,
      file: item.uri ? vscode.workspace.asRelativePath(item.uri) : '',
      state,
      messages: messages.map((m) => ({
        message: typeof m.message === 'string' ? m.message : m.message.value,
        expected: m.expectedOutput,
        actual: m.actualOutput,
        line: m.location?.range.start.line,
      })),
    });
  }

  passed(item: vscode.TestItem, durationMs: number): void {
    this.run.passed(item, durationMs);
    this.record(item, 'passed');
  }
  failed(item: vscode.TestItem, messages: vscode.TestMessage[], durationMs: number): void {
    this.run.failed(item, messages, durationMs);
    this.record(item, 'failed', messages);
  }
  errored(item: vscode.TestItem, message: vscode.TestMessage): void {
    this.run.errored(item, message);
    this.record(item, 'errored', [message]);
  }
  skipped(item: vscode.TestItem): void {
    this.run.skipped(item);
    this.record(item, 'skipped');
  }
  /** Output for the run's terminal, which wants CRLF line ends. */
  output(text: string): void {
    this.run.appendOutput(text.replace(/\r?\n/g, '\r\n'));
  }
}

export async function readText(uri: vscode.Uri): Promise<string | undefined> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText();
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch (error) {
    if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') return undefined;
    throw error;
  }
}

/** The connection of a configured server for a file: its own folder's entry first, then a user-level one. */
function connectionFor(wb: Workbench, name: string, folder: vscode.WorkspaceFolder | undefined): McpServerConnection | undefined {
  const named = wb.registry.all().filter((c) => c.definition.name === name);
  return named.find((c) => c.definition.source.folder === folder?.name) ?? named.find((c) => c.definition.source.scope === 'user') ?? named[0];
}

/** The workbench's running connection of a server, started if it is not running; or why it cannot run. */
async function workbenchTarget(
  wb: Workbench,
  name: string,
  folder: vscode.WorkspaceFolder | undefined,
  run: RecordingRun,
  signal: AbortSignal,
  debug: boolean,
): Promise<{ target: TestTarget; server: string } | { error: string }> {
  const connection = connectionFor(wb, name, folder);
  if (!connection)
    return { error: vscode.l10n.t('No server "{0}" is configured in this workspace: name one from .vscode/mcp.json, .mcp.json or the settings.', name) };
  if (debug) {
    const problem = await debugForTests(connection, (line) => run.output(`${line}\n`));
    if (problem) return { error: problem };
  }
  const id = connection.definition.id;
  if (connection.state.kind !== 'running') {
    run.output(`${vscode.l10n.t('Starting {0} for the tests…', connection.definition.label)}\n`);
    await wb.registry.start(id);
  }
  const state = redactState(connection.state, wb.secretsOf(connection.definition));
  if (state.kind !== 'running') {
    const why =
      state.kind === 'error' || state.kind === 'needsAuth' ? oneLine(state.message) : state.kind === 'stopped' ? (state.reason ?? state.kind) : state.kind;
    // The message goes on after the reason: a reason's own full stop would double it.
    const reason = why.replace(/\.$/, '');
    return {
      error: vscode.l10n.t(
        'The server "{0}" did not start: {1}. See its log (MCP: Show Log), fix it, then run the tests again.',
        connection.definition.label,
        reason,
      ),
    };
  }
  const c = connection;
  return {
    server: `${c.definition.label}: ${state.serverInfo.name} ${state.serverInfo.version}, protocol ${state.protocolVersion}`,
    target: {
      callTool: (tool, args) => c.callTool(tool, args, { signal }),
      readResource: (uri) => c.readResource(uri, { signal }),
      getPrompt: (prompt, args) => c.getPrompt(prompt, args, { signal }),
      list: (kind) => c.list(kind),
      advertises: (kind) => c.advertises(kind),
    },
  };
}

function messageFor(failure: TestFailure, location: vscode.Location | undefined): vscode.TestMessage {
  const text = failureLines(failure).join('\n');
  // A diff view needs two values; a failure without them (a tool error, a budget) is plain text.
  const message =
    failure.expected !== undefined && failure.actual !== undefined
      ? vscode.TestMessage.diff(text, JSON.stringify(failure.expected, null, 2), JSON.stringify(failure.actual, null, 2))
      : new vscode.TestMessage(text);
  message.location = location;
  return message;
}

export interface FileRunOptions {
  file: vscode.TestItem;
  /** The chosen tests of the file (children of `file`). */
  tests: vscode.TestItem[];
  updateSnapshots: boolean;
  /** The Debug profile: the server runs under the `mcp` debugger (see debugTests.ts). */
  debug?: boolean;
  run: RecordingRun;
  token: vscode.CancellationToken;
}

/** Runs the chosen tests of one file and reports each to the run. */
export async function runFileItems(wb: Workbench, options: FileRunOptions): Promise<void> {
  const { file, tests, run, token } = options;
  const uri = file.uri!;
  const name = vscode.workspace.asRelativePath(uri);
  const where = (item: vscode.TestItem) => (item.range ? new vscode.Location(uri, item.range) : new vscode.Location(uri, new vscode.Position(0, 0)));
  const errorAll = (text: string) => {
    run.output(`${name}: ${text}\n`);
    for (const test of tests.length ? tests : [file]) {
      const message = new vscode.TestMessage(text);
      message.location = where(test);
      run.errored(test, message);
    }
  };
  tests.forEach((t) => run.run.enqueued(t));
  const text = await readText(uri);
  if (text === undefined) return errorAll(vscode.l10n.t('The file cannot be read.'));
  const parsed = parseTestFile(text);
  const abort = new AbortController();
  const cancelled = token.onCancellationRequested(() => abort.abort());
  try {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    let target: TestTarget | undefined;
    let server: string | undefined;
    if (parsed.file && typeof parsed.file.server === 'string') {
      const found = await workbenchTarget(wb, parsed.file.server, folder, run, abort.signal, options.debug ?? false);
      if ('error' in found) return errorAll(found.error);
      ({ target, server } = found);
    } else if (parsed.file && options.debug) {
      // The debugger starts configured servers (as the tree's Debug does); a file's own launch has no entry to start.
      return errorAll(
        vscode.l10n.t('This file launches its own server, which the Debug profile cannot debug: name a configured server in "server" to debug it, or use Run.'),
      );
    } else if (parsed.file && !vscode.workspace.isTrusted) {
      // An inline launch is a command from the workspace, like a configured server's.
      return errorAll(vscode.l10n.t('This file launches its own server, which runs only in a trusted workspace: trust the workspace to run it.'));
    }
    if (token.isCancellationRequested) return tests.forEach((t) => run.skipped(t));
    tests.forEach((t) => run.run.started(t));
    const wanted = new Set(tests.map((t) => t.id));
    const stderr: string[] = [];
    const snapshotUri = vscode.Uri.file(snapshotPathOf(uri.fsPath));
    const outcome = await runTestFile({
      file: name,
      text,
      snapshotText: await readText(snapshotUri),
      env: {
        fileDir: vscode.Uri.joinPath(uri, '..').fsPath,
        workspaceFolder: folder?.uri.fsPath,
        configs: [],
        env: process.env,
        inputs: {},
        userHome: os.homedir(),
      },
      updateSnapshots: options.updateSnapshots,
      only: (test) => wanted.has(test),
      target,
      signal: abort.signal,
      host: {
        clientInfo: { name: 'mcp-workbench-tests', version: String(wb.context.extension.packageJSON.version ?? '0.0.0') },
        roots: () => (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => ({ uri: f.uri.toString(), name: f.name })),
        baseEnv: () => wb.baseEnv(),
        serverLogLevel: () => undefined,
      },
      log: { log: () => undefined, stderr: (line) => stderr.push(line) },
    });
    if (server) outcome.result.server = server;
    run.output(report('pretty', [outcome.result]));
    if (outcome.snapshotText !== undefined) {
      await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(snapshotUri, '..'));
      await vscode.workspace.fs.writeFile(snapshotUri, new TextEncoder().encode(outcome.snapshotText));
      run.output(`${vscode.l10n.t('Wrote {0}', vscode.workspace.asRelativePath(snapshotUri))}\n`);
    }
    if (outcome.result.error) {
      const tail = stderr.length ? `\n${stderr.slice(-10).join('\n')}` : '';
      return errorAll(`${outcome.result.error}${tail}`);
    }
    for (const test of tests) {
      const result = outcome.result.tests.find((r) => r.name === test.id);
      if (result?.status === 'passed') run.passed(test, result.durationMs);
      // A test cut short by a cancel says nothing about the server.
      else if (!result || abort.signal.aborted) run.skipped(test);
      else
        run.failed(
          test,
          result.failures.map((f) => messageFor(f, where(test))),
          result.durationMs,
        );
    }
  } finally {
    cancelled.dispose();
  }
}
