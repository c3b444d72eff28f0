/**
 * The Run Tool panel: one webview panel per tool with a form generated from the tool's
 * `inputSchema`, the call itself (validation, confirmation, progress, cancellation) and its
 * result. The controller is usable without the webview (`submit`, `cancel`, `onDidRender`),
 * which is how the integration tests drive it; the webview is a view of the same state.
 */
import * as vscode from 'vscode';
import type { ActivityLog } from '../traffic/common/activityLog';
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { rememberedArgumentsKey, schemaKeyOf, shortToolLabel, toolInfo } from './common/toolCall';
import { defaultValues, formToArguments, valuesFromArguments, withoutSecrets, type FieldProblem } from '../jsonSchema/common/formValues';
import { buildFormModel, type FormModel } from '../jsonSchema/common/schemaFields';
import { validateAgainstSchema } from '../jsonSchema/common/schemaValidation';
import { parseFromWebview, type FromWebview, type ProgressInfo, type RunOutcome, type TaskInfo, type ToWebview } from './common/toolRunnerProtocol';
import { historyEntryOfCall, type HistorySummary } from './common/runHistory';
import { saveResultBlob } from './saveResultBlob';
import { confirmWithModal, type ConfirmCall } from './confirmCall';
import { callWithProgress, runningInfo, wake, type RunningCall } from './toolCallProgress';
import { ToolRunHistory } from './toolRunHistory';
import { defaultSaveAsTestUi, saveRunAsTest, type SaveAsTestUi, type SavedTest } from './saveRunAsTest';
import type { ServerDefinition } from '../config/common/launchDefinition';
import type { McpServerConnection } from '../mcp/connection/serverConnection';
import type { Workbench } from '../workbench';
import { webviewHtml, webviewResourceRoots } from '../shared/webviewHtml';
import { describeRaw, WebviewChannel } from '../shared/webviewChannel';
import type { ApprovalActivity } from '../approval/common/approvalActivity';
import { showErrorMessage } from '../shared/notifications';
import { toolAppUri } from '../apps/common/appTools';
import { parseAppFromWebview, type AppFromWebview } from '../apps/common/appsProtocol';
import type { ToolApp, ToolApps } from '../apps/common/toolApps';
import type { ToolApprovalGate } from './common/toolApprovals';
import { errorMessage } from '../shared/common/errors';
import { ApprovalCommands } from '../approval/common/commandIds';
import { ResourceCommands } from '../resources/common/commandIds';
import { DisposableStore } from '../shared/common/disposables';

export { confirmWithModal, type ConfirmCall } from './confirmCall';

/** What `submit` ended with: the outcome shown, or why nothing was sent. */
export type SubmitResult = RunOutcome | { kind: 'invalid'; issues: FieldProblem[] } | { kind: 'declined' } | { kind: 'busy' } | { kind: 'secretsNotKept' };

/** What every Run Tool panel is handed: services the composition root built (see registerToolRunner). */
export interface ToolRunnerServices {
  readonly workbench: Workbench;
  /** Asks before a tool not marked read-only runs, remembering "don't ask again". */
  readonly gate: ToolApprovalGate;
  /** MCP Apps: where a tool's app is loaded and the sandbox origin the page may frame. */
  readonly apps: ToolApps;
  /** Which servers wait for the user in MCP Requests ("waiting for your answer" instead of "waiting for the server"). */
  readonly approvalActivity: ApprovalActivity;
  /** The recorded exchanges: an Inspector row's tools/call is saved as a test from them. */
  readonly activityLog: Pick<ActivityLog, 'find'>;
}

/** The open Run Tool panels, one per server and tool (registerToolRunner owns the one map). */
export type OpenToolRunners = Map<string, ToolRunnerPanel>;

/** A call id: unique within the panel (the counter) and across its reopenings (the time), which is where ids are matched (webview, history). */
function newRequestId(counter: number): string {
  return `host-${Date.now().toString(36)}-${counter}`;
}

function panelKey(serverId: string, toolName: string): string {
  return JSON.stringify([serverId, toolName]);
}

/** What the page sends: the panel's own messages, or its inline app's (relayed to the app). */
type PageMessage = { panel: FromWebview } | { app: AppFromWebview };

export class ToolRunnerPanel implements vscode.Disposable {
  static readonly viewType = 'mcpWorkbench.toolRunner';

  /** Opens the panel of a tool, or reveals the one already open; `prefill` replaces what its form holds (Open in Run Tool). */
  static show(
    services: ToolRunnerServices,
    open: OpenToolRunners,
    connection: McpServerConnection,
    tool: Tool,
    prefill?: Record<string, unknown>,
  ): ToolRunnerPanel {
    const existing = open.get(panelKey(connection.definition.id, tool.name));
    const panel = existing ?? new ToolRunnerPanel(services, open, connection, tool);
    if (prefill) panel.prefilled = prefill;
    // A new page, or one re-created after being hidden, asks for its state (`ready`); a live one is told now.
    if (existing && prefill && (existing.panel.visible || existing.panel.options.retainContextWhenHidden)) existing.sendInit();
    existing?.panel.reveal();
    return panel;
  }

  /** Replaced by tests; see ConfirmCall. */
  confirm: ConfirmCall = confirmWithModal;
  /** "Don't ask again" answers of the workspace and the session (set by registerToolRunner). */

  private readonly panel: vscode.WebviewPanel;
  private readonly disposables = new DisposableStore();
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
  private readonly channel: WebviewChannel<PageMessage, ToWebview>;

  private tool: Tool;
  private form: FormModel;
  private notice: string | undefined;
  /** A line about the panel's own state (a re-run that could not happen), until the next run. */
  private note: string | undefined;
  /** Arguments the next `init` fills the form with instead of the remembered ones (once). */
  private prefilled: Record<string, unknown> | undefined;
  private running: RunningCall | undefined;
  private last: { requestId: string; outcome: RunOutcome; result?: CallToolResult } | undefined;
  /** The arguments of the last call, secrets included (memory only): what a dev-loop re-run sends again. */
  private lastArgs: Record<string, unknown> | undefined;
  /** The tool's runs and presets (workspace state). */
  readonly runs: ToolRunHistory;
  private disposed = false;
  readonly serverId: string;
  readonly serverName: string;
  private readonly serverLabel: string;
  private readonly initialDefinition: ServerDefinition;
  /** The tool's MCP App (`_meta.ui.resourceUri`), shown after each run; undefined for tools without one. */
  readonly app: ToolApp | undefined;

  private readonly workbench: Workbench;
  private requests = 0;

  private constructor(
    private readonly services: ToolRunnerServices,
    private readonly open: OpenToolRunners,
    connection: McpServerConnection,
    tool: Tool,
  ) {
    const workbench = (this.workbench = services.workbench);
    this.initialDefinition = connection.definition;
    this.serverId = connection.definition.id;
    this.serverName = connection.definition.name;
    this.serverLabel = connection.definition.label;
    this.tool = tool;
    this.form = buildFormModel(tool.inputSchema);
    this.runs = new ToolRunHistory(workbench.context.workspaceState, this.serverName, tool.name, {
      tool: () => this.tool,
      withoutSecrets: (args) => withoutSecrets(this.form.root, args) as Record<string, unknown>,
      post: (message) => this.post(message),
    });

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
    this.channel = new WebviewChannel<PageMessage, ToWebview>(this.panel.webview, {
      parse: (raw) => {
        const panel = parseFromWebview(raw);
        const app = panel ? undefined : parseAppFromWebview(raw);
        return panel ? { panel } : app ? { app } : undefined;
      },
      receive: (m) => ('app' in m ? this.app?.receiveInline(m.app) : this.handle(m.panel)),
      ready: async () => {
        this.sendInit();
        await this.app?.remount();
      },
      invalid: (raw) =>
        this.workbench.outputs.logFor(this.definitionForLog()).log('warn', `Run Tool: ignored a malformed webview message: ${describeRaw(raw)}`),
      // Nothing a webview asks for may end in an unhandled rejection (a server's odd URI, a failed save).
      error: (error) => void showErrorMessage(vscode.l10n.t('Run Tool: {0}', errorMessage(error))),
    });
    this.webviewReady = this.channel.whenReady;
    if (toolAppUri(tool)) {
      this.app = services.apps.appFor(
        (message) => this.post(message),
        () => this.tool.title ?? this.tool.name,
      );
      // The page may frame the local sandbox server, whose origin is known once it listens.
      void services.apps.frameSources().then((frameSources) => {
        if (!this.disposed) this.panel.webview.html = this.html(frameSources);
      });
    } else {
      this.panel.webview.html = this.html();
    }
    open.set(panelKey(this.serverId, tool.name), this);

    this.disposables.push(
      this.panel.onDidDispose(() => this.dispose()),
      this.channel,
      connection.onDidChangeList((kind) => {
        if (kind === 'tools') this.toolListChanged();
      }),
      services.approvalActivity.onDidChange(() => this.updateAwaitingUser()),
    );
  }

  /** True while a call runs and its server waits for the user's answer in MCP Requests. */
  get awaitingUser(): boolean {
    return this.running?.awaitingUser === true;
  }

  private updateAwaitingUser(): void {
    const running = this.running;
    if (!running?.started) return;
    const awaiting = this.services.approvalActivity.waitingFor(this.serverId) > 0;
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
  async submit(args: Record<string, unknown>, requestId = newRequestId(++this.requests)): Promise<SubmitResult> {
    if (this.running) return { kind: 'busy' };
    if (this.note) this.showNote(undefined);
    const validation = validateAgainstSchema(this.tool.inputSchema, args);
    if (validation.valid === false) {
      this.post({ type: 'invalid', requestId, issues: validation.issues });
      return { kind: 'invalid', issues: validation.issues };
    }
    const schemaNote =
      validation.valid === undefined
        ? vscode.l10n.t('The input schema could not be compiled ({0}); the arguments were sent unchecked.', validation.schemaError)
        : undefined;
    const tool = this.tool;
    const running: RunningCall = { requestId, abort: new AbortController(), wakers: new Set() };
    // Claimed before the confirmation so a second submit cannot slip in while the dialog is open.
    this.running = running;
    try {
      if (!(await this.services.gate.approve(this.definitionForLog(), tool.name, tool, args, this.confirm))) {
        this.post({ type: 'declined', requestId });
        return { kind: 'declined' };
      }
      const storedArgs = withoutSecrets(this.form.root, args) as Record<string, unknown>;
      await this.workbench.context.workspaceState.update(rememberedArgumentsKey(this.serverName, tool.name), storedArgs);
      this.lastArgs = args;
      const startedAt = Date.now();
      running.started = true;
      this.post({ type: 'started', requestId, ...(schemaNote ? { schemaNote } : {}) });
      this.updateAwaitingUser();
      const { outcome, result } = await callWithProgress(
        {
          connection: () => this.workbench.registry.find(this.serverId),
          serverLabel: this.serverLabel,
          onProgress: (progress) => {
            this.post({ type: 'progress', requestId, progress });
            this.onDidProgressEmitter.fire(progress);
          },
          onTask: (task) => {
            this.post({ type: 'task', requestId, task });
            this.onDidTaskEmitter.fire(task);
          },
        },
        tool,
        args,
        running,
      );
      this.last = { requestId, outcome, result };
      try {
        const call = { requestId, startedAt, root: this.form.root, args, storedArgs, serverSecrets: this.definitionForLog().secrets };
        await this.runs.record(historyEntryOfCall(call, outcome, result));
      } catch (error) {
        // The run itself worked: the user still sees its result; only its place in the history is lost.
        this.workbench.outputs.logFor(this.definitionForLog()).log('warn', `Run Tool: could not add the run to the history: ${errorMessage(error)}`);
      }
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

  /** Whether this panel is the active editor tab (the palette's Save as Test saves its last run). */
  get active(): boolean {
    return this.panel.active;
  }

  /** Replaced by tests: the file pick and save dialog of Save as Test. */
  saveAsTestUi: SaveAsTestUi = defaultSaveAsTestUi;

  /** Saves a run of the history (the newest by default) as a test case in a `*.mcptest.json` file. */
  saveAsTest(id?: string): Promise<SavedTest | undefined> {
    const entries = this.runs.entries();
    return saveRunAsTest(this.serverName, this.tool.name, id === undefined ? entries[0] : entries.find((e) => e.id === id), this.saveAsTestUi);
  }

  /** The tool's runs, newest first, without their results. */
  get history(): HistorySummary[] {
    return this.runs.summaries();
  }

  /**
   * Runs the last call again with the same arguments, through `submit` (validation and
   * approvals apply), and shows what changed against the run before, without revealing the
   * panel. Undefined when the panel has nothing to re-run.
   */
  async rerunLast(reason?: string): Promise<SubmitResult | undefined> {
    const previous = this.runs.entries()[0];
    if (!this.lastArgs && previous?.secretsOmitted) {
      // After a window reload only the history is left, and it never keeps secrets: sending its
      // arguments would be a different call (a required secret missing, or an optional one gone).
      this.showNote(
        vscode.l10n.t('Not re-run: the last call had secret arguments, which are never kept. Run it once from this form; later restarts repeat it.'),
      );
      return { kind: 'secretsNotKept' };
    }
    const args = this.lastArgs ?? previous?.args;
    if (!args) return undefined;
    const outcome = await this.submit(args);
    const latest = this.runs.entries()[0];
    if (previous && latest && latest.id !== previous.id) {
      if (reason) this.runs.diffRerun(previous.id, latest.id, reason);
      else this.runs.diffRuns(previous.id, latest.id);
    }
    return outcome;
  }

  /** Cancels the running call (the SDK sends `notifications/cancelled`). */
  cancel(requestId?: string): void {
    if (this.running && (requestId === undefined || this.running.requestId === requestId)) this.running.abort.abort();
  }

  private async handle(message: FromWebview): Promise<void> {
    switch (message.type) {
      case 'ready': // answered by the channel (sendInit, then the app again)
        return;
      case 'submit':
        await this.submit(message.args, message.requestId);
        return;
      case 'cancel':
        this.cancel(message.requestId);
        return;
      case 'showRequests':
        await vscode.commands.executeCommand(ApprovalCommands.showRequests);
        return;
      case 'openResource':
        try {
          await vscode.commands.executeCommand(ResourceCommands.open, { serverId: this.serverId, uri: message.uri });
        } catch (error) {
          void showErrorMessage(vscode.l10n.t('Could not open the resource {0}: {1}', message.uri, errorMessage(error)));
        }
        return;
      case 'saveBlob':
        await saveResultBlob(this.last?.requestId === message.requestId ? this.last.result : undefined, message.index);
        return;
      case 'showRun':
        this.runs.show(message.id);
        return;
      case 'diffRuns':
        this.runs.diffRuns(message.before, message.after);
        return;
      case 'savePreset':
        await this.runs.savePreset(message.args, message.name);
        return;
      case 'deletePreset':
        await this.runs.deletePreset(message.name);
        return;
      case 'saveAsTest':
        await this.saveAsTest(message.id);
        return;
      case 'error':
        this.workbench.outputs.logFor(this.definitionForLog()).log('error', `Run Tool webview: ${message.message}`);
        return;
    }
  }

  private sendInit(): void {
    const prefilled = this.prefilled;
    this.prefilled = undefined;
    const remembered = prefilled ?? this.rememberedArguments;
    const values = remembered ? valuesFromArguments(this.form.root, remembered) : defaultValues(this.form.root);
    this.post({
      type: 'init',
      tool: toolInfo(this.tool, this.serverLabel, this.notice ?? this.note),
      form: this.form,
      schemaKey: this.schemaKey(),
      values,
      remembered: remembered !== undefined && !prefilled,
      ...(prefilled ? { prefilled: true } : {}),
      arguments: remembered ?? formToArguments(this.form, values).args,
      ...(this.running ? { running: runningInfo(this.running) } : {}),
      ...(this.last ? { last: { requestId: this.last.requestId, outcome: this.last.outcome } } : {}),
      history: this.runs.summaries(),
      presets: this.runs.presets(),
      ...(this.runs.lastDiff ? { diff: this.runs.lastDiff } : {}),
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
    this.post({ type: 'toolChanged', tool: toolInfo(this.tool, this.serverLabel, this.notice ?? this.note), form: this.form, schemaKey: this.schemaKey() });
  }

  private schemaKey(): string {
    return schemaKeyOf(this.serverName, this.tool);
  }

  private title(): string {
    return vscode.l10n.t('Run {0}', shortToolLabel(this.tool.title ?? this.tool.annotations?.title ?? this.tool.name));
  }

  private definitionForLog(): ServerDefinition {
    return this.workbench.registry.find(this.serverId)?.definition ?? this.initialDefinition;
  }

  private showNote(note: string | undefined): void {
    this.note = note;
    this.post({ type: 'toolChanged', tool: toolInfo(this.tool, this.serverLabel, this.notice ?? this.note), form: this.form, schemaKey: this.schemaKey() });
  }

  private post(message: ToWebview): void {
    if (!this.disposed) this.channel.post(message);
  }

  private html(frameSources?: string[]): string {
    return webviewHtml(this.panel.webview, this.workbench.context.extensionUri, 'toolRunner', this.title(), { frameSources });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.open.delete(panelKey(this.serverId, this.tool.name));
    this.app?.dispose();
    this.panel.dispose();
    this.disposables.dispose();
    this.onDidDisposeEmitter.fire();
    this.onDidRenderEmitter.dispose();
    this.onDidProgressEmitter.dispose();
    this.onDidTaskEmitter.dispose();
    this.onDidDisposeEmitter.dispose();
  }
}
