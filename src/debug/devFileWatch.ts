/**
 * What `dev.watch` listens to, for the dev loop (devRestarts.ts) and for a debug session
 * (mcpDebugAdapter.ts) alike: VS Code's file watcher for changes made anywhere, and editor saves
 * directly. After a js-debug session in the same window the watcher was seen delivering nothing
 * for 30–60 s; saves are what the loop is mostly for. The watcher's echo of a save within
 * SAVE_ECHO_MS is not a second change.
 */
import * as vscode from 'vscode';

const SAVE_ECHO_MS = 2000;

export function watchDevFiles(targets: readonly { base: string; pattern: string }[], changed: (file: string) => void): vscode.Disposable[] {
  const patterns = targets.map(({ base, pattern }) => new vscode.RelativePattern(vscode.Uri.file(base), pattern));
  const fire = (uri: vscode.Uri) => changed(uri.fsPath);
  /** When each file was last saved in the editor: the watcher's event for that save comes later. */
  const savedAt = new Map<string, number>();
  const onChange = (uri: vscode.Uri) => {
    const saved = savedAt.get(uri.fsPath);
    if (saved === undefined || Date.now() - saved > SAVE_ECHO_MS) fire(uri);
  };
  const disposables: vscode.Disposable[] = [];
  for (const pattern of patterns) {
    const watcher = vscode.workspace.createFileSystemWatcher(pattern);
    disposables.push(watcher, watcher.onDidChange(onChange), watcher.onDidCreate(fire), watcher.onDidDelete(fire));
  }
  disposables.push(vscode.workspace.onDidSaveTextDocument((doc) => {
    if (doc.uri.scheme !== 'file' || !patterns.some((pattern) => vscode.languages.match({ pattern }, doc) > 0)) return;
    savedAt.set(doc.uri.fsPath, Date.now());
    fire(doc.uri);
  }));
  return disposables;
}
