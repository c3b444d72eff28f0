/**
 * Sampling and elicitation for every server: the approval service (built by the composition
 * root, which installs its client features on each new SDK client through the Workbench), the
 * approval panel that opens when a request waits, and the badge on the MCP view. The model commands
 * are the models feature's (src/models/registerModels.ts).
 *
 * `mcpWorkbench.showRequests` opens the panel and returns the ApprovalService (the panel's
 * controller), which the integration tests drive.
 */
import * as vscode from 'vscode';
import type { Workbench } from '../workbench';
import { ApprovalPanel } from './approvalPanel';
import { ApprovalService } from './approvalService';
import { ApprovalCommands } from './common/commandIds';
import { registerCommandTable } from '../shared/commandTable';

/** `service` answers the requests. */
export function registerApproval(workbench: Workbench, service: ApprovalService): vscode.Disposable[] {
  // A restart starts a mock profile's replies over.
  const restartedMocks = workbench.registry.onDidChange(() => {
    for (const c of workbench.registry.all()) if (c.state.kind === 'starting') service.mockTurns.reset(c.definition.id);
  });
  /** The MCP Requests panel while it is open: one per window. */
  let panel: ApprovalPanel | undefined;
  const showPanel = (select?: string, preserveFocus = false): ApprovalPanel => {
    const shown = (panel ??= new ApprovalPanel(workbench.context.extensionUri, service, () => {
      if (panel === shown) panel = undefined;
    }));
    return shown.show(select, preserveFocus);
  };
  const updateBadge = () => {
    const count = service.pendingCount;
    workbench.setServersBadge(count ? { value: count, tooltip: vscode.l10n.t('{0} MCP request(s) waiting for you', count) } : undefined);
  };
  return [
    restartedMocks,
    service.onDidChange(updateBadge),
    service.onDidRequest((view) => {
      showPanel(panel ? undefined : view.id, true);
    }),
    ...registerCommandTable({
      [ApprovalCommands.showRequests]: () => {
        showPanel();
        return service;
      },
    }),
    new vscode.Disposable(() => {
      panel?.dispose();
    }),
  ];
}
