/** A status bar item with how many servers run and how many failed; opens the server picker. */
import * as vscode from 'vscode';
import { countStates, describeProtocol } from '../mcp/serverState';
import type { Workbench } from '../workbench';
import { ServerCommands } from './common/commandIds';

export function registerStatusBar(workbench: Workbench): vscode.Disposable[] {
  const item = vscode.window.createStatusBarItem('mcpWorkbench.status', vscode.StatusBarAlignment.Left, 10);
  item.name = vscode.l10n.t('MCP Servers');
  item.command = ServerCommands.showServers;
  const update = () => {
    const connections = workbench.registry.all();
    if (connections.length === 0) {
      item.hide();
      return;
    }
    const counts = countStates(connections.map((c) => c.state));
    let text = `$(server-process) ${counts.running}/${connections.length}`;
    if (counts.starting) text += ` $(loading~spin)`;
    if (counts.failed) text += ` $(error) ${counts.failed}`;
    item.text = text;
    item.backgroundColor = counts.failed ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    const protocols = connections.flatMap((c) => (c.state.kind === 'running' ? [`${c.definition.label}: ${describeProtocol(c.state)}`] : []));
    item.tooltip = [
      vscode.l10n.t(
        'MCP: {0} running, {1} starting, {2} failed, {3} stopped. Click to manage servers.',
        counts.running,
        counts.starting,
        counts.failed,
        counts.stopped,
      ),
      ...protocols,
    ].join('\n');
    item.accessibilityInformation = { label: String(item.tooltip) };
    item.show();
  };
  update();
  const subscription = workbench.registry.onDidChange(update);
  return [item, subscription];
}
