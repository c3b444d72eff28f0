/**
 * The Inspector panel: one webview listing every JSON-RPC exchange of every server, live from
 * the activity log (throttled), or read-only from an imported recording. The host builds the
 * rows (src/inspector/common/inspectorRows.ts) and sends one exchange's redacted messages when
 * the page selects it; the page filters and draws.
 */
import * as vscode from 'vscode';
import type { ActivityLog } from '../activity/common/activityLog';
import { buildRows, factsOf, type ExchangeFacts, type InspectorRecord, type InspectorRow } from './common/inspectorRows';
import { parseFromWebview, type DetailAction, type FromWebview, type ToWebview } from './common/inspectorProtocol';
import { exportRecording } from './common/recording';
import { buildHar } from './common/har';
import type { HttpExchangeView } from './common/httpExchange';
import type { HttpLog } from '../activity/common/httpLog';
import type { InspectorActions } from './detailActions';
import { webviewHtml, webviewResourceRoots } from '../shared/webviewHtml';
import { showErrorMessage, showInformationMessage } from '../shared/notifications';

/** Where the rows come from: the live log, or the records of an imported file. */
export type InspectorSource =
  | { kind: 'live'; log: ActivityLog; http: HttpLog }
  | { kind: 'recording'; records: readonly InspectorRecord[]; fileName: string };

const REFRESH_MS = 200;
type ActionStatus = Extract<ToWebview, { type: 'actionStatus' }>;

export class InspectorPanel implements vscode.Disposable {
  static readonly viewType = 'mcpWorkbench.inspector';
  private static live: InspectorPanel | undefined;

  /** Opens (or reveals) the live Inspector; `select` picks a row (an Activity entry's seq). */
  static showLive(extensionUri: vscode.Uri, log: ActivityLog, http: HttpLog, actions: InspectorActions, importFile: () => Promise<void>, select?: number): InspectorPanel {
    if (InspectorPanel.live) {
      InspectorPanel.live.panel.reveal();
      if (select !== undefined) InspectorPanel.live.selectWhenReady(select);
      return InspectorPanel.live;
    }
    const panel = new InspectorPanel(extensionUri, { kind: 'live', log, http }, actions, importFile, select);
    InspectorPanel.live = panel;
    return panel;
  }

  static showRecording(extensionUri: vscode.Uri, records: readonly InspectorRecord[], fileName: string, actions: InspectorActions, importFile: () => Promise<void>): InspectorPanel {
    return new InspectorPanel(extensionUri, { kind: 'recording', records, fileName }, actions, importFile);
  }

  /** The live panel, if open (tests). */
  static get current(): InspectorPanel | undefined {
    return InspectorPanel.live;
  }

  private readonly panel: vscode.WebviewPanel;
  private readonly disposables: vscode.Disposable[] = [];
  /** Facts read once per exchange; an entry still pending is read again when it changes. */
  private readonly facts = new Map<number, { key: string; facts: ExchangeFacts }>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastSent = 0;
  private pendingSelect: number | undefined;
  private ready = false;
  /** The rows last sent to the page (tests read them). */
  rows: InspectorRow[] = [];
  private readonly onDidUpdateEmitter = new vscode.EventEmitter<InspectorRow[]>();
  readonly onDidUpdate = this.onDidUpdateEmitter.event;

  private constructor(extensionUri: vscode.Uri, private readonly source: InspectorSource, readonly actions: InspectorActions, private readonly importFile: () => Promise<void>, select?: number) {
    this.pendingSelect = select;
    const title = source.kind === 'live' ? vscode.l10n.t('MCP Inspector') : vscode.l10n.t('MCP Inspector: {0} (read-only)', source.fileName);
    this.panel = vscode.window.createWebviewPanel(InspectorPanel.viewType, title, { viewColumn: vscode.ViewColumn.Active, preserveFocus: false }, {
      enableScripts: true,
      // Kept when hidden: the selection, filters and scroll position survive switching tabs.
      retainContextWhenHidden: true,
      localResourceRoots: webviewResourceRoots(extensionUri),
    });
    this.panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'mcp.svg');
    this.panel.webview.html = webviewHtml(this.panel.webview, extensionUri, 'inspector', title);
    this.disposables.push(
      this.panel.onDidDispose(() => this.dispose()),
      this.panel.webview.onDidReceiveMessage((message: unknown) => void this.receive(message)),
    );
    if (source.kind === 'live') this.disposables.push(source.log.onDidChange(() => this.scheduleRows()), actions.onDidMark(() => this.scheduleRows()));
  }

  private records(): readonly InspectorRecord[] {
    return this.source.kind === 'live' ? this.source.log.entries() : this.source.records;
  }

  private find(seq: number): InspectorRecord | undefined {
    return this.source.kind === 'live' ? this.source.log.find(seq) : this.source.records.find((r) => r.seq === seq);
  }

  private factsFor = (record: InspectorRecord): ExchangeFacts => {
    const key = `${record.status.kind}:${record.responseSize ?? ''}`;
    const cached = this.facts.get(record.seq);
    if (cached?.key === key) return cached.facts;
    const facts = factsOf(record);
    this.facts.set(record.seq, { key, facts });
    return facts;
  };

  /** Selects a row now, or once the page has loaded (a message before `ready` would be lost). */
  private selectWhenReady(seq: number): void {
    if (this.ready) this.sendRows(seq);
    else this.pendingSelect = seq;
  }

  private scheduleRows(): void {
    if (this.timer || !this.ready) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.sendRows();
    }, Math.max(0, this.lastSent + REFRESH_MS - Date.now()));
  }

  private sendRows(select?: number): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.lastSent = Date.now();
    const records = this.records();
    const live = new Set(records.map((r) => r.seq));
    for (const seq of this.facts.keys()) if (!live.has(seq)) this.facts.delete(seq);
    this.rows = buildRows(records, this.factsFor, this.source.kind === 'live' ? this.actions.replayOf : undefined);
    this.post({
      type: 'rows',
      rows: this.rows,
      readOnly: this.source.kind === 'recording',
      ...(this.source.kind === 'recording' ? { source: this.source.fileName } : {}),
      ...(select !== undefined ? { select } : {}),
    });
    this.onDidUpdateEmitter.fire(this.rows);
  }

  private post(message: ToWebview): void {
    void this.panel.webview.postMessage(message);
  }

  private async receive(raw: unknown): Promise<void> {
    const message: FromWebview | undefined = parseFromWebview(raw);
    if (!message) return;
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.sendRows(this.pendingSelect);
        this.pendingSelect = undefined;
        return;
      case 'select':
        this.post(this.detail(message.seq));
        return;
      case 'copy': {
        const record = this.find(message.seq);
        if (!record) return;
        const value = message.part === 'request' ? record.request : message.part === 'response' ? record.response : { request: record.request, response: record.response };
        await vscode.env.clipboard.writeText(JSON.stringify(value ?? null, null, 2));
        return;
      }
      case 'export':
        await (message.format === 'har' ? this.exportHar() : this.export());
        return;
      case 'import':
        await this.importFile();
        return;
      case 'action':
        await this.act(message.action, message.seq, message.params);
        return;
      case 'startServer': {
        const record = this.find(message.seq);
        if (record) await this.actions.startServer(record, (status) => this.post(status));
        return;
      }
      case 'error':
        console.error(`MCP Inspector webview: ${message.message}`);
        return;
    }
  }

  /** Runs a detail action as the page's buttons do; resolves with the status lines it showed (tests read them). */
  async act(action: DetailAction, seq: number, params: string): Promise<ActionStatus[]> {
    const shown: ActionStatus[] = [];
    const post = (status: ActionStatus) => {
      shown.push(status);
      this.post(status);
    };
    const record = this.find(seq);
    if (!record) return shown;
    try {
      await this.actions.run(action, record, params, this.source.kind === 'recording', post);
    } catch (error) {
      // Nothing the page asks for may end in an unhandled rejection.
      post({ type: 'actionStatus', seq, action, kind: 'error', text: error instanceof Error ? error.message : String(error) });
    }
    return shown;
  }

  /** One exchange's redacted messages (read through the log's getters: redacted on read). */
  detail(seq: number): Extract<ToWebview, { type: 'detail' }> {
    const record = this.find(seq);
    if (!record) return { type: 'detail', seq, request: undefined, note: vscode.l10n.t('This exchange is no longer in the activity log (see the mcpWorkbench.activity.maxEntries setting).') };
    const response = record.response;
    let note: string | undefined;
    if (record.kind === 'notification') note = vscode.l10n.t('A notification has no response.');
    else if (record.status.kind === 'pending') note = vscode.l10n.t('No response yet.');
    else if (response === undefined) {
      note = record.status.kind === 'cancelled'
        ? vscode.l10n.t('Cancelled before a response arrived{0}.', record.status.reason ? `: ${record.status.reason}` : '')
        : vscode.l10n.t('No response: {0}', record.status.kind === 'error' ? record.status.message : record.status.kind);
    }
    return {
      type: 'detail', seq, request: record.request, ...(response !== undefined ? { response } : {}), ...(note ? { note } : {}),
      ...this.actions.offers(record, this.source.kind === 'recording'),
      ...httpPart(this.httpOf(record)),
    };
  }

  /** The HTTP exchanges behind an exchange: linked now (live), or as the recording carries them. */
  httpOf(record: InspectorRecord): readonly HttpExchangeView[] | undefined {
    return this.source.kind === 'live' ? this.source.http.exchangesFor(record.serverId, record) : record.http;
  }

  /** Saves the HTTP exchanges of the live recording as HAR 1.2 (built from redacted views only). */
  async exportHar(target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    const exchanges = this.source.kind === 'live' ? this.source.http.all() : [];
    if (!exchanges.length) {
      void showInformationMessage(vscode.l10n.t('No HTTP exchanges are recorded: HAR export covers servers reached over HTTP (Streamable HTTP or SSE).'));
      return undefined;
    }
    const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const uri = target ?? await vscode.window.showSaveDialog({
      title: vscode.l10n.t('Export HTTP Exchanges as HAR'),
      defaultUri: folder ? vscode.Uri.joinPath(folder, `mcp-http-${stamp}.har`) : undefined,
      filters: { [vscode.l10n.t('HTTP Archive')]: ['har'] },
    });
    if (!uri) return undefined;
    const version = String(vscode.extensions.getExtension('mcp-workbench.mcp-workbench')?.packageJSON.version ?? '0.0.0');
    try {
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(JSON.stringify(buildHar(exchanges, version), null, 2)));
    } catch (error) {
      void showErrorMessage(vscode.l10n.t('Could not write the HAR file to {0}: {1}', uri.fsPath, error instanceof Error ? error.message : String(error)));
      return undefined;
    }
    return uri;
  }

  /** Saves the recording as JSON Lines (redacted: the log's getters are the only way to its messages). */
  async export(target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    const records = this.records();
    if (!records.length) {
      void showInformationMessage(vscode.l10n.t('The Inspector has nothing recorded yet: run a tool or start a server first.'));
      return undefined;
    }
    const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const uri = target ?? await vscode.window.showSaveDialog({
      title: vscode.l10n.t('Export MCP Recording'),
      defaultUri: folder ? vscode.Uri.joinPath(folder, `mcp-recording-${stamp}.jsonl`) : undefined,
      filters: { [vscode.l10n.t('JSON Lines')]: ['jsonl'] },
    });
    if (!uri) return undefined;
    try {
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(exportRecording(records, Date.now(), (r) => this.httpOf(r))));
    } catch (error) {
      void showErrorMessage(vscode.l10n.t('Could not write the recording to {0}: {1}', uri.fsPath, error instanceof Error ? error.message : String(error)));
      return undefined;
    }
    return uri;
  }

  reveal(): void {
    this.panel.reveal();
  }

  private disposed = false;

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (InspectorPanel.live === this) InspectorPanel.live = undefined;
    clearTimeout(this.timer);
    this.onDidUpdateEmitter.dispose();
    this.disposables.forEach((d) => d.dispose());
    this.disposables.length = 0;
    this.panel.dispose();
  }
}

const httpPart = (http: readonly HttpExchangeView[] | undefined) => (http?.length ? { http: [...http] } : {});
