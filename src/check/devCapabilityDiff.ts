/**
 * The dev loop's capability diff (pure part: ./common/devRestartChecks.ts). When the dev loop
 * begins restarting a server, the lists its running session had (the connection's cache, filled
 * at every start) are kept; when the new run is up, its lists are compared with them.
 *
 * Where it shows, fitting the dev loop's UI (restarts never take focus, the log says why):
 * every change is a line in the server's log; a breaking one is also a warning notification
 * (it does not take focus either) with "Check Server", and the next Check Server of the server
 * lists each breaking change as a finding.
 */
import * as vscode from 'vscode';
import type { Workbench } from '../workbench';
import type { ListKind } from '../mcpTests/common/testFormat';
import type { DevRestartChanges } from './common/checkTypes';
import { CheckCommands } from './common/commandIds';
import { breakingSummary, diffRuns, type ListsOfRun } from './common/devRestartChecks';
import { showWarningMessage } from '../shared/notifications';

const KINDS: readonly ListKind[] = ['tools', 'resources', 'resourceTemplates', 'prompts'];

export class DevCapabilityDiffs implements vscode.Disposable {
  /** Server id → the lists of the run before the restart under way. */
  private readonly before = new Map<string, ListsOfRun>();
  /** Server id → what the last restart changed (for Check Server). */
  private readonly diffs = new Map<string, DevRestartChanges>();
  private readonly subscriptions: { dispose(): void }[];

  constructor(private readonly workbench: Workbench) {
    this.subscriptions = [
      workbench.onDidChangeDevRestarting((id) => {
        // The first mark of a restart: a restart that failed and is retried compares with the run that worked.
        if (workbench.devRestarting(id) !== undefined && !this.before.has(id)) this.keep(id);
      }),
      workbench.onDidDevRestart(({ serverId, changedFile }) => void this.compare(serverId, changedFile)),
    ];
  }

  /** What the last dev-loop restart of a server changed in its lists, if it changed any. */
  last(serverId: string): DevRestartChanges | undefined {
    return this.diffs.get(serverId);
  }

  private keep(id: string): void {
    const c = this.workbench.registry.get(id);
    if (c?.state.kind !== 'running') return;
    const lists: ListsOfRun = {};
    for (const kind of KINDS) {
      // Not advertised: known to be empty. Advertised but not listed yet: unknown, left out.
      if (!c.advertises(kind)) lists[kind] = [];
      else {
        const cached = c.cached(kind);
        if (cached) lists[kind] = cached;
      }
    }
    this.before.set(id, lists);
  }

  private async compare(id: string, changedFile: string): Promise<void> {
    const before = this.before.get(id);
    this.before.delete(id);
    const c = this.workbench.registry.get(id);
    if (!before || !c) return;
    const after: ListsOfRun = {};
    for (const kind of KINDS) after[kind] = c.advertises(kind) ? await c.list(kind).catch(() => undefined) : [];
    const changes = diffRuns(before, after);
    const def = c.definition;
    const shown = vscode.workspace.asRelativePath(changedFile);
    if (!changes.length) {
      this.diffs.delete(id);
      return;
    }
    this.diffs.set(id, { changedFile: shown, changes });
    const log = this.workbench.outputs.logFor(def);
    for (const change of changes)
      log.log(change.severity === 'breaking' ? 'warn' : 'info', `Since the restart: ${change.severity}: ${change.path}: ${change.message}.`);
    const summary = breakingSummary(changes);
    if (!summary) return;
    const check = vscode.l10n.t('Check Server');
    const answer = await showWarningMessage(
      vscode.l10n.t('{0} restarted after {1} changed, and its lists now break clients: {2}. Check Server lists every change.', def.label, shown, summary),
      check,
    );
    if (answer === check) await vscode.commands.executeCommand(CheckCommands.check, id);
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
  }
}
