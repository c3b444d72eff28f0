/**
 * Entry point and composition root: builds the services, in the order they depend on each
 * other, and hands each feature the ones it needs as parameters (no feature looks a service up
 * in a global or a slot set by another feature, so a wrong order does not compile). Everything
 * heavy (reading config, starting servers) happens after activate() returns.
 */
import * as vscode from 'vscode';
import type { ActivationTiming, McpWorkbenchApi } from './api';
import { createActivityLog, registerActivity } from './activity/registerActivity';
import { configurePureL10n } from './shared/l10nBundle';
import { registerApproval } from './approval/registerApproval';
import { ApprovalService } from './approval/approvalService';
import { ApprovalActivity } from './approval/common/approvalActivity';
import { AuthService, registerAuth } from './auth/registerAuth';
import { registerChat } from './chat/registerChat';
import { registerDiscovery } from './config/registerDiscovery';
import { registerDebug } from './debug/registerDebug';
import { setDevWatchDelay } from './debug/devRestarts';
import { registerGallery } from './gallery/registerGallery';
import { openServerConfig, registerCommands } from './servers/serverCommands';
import { registerLanguageClient } from './configLanguage/languageClient';
import { registerPrompts } from './prompts/registerPrompts';
import { quickInputPromptPrompter } from './prompts/promptPrompter';
import { registerResources } from './resources/resourceCommands';
import { registerServerTree } from './servers/registerServerTree';
import { ServerTreeProvider } from './servers/serverTreeProvider';
import { registerStatusBar } from './servers/statusBar';
import { registerToolRunner } from './toolRunner/registerToolRunner';
import { ModalApprovalGate } from './toolRunner/toolRunApproval';
import { ToolApprovals } from './toolRunner/common/toolApprovals';
import { AppsService } from './apps/appsService';
import { toolAppsOf } from './apps/toolAppController';
import { createModelService } from './models/modelService';
import { registerModels } from './models/registerModels';
import { createAgentServers } from './coexistence/agentServers';
import { registerCoexistence } from './coexistence/registerCoexistence';
import { registerInspector } from './inspector/registerInspector';
import { registerCheck } from './check/registerCheck';
import { registerMcpTests } from './mcpTests/registerMcpTests';
import { Workbench } from './workbench';
import { showErrorMessage, withNotificationProgress } from './shared/notifications';
import { redactState, type ServerState } from './mcp/serverState';
import type { McpServerConnection } from './mcp/connection/serverConnection';
import { oneLine } from './servers/common/failureText';
import { errorMessage } from './shared/common/errors';
import { ServerContextKeys } from './servers/common/commandIds';

/** The context of this activation, for deactivate() (which VS Code calls without arguments). */
let workbench: Workbench | undefined;

export function activate(context: vscode.ExtensionContext): McpWorkbenchApi {
  performance.mark('mcpWorkbench/activate');
  try {
    configurePureL10n();
    // ---- Services, each built from the ones above it --------------------------------------
    // Models: one for sampling and for Run Prompt, so a model picked once applies to both.
    const models = createModelService(context).service;
    // Which servers wait for the user in MCP Requests: the approval service writes, Run Tool reads.
    const approvalActivity = new ApprovalActivity();
    // The Workbench's connections need sampling/elicitation and OAuth from their first start, and
    // these two read back from the Workbench (a server's current mock profile, secrets learnt at
    // run time) only when a server asks: the one cycle, closed by lookups of `wb` made after it exists.
    // A mock profile edited in config answers the next request without a restart.
    const approval: ApprovalService = new ApprovalService(
      models,
      approvalActivity,
      (server) => (wb.registry.get(server.id)?.definition ?? server).samplingMock,
    );
    const auth = new AuthService(context, (secret) => wb.addRuntimeSecret(secret));
    const wb: Workbench = (workbench = new Workbench(context, { clientFeatures: approval.features, auth: auth.host }));
    // The one gate before a tool not marked read-only runs: Run Tool, chat, Inspector replay,
    // Activity re-run and VS Code's agent all ask it, so "don't ask again" counts everywhere.
    const gate = new ModalApprovalGate(new ToolApprovals(context.workspaceState));
    // MCP Apps; an app's sampling request is its server's: the same policy, rate limit and panel.
    const apps = new AppsService(wb, (server, params, signal) => approval.sample(server, params, signal));
    // The traffic log: the Activity view fills it, the Inspector and Check read it.
    const activityLog = createActivityLog();
    const serverTree = new ServerTreeProvider(wb);
    // Mode 2 of living beside VS Code's own MCP host (1.101+; undefined before).
    const agentServers = createAgentServers(wb, gate);

    // ---- Features: each register<Feature>(…) returns what it registered --------------------
    context.subscriptions.push(
      vscode.window.registerUriHandler(wb.uris),
      ...registerServerTree(wb, serverTree),
      ...registerActivity(wb, activityLog, gate),
      ...registerCoexistence(wb),
      ...registerCommands(wb),
      ...registerStatusBar(wb),
      ...registerFailureNotifications(wb),
      ...registerToolRunner({ workbench: wb, gate, apps: toolAppsOf(wb, apps), approvalActivity }),
      ...registerResources(wb),
      ...registerInspector(wb, activityLog, gate),
      ...registerCheck(wb, activityLog),
      ...registerMcpTests(wb),
      ...registerPrompts(wb, models),
      ...registerChat(wb, gate, quickInputPromptPrompter),
      ...registerApproval(wb, approval),
      ...registerModels(wb, models),
      ...registerAuth(wb, auth),
      ...registerDebug(wb),
      ...registerLanguageClient(wb),
      ...registerDiscovery(wb),
      ...registerGallery(wb),
      // The services go after the features that use them.
      serverTree,
      activityLog,
      apps,
      approval,
      auth,
      ...(agentServers ? [agentServers] : []),
    );
    // The Servers view's welcome ("no servers configured") must not show before config was read.
    wb.ready.finally(() => void vscode.commands.executeCommand('setContext', ServerContextKeys.configLoaded, true)).catch(() => undefined);
    wb.ready.catch((error) => void showErrorMessage(vscode.l10n.t('MCP Workbench could not read its configuration: {0}', String(error))));
    performance.mark('mcpWorkbench/activated');
    return {
      ready: wb.ready,
      servers: () => wb.registry.all(),
      server: (key) => wb.registry.find(key),
      reload: () => wb.registry.reload(),
      onDidChange: (listener) => wb.registry.onDidChange(listener),
      onDidDevRestart: (listener) => wb.onDidDevRestart(listener),
      testing: {
        serverTree,
        handleUri: (uri) => wb.uris.handleUri(uri),
        activationTiming,
        coexistence: () => ({
          builtinHostActive: wb.builtinHost.active,
          agentCanUse: wb.builtinHost.agentCanUse,
          runner: wb.builtinHost.runner,
          decision: wb.builtinHost.decision,
          warnedAboutSecondCopy: wb.builtinHost.warnedAboutSecondCopy,
        }),
        agentServers: () => agentServers,
        setDevWatchDelay,
      },
    };
  } catch (error) {
    void showErrorMessage(vscode.l10n.t('MCP Workbench failed to activate: {0}', String(error)));
    throw error;
  }
}

/** The marks of this activation; `mcpWorkbench/load` and `/deps` are set by the bundle (esbuild.mjs). */
function activationTiming(): ActivationTiming {
  const at = (name: string) => performance.getEntriesByName(name, 'mark').at(-1)?.startTime;
  const [load, loaded, activate, activated, deps] = ['load', 'loaded', 'activate', 'activated', 'deps'].map((n) => at(`mcpWorkbench/${n}`));
  return {
    evaluateMs: load !== undefined && loaded !== undefined ? loaded - load : NaN,
    activateMs: activate !== undefined && activated !== undefined ? activated - activate : NaN,
    depsLoadedAfterMs: deps !== undefined && activated !== undefined ? deps - activated : undefined,
  };
}

/**
 * Shows a notification when a server fails, once per failure, with the ways out. A failure and
 * what happens next (a restart, giving up) arrive as two states and are shown as one; a server
 * that keeps crashing says once that it restarts and once that it gave up, not at every try.
 */
function registerFailureNotifications(wb: Workbench): vscode.Disposable[] {
  // A broken entry fails again on every save while it is being edited; its diagnostics and
  // tree item keep saying why, so its notification is shown once.
  const shownConfigErrors = new Set<string>();
  return [
    wb.registry.forEachConnection((connection) => {
      let timer: NodeJS.Timeout | undefined;
      let toldRestarting = false;
      const subscription = connection.onDidChangeState((raw) => {
        if (raw.kind === 'running') toldRestarting = false;
        if (raw.kind !== 'error') return;
        clearTimeout(timer);
        timer = setTimeout(() => {
          const now = connection.state;
          if (now.kind !== 'error') return;
          const restarting = wb.registry.restartPending(connection.definition.id);
          if (restarting && toldRestarting) return;
          toldRestarting = restarting;
          if (connection.definition.error) {
            const configError = `${connection.definition.id}\n${now.message}`;
            if (shownConfigErrors.has(configError)) return;
            shownConfigErrors.add(configError);
          }
          if (restarting) notifyRestarting(wb, connection);
          else notifyFailure(wb, connection, now);
        }, 0);
      });
      return [subscription, { dispose: () => clearTimeout(timer) }];
    }),
  ];
}

/**
 * A crash with a restart coming: one notification for the whole episode, whose text is the
 * server's state as the tree shows it (the countdown of each try), and which closes by itself
 * when it is over: the server runs again, or it gave up (then shown as a failure), so nothing
 * stale stays up after a recovery. Cancel stops the server instead of restarting it.
 */
function notifyRestarting(wb: Workbench, connection: McpServerConnection): void {
  const id = connection.definition.id;
  const text = () => {
    const state = connection.state;
    return state.kind === 'error' ? oneLine(redactState(state, wb.secretsOf(connection.definition)).message) : vscode.l10n.t('Restarting…');
  };
  const settled = () => connection.state.kind === 'running' || (connection.state.kind !== 'starting' && !wb.registry.restartPending(id));
  void withNotificationProgress(
    { title: `MCP ${connection.definition.label}`, cancellable: true },
    (progress, token) =>
      new Promise<void>((resolve) => {
        let shown = '';
        let timer: NodeJS.Timeout | undefined;
        const end = () => {
          clearTimeout(timer);
          subscriptions.forEach((s) => s.dispose());
          resolve();
        };
        const update = () => {
          if (settled()) end();
          else if (text() !== shown) progress.report({ message: (shown = text()) });
        };
        // A failed try is an error state first and a scheduled restart a moment later (as in
        // registerFailureNotifications): look once the registry has decided.
        const later = () => {
          clearTimeout(timer);
          timer = setTimeout(update, 0);
        };
        const subscriptions: vscode.Disposable[] = [
          connection.onDidChangeState(later),
          token.onCancellationRequested(() => {
            end();
            wb.registry
              .stop(id)
              .catch((error) => void showErrorMessage(vscode.l10n.t('Could not stop {0}: {1}', connection.definition.label, errorMessage(error))));
          }),
        ];
        update();
      }),
  );
}

function notifyFailure(wb: Workbench, connection: McpServerConnection, raw: Extract<ServerState, { kind: 'error' }>): void {
  const state = redactState(raw, wb.secretsOf(connection.definition));
  const show = vscode.l10n.t('Show Log');
  const open = vscode.l10n.t('Open Configuration');
  // One line: the details (PATH searched, the server's output) are in the tooltip and the log.
  void showErrorMessage(`MCP ${connection.definition.label}: ${oneLine(state.message)}`, show, open).then((answer) => {
    if (answer === show) wb.outputs.show(connection.definition);
    if (answer === open) {
      openServerConfig(connection).catch(
        (error) => void showErrorMessage(vscode.l10n.t('Could not open the configuration of {0}: {1}', connection.definition.label, errorMessage(error))),
      );
    }
  });
}

export async function deactivate(): Promise<void> {
  await workbench?.dispose();
  workbench = undefined;
}
