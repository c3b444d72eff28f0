/**
 * Sampling and elicitation for every server: the approval service (built by the composition
 * root, which installs its client features on each new SDK client through the Workbench), the
 * approval panel that opens when a request waits, the badge on the MCP view, and the model commands.
 *
 * `mcpWorkbench.showRequests` opens the panel and returns the ApprovalService (the panel's
 * controller), which the integration tests drive.
 */
import * as vscode from 'vscode';
import { setOpenAiApiKey, type ModelService } from '../models/modelService';
import type { Workbench } from '../workbench';
import { ApprovalPanel } from './approvalPanel';
import { ApprovalService } from './approvalService';
import { ApprovalCommands } from './common/commandIds';
import { registerCommandTable } from '../shared/commandTable';

/** `service` answers the requests; `models` lists the models to pick for sampling. */
export function registerApproval(workbench: Workbench, service: ApprovalService, models: ModelService): vscode.Disposable[] {
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
      [ApprovalCommands.setOpenAiApiKey]: () => setOpenAiApiKey(workbench.context),
      [ApprovalCommands.selectSamplingModel]: async () => {
        const items = (await models.models()).map((m) => ({ label: m.label, description: m.backend, id: m.id }));
        const choice = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Preferred model for sampling and prompts') });
        if (choice) await vscode.workspace.getConfiguration('mcpWorkbench.models').update('preferred', choice.id, vscode.ConfigurationTarget.Global);
      },
    }),
    new vscode.Disposable(() => {
      panel?.dispose();
    }),
  ];
}
