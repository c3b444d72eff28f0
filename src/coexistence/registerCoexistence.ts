/**
 * Living beside VS Code's own MCP host (docs/coexistence.md): the choice of who runs the
 * servers of the files both hosts read (asked in the Servers view, src/servers/runnerChoiceNodes.ts, only
 * when VS Code's agent could run them), the command that changes it, "Run Here" for one server,
 * the warning before a second copy is started here (mode 1), and, when we run them (mode 2),
 * the servers given to VS Code's agent (agentServers.ts).
 */
import * as vscode from 'vscode';
import type { ServerDefinition } from '../config/common/launchDefinition';
import type { ServerRef } from '../shared/common/commandArgs';
import { showWarningMessage } from '../shared/notifications';
import type { Workbench } from '../workbench';
import type { BuiltinHost } from './builtinHost';
import { parseRunner, type ChooseOptions, type WorkspaceServersRunner } from './common/builtinHost';
import { CoexistenceCommands } from './common/commandIds';
import { registerCommandTable } from '../shared/commandTable';

/**
 * Mode 2's provider and endpoint (agentServers.ts) are a service the composition root builds.
 * `builtinHost`: the one the Workbench holds, whole (the Workbench shows others only part of it).
 */
export function registerCoexistence(wb: Workbench, builtinHost: BuiltinHost): vscode.Disposable[] {
  return [
    ...registerCommandTable({
      [CoexistenceCommands.chooseRunner]: async (arg?: unknown, options?: ChooseOptions) => {
        const runner = parseRunner(arg);
        if (runner) return choose(builtinHost, runner, options);
        const picked = await pickRunner(builtinHost);
        if (picked) await choose(builtinHost, picked.runner, picked);
      },
      [CoexistenceCommands.runHere]: async (arg?: ServerRef | string) => {
        const id = typeof arg === 'string' ? arg : arg?.serverId;
        if (id && wb.registry.find(id)) await builtinHost.runServerHere(id);
      },
      // Called by Start (src/servers) before it starts a server here.
      [CoexistenceCommands.warnBeforeSecondCopy]: (arg?: ServerRef) => {
        const connection = arg?.serverId ? wb.registry.find(arg.serverId) : undefined;
        if (connection) warnBeforeSecondCopy(wb, connection.definition);
      },
    }),
  ];
}

/**
 * The user's choice, from the Servers view or the command. VS Code's host still reads the
 * files and would start its own copy when chat uses tools unless `chat.mcp.autostart` is
 * "never": "Run them here" may write that to the workspace settings, as part of the same choice.
 */
async function choose(builtinHost: BuiltinHost, runner: WorkspaceServersRunner, options?: ChooseOptions): Promise<void> {
  await builtinHost.setRunner(runner);
  if (runner === 'workbench' && options?.autostartNever && builtinHost.canOfferAutostartNever()) {
    await vscode.workspace.getConfiguration('chat.mcp').update('autostart', 'never', vscode.ConfigurationTarget.Workspace);
  }
}

function choices(): Record<WorkspaceServersRunner, string> {
  return { vscode: vscode.l10n.t('VS Code Runs Them'), workbench: vscode.l10n.t('MCP Workbench Runs Them') };
}

async function pickRunner(builtinHost: BuiltinHost): Promise<{ runner: WorkspaceServersRunner; autostartNever?: boolean } | undefined> {
  const words = choices();
  const current = builtinHost.runner ?? 'vscode';
  const items: (vscode.QuickPickItem & { runner: WorkspaceServersRunner; autostartNever?: boolean })[] = [
    {
      runner: 'vscode',
      label: `$(vscode) ${words.vscode}`,
      detail: vscode.l10n.t('MCP Workbench lists them stopped; Start or Debug runs a copy here to inspect it.'),
    },
    {
      runner: 'workbench',
      label: `$(server-process) ${words.workbench}`,
      detail: agentReachable()
        ? vscode.l10n.t("MCP Workbench starts them, and VS Code's agent uses them through MCP Workbench: one process each.")
        : vscode.l10n.t("MCP Workbench starts them as it starts every server; this VS Code's agent cannot use them through MCP Workbench (1.101+ can)."),
    },
  ];
  for (const item of items) if (item.runner === current) item.description = vscode.l10n.t('current');
  if (builtinHost.canOfferAutostartNever()) {
    items.push({
      runner: 'workbench',
      autostartNever: true,
      label: `$(server-process) ${vscode.l10n.t('MCP Workbench Runs Them, VS Code Starts No Copies')}`,
      detail: vscode.l10n.t('Also writes "chat.mcp.autostart": "never" to the workspace settings.'),
    });
  }
  const picked = await vscode.window.showQuickPick(items, {
    placeHolder: builtinHost.active
      ? vscode.l10n.t('Who runs the servers of .vscode/mcp.json and .mcp.json in this workspace?')
      : vscode.l10n.t("Who runs the servers of .vscode/mcp.json and .mcp.json in this workspace? (VS Code's own MCP support is off now.)"),
  });
  return picked;
}

/** Whether this VS Code lets extensions give its agent MCP servers (1.101+). */
function agentReachable(): boolean {
  return typeof (vscode.lm as unknown as { registerMcpServerDefinitionProvider?: unknown } | undefined)?.registerMcpServerDefinitionProvider === 'function';
}

/**
 * Before the user starts here a server VS Code runs: says once per window that VS Code may
 * run its own copy (not modal, the start goes on).
 */
function warnBeforeSecondCopy(wb: Workbench, def: ServerDefinition): void {
  if (!wb.builtinHost.heldBackReason(def) || wb.builtinHost.warnedAboutSecondCopy) return;
  wb.builtinHost.warnedAboutSecondCopy = true;
  const change = vscode.l10n.t('Choose Who Runs Them');
  void showWarningMessage(
    vscode.l10n.t("Starting {0} here to inspect it: VS Code's own MCP support may run another copy of it when chat uses tools.", def.label),
    change,
  ).then((answer) => answer === change && vscode.commands.executeCommand(CoexistenceCommands.chooseRunner));
}
