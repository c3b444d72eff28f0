/**
 * What `dev.watch` listens to, for the dev loop (devRestarts.ts) and for a debug session
 * (mcpDebugAdapter.ts) alike: VS Code's file watcher for changes made anywhere, and editor saves
 * directly. After a js-debug session in the same window the watcher was seen delivering nothing
 * for 30–60 s; saves are what the loop is mostly for. One save reaches us twice, as a save and as
 * the watcher's change, in either order (on a loaded machine the watcher's came first, and the
 * restart said "one.txt (and 1 more change)"): the second within SAVE_ECHO_MS of the first, from
 * the other source, is not a second change. Two saves, or two watcher changes, always count.
 * Then an event counts only when the file's content changed (common/watchedContent.ts): a save
 * that changed nothing (auto-save, then Ctrl+S) is reported to `unchanged`, not to `changed`.
 */
import * as vscode from 'vscode';
import { WatchedContent } from './common/watchedContent';

const SAVE_ECHO_MS = 2000;

export function watchDevFiles(
  targets: readonly { base: string; pattern: string }[],
  changed: (file: string) => void,
  unchanged: (file: string) => void = () => undefined,
): vscode.Disposable[] {
  const patterns = targets.map(({ base, pattern }) => new vscode.RelativePattern(vscode.Uri.file(base), pattern));
  const content = new WatchedContent();
  // Seeded now, while the server runs what is on disk; an event before its file's seed counts.
  void content.seed(targets);
  let disposed = false;
  const fire = (uri: vscode.Uri) => {
    const file = uri.fsPath;
    void content.changed(file).then((yes) => {
      if (!disposed) (yes ? changed : unchanged)(file);
    });
  };
  /** When each file was last saved in the editor, and last reported changed by the watcher. */
  const savedAt = new Map<string, number>();
  const watcherAt = new Map<string, number>();
  const isEchoOf = (other: Map<string, number>, uri: vscode.Uri) => {
    const at = other.get(uri.fsPath);
    if (at === undefined || Date.now() - at > SAVE_ECHO_MS) return false;
    other.delete(uri.fsPath); // one echo per event
    return true;
  };
  const onChange = (uri: vscode.Uri) => {
    if (isEchoOf(savedAt, uri)) return;
    watcherAt.set(uri.fsPath, Date.now());
    fire(uri);
  };
  const disposables: vscode.Disposable[] = [];
  for (const pattern of patterns) {
    const watcher = vscode.workspace.createFileSystemWatcher(pattern);
    disposables.push(watcher, watcher.onDidChange(onChange), watcher.onDidCreate(fire), watcher.onDidDelete(fire));
  }
  disposables.push(
    vscode.workspace.onDidSaveTextDocument((doc) => {
      if (doc.uri.scheme !== 'file' || !patterns.some((pattern) => vscode.languages.match({ pattern }, doc) > 0)) return;
      if (isEchoOf(watcherAt, doc.uri)) return;
      savedAt.set(doc.uri.fsPath, Date.now());
      fire(doc.uri);
    }),
  );
  disposables.push(
    new vscode.Disposable(() => {
      disposed = true;
    }),
  );
  return disposables;
}
