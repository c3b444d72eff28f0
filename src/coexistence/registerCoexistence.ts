/**
 * Living beside VS Code's own MCP host (docs/coexistence.md): the one-time question of who
 * runs the servers of the files both hosts read, the command that changes the answer, the
 * warning before a second copy is started here (mode 1), and, when we run them (mode 2), the
 * servers given to VS Code's agent (agentServers.ts) and the one-time offer to keep VS Code
 * from starting copies of its own.
 */
import * as vscode from 'vscode';
import type { ServerDefinition } from '../config/common/launchDefinition';
import { showInformationMessage, showWarningMessage } from '../shared/notifications';
import type { Workbench } from '../workbench';
import { isSharedSource, parseRunner, shouldAskRunner, shouldOfferAutostartNever, type WorkspaceServersRunner } from './common/builtinHost';
import { CoexistenceCommands } from './common/commandIds';
import { registerCommandTable } from '../shared/commandTable';

/** The README section that explains the two modes (its GitHub anchor). */
const README_SECTION = 'beside-vs-codes-own-mcp-support';
/** Workspace state: the offer to set `chat.mcp.autostart` to "never" was shown here. */
const AUTOSTART_OFFERED_KEY = 'mcpWorkbench.coexistence.autostartOffered';

/** Mode 2's provider and endpoint (agentServers.ts) are a service the composition root builds. */
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
    ...registerCommandTable({
      [CoexistenceCommands.chooseRunner]: async (arg?: unknown) => {
        const runner = parseRunner(arg) ?? await pickRunner(wb);
        if (runner) await choose(wb, runner);
      },
    }),
    new vscode.Disposable(() => subscriptions.forEach((s) => s.dispose())),
  ];
}

/** The user's choice, from the question or the command; choosing us may bring the autostart offer. */
async function choose(wb: Workbench, runner: WorkspaceServersRunner): Promise<void> {
  await wb.builtinHost.setRunner(runner);
  // Not awaited: the command (and the question) end now; the offer waits for its answer.
  if (runner === 'workbench') void offerAutostartNever(wb);
}

/**
 * Once per workspace, after the user chose that we run the shared servers: VS Code's host still
 * reads their files and would start its own copy when chat uses tools, unless
 * `chat.mcp.autostart` is "never". Offered with the exact setting, written to the workspace
 * settings only when the user says so. Absent before 1.101 (VS Code has no such setting).
 */
async function offerAutostartNever(wb: Workbench): Promise<void> {
  const config = vscode.workspace.getConfiguration('chat.mcp');
  const known = config.inspect('autostart')?.defaultValue !== undefined;
  const offered = wb.context.workspaceState.get(AUTOSTART_OFFERED_KEY) === true;
  if (!shouldOfferAutostartNever(known, config.get('autostart'), offered)) return;
  await wb.context.workspaceState.update(AUTOSTART_OFFERED_KEY, true);
  const set = vscode.l10n.t('Set for This Workspace');
  const answer = await showInformationMessage(
    vscode.l10n.t('VS Code\'s own MCP support may still start a copy of these servers when chat uses tools. Keep it from starting servers on its own in this workspace? This writes "chat.mcp.autostart": "never" to the workspace settings; VS Code\'s agent reaches the servers MCP Workbench runs once you start them in VS Code\'s MCP server list.'),
    set, vscode.l10n.t('Not Now'));
  if (answer === set) await config.update('autostart', 'never', vscode.ConfigurationTarget.Workspace);
}

function choices(): Record<WorkspaceServersRunner, string> {
  return { vscode: vscode.l10n.t('VS Code Runs Them'), workbench: vscode.l10n.t('MCP Workbench Runs Them') };
}

async function askRunner(wb: Workbench): Promise<void> {
  // Short: a notification cuts longer button labels ("VS Code Runs Th…"); the question names the choice.
  const words: Record<WorkspaceServersRunner, string> = { vscode: vscode.l10n.t('VS Code'), workbench: vscode.l10n.t('MCP Workbench') };
  const learnMore = vscode.l10n.t('Learn More');
  const answer = await showInformationMessage(
    vscode.l10n.t("VS Code's own MCP support also reads this workspace's .vscode/mcp.json and .mcp.json. Who should run their servers? Until you choose, VS Code does and MCP Workbench only inspects them."),
    words.vscode, words.workbench, learnMore);
  if (answer === words.vscode) await choose(wb, 'vscode');
  else if (answer === words.workbench) await choose(wb, 'workbench');
  else if (answer === learnMore) await openReadmeSection(wb);
}

async function pickRunner(wb: Workbench): Promise<WorkspaceServersRunner | undefined> {
  const words = choices();
  const current = wb.builtinHost.runner ?? 'vscode';
  const items: (vscode.QuickPickItem & { runner: WorkspaceServersRunner })[] = [
    { runner: 'vscode', label: `$(vscode) ${words.vscode}`, detail: vscode.l10n.t('MCP Workbench lists them stopped; Start or Debug runs a copy here to inspect it.') },
    { runner: 'workbench', label: `$(server-process) ${words.workbench}`, detail: agentReachable()
      ? vscode.l10n.t('MCP Workbench starts them, and VS Code\'s agent uses them through MCP Workbench: one process each.')
      : vscode.l10n.t('MCP Workbench starts them as it starts every server; this VS Code\'s agent cannot use them through MCP Workbench (1.101+ can).') },
  ];
  for (const item of items) if (item.runner === current) item.description = vscode.l10n.t('current');
  const picked = await vscode.window.showQuickPick(items, {
    placeHolder: wb.builtinHost.active
      ? vscode.l10n.t('Who runs the servers of .vscode/mcp.json and .mcp.json in this workspace?')
      : vscode.l10n.t("Who runs the servers of .vscode/mcp.json and .mcp.json in this workspace? (VS Code's own MCP support is off now.)"),
  });
  return picked?.runner;
}

/** Whether this VS Code lets extensions give its agent MCP servers (1.101+). */
function agentReachable(): boolean {
  return typeof (vscode.lm as unknown as { registerMcpServerDefinitionProvider?: unknown } | undefined)?.registerMcpServerDefinitionProvider === 'function';
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
    .then((answer) => answer === change && vscode.commands.executeCommand(CoexistenceCommands.chooseRunner));
}
