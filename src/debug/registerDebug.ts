/** Wires the `mcp` debug type: configuration providers, resolvers, the inline adapter, the Debug Server command, and the dev loop (`dev.watch` restarts). */
import * as vscode from 'vscode';
import type { ServerRef } from '../shared/common/commandArgs';
import type { McpServerConnection } from '../mcp/connection/serverConnection';
import type { Workbench } from '../workbench';
import {
  DEBUG_TYPE,
  McpDebugConfigurationProvider,
  McpDebugConfigurationResolver,
  McpDynamicConfigurationProvider,
  serverConfiguration,
  type DebugServers,
} from './debugConfigurationProvider';
import { DevRestarts } from './devRestarts';
import { showErrorMessage } from '../shared/notifications';
import { DebugCommands } from './common/commandIds';
import { registerCommandTable } from '../shared/commandTable';

export function registerDebug(workbench: Workbench): vscode.Disposable[] {
  const servers: DebugServers = {
    stdioServers: () =>
      workbench.registry
        .all()
        .map((c) => c.definition)
        .filter((d) => d.launch.type === 'stdio' && !d.id.startsWith('debug::')),
    find: (key) => workbench.registry.find(key)?.definition,
  };
  const showError = (message: string) => void showErrorMessage(message);
  return [
    new DevRestarts(workbench),
    vscode.debug.registerDebugConfigurationProvider(
      DEBUG_TYPE,
      new McpDebugConfigurationProvider(servers),
      vscode.DebugConfigurationProviderTriggerKind.Initial,
    ),
    vscode.debug.registerDebugConfigurationProvider(
      DEBUG_TYPE,
      new McpDynamicConfigurationProvider(servers),
      vscode.DebugConfigurationProviderTriggerKind.Dynamic,
    ),
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, new McpDebugConfigurationResolver(servers, showError)),
    vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, {
      // The adapter's code loads with the first session (dist/features.js, esbuild.mjs lazyFeatures).
      createDebugAdapterDescriptor: async (session) => {
        const { McpDebugAdapter } = await import('./mcpDebugAdapter.js');
        return new vscode.DebugAdapterInlineImplementation(new McpDebugAdapter(session, workbench));
      },
    }),
    ...registerCommandTable({
      [DebugCommands.debugServer]: async (arg?: ServerRef | McpServerConnection) => {
        await workbench.ready.catch(() => undefined);
        let connection = arg && ('serverId' in arg ? workbench.registry.get(arg.serverId) : arg);
        if (!connection) {
          const candidates = servers.stdioServers();
          const pick = await vscode.window.showQuickPick(
            candidates.map((d) => ({ label: d.label, description: d.source.label, id: d.id })),
            { placeHolder: vscode.l10n.t('Server to debug') },
          );
          connection = pick && workbench.registry.get(pick.id);
        }
        if (!connection) return false;
        const def = connection.definition;
        if (def.launch.type !== 'stdio') {
          void showErrorMessage(vscode.l10n.t('MCP server "{0}" is not started by a command; it cannot be debugged.', def.label));
          return false;
        }
        const folder = vscode.workspace.workspaceFolders?.find((f) => f.name === def.source.folder);
        return vscode.debug.startDebugging(folder, serverConfiguration(def));
      },
    }),
  ];
}
