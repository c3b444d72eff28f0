/**
 * The Run Tool panel: one webview panel per tool with a form generated from the tool's
 * `inputSchema`, the call itself (validation, confirmation, progress, cancellation) and its
 * result. The controller is usable without the webview (`submit`, `cancel`, `onDidRender`),
 * which is how the integration tests drive it; the webview is a view of the same state.
 */
import * as vscode from 'vscode';
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { approvalServerKey, type ApprovalScope, type ToolApprovals } from './common/toolApprovals';
import { argumentsPreview, blobFileName, errorOutcome, needsConfirmation, rememberedArgumentsKey, resultOutcome, shortToolLabel, toolInfo } from './common/toolCall';
import { defaultValues, formToArguments, valuesFromArguments, withoutSecrets, type FieldProblem } from './common/formValues';
import { buildFormModel, type FormModel } from './common/schemaFields';
import { validateAgainstSchema } from './common/schemaValidation';
import { parseFromWebview, type FromWebview, type ProgressInfo, type RunOutcome, type TaskInfo, type ToWebview } from './common/toolRunnerProtocol';
import type { ServerDefinition } from '../config/common/launchDefinition';
import type { McpServerConnection } from '../mcp/connection/serverConnection';
import { TaskCancelledError } from '../mcp/connection/toolCalls';
import { describeTask } from '../mcp/connection/toolTasks';
import type { Workbench } from '../workbench';
import { webviewHtml, webviewResourceRoots } from '../shared/webviewHtml';
import { approvalActivity } from '../approval/common/approvalActivity';
import { showErrorMessage, showWarningMessage, withNotificationProgress } from '../shared/notifications';
import { toolAppUri } from '../apps/common/appTools';
import { parseAppFromWebview } from '../apps/common/appsProtocol';
import { ToolAppController } from '../apps/toolAppController';
import { appsService } from '../apps/appsService';

/**
 * Asks the user whether to run a tool that is not marked read-only. This is the one step
 * that needs a human, so it is a replaceable function: tests set `panel.confirm`.
 */
export type ConfirmCall = (tool: Tool, serverLabel: string, args: Record<string, unknown>, asker?: string) => Promise<boolean | ApprovalScope>;

/** `asker`: who asks when it is not the user here (a line in the detail). */
export const confirmWithModal: ConfirmCall = async (tool, serverLabel, args, asker) => {
  const run = vscode.l10n.t('Run Tool');
  const choices: Record<string, ApprovalScope> = {
    [vscode.l10n.t('Run, Don\'t Ask Again for This Tool')]: 'tool',
    [vscode.l10n.t('Run, Don\'t Ask Again for This Server')]: 'server',
    [vscode.l10n.t('Run, Don\'t Ask Again This Session')]: 'session',
  };
  const why = tool.annotations?.destructiveHint === true
    ? vscode.l10n.t('The tool says it may make destructive changes.')
    : vscode.l10n.t('The tool is not marked read-only: it may change things.');
  const remembered = vscode.l10n.t('"Don\'t ask again" is kept for this workspace (the session choice until VS Code closes); "MCP: Reset Tool Approvals" forgets it.');
  const answer = await showWarningMessage(
    vscode.l10n.t('Run "{0}" on server "{1}"?', tool.title ?? tool.name, serverLabel),
    { modal: true, detail: `${asker ? `${asker}\n\n` : ''}${why}\n\n${vscode.l10n.t('Arguments:')}\n${argumentsPreview(args)}\n\n${remembered}` },
    run, ...Object.keys(choices),
  );
  return answer === run || (answer !== undefined && (choices[answer] ?? false));
};

/** What `submit` ended with: the outcome shown, or why nothing was sent. */
export type SubmitResult = RunOutcome | { kind: 'invalid'; issues: FieldProblem[] } | { kind: 'declined' } | { kind: 'busy' };

interface RunningCall {
  requestId: string;
  abort: AbortController;
  progress?: ProgressInfo;
  /** The server runs the call as a task. */
  task?: TaskInfo;
  /** The server has a sampling/elicitation request waiting for the user (MCP Requests panel). */
  awaitingUser?: boolean;
  /** The webview was told the call started (before that, awaitingUser is not tracked). */
  started?: boolean;
  /** Called when the call ends or `awaitingUser` changes (the progress indicator follows). */
  wakers: Set<() => void>;
}

function wake(running: RunningCall): void {
  const wakers = [...running.wakers];
  running.wakers.clear();
  for (const w of wakers) w();
}

let nextRequest = 0;
function newRequestId(): string {
  return `host-${Date.now().toString(36)}-${++nextRequest}`;
}

function panelKey(serverId: string, toolName: string): string {
  return JSON.stringify([serverId, toolName]);
}

export class ToolRunnerPanel implements vscode.Disposable {
  static readonly viewType = 'mcpWorkbench.toolRunner';
  private static readonly panels = new Map<string, ToolRunnerPanel>();

  /** Opens the panel of a tool, or reveals the one already open. */
  static show(workbench: Workbench, connection: McpServerConnection, tool: Tool): ToolRunnerPanel {
    const existing = ToolRunnerPanel.panels.get(panelKey(connection.definition.id, tool.name));
    if (existing) {
      existing.panel.reveal();
      return existing;
    }
    return new ToolRunnerPanel(workbench, connection, tool);
  }

  /** Replaced by tests; see ConfirmCall. */
  confirm: ConfirmCall = confirmWithModal;
  /** "Don't ask again" answers of the workspace and the session (set by registerToolRunner). */
  static approvals: ToolApprovals | undefined;

  private readonly panel: vscode.WebviewPanel;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly onDidRenderEmitter = new vscode.EventEmitter<RunOutcome>();
  /** Fires with every outcome the panel shows (the webview renders the same model). */
  readonly onDidRender = this.onDidRenderEmitter.event;
  private readonly onDidProgressEmitter = new vscode.EventEmitter<ProgressInfo>();
  /** Fires with every `notifications/progress` of the running call. */
  readonly onDidProgress = this.onDidProgressEmitter.event;
  private readonly onDidTaskEmitter = new vscode.EventEmitter<TaskInfo>();
  /** Fires when the running call became a task on the server, and at each change of its state. */
  readonly onDidTask = this.onDidTaskEmitter.event;
  private readonly onDidDisposeEmitter = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.onDidDisposeEmitter.event;
  /** Resolves when the webview's script has started and asked for its state (the CSP let it run). */
  readonly webviewReady: Promise<void>;
  private resolveReady!: () => void;

  private tool: Tool;
  private form: FormModel;
  private notice: string | undefined;
  private running: RunningCall | undefined;
  private last: { requestId: string; outcome: RunOutcome; result?: CallToolResult } | undefined;
  private disposed = false;
  readonly serverId: string;
  private readonly serverName: string;
  private readonly serverLabel: string;
  private readonly initialDefinition: ServerDefinition;
  /** The tool's MCP App (`_meta.ui.resourceUri`), shown after each run; undefined for tools without one. */
  readonly app: ToolAppController | undefined;

  private constructor(private readonly workbench: Workbench, connection: McpServerConnection, tool: Tool) {
    this.initialDefinition = connection.definition;
    this.serverId = connection.definition.id;
    this.serverName = connection.definition.name;
    this.serverLabel = connection.definition.label;
    this.tool = tool;
    this.form = buildFormModel(tool.inputSchema);
    this.webviewReady = new Promise((resolve) => (this.resolveReady = resolve));

    const extensionUri = workbench.context.extensionUri;
    this.panel = vscode.window.createWebviewPanel(
      ToolRunnerPanel.viewType,
      this.title(),
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      {
        enableScripts: true,
        // Not retained when hidden (memory); the webview keeps what was typed with setState and the host resends
        // the rest. A tool with an app is retained: hiding the tab must not restart the app.
        retainContextWhenHidden: toolAppUri(tool) !== undefined,
        localResourceRoots: webviewResourceRoots(extensionUri),
      },
    );
    this.panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'mcp.svg');
    if (toolAppUri(tool) && appsService()) {
      this.app = new ToolAppController(workbench, (message) => this.post(message), () => this.tool.title ?? this.tool.name);
      // The page may frame the local sandbox server, whose origin is known once it listens.
      void appsService()!.frameSources().then((frameSources) => {
        if (!this.disposed) this.panel.webview.html = this.html(frameSources);
      });
    } else {
      this.panel.webview.html = this.html();
    }
    ToolRunnerPanel.panels.set(panelKey(this.serverId, tool.name), this);

    this.disposables.push(
      this.panel.onDidDispose(() => this.dispose()),
      this.panel.webview.onDidReceiveMessage((message: unknown) => this.receive(message)),
      connection.onDidChangeList((kind) => {
        if (kind === 'tools') this.toolListChanged();
      }),
      approvalActivity.onDidChange(() => this.updateAwaitingUser()),
    );
  }

  /** True while a call runs and its server waits for the user's answer in MCP Requests. */
  get awaitingUser(): boolean {
    return this.running?.awaitingUser === true;
  }

  private updateAwaitingUser(): void {
    const running = this.running;
    if (!running?.started) return;
    const awaiting = approvalActivity.waitingFor(this.serverId) > 0;
    if (awaiting === (running.awaitingUser === true)) return;
    running.awaitingUser = awaiting;
    this.post({ type: 'awaitingUser', requestId: running.requestId, awaitingUser: awaiting });
    wake(running);
  }

  get toolName(): string {
    return this.tool.name;
  }

  /** The arguments remembered from the last run of this tool (what the form pre-fills). */
  get rememberedArguments(): Record<string, unknown> | undefined {
    return this.workbench.context.workspaceState.get<Record<string, unknown>>(rememberedArgumentsKey(this.serverName, this.tool.name));
  }

  /** The last outcome shown, if any. */
  get lastOutcome(): RunOutcome | undefined {
    return this.last?.outcome;
  }

  /**
   * Validates and runs the tool with the arguments, as the webview's Run button does:
   * invalid arguments are not sent; tools not marked read-only ask `confirm` first.
   */
  async submit(args: Record<string, unknown>, requestId = newRequestId()): Promise<SubmitResult> {
    if (this.running) return { kind: 'busy' };
    const validation = validateAgainstSchema(this.tool.inputSchema, args);
    if (validation.valid === false) {
      this.post({ type: 'invalid', requestId, issues: validation.issues });
      return { kind: 'invalid', issues: validation.issues };
    }
    const schemaNote = validation.valid === undefined
      ? vscode.l10n.t('The input schema could not be compiled ({0}); the arguments were sent unchecked.', validation.schemaError)
      : undefined;
    const tool = this.tool;
    const running: RunningCall = { requestId, abort: new AbortController(), wakers: new Set() };
    // Claimed before the confirmation so a second submit cannot slip in while the dialog is open.
    this.running = running;
    try {
      const serverKey = approvalServerKey(this.definitionForLog());
      if (needsConfirmation(tool) && !ToolRunnerPanel.approvals?.allows(serverKey, tool.name)) {
        const answer = await this.confirm(tool, this.serverLabel, args);
        if (!answer) {
          this.post({ type: 'declined', requestId });
          return { kind: 'declined' };
        }
        if (answer !== true) await ToolRunnerPanel.approvals?.remember(answer, serverKey, tool.name);
      }
      await this.workbench.context.workspaceState.update(rememberedArgumentsKey(this.serverName, tool.name), withoutSecrets(this.form.root, args));
      running.started = true;
      this.post({ type: 'started', requestId, ...(schemaNote ? { schemaNote } : {}) });
      this.updateAwaitingUser();
      const { outcome, result } = await this.call(tool, args, running);
      this.last = { requestId, outcome, result };
      if (!this.disposed) {
        this.post({ type: 'outcome', requestId, outcome });
        if (outcome.kind === 'result') await this.app?.show(this.serverId, tool, args, result);
        this.onDidRenderEmitter.fire(outcome);
      }
      return outcome;
    } finally {
      if (this.running === running) this.running = undefined;
    }
  }

  /** Cancels the running call (the SDK sends `notifications/cancelled`). */
  cancel(requestId?: string): void {
    if (this.running && (requestId === undefined || this.running.requestId === requestId)) this.running.abort.abort();
  }

  /** Calls after this long get a cancellable progress notification; quicker ones would only flash one. */
  private static readonly PROGRESS_DELAY_MS = 400;

  private async call(tool: Tool, args: Record<string, unknown>, running: RunningCall): Promise<{ outcome: RunOutcome; result?: CallToolResult }> {
    const started = Date.now();
    let notification: vscode.Progress<{ message?: string; increment?: number }> | undefined;
    let lastMessage: string | undefined;
    let reported = 0;
    const execute = async (): Promise<{ outcome: RunOutcome; result?: CallToolResult }> => {
      try {
        const connection = this.workbench.registry.find(this.serverId);
        if (!connection) throw new Error(vscode.l10n.t('Server "{0}" is no longer configured.', this.serverLabel));
        const result = await connection.callTool(tool.name, args, {
          signal: running.abort.signal,
          onprogress: (p) => {
            const info: ProgressInfo = { progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}), ...(p.message ? { message: p.message } : {}) };
            running.progress = info;
            const percent = p.total ? Math.min(100, (p.progress / p.total) * 100) : undefined;
            const increment = percent !== undefined && percent > reported ? percent - reported : undefined;
            if (percent !== undefined) reported = Math.max(reported, percent);
            lastMessage = p.message ?? (p.total ? `${p.progress} / ${p.total}` : String(p.progress));
            notification?.report({ message: lastMessage, increment });
            this.post({ type: 'progress', requestId: running.requestId, progress: info });
            this.onDidProgressEmitter.fire(info);
          },
          onTask: (task) => {
            const info: TaskInfo = { taskId: task.taskId, status: task.status, text: describeTask(task) };
            running.task = info;
            lastMessage = vscode.l10n.t('Task {0}', info.text);
            notification?.report({ message: lastMessage });
            this.post({ type: 'task', requestId: running.requestId, task: info });
            this.onDidTaskEmitter.fire(info);
          },
        });
        return { outcome: resultOutcome(result, tool, Date.now() - started), result };
      } catch (error) {
        // A task cancelled from the tree (or by the server) ends the call as cancelled too.
        return { outcome: errorOutcome(error, Date.now() - started, running.abort.signal.aborted || error instanceof TaskCancelledError) };
      }
    };
    const outcome = execute();
    let done = false;
    const untilChange = () => new Promise<void>((resolve) => (done ? resolve() : running.wakers.add(resolve)));
    const title = vscode.l10n.t('MCP {0}: {1}', this.serverLabel, tool.title ?? tool.name);
    // Slow calls get a cancellable progress notification, shown after a short delay. While
    // the server waits for the user (sampling/elicitation), the notification would lie over
    // the MCP Requests panel's buttons: it is closed and the status bar shows the wait
    // instead; the Run Tool panel keeps its Cancel button all along.
    const indicate = async () => {
      let delay = ToolRunnerPanel.PROGRESS_DELAY_MS;
      while (!done) {
        if (running.awaitingUser) {
          await vscode.window.withProgress(
            { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('{0} (waiting for your answer in MCP Requests)', title) },
            async () => {
              while (!done && running.awaitingUser) await untilChange();
            },
          );
          delay = ToolRunnerPanel.PROGRESS_DELAY_MS;
          continue;
        }
        if (delay) {
          let timer: ReturnType<typeof setTimeout> | undefined;
          await Promise.race([new Promise<void>((resolve) => (timer = setTimeout(resolve, delay))), untilChange()]);
          clearTimeout(timer);
          delay = 0;
          continue;
        }
        await withNotificationProgress(
          { title, cancellable: true },
          async (progress, token) => {
            notification = progress;
            if (lastMessage) progress.report({ message: lastMessage, increment: reported || undefined });
            const subscription = token.onCancellationRequested(() => running.abort.abort());
            try {
              while (!done && !running.awaitingUser) await untilChange();
            } finally {
              subscription.dispose();
              notification = undefined;
            }
          },
        );
      }
    };
    void indicate();
    try {
      return await outcome;
    } finally {
      done = true;
      wake(running);
    }
  }

  private receive(raw: unknown): void {
    const message = parseFromWebview(raw);
    const appMessage = message ? undefined : parseAppFromWebview(raw);
    if (appMessage) {
      this.app?.receiveInline(appMessage);
      return;
    }
    if (!message) {
      this.workbench.outputs.logFor(this.definitionForLog()).log('warn', `Run Tool: ignored a malformed webview message: ${JSON.stringify(raw)?.slice(0, 200)}`);
      return;
    }
    // Nothing a webview asks for may end in an unhandled rejection (a server's odd URI, a failed save).
    this.handle(message).catch((error) => void showErrorMessage(vscode.l10n.t('Run Tool: {0}', error instanceof Error ? error.message : String(error))));
  }

  private async handle(message: FromWebview): Promise<void> {
    switch (message.type) {
      case 'ready':
        this.resolveReady();
        this.sendInit();
        await this.app?.remount();
        return;
      case 'submit':
        await this.submit(message.args, message.requestId);
        return;
      case 'cancel':
        this.cancel(message.requestId);
        return;
      case 'showRequests':
        await vscode.commands.executeCommand('mcpWorkbench.showRequests');
        return;
      case 'openResource':
        try {
          await vscode.commands.executeCommand('mcpWorkbench.openResource', { serverId: this.serverId, uri: message.uri });
        } catch (error) {
          void showErrorMessage(vscode.l10n.t('Could not open the resource {0}: {1}', message.uri, error instanceof Error ? error.message : String(error)));
        }
        return;
      case 'saveBlob':
        await this.saveBlob(message.requestId, message.index);
        return;
      case 'error':
        this.workbench.outputs.logFor(this.definitionForLog()).log('error', `Run Tool webview: ${message.message}`);
        return;
    }
  }

  private async saveBlob(requestId: string, index: number): Promise<void> {
    const item = this.last?.requestId === requestId ? this.last.result?.content?.[index] : undefined;
    const resource = item?.type === 'resource' ? item.resource : undefined;
    if (!resource || !('blob' in resource) || typeof resource.blob !== 'string') {
      void showErrorMessage(vscode.l10n.t('That result is no longer available; run the tool again to save it.'));
      return;
    }
    const name = blobFileName(resource.uri);
    const base = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await vscode.window.showSaveDialog({ defaultUri: base ? vscode.Uri.joinPath(base, name) : undefined, title: vscode.l10n.t('Save {0}', resource.uri) });
    if (!target) return;
    try {
      await vscode.workspace.fs.writeFile(target, Buffer.from(resource.blob, 'base64'));
    } catch (error) {
      void showErrorMessage(vscode.l10n.t('Could not save {0}: {1}', target.fsPath, error instanceof Error ? error.message : String(error)));
    }
  }

  private sendInit(): void {
    const remembered = this.rememberedArguments;
    const values = remembered ? valuesFromArguments(this.form.root, remembered) : defaultValues(this.form.root);
    this.post({
      type: 'init',
      tool: toolInfo(this.tool, this.serverLabel, this.notice),
      form: this.form,
      schemaKey: this.schemaKey(),
      values,
      remembered: remembered !== undefined,
      arguments: remembered ?? formToArguments(this.form, values).args,
      ...(this.running ? { running: { requestId: this.running.requestId, ...(this.running.progress ? { progress: this.running.progress } : {}), ...(this.running.awaitingUser ? { awaitingUser: true } : {}), ...(this.running.task ? { task: this.running.task } : {}) } } : {}),
      ...(this.last ? { last: { requestId: this.last.requestId, outcome: this.last.outcome } } : {}),
    });
  }

  /** Follows the server's tool list: a changed schema rebuilds the form, a removed tool shows a notice. */
  private toolListChanged(): void {
    const connection = this.workbench.registry.find(this.serverId);
    const updated = connection?.cached('tools')?.find((t) => t.name === this.tool.name);
    const notice = updated ? undefined : vscode.l10n.t('The server no longer lists this tool; running it will probably fail.');
    const schemaChanged = updated && JSON.stringify(updated.inputSchema) !== JSON.stringify(this.tool.inputSchema);
    if (!schemaChanged && notice === this.notice && (!updated || JSON.stringify(updated) === JSON.stringify(this.tool))) return;
    if (updated) {
      this.tool = updated;
      this.form = buildFormModel(updated.inputSchema);
    }
    this.notice = notice;
    this.panel.title = this.title();
    this.post({ type: 'toolChanged', tool: toolInfo(this.tool, this.serverLabel, this.notice), form: this.form, schemaKey: this.schemaKey() });
  }

  private schemaKey(): string {
    const text = JSON.stringify(this.tool.inputSchema);
    let hash = 0;
    for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) | 0;
    return `${this.serverName}/${this.tool.name}/${(hash >>> 0).toString(36)}`;
  }

  private title(): string {
    return vscode.l10n.t('Run {0}', shortToolLabel(this.tool.title ?? this.tool.annotations?.title ?? this.tool.name));
  }

  private definitionForLog(): ServerDefinition {
    return this.workbench.registry.find(this.serverId)?.definition ?? this.initialDefinition;
  }

  private post(message: ToWebview): void {
    if (!this.disposed) void this.panel.webview.postMessage(message);
  }

  private html(frameSources?: string[]): string {
    return webviewHtml(this.panel.webview, this.workbench.context.extensionUri, 'toolRunner', this.title(), { frameSources });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    ToolRunnerPanel.panels.delete(panelKey(this.serverId, this.tool.name));
    this.app?.dispose();
    this.panel.dispose();
    this.disposables.forEach((d) => d.dispose());
    this.onDidDisposeEmitter.fire();
    this.onDidRenderEmitter.dispose();
    this.onDidProgressEmitter.dispose();
    this.onDidTaskEmitter.dispose();
    this.onDidDisposeEmitter.dispose();
  }

  /** Closes every open Run Tool panel (extension shutdown). */
  static disposeAll(): void {
    for (const panel of [...ToolRunnerPanel.panels.values()]) panel.dispose();
  }
}
