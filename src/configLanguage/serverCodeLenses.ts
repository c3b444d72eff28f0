/**
 * Code lenses above each server entry of a config file, from the extension's live registry:
 * state, tool count, and Start / Stop / Restart / Show Output.
 *
 * They live in the extension host, not in the language server: the state, the tool lists and
 * the commands are all here, so the lenses follow every state change without mirroring the
 * registry into another process (and without lenses lagging one round-trip behind).
 */
import * as vscode from 'vscode';
import type { ServerRef } from '../shared/common/commandArgs';
import { parseConfigText } from '../config/common/serverConfig';
import type { ServerState } from '../mcp/serverState';
import type { Workbench } from '../workbench';
import { redactState } from '../mcp/serverState';
import { ServerCommands } from '../servers/common/commandIds';

export function registerServerCodeLenses(wb: Workbench, selector: vscode.DocumentSelector): vscode.Disposable[] {
  const changed = new vscode.EventEmitter<void>();
  const subscriptions = [
    wb.registry.forEachConnection((c) => c.onDidChangeList((kind) => kind === 'tools' && changed.fire())),
    wb.registry.onDidChange(() => changed.fire()),
    wb.builtinHost.onDidChange(() => changed.fire()),
  ];

  const provider: vscode.CodeLensProvider = {
    onDidChangeCodeLenses: changed.event,
    provideCodeLenses(doc) {
      const format = /[\\/]\.vscode[\\/]mcp\.json$/.test(doc.uri.fsPath) ? 'vscode' : 'mcpServers';
      const lenses: vscode.CodeLens[] = [];
      for (const server of parseConfigText(doc.getText(), format).servers) {
        const connection = wb.registry.all().find((c) => c.definition.source.file === doc.uri.fsPath && c.definition.name === server.name);
        // VS Code shows its own lenses on the servers it runs; ours would duplicate them.
        if (!connection || wb.builtinHost.heldBackReason(connection.definition)) continue;
        const range = doc.lineAt(doc.positionAt(server.offset).line).range;
        const ref: ServerRef = { serverId: connection.definition.id };
        const lens = (title: string, command = '', tooltip?: string) =>
          lenses.push(new vscode.CodeLens(range, { title, command, tooltip, arguments: command ? [ref] : undefined }));
        const state = redactState(connection.state, connection.definition.secrets);
        lens(stateTitle(state), '', 'message' in state ? state.message : state.kind === 'stopped' ? state.reason : undefined);
        const tools = connection.cached('tools');
        if (state.kind === 'running' && tools) lens(tools.length === 1 ? vscode.l10n.t('1 tool') : vscode.l10n.t('{0} tools', tools.length));
        if (state.kind !== 'running' && state.kind !== 'starting') lens(vscode.l10n.t('Start'), ServerCommands.start);
        else lens(vscode.l10n.t('Stop'), ServerCommands.stop);
        lens(vscode.l10n.t('Restart'), ServerCommands.restart);
        lens(vscode.l10n.t('Show Output'), ServerCommands.showOutput);
      }
      return lenses;
    },
  };
  return [vscode.languages.registerCodeLensProvider(selector, provider), changed, new vscode.Disposable(() => subscriptions.forEach((s) => s.dispose()))];
}

function stateTitle(state: ServerState): string {
  switch (state.kind) {
    case 'running':
      return vscode.l10n.t('$(pass-filled) running');
    case 'starting':
      return vscode.l10n.t('$(loading~spin) starting');
    case 'stopped':
      return vscode.l10n.t('$(debug-stop) stopped');
    case 'error':
      return vscode.l10n.t('$(error) error');
    default:
      return state.kind;
  }
}
