/** The MCP view container's Servers view and its title/item commands. */
import * as vscode from 'vscode';
import type { ServerRef } from '../shared/common/commandArgs';
import type { Workbench } from '../workbench';
import { addServerArgs, addServerWizard } from './addServerWizard';
import type { ServerTreeProvider } from './serverTreeProvider';
import { registerTaskCommands } from './taskCommands';
import { registerSkillCommands } from './skillCommands';
import { redactValue } from '../shared/common/redact';
import { ServerCommands, ServerContextKeys } from './common/commandIds';
import { registerCommandTable } from '../shared/commandTable';
import { runSelected } from '../shared/selectionCommand';

/** `provider`: the tree's data, built by the composition root (the test API reads it too). */
export function registerServerTree(workbench: Workbench, provider: ServerTreeProvider): vscode.Disposable[] {
  const view = (provider.view = vscode.window.createTreeView('mcpWorkbench.servers', { treeDataProvider: provider, showCollapseAll: true }));
  const setDescription = () => {
    view.description = provider.filter ? vscode.l10n.t('tools matching "{0}"', provider.filter) : undefined;
  };
  void vscode.commands.executeCommand('setContext', ServerContextKeys.toolFilterActive, false);
  return [
    view,
    workbench.onDidChangeServersBadge((badge) => (view.badge = badge)),
    ...registerCommandTable({
      [ServerCommands.openSelected]: runSelected(view, (node) => ('openCommand' in node ? node.openCommand() : undefined)),
      [ServerCommands.refresh]: () => workbench.config.reload().then(() => provider.refresh()),
      [ServerCommands.filterTools]: async () => {
        const text = await vscode.window.showInputBox({
          title: vscode.l10n.t('Filter tools of all servers'),
          prompt: vscode.l10n.t('Matches tool names, titles and descriptions'),
          value: provider.filter,
        });
        if (text === undefined) return;
        provider.setToolFilter(text);
        setDescription();
      },
      [ServerCommands.clearToolFilter]: () => {
        provider.setToolFilter('');
        setDescription();
      },
      [ServerCommands.add]: (args?: unknown) => addServerWizard(workbench, addServerArgs(args)),
      [ServerCommands.copyJson]: async (arg?: ServerRef) => {
        const c = arg?.serverId ? workbench.registry.find(arg.serverId) : undefined;
        if (!c) return;
        // The entry as written (variables unresolved, so no resolved secret leaves the editor), and
        // literal secrets in it (a key in the URL, a header value) redacted like everywhere else.
        const entry = redactValue(c.definition.entry ?? {}, workbench.secretsOf(c.definition));
        await vscode.env.clipboard.writeText(JSON.stringify({ [c.definition.name]: entry }, null, 2));
        void vscode.window.setStatusBarMessage(vscode.l10n.t('Copied the definition of {0}', c.definition.label), 3000);
      },
    }),
    ...registerTaskCommands(workbench),
    ...registerSkillCommands(workbench),
  ];
}
