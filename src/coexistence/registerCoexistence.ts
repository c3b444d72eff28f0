/**
 * Living beside VS Code's own MCP host (mode 1 of docs/coexistence.md): the one-time question
 * of who runs the servers of the files both hosts read, the command that changes the answer,
 * and the warning before a second copy is started here.
 */
import * as vscode from 'vscode';
import type { ServerDefinition } from '../config/common/launchDefinition';
import { showInformationMessage, showWarningMessage } from '../shared/notifications';
import type { Workbench } from '../workbench';
import { isSharedSource, parseRunner, shouldAskRunner, type WorkspaceServersRunner } from './common/builtinHost';

export const CHOOSE_RUNNER_COMMAND = 'mcpWorkbench.chooseWorkspaceServersRunner';
/** The README section that explains the two modes (its GitHub anchor). */
const README_SECTION = 'beside-vs-codes-own-mcp-support';

export function registerCoexistence(wb: Workbench): vscode.Disposable[] {
  const { builtinHost } = wb;
  let asking = false;
  const maybeAsk = () => {
    const shared = wb.registry.all().filter((c) => isSharedSource(c.definition.source)).length;
    if (asking || !shouldAskRunner(builtinHost.active, shared, builtinHost.runner, builtinHost.asked)) return;
    asking = true;
    void Promise.resolve(builtinHost.markAsked()).then(() => askRunner(wb)).finally(() => (asking = false));
  };
  void wb.ready.then(maybeAsk, () => undefined);
  const subscriptions = [builtinHost.onDidChange(maybeAsk), wb.registry.onDidChange(maybeAsk)];
  return [
    vscode.commands.registerCommand(CHOOSE_RUNNER_COMMAND, async (arg?: unknown) => {
      const runner = parseRunner(arg) ?? await pickRunner(wb);
      if (runner) await builtinHost.setRunner(runner);
    }),
    new vscode.Disposable(() => subscriptions.forEach((s) => s.dispose())),
  ];
}

function choices(): Record<WorkspaceServersRunner, string> {
  return { vscode: vscode.l10n.t('VS Code Runs Them'), workbench: vscode.l10n.t('MCP Workbench Runs Them') };
}

async function askRunner(wb: Workbench): Promise<void> {
  const words = choices();
  const learnMore = vscode.l10n.t('Learn More');
  const answer = await showInformationMessage(
    vscode.l10n.t("VS Code's own MCP support also reads this workspace's .vscode/mcp.json and .mcp.json. Who should run their servers? Until you choose, VS Code does and MCP Workbench only inspects them."),
    words.vscode, words.workbench, learnMore);
  if (answer === words.vscode) await wb.builtinHost.setRunner('vscode');
  else if (answer === words.workbench) await wb.builtinHost.setRunner('workbench');
  else if (answer === learnMore) await openReadmeSection(wb);
}

async function pickRunner(wb: Workbench): Promise<WorkspaceServersRunner | undefined> {
  const words = choices();
  const current = wb.builtinHost.runner ?? 'vscode';
  const items: (vscode.QuickPickItem & { runner: WorkspaceServersRunner })[] = [
    { runner: 'vscode', label: `$(vscode) ${words.vscode}`, detail: vscode.l10n.t('MCP Workbench lists them stopped; Start or Debug runs a copy here to inspect it.') },
    { runner: 'workbench', label: `$(server-process) ${words.workbench}`, detail: vscode.l10n.t('MCP Workbench starts them as it starts every server; VS Code may still start its own copy when chat uses tools.') },
  ];
  for (const item of items) if (item.runner === current) item.description = vscode.l10n.t('current');
  const picked = await vscode.window.showQuickPick(items, {
    placeHolder: wb.builtinHost.active
      ? vscode.l10n.t('Who runs the servers of .vscode/mcp.json and .mcp.json in this workspace?')
      : vscode.l10n.t("Who runs the servers of .vscode/mcp.json and .mcp.json in this workspace? (VS Code's own MCP support is off now.)"),
  });
  return picked?.runner;
}

async function openReadmeSection(wb: Workbench): Promise<void> {
  const repository = (wb.context.extension.packageJSON as { repository?: { url?: string } }).repository?.url;
  if (repository) await vscode.env.openExternal(vscode.Uri.parse(`${repository.replace(/\.git$/, '')}#${README_SECTION}`));
}

/**
 * Before the user starts here a server VS Code runs: says once per window that VS Code may
 * run its own copy (not modal, the start goes on).
 */
export function warnBeforeSecondCopy(wb: Workbench, def: ServerDefinition): void {
  if (!wb.builtinHost.heldBackReason(def) || wb.builtinHost.warnedAboutSecondCopy) return;
  wb.builtinHost.warnedAboutSecondCopy = true;
  const change = vscode.l10n.t('Choose Who Runs Them');
  void showWarningMessage(
    vscode.l10n.t("Starting {0} here to inspect it: VS Code's own MCP support may run another copy of it when chat uses tools.", def.label), change)
    .then((answer) => answer === change && vscode.commands.executeCommand(CHOOSE_RUNNER_COMMAND));
}
