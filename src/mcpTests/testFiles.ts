/** Which files are saved MCP tests: the Testing view's controller and what makes it (registerMcpTests.ts) agree. */
import * as vscode from 'vscode';

export const TEST_FILE_GLOB = '**/*.mcptest.json';
export const TEST_FILE_EXCLUDE = '**/{node_modules,.git,out,dist,.vscode-test}/**';

/** A saved test file of the workspace (one outside every folder is not the Testing view's). */
export const isTestFile = (uri: vscode.Uri): boolean => uri.path.endsWith('.mcptest.json') && !!vscode.workspace.getWorkspaceFolder(uri);

/** A test file that appeared: seen on disk by the watcher, or made (or renamed into being) by VS Code itself. */
export interface TestFileCreated {
  uri: vscode.Uri;
  madeInVsCode: boolean;
}

/** The workspace's test files appearing, changing and going (watchTestFiles). */
export interface TestFileEvents {
  readonly onDidCreate: vscode.Event<TestFileCreated>;
  readonly onDidChange: vscode.Event<vscode.Uri>;
  readonly onDidDelete: vscode.Event<vscode.Uri>;
}

/**
 * One source of the test files' events, fed by the disk watcher and by VS Code's own file
 * operations (the Explorer, a WorkspaceEdit, a rename: a delete of the old name and a create of
 * the new). The watcher can miss a file written into a folder made at the same moment and sees
 * nothing under files.watcherExclude; VS Code's operations are told at once. A git checkout or a
 * terminal reaches only the watcher. A file both report comes twice: its readers are idempotent.
 */
export function watchTestFiles(): TestFileEvents & vscode.Disposable {
  const watcher = vscode.workspace.createFileSystemWatcher(TEST_FILE_GLOB);
  const created = new vscode.EventEmitter<TestFileCreated>();
  const deleted = new vscode.EventEmitter<vscode.Uri>();
  const madeInVsCode = (uri: vscode.Uri) => isTestFile(uri) && created.fire({ uri, madeInVsCode: true });
  const gone = (uri: vscode.Uri) => isTestFile(uri) && deleted.fire(uri);
  const subscriptions = [
    watcher,
    created,
    deleted,
    watcher.onDidCreate((uri) => created.fire({ uri, madeInVsCode: false })),
    watcher.onDidDelete((uri) => deleted.fire(uri)),
    vscode.workspace.onDidCreateFiles((e) => e.files.forEach(madeInVsCode)),
    vscode.workspace.onDidRenameFiles((e) =>
      e.files.forEach(({ oldUri, newUri }) => {
        gone(oldUri);
        madeInVsCode(newUri);
      }),
    ),
    vscode.workspace.onDidDeleteFiles((e) => e.files.forEach(gone)),
  ];
  return {
    onDidCreate: created.event,
    onDidChange: watcher.onDidChange,
    onDidDelete: deleted.event,
    dispose: () => subscriptions.forEach((d) => d.dispose()),
  };
}
