/**
 * One app of one tool run: its resource, the tool's input and result, and the AppBridge that
 * speaks the ui/* protocol with the frame. The bridge lives here, in the extension host; the
 * webview showing the frame only relays (AppRelayTransport). A session is mounted in one view
 * at a time (the Run Tool panel, or its own editor tab when popped out); every mount is a new
 * frame with a new bridge (a frame cannot outlive its webview), which gets the same tool input
 * and result again, the same storage origin and the user's answers (see `leave`), so the app
 * can rebuild what it showed.
 */
import * as vscode from 'vscode';
import { randomUUID } from 'node:crypto';
import type * as AppBridgeModule from '@modelcontextprotocol/ext-apps/app-bridge' with { 'resolution-mode': 'import' };
import type { CallToolResult, JSONRPCMessage, Tool, Transport } from '@modelcontextprotocol/client';
import { buildAppCsp, type AppCsp } from './common/appCsp';
import { CspViolationLog, describeCspViolation } from './common/cspViolation';
import type { AppResource } from './common/appResource';
import type { AppDisplayMode, AppEnvironment, AppFrameSpec, AppFromWebview, AppNotice, AppToWebview } from './common/appsProtocol';
import type { AppJsonRpcMessage } from './common/appMessages';
import { argumentsPreview } from '../shared/common/toolConfirmation';
import type { AppSandbox } from './common/sandboxServer';
import { APP_SANDBOX } from './common/sandboxProxyPage';
import { AppRequestPolicy, type SampleForApp } from './appRequestPolicy';
import { AppApprovalMemory } from './common/appApprovals';
import { modelContextText } from './common/appChat';
import { AppMessages, type AppChatRoute } from './appMessageRoute';
import { appServerLine, type AppServerStateKind } from './common/appServerState';
import { ServerCommands } from '../servers/common/commandIds';
import type { Workbench } from '../workbench';

// ext-apps ships ES modules only; esbuild bundles them into the CommonJS extension bundle.
// Required on first use, not at module level: its zod schemas and the MCP SDK it builds on
// would otherwise load at activation in every window (esbuild.mjs, lazy dependencies).
let appBridgeModule: typeof AppBridgeModule | undefined;
function appBridge(): typeof AppBridgeModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  appBridgeModule ??= require('@modelcontextprotocol/ext-apps/app-bridge') as typeof AppBridgeModule;
  return appBridgeModule;
}
type AppBridge = AppBridgeModule.AppBridge;
type McpUiHostContext = AppBridgeModule.McpUiHostContext;

/** A webview that can show the app's frame. */
export interface AppView {
  post(message: AppToWebview): void;
  /** The user (or the app) wants the app elsewhere: the session moves it. */
  readonly kind: AppDisplayMode;
}

/** What the transport reports of each message (for the Activity view). */
type TraceApp = (direction: 'send' | 'receive', message: AppJsonRpcMessage) => void;

/** Relays JSON-RPC between the AppBridge and the webview that holds the frame. */
class AppRelayTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private closed = false;
  constructor(
    private readonly appId: string,
    private readonly view: AppView,
    private readonly trace: TraceApp,
  ) {}
  async start(): Promise<void> {}
  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    this.trace('send', message as AppJsonRpcMessage);
    this.view.post({ type: 'appMessage', appId: this.appId, message: message as AppJsonRpcMessage });
  }
  deliver(message: AppJsonRpcMessage): void {
    if (this.closed) return;
    this.trace('receive', message);
    this.onmessage?.(message as JSONRPCMessage);
  }
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}

interface Mount {
  appId: string;
  view: AppView;
  bridge: AppBridge;
  transport: AppRelayTransport;
  environment?: AppEnvironment;
}

/**
 * How long a frame that is moved away may take to answer `ui/resource-teardown` (to save its
 * state) before it is removed anyway: an app answers in milliseconds; one that never answers
 * must not hold the move for longer than a blink.
 */
const MOVE_TEARDOWN_MS = 2000;

export class AppSession implements vscode.Disposable {
  private mount: Mount | undefined;
  /** The frame being moved away, until it answered `ui/resource-teardown` (its answer must still reach the bridge). */
  private leaving: Mount | undefined;
  private readonly csp: AppCsp;
  /** What the policy blocked, once per directive + URI (the frame reports it; see cspViolation.ts). */
  private readonly violations = new CspViolationLog();
  private readonly allow: string;
  private page: ReturnType<AppSandbox['register']> | undefined;
  private disposed = false;
  private readonly policy: AppRequestPolicy;
  /**
   * Approvals waiting for the user, by id (answered in the view that shows the app), with the
   * mount they were asked in. Ids are random: an app that could post to the webview as if it
   * were the host must still not be able to name a pending approval, nor its own frame.
   */
  private readonly approvals = new Map<string, { resolve: (approved: boolean) => void; tool: Tool; args: Record<string, unknown>; appId: string }>();
  /** The user's answers for this session, kept across moves (see appApprovals.ts). */
  private readonly answers = new AppApprovalMemory();
  /** The text of the app's last `ui/update-model-context`: the `@mcp` participant gives it to the model. */
  modelContext: string | undefined;
  /** Whether the line "no chat reads the app's context" was shown (once per session). */
  private saidNoChatForContext = false;
  /** The app's `ui/message`s, shown beside it. */
  private readonly messages: AppMessages;
  /** The server state last shown beside the app (a line only while it is not running). */
  private shownServerState: AppServerStateKind | 'unknown' = 'unknown';
  private readonly registryListener: vscode.Disposable;
  private readonly onDidRequestDisplayModeEmitter = new vscode.EventEmitter<AppDisplayMode>();
  /** The app asked for another display mode (`ui/request-display-mode`) or its frame asked to move. */
  readonly onDidRequestDisplayMode = this.onDidRequestDisplayModeEmitter.event;
  private readonly onDidDisposeEmitter = new vscode.EventEmitter<void>();
  /** The session was disposed (its app replaced or closed). */
  readonly onDidDispose = this.onDidDisposeEmitter.event;
  private readonly onDidInitializeEmitter = new vscode.EventEmitter<string>();
  /** The app answered `ui/notifications/initialized` (with the app id); tests and the view wait for it. */
  readonly onDidInitialize = this.onDidInitializeEmitter.event;

  constructor(
    private readonly workbench: Workbench,
    readonly serverId: string,
    readonly serverLabel: string,
    readonly tool: Tool,
    readonly resourceUri: string,
    private readonly resource: AppResource,
    private readonly sandbox: AppSandbox,
    sample: SampleForApp,
    private readonly chat: AppChatRoute,
    readonly toolInput: Record<string, unknown>,
    readonly toolResult: CallToolResult | undefined,
  ) {
    this.csp = buildAppCsp(resource.csp);
    this.allow = appBridge().buildAllowAttribute(resource.permissions);
    this.messages = new AppMessages(
      chat,
      (notice) => this.notice(notice),
      (level, text) => this.log(level, text),
    );
    this.policy = new AppRequestPolicy(workbench, serverId, serverLabel, tool, (calledTool, args) => this.askApproval(calledTool, args), sample);
    this.registryListener = workbench.registry.onDidChange(() => {
      if (this.serverStateKind() !== this.shownServerState) this.showServerState();
    });
    if (this.csp.rejected.length) {
      this.log('warn', `ignored declared CSP entries that are not plain origins: ${this.csp.rejected.join(', ')}`);
    }
  }

  get displayMode(): AppDisplayMode | undefined {
    return this.mount?.view.kind;
  }

  get currentAppId(): string | undefined {
    return this.mount?.appId;
  }

  /** The bridge to the frame shown now (chat lists and calls the app's own tools through it). */
  get bridge(): AppBridge | undefined {
    return this.mount?.bridge;
  }

  /** Shows the app in `view` (a new frame), leaving any previous view. */
  async mountIn(view: AppView, title: string): Promise<AppFrameSpec> {
    this.unmount();
    const origin = await this.sandbox.origin();
    this.page ??= this.sandbox.register(this.csp.policy, this.allow, this.resource.html);
    const page = await this.page;
    const appId = `app-${randomUUID()}`;
    const transport = new AppRelayTransport(appId, view, (direction, message) => this.trace(direction, message));
    const bridge = this.createBridge(view.kind);
    const mount: Mount = { appId, view, bridge, transport };
    this.mount = mount;
    this.answers.newFrame();
    await bridge.connect(transport);
    return {
      appId,
      proxyUrl: `${origin}${page.path}`,
      allow: this.allow,
      title,
      serverLabel: this.serverLabel,
      resourceUri: this.resourceUri,
      displayMode: view.kind,
      prefersBorder: this.resource.prefersBorder,
      connectDomains: this.csp.allowed.connect,
    };
  }

  private serverStateKind(): AppServerStateKind {
    return this.workbench.registry.find(this.serverId)?.state.kind;
  }

  /**
   * Tells the view that shows the app whether its server runs: a line "Server … stopped" with
   * Start while it does not, none while it does. Called after each appShow and on every change.
   */
  showServerState(): void {
    const mount = this.mount;
    if (!mount || this.disposed) return;
    const kind = this.serverStateKind();
    this.shownServerState = kind;
    const line = appServerLine(this.serverLabel, kind);
    mount.view.post(
      line ? { type: 'appServerState', appId: mount.appId, text: line.text, canStart: line.canStart } : { type: 'appServerState', appId: mount.appId },
    );
  }

  /** Start pressed beside the app: starts this session's server (the message names no server). */
  private startServer(): void {
    const kind = this.serverStateKind();
    if (kind === 'running' || kind === 'starting' || kind === undefined) return;
    this.log('info', 'starting the server (Start beside the app)');
    void vscode.commands
      .executeCommand(ServerCommands.start, { serverId: this.serverId })
      .then(undefined, (error: unknown) => this.log('warn', `could not start the server: ${String(error)}`));
  }

  /**
   * Asks the user, next to the app, whether it may run `tool`. The question follows the app
   * when it moves; it is withdrawn (as declined) when the app goes away.
   */
  private askApproval(tool: Tool, args: Record<string, unknown>): Promise<boolean> {
    const standing = this.answers.standing(tool, args);
    if (standing === 'carriedOverMove') this.log('info', `ran "${tool.name}" without asking: the same call was allowed before the app moved`);
    if (standing) return Promise.resolve(true);
    const mount = this.mount;
    if (!mount) return Promise.resolve(false);
    const asked = this.answers.asking(tool);
    const approvalId = randomUUID();
    const why =
      tool.annotations?.destructiveHint === true
        ? vscode.l10n.t('The tool says it may make destructive changes.')
        : vscode.l10n.t('The tool is not marked read-only: it may change things.');
    return new Promise<boolean>((resolve) => {
      this.approvals.set(approvalId, { resolve, tool, args, appId: mount.appId });
      mount.view.post({
        type: 'appApproval',
        appId: mount.appId,
        approval: {
          approvalId,
          text: vscode.l10n.t('The app wants to run "{0}" on server "{1}".', tool.title ?? tool.name, this.serverLabel),
          detail: `${why} ${vscode.l10n.t('Arguments:')} ${argumentsPreview(args, 500)}`,
          toolTitle: tool.title ?? tool.name,
          asked,
        },
      });
    });
  }

  /** The user's answer, taken only for an approval pending in this very frame of this session. */
  private answerApproval(appId: string, approvalId: string, answer: 'once' | 'session' | 'deny'): void {
    const pending = this.approvals.get(approvalId);
    if (!pending || pending.appId !== appId) return;
    this.approvals.delete(approvalId);
    this.answers.answered(pending.tool, pending.args, answer);
    pending.resolve(answer !== 'deny');
    const mount = this.mount;
    if (mount && this.approvals.size === 0) mount.view.post({ type: 'appApproval', appId: mount.appId });
  }

  /**
   * Leaves the current view because the app moves to another: the frame first gets the spec's
   * `ui/resource-teardown` (the SDK's `onteardown`, where an app saves unsaved state: its
   * storage is kept for the next frame, which has the same origin), briefly awaited; then the
   * channel closes. Resolves once the frame may be removed.
   */
  async leave(): Promise<void> {
    const mount = this.mount;
    if (!mount) return;
    this.withdrawApprovals();
    this.mount = undefined;
    this.leaving = mount;
    try {
      await mount.bridge.teardownResource({}, { timeout: MOVE_TEARDOWN_MS });
    } catch (error) {
      this.log('debug', `the app did not answer ui/resource-teardown before its move: ${String(error)}`);
    } finally {
      if (this.leaving === mount) this.leaving = undefined;
      await mount.bridge.close().catch(() => undefined);
    }
  }

  private withdrawApprovals(): void {
    for (const pending of this.approvals.values()) pending.resolve(false);
    this.approvals.clear();
  }

  /** Leaves the current view: the frame there is gone (the bridge and its transport close). */
  unmount(): void {
    this.withdrawApprovals();
    const mount = this.mount;
    this.mount = undefined;
    if (mount) void mount.bridge.close().catch(() => undefined);
  }

  /** A message from the webview that shows this session's frame. */
  receive(message: AppFromWebview): void {
    const leaving = this.leaving;
    if (leaving && message.appId === leaving.appId) {
      // Only its answer to the teardown (and any last words) go to its closing bridge.
      if (message.type === 'appMessage') leaving.transport.deliver(message.message);
      return;
    }
    const mount = this.mount;
    if (!mount || message.appId !== mount.appId) return;
    switch (message.type) {
      case 'appMessage':
        mount.transport.deliver(message.message);
        return;
      case 'appEnvironment': {
        const first = !mount.environment;
        mount.environment = message.environment;
        if (first) mount.bridge.setHostContext(this.hostContext(mount));
        else void mount.bridge.sendHostContextChange(this.hostContext(mount));
        return;
      }
      case 'appDisplayMode':
        this.onDidRequestDisplayModeEmitter.fire(message.mode);
        return;
      case 'appApprovalAnswer':
        this.answerApproval(message.appId, message.approvalId, message.answer);
        return;
      case 'appProblem':
        this.log('warn', message.message);
        return;
      case 'appCspViolation':
        if (this.violations.add(message.violation)) this.log('warn', `blocked by its policy: ${describeCspViolation(message.violation)}`);
        return;
      case 'appStartServer':
        this.startServer();
        return;
      case 'appNoticeAction':
        void this.messages.act(message.noticeId, message.action);
        return;
    }
  }

  private hostContext(mount: Mount): McpUiHostContext {
    const env = mount.environment;
    return {
      toolInfo: { tool: this.tool },
      ...(env ? { theme: env.theme, styles: { variables: env.styles as NonNullable<McpUiHostContext['styles']>['variables'] } } : {}),
      displayMode: mount.view.kind,
      availableDisplayModes: ['inline', 'fullscreen'],
      ...(env ? { containerDimensions: env.height !== undefined ? { width: env.width, height: env.height } : { width: env.width, maxHeight: 4000 } } : {}),
      locale: vscode.env.language,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      userAgent: `${vscode.env.appName} ${vscode.version}; MCP Workbench`,
      platform: vscode.env.uiKind === vscode.UIKind.Web ? 'web' : 'desktop',
      deviceCapabilities: { touch: false, hover: true },
    };
  }

  private createBridge(kind: AppDisplayMode): AppBridge {
    const bridge = new (appBridge().AppBridge)(
      null,
      { name: 'mcp-workbench', title: 'MCP Workbench', version: String(this.workbench.context.extension.packageJSON.version ?? '0') },
      {
        openLinks: {},
        downloadFile: {},
        serverTools: {},
        serverResources: {},
        logging: {},
        sampling: {},
        sandbox: {
          csp: {
            connectDomains: this.csp.allowed.connect,
            resourceDomains: this.csp.allowed.resource,
            frameDomains: this.csp.allowed.frame,
            baseUriDomains: this.csp.allowed.baseUri,
          },
          ...(this.resource.permissions ? { permissions: this.resource.permissions } : {}),
        },
      },
      { hostContext: { displayMode: kind, availableDisplayModes: ['inline', 'fullscreen'], toolInfo: { tool: this.tool } } },
    );
    bridge.onsandboxready = () => {
      void bridge.sendSandboxResourceReady({ html: this.resource.html, sandbox: APP_SANDBOX });
    };
    bridge.oninitialized = () => {
      void (async () => {
        await bridge.sendToolInput({ arguments: this.toolInput });
        if (this.toolResult) await bridge.sendToolResult(this.toolResult);
        const appId = this.mount?.bridge === bridge ? this.mount.appId : undefined;
        if (appId) this.onDidInitializeEmitter.fire(appId);
      })().catch((error) => this.log('warn', `could not send the tool input/result to the app: ${String(error)}`));
    };
    bridge.oncalltool = (params, extra) => this.policy.callTool(params, extra.mcpReq.signal);
    bridge.onreadresource = (params, extra) => this.policy.readResource(params.uri, extra.mcpReq.signal);
    bridge.onlistresources = () => this.policy.listResources();
    bridge.onlistresourcetemplates = () => this.policy.listResourceTemplates();
    bridge.onopenlink = (params) => this.policy.openLink(params.url);
    bridge.ondownloadfile = (params) => this.policy.downloadFile(params.contents);
    bridge.onmessage = (params) => this.messages.receive(params);
    bridge.onupdatemodelcontext = async (params) => {
      this.modelContext = modelContextText(params);
      if (this.modelContext && !this.chat.participant() && !this.saidNoChatForContext) {
        this.saidNoChatForContext = true;
        this.notice({ noticeId: randomUUID(), text: vscode.l10n.t('This VS Code has no chat, so no model reads the context this app reports.') });
      }
      return {};
    };
    bridge.oncreatesamplingmessage = (params, extra) => this.policy.sample(params, extra.mcpReq.signal);
    bridge.onrequestdisplaymode = async (params) => {
      const wanted = params.mode === 'fullscreen' || params.mode === 'inline' ? params.mode : undefined;
      if (wanted && wanted !== this.mount?.view.kind) this.onDidRequestDisplayModeEmitter.fire(wanted);
      return { mode: wanted ?? this.mount?.view.kind ?? 'inline' };
    };
    bridge.onloggingmessage = (params) =>
      this.log('info', `app log (${params.level}): ${typeof params.data === 'string' ? params.data : JSON.stringify(params.data)}`.slice(0, 2000));
    bridge.onrequestteardown = () => {
      const mount = this.mount;
      if (mount?.bridge !== bridge) return;
      this.unmount();
      mount.view.post({
        type: 'appPlaceholder',
        appId: mount.appId,
        placeholder: { kind: 'error', text: vscode.l10n.t('The app closed itself. Run the tool again to show it.') },
      });
    };
    return bridge;
  }

  /** One line beside the app (plain text), replacing the previous one. */
  private notice(notice: AppNotice): void {
    const mount = this.mount;
    if (mount) mount.view.post({ type: 'appNotice', appId: mount.appId, notice });
  }

  private trace(direction: 'send' | 'receive', message: AppJsonRpcMessage): void {
    const connection = this.workbench.registry.find(this.serverId);
    if (!connection) return;
    const kind = 'method' in message ? ('id' in message ? 'request' : 'notification') : 'error' in message ? 'error' : 'response';
    this.workbench.traceApp(connection.definition, {
      direction,
      kind,
      ...('method' in message ? { method: message.method } : {}),
      ...('id' in message && message.id !== null ? { id: message.id } : {}),
      ...('error' in message ? { errorCode: message.error.code, errorMessage: message.error.message } : {}),
      message,
    });
  }

  private log(level: 'debug' | 'info' | 'warn', text: string): void {
    const connection = this.workbench.registry.find(this.serverId);
    if (connection) this.workbench.outputs.logFor(connection.definition).log(level, `App ${this.resourceUri}: ${text}`);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const mount = this.mount;
    for (const pending of this.approvals.values()) pending.resolve(false);
    this.approvals.clear();
    this.mount = undefined;
    // The spec's goodbye first (ui/resource-teardown, briefly awaited), then the channel closes.
    if (mount) {
      void mount.bridge
        .teardownResource({}, { timeout: 1000 })
        .catch(() => undefined)
        .finally(() => void mount.bridge.close().catch(() => undefined));
    }
    void this.page?.then(
      (page) => page.dispose(),
      () => undefined,
    );
    this.registryListener.dispose();
    this.onDidRequestDisplayModeEmitter.dispose();
    this.onDidInitializeEmitter.dispose();
    this.onDidDisposeEmitter.fire();
    this.onDidDisposeEmitter.dispose();
  }
}
