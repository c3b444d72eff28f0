/**
 * Saved MCP tests (`*.mcptest.json`) in VS Code's Testing view: one item per file of the
 * workspace, one child per test at its entry in the file (so the editor's gutter has run
 * buttons), kept up to date by a file watcher, VS Code's own file operations and the open
 * editors. The Run profiles run them with the same pure runner as the command line
 * (src/mcpTests/common, via runTestItems.ts); the default one can also run continuously: again
 * each time the dev loop restarts the file's server.
 * Made once the workspace has a test file (registerMcpTests.ts); loaded then, from dist/features.js.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../shared/common/errors';
import type { Workbench } from '../workbench';
import { parseTestFile } from './common/parseTestFile';
// This module is loaded once the workspace has a test file (registerMcpTests.ts), so what runs the tests comes with it.
import { RecordingRun, readText, runFileItems, type RecordedOutcome } from './runTestItems';
import { formatProblems } from './common/runFile';
import { TEST_FILE_EXCLUDE, TEST_FILE_GLOB, isTestFile, type TestFileEvents } from './testFiles';

/** For this extension's integration tests (`_mcpWorkbench.testing.mcpTests`): drives the real controller. */
export interface McpTestsTesting {
  /** Finds the workspace's test files now; the items as the Testing view has them. */
  discover(): Promise<{ file: string; error?: string; tests: { name: string; line: number }[] }[]>;
  /**
   * Runs files (relative paths) or tests (`<file>#<name>`), all when none, through the default Run
   * profile (or the Debug one); what it reported. `continuous`: resolves when `token` is cancelled (see lastRun).
   */
  run(ids?: string[], options?: { token?: vscode.CancellationToken; continuous?: boolean; profile?: 'run' | 'debug' }): Promise<RecordedOutcome[]>;
  /** What the last run of either profile reported (a run started in the Testing view too). */
  lastRun(): RecordedOutcome[] | undefined;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

/**
 * The controller and what keeps its items up to date; `files` are the workspace's test files'
 * events (made by registerMcpTests, which keeps them). Returns the testing handle and what to dispose.
 */
export function createMcpTestController(wb: Workbench, files: TestFileEvents): { testing: McpTestsTesting; disposables: vscode.Disposable[] } {
  const controller = vscode.tests.createTestController('mcpWorkbench.mcpTests', vscode.l10n.t('MCP Tests'));
  /** The server each file names, by file item id (the dev loop re-runs the files of the server it restarted). */
  const servers = new Map<string, string | undefined>();
  let last: RecordedOutcome[] | undefined;

  const remove = (uri: vscode.Uri) => {
    controller.items.delete(uri.toString());
    servers.delete(uri.toString());
  };

  /** Reads (or takes) a file's text and makes its item and its tests' items match it. */
  const update = async (uri: vscode.Uri, given?: string) => {
    const text = given ?? (await readText(uri).catch(() => undefined));
    if (text === undefined) return remove(uri);
    const id = uri.toString();
    let item = controller.items.get(id);
    if (!item) {
      item = controller.createTestItem(id, vscode.workspace.asRelativePath(uri), uri);
      controller.items.add(item);
    }
    const parsed = parseTestFile(text);
    const starts = lineStarts(text);
    const position = (offset: number) => {
      let line = starts.length - 1;
      while (starts[line] > offset) line--;
      return new vscode.Position(line, offset - starts[line]);
    };
    const errors = parsed.problems.filter((p) => p.severity === 'error');
    item.error = errors.length ? new vscode.MarkdownString().appendText(formatProblems(item.label, text, errors).join('\n')) : undefined;
    const server = parsed.file?.server;
    servers.set(id, typeof server === 'string' ? server : undefined);
    const seen = new Set<string>();
    const children: vscode.TestItem[] = [];
    for (const r of parsed.testRanges) {
      // Two tests of one name are a problem of the file (shown above); the first keeps the name.
      if (!r || seen.has(r.name)) continue;
      seen.add(r.name);
      const child = controller.createTestItem(r.name, r.name, uri);
      child.range = new vscode.Range(position(r.offset), position(r.offset + r.length));
      children.push(child);
    }
    item.children.replace(children);
  };

  let discovered: Promise<void> | undefined;
  const discover = () =>
    (discovered ??= (async () => {
      const found = await vscode.workspace.findFiles(TEST_FILE_GLOB, TEST_FILE_EXCLUDE);
      await Promise.all(found.map((uri) => update(uri)));
    })());
  controller.resolveHandler = async (item) => {
    if (!item) await discover();
  };
  controller.refreshHandler = async () => {
    discovered = undefined;
    controller.items.replace([]);
    servers.clear();
    await discover();
  };

  /** The files of a request with the tests chosen in each (all of a file's, when the file was chosen). */
  const plan = (request: vscode.TestRunRequest): Map<vscode.TestItem, vscode.TestItem[]> => {
    const key = (item: vscode.TestItem) => `${item.parent?.id ?? ''}\n${item.id}`;
    const excluded = new Set((request.exclude ?? []).map(key));
    const files = new Map<vscode.TestItem, vscode.TestItem[]>();
    const roots: vscode.TestItem[] = request.include ? [...request.include] : [];
    if (!request.include) controller.items.forEach((item) => roots.push(item));
    for (const item of roots) {
      const file = item.parent ?? item;
      if (excluded.has(key(item)) || excluded.has(key(file))) continue;
      const tests = files.get(file) ?? [];
      const chosen: vscode.TestItem[] = [];
      // A continuous run keeps its request while the file is edited, and edits replace the tests' items.
      if (item.parent) chosen.push(file.children.get(item.id) ?? item);
      else item.children.forEach((child) => chosen.push(child));
      for (const test of chosen) if (!excluded.has(key(test)) && !tests.includes(test)) tests.push(test);
      files.set(file, tests);
    }
    return files;
  };

  const runOnce = async (request: vscode.TestRunRequest, token: vscode.CancellationToken, updateSnapshots: boolean, debug = false) => {
    await discover();
    const run = new RecordingRun(controller.createTestRun(request));
    try {
      for (const [file, tests] of plan(request)) {
        if (token.isCancellationRequested) {
          tests.forEach((t) => run.skipped(t));
          continue;
        }
        try {
          await runFileItems(wb, { file, tests, updateSnapshots, debug, run, token });
        } catch (error) {
          const message = vscode.l10n.t('The tests of {0} could not run: {1}', file.label, errorMessage(error));
          run.output(`${message}\n`);
          for (const test of tests.length ? tests : [file]) run.errored(test, new vscode.TestMessage(message));
        }
      }
    } finally {
      run.run.end();
    }
    last = run.outcomes;
  };

  const handler = (updateSnapshots: boolean) => async (request: vscode.TestRunRequest, token: vscode.CancellationToken) => {
    if (!request.continuous) return runOnce(request, token, updateSnapshots);
    // Continuous: the chosen tests run again each time the dev loop restarts the server their file names.
    await discover();
    await new Promise<void>((resolve) => {
      const restarts = wb.onDidDevRestart(({ serverName }) => {
        const include = [...plan(request)].filter(([file]) => servers.get(file.id) === serverName).flatMap(([, tests]) => tests);
        if (include.length) void runOnce(new vscode.TestRunRequest(include, undefined, request.profile), token, updateSnapshots);
      });
      token.onCancellationRequested(() => {
        restarts.dispose();
        resolve();
      });
    });
  };
  const runProfile = controller.createRunProfile(vscode.l10n.t('Run'), vscode.TestRunProfileKind.Run, handler(false), true, undefined, true);
  controller.createRunProfile(vscode.l10n.t('Run and Update Snapshots'), vscode.TestRunProfileKind.Run, handler(true), false);
  // Debug: the file's server under the `mcp` debugger first (debugTests.ts), then the same run.
  const debugProfile = controller.createRunProfile(
    vscode.l10n.t('Debug'),
    vscode.TestRunProfileKind.Debug,
    (request, token) => runOnce(request, token, false, true),
    true,
  );

  const fromDisk = (uri: vscode.Uri) => {
    // An open editor's text wins over the disk's (the items follow what is being typed).
    if (!vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString())) void update(uri);
  };

  // Editors restored with the window have their gutter buttons before the Testing view is opened.
  for (const d of vscode.workspace.textDocuments) if (isTestFile(d.uri)) void update(d.uri, d.getText());

  const testing: McpTestsTesting = {
    discover: async () => {
      await discover();
      const files: Awaited<ReturnType<McpTestsTesting['discover']>> = [];
      controller.items.forEach((file) => {
        const tests: { name: string; line: number }[] = [];
        file.children.forEach((t) => tests.push({ name: t.id, line: t.range?.start.line ?? -1 }));
        const error = file.error === undefined ? undefined : typeof file.error === 'string' ? file.error : file.error.value;
        files.push({ file: file.label, error, tests });
      });
      return files;
    },
    run: async (ids, options = {}) => {
      await discover();
      const items: vscode.TestItem[] = [];
      controller.items.forEach((file) => {
        if (!ids || ids.includes(file.label)) items.push(file);
        else file.children.forEach((t) => ids.includes(`${file.label}#${t.id}`) && items.push(t));
      });
      const profile = options.profile === 'debug' ? debugProfile : runProfile;
      const request = new vscode.TestRunRequest(items, undefined, profile, options.continuous ?? false);
      await profile.runHandler(request, options.token ?? new vscode.CancellationTokenSource().token);
      return last ?? [];
    },
    lastRun: () => last,
  };

  const disposables = [
    controller,
    files.onDidCreate(({ uri }) => fromDisk(uri)),
    files.onDidChange(fromDisk),
    files.onDidDelete(remove),
    vscode.workspace.onDidOpenTextDocument((d) => isTestFile(d.uri) && void update(d.uri, d.getText())),
    vscode.workspace.onDidChangeTextDocument((e) => isTestFile(e.document.uri) && void update(e.document.uri, e.document.getText())),
    // Closing an editor without saving: the items go back to what is on disk.
    vscode.workspace.onDidCloseTextDocument((d) => isTestFile(d.uri) && void update(d.uri)),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void controller.refreshHandler?.(new vscode.CancellationTokenSource().token)),
  ];
  return { testing, disposables };
}
