/**
 * The dev loop outside a debug session: a server whose entry has `dev.watch` restarts when a
 * watched file is created, changed or deleted (a burst of saves gives one restart; a save
 * during a restart queues one more; a save that leaves the content as it was gives none). With `dev.debug` the restart starts it under the
 * debugger through the `mcp` debug type, whose session then restarts it on its own watch.
 * Restarts never take focus: the tree names the file, the server's log says which file it was.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ServerDefinition, StdioLaunch } from '../config/common/launchDefinition';
import { actionOnChange, DEV_RESTART_MARKER, displayPath, normalizeWatch, Throttle, WATCH_DELAY_MS, watchRoots, watchTargets } from './common/devWatch';
import { serverConfiguration } from './debugConfigurationProvider';
import { watchDevFiles } from './devFileWatch';
import type { Workbench } from '../workbench';
import { errorMessage } from '../shared/common/errors';

/**
 * The quiet period after a change before the dev loop restarts (WATCH_DELAY_MS). Changed only by
 * the integration tests (api.testing.setDevWatchDelay): saves that a loaded machine spreads wider
 * than 300 ms are still one burst there.
 */
const devWatchDelay = { ms: WATCH_DELAY_MS };

/** For api.testing only; undefined restores the default. */
export function setDevWatchDelay(ms: number | undefined): void {
  devWatchDelay.ms = ms ?? WATCH_DELAY_MS;
}

interface WatchedServer {
  /** What the watchers were made from; a config change that alters it makes them anew. */
  key: string;
  roots: { cwd: string; workspaceFolder?: string };
  throttle: Throttle<string>;
  disposables: vscode.Disposable[];
}

export class DevRestarts implements vscode.Disposable {
  private readonly servers = new Map<string, WatchedServer>();
  private readonly subscriptions: { dispose(): void }[];

  constructor(private readonly workbench: Workbench) {
    this.subscriptions = [
      workbench.registry.onDidChange(() => this.sync()),
      // An edit of `dev` alone does not restart the server, but changes what is watched.
      workbench.registry.onDidApply(() => this.sync()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.sync()),
    ];
    this.sync();
  }

  /** Makes the watchers match the servers' `dev.watch` (called on every registry change; cheap when nothing changed). */
  private sync(): void {
    const seen = new Set<string>();
    for (const connection of this.workbench.registry.all()) {
      const def = connection.definition;
      // Inline debug configurations (`debug::…`) are watched by their own session.
      if (def.id.startsWith('debug::') || def.disabled) continue;
      // An untrusted workspace's servers do not run; its globs are not watched either (a
      // hostile `dev.watch` of `/**` would make VS Code watch the whole disk).
      if (def.source.scope === 'workspace' && !vscode.workspace.isTrusted) continue;
      const globs = normalizeWatch(def.entry?.dev?.watch);
      if (!globs.length) continue;
      const roots = watchRoots({
        cwd: def.launch.type === 'stdio' ? (def.launch as StdioLaunch).cwd : undefined,
        workspaceFolder: this.workspaceFolder(def)?.uri.fsPath,
        fallback: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd(),
      });
      const key = JSON.stringify([globs, roots]);
      seen.add(def.id);
      if (this.servers.get(def.id)?.key === key) continue;
      this.drop(def.id);
      this.servers.set(def.id, this.watch(def.id, globs, roots, key));
    }
    for (const id of [...this.servers.keys()]) if (!seen.has(id)) this.drop(id);
  }

  private watch(id: string, globs: string[], roots: WatchedServer['roots'], key: string): WatchedServer {
    const throttle = new Throttle<string>(
      (file, count) => this.restart(id, file, count),
      () => devWatchDelay.ms,
      (error) => {
        const def = this.workbench.registry.get(id)?.definition;
        if (def) this.workbench.outputs.logFor(def).log('error', `Restarting after a file change failed: ${errorMessage(error)}`);
      },
    );
    const disposables: vscode.Disposable[] = [new vscode.Disposable(() => throttle.dispose())];
    const targets = watchTargets(globs, roots);
    const def = this.workbench.registry.get(id)?.definition;
    disposables.push(
      ...watchDevFiles(
        targets,
        (file) => throttle.trigger(file),
        (file) => {
          // Said in the log only: a save that changed nothing is not news, but "why no restart?" is answered there.
          const now = this.workbench.registry.get(id)?.definition;
          if (now)
            this.workbench.outputs
              .logFor(now)
              .log('info', `${displayPath(file, [roots.cwd, roots.workspaceFolder])} was saved without changes: not restarted.`);
        },
      ),
    );
    if (def)
      this.workbench.outputs
        .logFor(def)
        .log('info', `dev.watch: a change to ${targets.map((t) => `${t.pattern} in ${t.base}`).join(', ')} restarts the server.`);
    return { key, roots, throttle, disposables };
  }

  private async restart(id: string, file: string, count: number): Promise<void> {
    const watched = this.servers.get(id);
    const connection = this.workbench.registry.get(id);
    if (!watched || !connection) return;
    const def = connection.definition;
    const log = this.workbench.outputs.logFor(def);
    const shown = displayPath(file, [watched.roots.cwd, watched.roots.workspaceFolder]);
    const what = count > 1 ? `${shown} (and ${count - 1} more change${count > 2 ? 's' : ''})` : shown;
    const action = actionOnChange(connection.state.kind, connection.launchOverride !== undefined);
    if (action === 'debugSession') return; // Its session watches the same files and restarts it.
    if (action === 'stopped') {
      log.log('info', `${what} changed; the server is stopped, so it is not restarted.`);
      return;
    }
    const underDebugger = def.entry?.dev?.debug !== undefined && def.launch.type === 'stdio';
    log.log('info', `${what} changed: restarting the server${underDebugger ? ' under the debugger (dev.debug)' : ''}.`);
    this.workbench.setDevRestarting(id, shown);
    try {
      if (underDebugger) await this.startUnderDebugger(def, file);
      else await this.workbench.registry.restart(id);
    } finally {
      this.workbench.setDevRestarting(id, undefined);
    }
    // A failed start shows the usual failure notification (its error state); this says why it started.
    if (connection.state.kind === 'running') {
      log.log('info', `Restarted after ${shown} changed.`);
      this.workbench.fireDevRestart(def, file);
    }
  }

  /**
   * The `mcp` debug type's own path (as "Debug Server"), without opening the Run and Debug
   * view or the Debug Console, and without saving other editors (VS Code's save before a
   * debug start): the session's adapter restarts the server with the debugger.
   */
  private async startUnderDebugger(def: ServerDefinition, file: string): Promise<void> {
    const config = { ...serverConfiguration(def), internalConsoleOptions: 'neverOpen', [DEV_RESTART_MARKER]: file };
    const ok = await vscode.debug.startDebugging(this.workspaceFolder(def), config, { suppressDebugView: true, suppressSaveBeforeStart: true });
    if (!ok) throw new Error(vscode.l10n.t('The debug session of MCP server "{0}" did not start.', def.label));
  }

  private workspaceFolder(def: ServerDefinition): vscode.WorkspaceFolder | undefined {
    const folders = vscode.workspace.workspaceFolders ?? [];
    return (
      folders.find((f) => f.name === def.source.folder) ??
      (def.source.file ? folders.find((f) => def.source.file!.startsWith(f.uri.fsPath + path.sep)) : undefined)
    );
  }

  private drop(id: string): void {
    this.servers.get(id)?.disposables.forEach((d) => d.dispose());
    this.servers.delete(id);
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    for (const id of [...this.servers.keys()]) this.drop(id);
  }
}
