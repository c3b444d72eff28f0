/**
 * The model commands: the API key of the OpenAI-compatible endpoint and the preferred model for
 * sampling and prompts. `models` is the extension's one model service, built by the composition root.
 */
import * as vscode from 'vscode';
import type { Workbench } from '../workbench';
import type { ModelService } from './common/modelService';
import { ModelCommands } from './common/commandIds';
import { setOpenAiApiKey } from './modelService';
import { registerCommandTable } from '../shared/commandTable';

export function registerModels(workbench: Workbench, models: ModelService): vscode.Disposable[] {
  return registerCommandTable({
    [ModelCommands.setOpenAiApiKey]: () => setOpenAiApiKey(workbench.context),
    [ModelCommands.selectSamplingModel]: async () => {
      const items = (await models.models()).map((m) => ({ label: m.label, description: m.backend, id: m.id }));
      const choice = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Preferred model for sampling and prompts') });
      if (choice) await vscode.workspace.getConfiguration('mcpWorkbench.models').update('preferred', choice.id, vscode.ConfigurationTarget.Global);
    },
  });
}
