/**
 * The Run Tool side of the dev loop: after a server restarted on a change, every open Run
 * Tool panel of that server runs its last call again and shows what changed in the result.
 * Panels are not revealed (the user keeps editing); approvals apply as for any run.
 */
import * as vscode from 'vscode';
import type { OpenToolRunners, SubmitResult } from './toolRunnerPanel';

export interface RerunResult {
  toolName: string;
  /** Undefined when the panel had no call to re-run yet. */
  outcome: SubmitResult | undefined;
}

/**
 * Re-runs the last call of every open Run Tool panel of the server (by its configured name),
 * one panel after another (a confirmation dialog at a time), adding each run to the history
 * and showing its diff against the previous run in the panel.
 */
export async function rerunLastCall(open: OpenToolRunners, serverName: string): Promise<RerunResult[]> {
  const results: RerunResult[] = [];
  for (const panel of [...open.values()].filter((p) => p.serverName === serverName)) {
    const outcome = await panel.rerunLast(vscode.l10n.t('Re-run of the last call (server "{0}" changed)', serverName));
    results.push({ toolName: panel.toolName, outcome });
  }
  return results;
}
