/**
 * Entry point and composition root: builds the services, in the order they depend on each
 * other, and hands each feature the ones it needs as parameters (no feature looks a service up
 * in a global or a slot set by another feature, so a wrong order does not compile). Everything
 * heavy (reading config, starting servers) happens after activate() returns.
 */
import * as vscode from 'vscode';
import type { ActivationTiming, McpWorkbenchApi } from './api';
import { createActivityLog, registerActivity } from './activity/registerActivity';
import { ActivityTreeProvider } from './activity/activityTreeProvider';
import { configurePureL10n } from './shared/l10nBundle';
import { registerApproval } from './approval/registerApproval';
import { ApprovalService } from './approval/approvalService';
import { ApprovalActivity } from './approval/common/approvalActivity';
import { AuthService, registerAuth } from './auth/registerAuth';
import { createMcpChatHandler, registerChat } from './chat/registerChat';
import { ChatToolSettings } from './chat/chatToolSettings';
import { BuiltinHost } from './coexistence/builtinHost';
import { ConfigSources, profileMcpJson } from './configService/configSources';
import { ConfigService } from './configService/configService';
import { InputStore } from './configService/inputStore';
import { registerDiscovery } from './configService/registerDiscovery';
import { registerDebug } from './debug/registerDebug';
import { setDevWatchDelay } from './debug/devRestarts';
import { registerGallery } from './gallery/registerGallery';
import { registerCommands } from './servers/serverCommands';
import { registerServerNotifications } from './servers/serverNotifications';
import { registerLanguageClient } from './configLanguage/languageClient';
import { registerPrompts } from './prompts/registerPrompts';
import { quickInputPromptPrompter } from './prompts/promptPrompter';
import { registerResources } from './resources/resourceCommands';
import { registerServerTree } from './servers/registerServerTree';
import { ServerTreeProvider } from './servers/serverTreeProvider';
import { registerStatusBar } from './servers/statusBar';
import { ServerOutputs } from './servers/serverOutputs';
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
import type { CodeCacheState } from './codeCacheLoader';
import { showErrorMessage } from './shared/notifications';
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
    // What the Workbench carries to every feature, and owns (disposes after its servers stopped).
    // The server logs redact each line with the secrets the Workbench knows (every server's,
    // those learnt at run time): a lookup of `wb` too, made when a line is written.
    const outputs = new ServerOutputs((def) => wb.secretsOf(def));
    const sources = new ConfigSources(profileMcpJson(context.globalStorageUri));
    const inputs = new InputStore(context.secrets, context.workspaceState);
    // Owns the server definitions: reads them from the sources and pushes them into the registry.
    const config = new ConfigService(sources, inputs);
    const chatTools = new ChatToolSettings(context.workspaceState);
    // VS Code's own MCP host: the Workbench holds it back from starting the servers it runs;
    // coexistence (who runs them, mode 2) is handed the whole of it.
    const builtinHost = new BuiltinHost(context.workspaceState);
    const wb: Workbench = (workbench = new Workbench(
      context,
      { clientFeatures: approval.features, auth: auth.host },
      { sources, config, inputs, chatTools, builtinHost, outputs },
    ));
    // The one gate before a tool not marked read-only runs: Run Tool, chat, Inspector replay,
    // Activity re-run and VS Code's agent all ask it, so "don't ask again" counts everywhere.
    const gate = new ModalApprovalGate(new ToolApprovals(context.workspaceState));
    // MCP Apps; an app's sampling request is its server's: the same policy, rate limit and panel.
    const apps = new AppsService(wb, (server, params, signal) => approval.sample(server, params, signal));
    // The traffic log: the Activity view fills it, the Inspector and Check read it.
    const activityLog = createActivityLog();
    const serverTree = new ServerTreeProvider(wb);
    const activityTree = new ActivityTreeProvider(activityLog);
    // Mode 2 of living beside VS Code's own MCP host (1.101+; undefined before).
    const agentServers = createAgentServers(wb, gate, builtinHost);

    const chatHandler = createMcpChatHandler(wb, gate, quickInputPromptPrompter, apps);

    // ---- Features: each register<Feature>(…) returns what it registered --------------------
    context.subscriptions.push(
      vscode.window.registerUriHandler(wb.uris),
      ...registerServerTree(wb, serverTree),
      ...registerActivity(wb, activityLog, activityTree, gate),
      ...registerCoexistence(wb, builtinHost),
      ...registerCommands(wb),
      ...registerStatusBar(wb),
      ...registerServerNotifications(wb),
      ...registerToolRunner({ workbench: wb, gate, apps: toolAppsOf(wb, apps), approvalActivity, activityLog }),
      ...registerResources(wb),
      ...registerInspector(wb, activityLog, gate),
      ...registerCheck(wb, activityLog),
      ...registerMcpTests(wb),
      ...registerPrompts(wb, models),
      ...registerChat(wb, chatHandler, apps),
      ...registerApproval(wb, approval),
      ...registerModels(wb, models),
      ...registerAuth(wb, auth),
      ...registerDebug(wb),
      ...registerLanguageClient(wb),
      ...registerDiscovery(wb),
      ...registerGallery(wb),
      // The services go after the features that use them.
      serverTree,
      activityTree,
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
      reload: () => wb.config.reload(),
      onDidChange: (listener) => wb.registry.onDidChange(listener),
      onDidDevRestart: (listener) => wb.onDidDevRestart(listener),
      testing: {
        serverTree,
        activityTree,
        logUri: context.logUri,
        handleUri: (uri) => wb.uris.handleUri(uri),
        activationTiming,
        coexistence: () => ({
          builtinHostActive: builtinHost.active,
          agentCanUse: builtinHost.agentCanUse,
          runner: builtinHost.runner,
          decision: builtinHost.decision,
          warnedAboutSecondCopy: builtinHost.warnedAboutSecondCopy,
        }),
        agentServers: () => agentServers,
        setDevWatchDelay,
        chatHandler,
      },
    };
  } catch (error) {
    void showErrorMessage(vscode.l10n.t('MCP Workbench failed to activate: {0}', String(error)));
    throw error;
  }
}

/** The marks of this activation; `mcpWorkbench/load` and `/deps` are set by the bundle (esbuild.mjs), `/compile` by the loader (src/codeCacheLoader.ts). */
function activationTiming(): ActivationTiming {
  const at = (name: string) => performance.getEntriesByName(name, 'mark').at(-1)?.startTime;
  const [compile, load, loaded, activate, activated, deps, features] = ['compile', 'load', 'loaded', 'activate', 'activated', 'deps', 'features'].map((n) =>
    at(`mcpWorkbench/${n}`),
  );
  // Symbol.for: the loader's CODE_CACHE_STATE, without bundling the loader's code in here.
  const loader = (globalThis as { [key: symbol]: CodeCacheState | undefined })[Symbol.for('mcpWorkbench.codeCache')];
  return {
    compileMs: compile !== undefined && load !== undefined && compile <= load ? load - compile : undefined,
    codeCache: loader?.use,
    cpuMs: loader?.cpuMs,
    waitMs: loader?.waitMs,
    evaluateMs: load !== undefined && loaded !== undefined ? loaded - load : NaN,
    activateMs: activate !== undefined && activated !== undefined ? activated - activate : NaN,
    depsLoadedAfterMs: deps !== undefined && activated !== undefined ? deps - activated : undefined,
    featuresLoadedAfterMs: features !== undefined && activated !== undefined ? features - activated : undefined,
  };
}

export async function deactivate(): Promise<void> {
  await workbench?.dispose();
  workbench = undefined;
}
