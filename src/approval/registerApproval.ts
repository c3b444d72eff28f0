/**
 * Sampling and elicitation for every server: the approval service (installed on each new
 * SDK client through the Workbench's `clientFeatures`), the approval panel that opens when
 * a request waits, the badge on the MCP view, and the model commands.
 *
 * `mcpWorkbench.showRequests` opens the panel and returns the ApprovalService (the panel's
 * controller), which the integration tests drive.
 */
import * as vscode from 'vscode';
import { modelServiceParts, setOpenAiApiKey } from '../models/modelService';
import type { Workbench } from '../workbench';
import { ApprovalPanel } from './approvalPanel';
import { ApprovalService } from './approvalService';
import { ApprovalCommands } from './common/commandIds';
import { registerCommandTable } from '../shared/commandTable';

export function registerApproval(workbench: Workbench): vscode.Disposable[] {
  const { service: models } = modelServiceParts(workbench.context);
  // A mock profile edited in config answers the next request without a restart; a restart starts its replies over.
  const service = new ApprovalService(models, (server) => (workbench.registry.get(server.id)?.definition ?? server).samplingMock);
  const restartedMocks = workbench.registry.onDidChange(() => {
    for (const c of workbench.registry.all()) if (c.state.kind === 'starting') service.mockTurns.reset(c.definition.id);
  });
  workbench.clientFeatures = service.features;
  // An MCP App's sampling request is its server's: the same policy, rate limit and panel.
  workbench.sampleForApp = (server, params, signal) => service.sample(server, params, signal);
  const updateBadge = () => {
    const count = service.pendingCount;
    workbench.setServersBadge(count ? { value: count, tooltip: vscode.l10n.t('{0} MCP request(s) waiting for you', count) } : undefined);
  };
  return [
    service,
    restartedMocks,
    service.onDidChange(updateBadge),
    service.onDidRequest((view) => {
      ApprovalPanel.show(workbench.context.extensionUri, service, ApprovalPanel.instance ? undefined : view.id, true);
    }),
    ...registerCommandTable({
      [ApprovalCommands.showRequests]: () => {
        ApprovalPanel.show(workbench.context.extensionUri, service);
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
      ApprovalPanel.instance?.dispose();
      workbench.clientFeatures = undefined;
      workbench.sampleForApp = undefined;
    }),
  ];
}
