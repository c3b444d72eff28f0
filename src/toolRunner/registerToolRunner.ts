/**
 * `mcpWorkbench.runTool`: opens the Run Tool panel for a tool. The argument is a ToolRef
 * (tree nodes carry `serverId` and `toolName`; `arguments` fill the form); without one, a quick pick lists the tools of
 * the running servers. Returns the panel controller (the integration tests drive it).
 */
import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import type { ToolRef } from '../shared/common/commandArgs';
import type { McpServerConnection } from '../mcp/connection/serverConnection';
import type { Workbench } from '../workbench';
// The panel's code loads on the first Run Tool (dist/features.js, esbuild.mjs lazyFeatures).
import type { OpenToolRunners, ToolRunnerPanel, ToolRunnerServices } from './toolRunnerPanel';
import { rerunLastCall } from './rerunLastCall';
import type { SaveAsTestUi } from './saveRunAsTest';
import { historyEntryOfRecordedCall } from './common/recordedCall';
import { showErrorMessage, showInformationMessage } from '../shared/notifications';
import { errorMessage } from '../shared/common/errors';
import { ToolRunnerCommands } from './common/commandIds';
import { ServerCommands } from '../servers/common/commandIds';
import { registerCommandTable } from '../shared/commandTable';

export function registerToolRunner(services: ToolRunnerServices): vscode.Disposable[] {
  const {
    workbench,
    gate: { approvals },
  } = services;
  const open: OpenToolRunners = new Map();
  return [
    ...registerCommandTable({
      [ToolRunnerCommands.run]: (arg?: unknown) => runTool(services, open, arg),
      // For the dev loop and tests (hidden from the palette): the server's configured name, or { serverName }.
      [ToolRunnerCommands.rerunLast]: (arg?: unknown) => {
        const serverName =
          typeof arg === 'string'
            ? arg
            : typeof (arg as { serverName?: unknown } | undefined)?.serverName === 'string'
              ? (arg as { serverName: string }).serverName
              : undefined;
        if (!serverName) throw new Error(`${ToolRunnerCommands.rerunLast} needs a server name`);
        return rerunLastCall(open, serverName);
      },
      [ToolRunnerCommands.saveAsTest]: () => {
        const panels = [...open.values()];
        // From the palette the panel is still the active tab; with one panel open there is no doubt either.
        const panel = panels.find((p) => p.active) ?? (panels.length === 1 ? panels[0] : undefined);
        if (panel) return panel.saveAsTest();
        void showInformationMessage(vscode.l10n.t('Open the Run Tool panel of the run to save, then save it as a test from there.'));
        return undefined;
      },
      // An Inspector row's menu (webview/context) passes the row's context: { seq }. Tests pass a SaveAsTestUi second.
      [ToolRunnerCommands.saveRecordedCallAsTest]: (arg?: unknown, ui?: SaveAsTestUi) => {
        const seq = typeof (arg as { seq?: unknown } | undefined)?.seq === 'number' ? (arg as { seq: number }).seq : undefined;
        const recorded = seq === undefined ? undefined : services.activityLog.find(seq);
        const call = recorded && historyEntryOfRecordedCall(recorded);
        const server = recorded && workbench.registry.get(recorded.serverId)?.definition.name;
        if (!call || !server) {
          void showInformationMessage(vscode.l10n.t('Save as Test saves a tools/call of a configured server: pick such a row in the Inspector.'));
          return undefined;
        }
        if (recorded.status.kind === 'pending') {
          void showInformationMessage(vscode.l10n.t('This call has no answer yet; save it as a test once it has one.'));
          return undefined;
        }
        // The test file's writer comes from dist/features.js with the Run Tool panel, on first use.
        return import('./saveRunAsTest.js').then(({ saveRunAsTest, defaultSaveAsTestUi }) =>
          saveRunAsTest(server, call.toolName, call.entry, ui ?? defaultSaveAsTestUi),
        );
      },
      [ToolRunnerCommands.resetApprovals]: async () => {
        const count = approvals.count();
        await approvals.reset();
        void showInformationMessage(
          count
            ? vscode.l10n.t('Forgot {0} tool approval(s): tools that are not read-only ask again before they run.', count)
            : vscode.l10n.t('There were no tool approvals to forget.'),
        );
      },
    }),
    // The dev loop (src/debug/devRestarts.ts): once a server runs again after a watched file
    // changed, its open Run Tool panels run their last call again and show what changed.
    workbench.onDidDevRestart(({ serverName }) => {
      void rerunLastCall(open, serverName).catch((error) => {
        // Each panel shows its own run's outcome; what fails outside one goes to the server's log.
        const def = workbench.registry.find(serverName)?.definition;
        if (def) workbench.outputs.logFor(def).log('error', `Re-running the last calls after the restart failed: ${errorMessage(error)}`);
      });
    }),
    new vscode.Disposable(() => [...open.values()].forEach((panel) => panel.dispose())),
  ];
}

function isToolRef(arg: unknown): arg is ToolRef {
  const ref = arg as Partial<ToolRef> | undefined;
  return typeof ref?.serverId === 'string' && typeof ref.toolName === 'string';
}

async function runTool(services: ToolRunnerServices, open: OpenToolRunners, arg: unknown): Promise<ToolRunnerPanel | undefined> {
  const picked = isToolRef(arg) ? await resolveRef(services.workbench, arg) : await pickTool(services.workbench);
  if (!picked) return undefined;
  const { ToolRunnerPanel } = await import('./toolRunnerPanel.js');
  return ToolRunnerPanel.show(services, open, picked.connection, picked.tool, prefillOf(arg));
}

/** `arguments` of a ToolRef fill the form (Open in Run Tool from the Inspector); anything but an object is ignored. */
function prefillOf(arg: unknown): Record<string, unknown> | undefined {
  const args = (arg as { arguments?: unknown } | undefined)?.arguments;
  return args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : undefined;
}

async function resolveRef(workbench: Workbench, ref: ToolRef): Promise<{ connection: McpServerConnection; tool: Tool } | undefined> {
  let connection = workbench.registry.find(ref.serverId);
  if (!connection) {
    void showErrorMessage(vscode.l10n.t('There is no MCP server "{0}" in the configuration.', ref.serverId));
    return undefined;
  }
  if (connection.state.kind !== 'running') {
    const start = vscode.l10n.t('Start Server');
    const answer = await showErrorMessage(
      vscode.l10n.t('MCP server "{0}" is not running, so its tool "{1}" cannot be run.', connection.definition.label, ref.toolName),
      start,
    );
    if (answer !== start) return undefined;
    await vscode.commands.executeCommand(ServerCommands.start, { serverId: connection.definition.id });
    connection = workbench.registry.find(ref.serverId);
    if (connection?.state.kind !== 'running') return undefined;
  }
  let tools: Tool[];
  try {
    tools = await connection.list('tools');
  } catch (error) {
    void showErrorMessage(vscode.l10n.t('Could not list the tools of "{0}": {1}', connection.definition.label, errorMessage(error)));
    return undefined;
  }
  const tool = tools.find((t) => t.name === ref.toolName);
  if (!tool) {
    void showErrorMessage(vscode.l10n.t('MCP server "{0}" has no tool "{1}" (it may have been removed).', connection.definition.label, ref.toolName));
    return undefined;
  }
  return { connection, tool };
}

async function pickTool(workbench: Workbench): Promise<{ connection: McpServerConnection; tool: Tool } | undefined> {
  const running = workbench.registry.all().filter((c) => c.state.kind === 'running' && c.advertises('tools'));
  if (running.length === 0) {
    void showInformationMessage(vscode.l10n.t('No running MCP server offers tools. Start a server first.'));
    return undefined;
  }
  type Item = vscode.QuickPickItem & { connection?: McpServerConnection; tool?: Tool };
  const load = async (): Promise<Item[]> => {
    const items: Item[] = [];
    for (const connection of running) {
      const tools = await connection.list('tools').catch(() => [] as Tool[]);
      if (!tools.length) continue;
      items.push({ label: connection.definition.label, kind: vscode.QuickPickItemKind.Separator });
      for (const tool of tools) {
        items.push({
          label: tool.title ?? tool.annotations?.title ?? tool.name,
          description: tool.title || tool.annotations?.title ? tool.name : undefined,
          detail: tool.description,
          connection,
          tool,
        });
      }
    }
    return items;
  };
  const choice = await vscode.window.showQuickPick(load(), {
    title: vscode.l10n.t('Run Tool'),
    placeHolder: vscode.l10n.t('Tool to run'),
    matchOnDescription: true,
    matchOnDetail: true,
  });
  return choice?.connection && choice.tool ? { connection: choice.connection, tool: choice.tool } : undefined;
}
