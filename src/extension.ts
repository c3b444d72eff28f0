/**
 * Entry point: builds the one Workbench context and hands it to the features. Everything
 * heavy (reading config, starting servers) happens after activate() returns.
 */
import * as vscode from 'vscode';
import type { ActivationTiming, McpWorkbenchApi } from './api';
import { registerActivity } from './activity/registerActivity';
import { configurePureL10n } from './shared/l10nBundle';
import { registerApproval } from './approval/registerApproval';
import { registerAuth } from './auth/registerAuth';
import { registerChat } from './chat/registerChat';
import { registerDiscovery } from './config/registerDiscovery';
import { registerDebug } from './debug/registerDebug';
import { setDevWatchDelay } from './debug/devRestarts';
import { registerGallery } from './gallery/registerGallery';
import { openServerConfig, registerCommands } from './servers/serverCommands';
import { registerLanguageClient } from './configLanguage/languageClient';
import { registerPrompts } from './prompts/registerPrompts';
import { registerResources } from './resources/resourceCommands';
import { registerServerTree } from './servers/registerServerTree';
import { registerStatusBar } from './servers/statusBar';
import { registerToolRunner } from './toolRunner/registerToolRunner';
import { registerApps } from './apps/registerApps';
import { registerCoexistence } from './coexistence/registerCoexistence';
import { registerInspector } from './inspector/registerInspector';
import { registerCheck } from './check/registerCheck';
import { Workbench } from './workbench';
import { showErrorMessage } from './shared/notifications';
import { redactState, type ServerState } from './mcp/serverState';
import type { McpServerConnection } from './mcp/connection/serverConnection';
import { oneLine } from './servers/common/failureText';
import { errorMessage } from './shared/common/errors';
import { ServerContextKeys } from './servers/common/commandIds';

let workbench: Workbench | undefined;

export function activate(context: vscode.ExtensionContext): McpWorkbenchApi {
  performance.mark('mcpWorkbench/activate');
  try {
    configurePureL10n();
    workbench = new Workbench(context);
    const wb = workbench;
    const serverTree = registerServerTree(wb);
    const activity = registerActivity(wb);
    const coexistence = registerCoexistence(wb);
    context.subscriptions.push(
      vscode.window.registerUriHandler(wb.uris),
      ...registerCommands(wb),
      registerStatusBar(wb),
      registerFailureNotifications(wb),
      ...serverTree.disposables,
      ...registerApps(wb),
      ...registerToolRunner(wb),
      ...registerResources(wb),
      ...activity.disposables,
      ...registerInspector(wb, activity.log),
      ...registerCheck(wb, activity.log),
      ...registerPrompts(wb),
      ...registerChat(wb),
      ...registerApproval(wb),
      ...registerAuth(wb),
      ...registerDebug(wb),
      ...registerLanguageClient(wb),
      ...registerDiscovery(wb),
      ...registerGallery(wb),
      ...coexistence.disposables,
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
        serverTree: serverTree.provider,
        handleUri: (uri) => wb.uris.handleUri(uri),
        activationTiming,
        coexistence: () => ({ builtinHostActive: wb.builtinHost.active, runner: wb.builtinHost.runner, asked: wb.builtinHost.asked }),
        agentServers: () => coexistence.agentServers,
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
function registerFailureNotifications(wb: Workbench): vscode.Disposable {
  // A broken entry fails again on every save while it is being edited; its diagnostics and
  // tree item keep saying why, so its notification is shown once.
  const shownConfigErrors = new Set<string>();
  return wb.registry.forEachConnection((connection) => {
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
        notifyFailure(wb, connection, now);
      }, 0);
    });
    return [subscription, { dispose: () => clearTimeout(timer) }];
  });
}

function notifyFailure(wb: Workbench, connection: McpServerConnection, raw: Extract<ServerState, { kind: 'error' }>): void {
  const state = redactState(raw, wb.secretsOf(connection.definition));
  const show = vscode.l10n.t('Show Log');
  const open = vscode.l10n.t('Open Configuration');
  // One line: the details (PATH searched, the server's output) are in the tooltip and the log.
  void showErrorMessage(`MCP ${connection.definition.label}: ${oneLine(state.message)}`, show, open).then((answer) => {
    if (answer === show) wb.outputs.show(connection.definition);
    if (answer === open) {
      openServerConfig(connection).catch((error) => void showErrorMessage(
        vscode.l10n.t('Could not open the configuration of {0}: {1}', connection.definition.label, errorMessage(error))));
    }
  });
}

export async function deactivate(): Promise<void> {
  await workbench?.dispose();
  workbench = undefined;
}
