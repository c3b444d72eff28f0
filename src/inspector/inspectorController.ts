/**
 * What an Inspector page needs from the host, whichever surface shows it (the editor tab in
 * inspectorPanel.ts, the bottom panel's view in inspectorView.ts): every JSON-RPC exchange of
 * every server, live from the activity log or read-only from an imported recording, and the
 * Console's lines. The host builds the rows (common/rowsModel.ts) and sends them all when the
 * page loads or is shown; then it patches them with what the log says changed and sends only
 * that, coalesced (common/rowsBatch.ts): a call that sends thousands of notifications costs the
 * host and the page each new row once, not every row each time.
 * It sends one exchange's redacted messages when the page selects it; the page filters and draws.
 */
import * as vscode from 'vscode';
import type { ActivityLog, LogChange } from '../traffic/common/activityLog';
import type { InspectorRecord, InspectorRow } from './common/inspectorRows';
import { RowsModel } from './common/rowsModel';
import { Coalescer } from './common/rowsBatch';
import { PayloadSearch } from './common/payloadSearch';
import { isEmptyDelta } from './common/rowsDelta';
import { parseFromWebview, type DetailAction, type FromWebview, type ToWebview } from './common/inspectorProtocol';
import { parseConsoleFromWebview, type ConsoleFromWebview, type ConsoleToWebview } from './common/consoleProtocol';
import { WebviewChannel } from '../shared/webviewChannel';
import { ConsoleFeed } from './common/consoleFeed';
import type { ConsoleLog } from './common/consoleLog';
import type { HttpExchangeView } from '../traffic/common/httpExchange';
import type { HttpLog } from '../traffic/common/httpLog';
import type { InspectorActions } from './detailActions';
import { errorMessage } from '../shared/common/errors';
import { DisposableStore } from '../shared/common/disposables';
import { OutputCheck } from './outputCheck';
import { exportHarToFile, exportToFile } from './inspectorExports';

/** What the page sends: its Console tab's messages, or the rest. */
type PageMessage = { console: ConsoleFromWebview } | { page: FromWebview };

/** Where the rows come from: the live log, or the records of an imported file. */
export type InspectorSource = { kind: 'live'; log: ActivityLog } | { kind: 'recording'; records: readonly InspectorRecord[]; fileName: string };

/** What every Inspector page shares: the actions, the import command, the Console's lines. */
export interface InspectorContext {
  actions: InspectorActions;
  importFile(): Promise<void>;
  console: ConsoleLog;
  /** The HTTP exchanges of HTTP servers (raw, redacted when shown). */
  http: HttpLog;
  /** The configured servers, for the Console's picker. */
  servers(): { id: string; label: string }[];
  /** Saves a server's console lines (or every server's: ALL_SERVERS) where the user picks. */
  exportConsole(serverId: string): Promise<unknown>;
  onDidChangeServers: vscode.Event<unknown>;
}

/** How often a selection the page has not answered goes again, and how many times, before the page is loaded anew. */
const SELECT_RETRY_MS = 1500;
const SELECT_TRIES = 3;
/**
 * How long a page loaded anew for a selection has to say `ready` before the selection is shown
 * elsewhere too. A page loads in under a second idle and in seconds on a loaded machine: 6 s was
 * tried, and a full CI run's reloaded page in 1.100.3 answered after it (ciV), so the exchange
 * showed in the tab and then in the panel too. A page that answers later still selects the row
 * (the request stands).
 */
const RELOAD_ANSWER_MS = 10_000;

/** A page that never answers (tests). */
const SILENT_PAGE = '<!DOCTYPE html><html><body></body></html>';

type ActionStatus = Extract<ToWebview, { type: 'actionStatus' }>;

export class InspectorController implements vscode.Disposable {
  private readonly disposables = new DisposableStore();
  /** The rows, patched with each batch of changes (facts are read when an entry is added or changes). */
  readonly model: RowsModel;
  /** What changed in the log since the last batch; `stale`: the model is rebuilt from the log at the next. */
  private changes = { added: [] as InspectorRecord[], updated: new Set<number>(), removed: new Set<number>(), stale: true };
  /** Log changes coalesced into one message per batch. */
  private readonly batch = new Coalescer(() => this.flushRows());
  /** What the next flush sends beside the changes: a row to select, or every row. */
  private nextSend: { select?: number; all?: boolean } = {};
  /** The page holds the rows of the model as of the last batch: the next can be a delta. */
  private pageHolds = false;
  /**
   * The row the host asked the page to select (opened on an exchange, "Open in Inspector"), until
   * the page selects it or the user chooses another; and its re-sends.
   */
  private selectAsked: number | undefined;
  private selectRetry: NodeJS.Timeout | undefined;
  /** After a page was loaded anew for a selection: gives up on it if it does not say `ready`. */
  private reloadWatch: NodeJS.Timeout | undefined;
  private ready = false;
  private readonly channel: WebviewChannel<PageMessage, ToWebview | ConsoleToWebview>;
  /** Set while the view is hidden: what the Console watched, to watch again when shown. */
  private hiddenWatch: { serverId: string | undefined } | undefined;
  private readonly feed: ConsoleFeed | undefined;
  /** Row messages posted to the page: every row, or a delta (tests read them). */
  readonly sent = { all: 0, deltas: 0 };
  /** What the page said: how many `ready`s and other messages, and the last one's type (a test's diagnostic). */
  readonly heard = { ready: 0, messages: 0, last: '', error: '' };
  /** Pages loaded anew because a selection went unanswered (a test's diagnostic). */
  reloads = 0;
  /** Selections given up on here, for the caller to show elsewhere (the `unreachable` of selectWhenReady; tests read it). */
  givenUp = 0;
  /** The longest a selection waits before it is given up on: the re-sends, then the page loaded anew (tests wait as long). */
  readonly selectGivesUpWithinMs = SELECT_RETRY_MS * (SELECT_TRIES + 1) + RELOAD_ANSWER_MS;
  /** Posts VS Code could not deliver to the page (a diagnostic for tests). */
  get lostPosts(): number {
    return this.channel.lost;
  }
  /** The console lines last sent to the page, of the watched server (tests read them). */
  consoleShown: ConsoleToWebview[] = [];
  private readonly onDidUpdateEmitter = new vscode.EventEmitter<InspectorRow[]>();
  readonly onDidUpdate = this.onDidUpdateEmitter.event;
  readonly actions: InspectorActions;
  private readonly outputCheck: OutputCheck;
  /** The exchange the page shows the detail of (the page says so when the user or the host selects one). */
  selected: number | undefined;
  /** The filter text searched in the messages, for the page (it has no payloads). */
  private readonly search = new PayloadSearch(() => this.records(), { holdsWords: (seq, words) => this.model.holdsWords(seq, words) });

  constructor(
    private readonly webview: vscode.Webview,
    /** The page's html, made anew each time (a fresh nonce: VS Code reloads only a changed html). */
    private readonly pageHtml: () => string,
    private readonly source: InspectorSource,
    private readonly context: InspectorContext,
    select?: number,
  ) {
    this.actions = context.actions;
    this.selectAsked = select;
    // The facts of each exchange, a tools/call result checked against its tool's outputSchema (the row shows a marker).
    this.outputCheck = new OutputCheck((serverId, name) => this.actions.toolOf(serverId, name), source.kind === 'recording' ? source.records : undefined);
    this.model = new RowsModel(this.outputCheck.factsFor, this.replayOf);
    this.channel = new WebviewChannel<PageMessage, ToWebview | ConsoleToWebview>(webview, {
      parse: (raw) => {
        const fromConsole = parseConsoleFromWebview(raw);
        const page = fromConsole ? undefined : parseFromWebview(raw);
        return fromConsole ? { console: fromConsole } : page ? { page } : undefined;
      },
      receive: (message) => this.receive(message),
      ready: () => {
        this.heard.ready++;
        this.ready = true;
        this.hiddenWatch = undefined;
        this.sendRows(this.selectAsked, true);
        this.feed?.sendServers();
      },
      error: (error) => console.error(`MCP Workbench Inspector: ${errorMessage(error)}`),
    });
    this.disposables.push(this.channel);
    if (source.kind === 'live') {
      this.feed = new ConsoleFeed(context.console, (message) => this.postConsole(message), context.servers);
      this.disposables.push(
        source.log.onDidChange((change) => this.logChanged(change)),
        this.actions.onDidMark((seq) => {
          this.changes.updated.add(seq);
          this.scheduleRows();
        }),
        context.onDidChangeServers(() => this.ready && !this.hiddenWatch && this.feed?.sendServers()),
        { dispose: () => this.feed?.dispose() },
      );
    }
    // Last, so that the channel already listens when the page says `ready`.
    webview.html = pageHtml();
  }

  get readOnly(): boolean {
    return this.source.kind === 'recording';
  }

  private records(): readonly InspectorRecord[] {
    return this.source.kind === 'live' ? this.source.log.entries() : this.source.records;
  }

  /** An imported recording's records by seq: every row asks for its replay mark (a 100,000-record file took 80 s by a search each). */
  private recordsBySeq: Map<number, InspectorRecord> | undefined;

  private find(seq: number): InspectorRecord | undefined {
    if (this.source.kind === 'live') return this.source.log.find(seq);
    this.recordsBySeq ??= new Map(this.source.records.map((r) => [r.seq, r]));
    return this.recordsBySeq.get(seq);
  }

  /** The replay mark of an exchange: kept by the actions for live ones, read from the file for imported ones. */
  private replayOf = (seq: number): number | undefined => (this.source.kind === 'live' ? this.actions.replayOf(seq) : this.find(seq)?.replayOf);

  /** The rows last sent to the page, newest first (tests read them). */
  get rows(): InspectorRow[] {
    return this.model.rows;
  }

  /**
   * Selects a row now, or once the page has loaded (a message before `ready` would be lost). The
   * request stands until the page says it selected a row: a page that was reloading when the
   * message went out never got it, and asks again with `ready`.
   * Until the page says so, the selection goes again (SELECT_TRIES times, SELECT_RETRY_MS apart), then the page is
   * loaded anew, once: in 1.100, after the panel was closed and opened, a page left the request
   * unanswered through all three (integration, finalE and CI of stop 39). A page that reloads says
   * `ready` and gets every row and the selection then.
   * `unreachable` is called when that cannot work: VS Code did not deliver the posts (1.100.3 under
   * load, CI of stop 47: a panel view it reported visible had its page released, and setting the
   * html of a released page loads nothing until the view is shown anew), or the page loaded anew
   * has not said `ready` within RELOAD_ANSWER_MS. The caller then shows the exchange elsewhere.
   */
  selectWhenReady(seq: number, unreachable?: () => void): void {
    this.selectAsked = seq;
    const lostBefore = this.channel.lost;
    if (this.ready && !this.hiddenWatch) this.sendRows(seq);
    clearInterval(this.selectRetry);
    clearTimeout(this.reloadWatch);
    let tries = 0;
    this.selectRetry = setInterval(() => {
      if (this.selectAsked !== seq) clearInterval(this.selectRetry);
      else if (++tries > SELECT_TRIES) {
        clearInterval(this.selectRetry);
        if (this.ready && !this.hiddenWatch) {
          this.reloads++;
          const readyBefore = this.heard.ready;
          this.webview.html = this.silentForTests ? SILENT_PAGE : this.pageHtml();
          this.silentForTests = false;
          // The request still stands: a page that loads late selects the row too.
          const gaveUp = () => {
            if (this.selectAsked !== seq || this.heard.ready !== readyBefore) return;
            this.givenUp++;
            unreachable?.();
          };
          if (this.channel.lost > lostBefore) gaveUp();
          else this.reloadWatch = setTimeout(gaveUp, RELOAD_ANSWER_MS);
        }
      } else if (this.ready && !this.hiddenWatch) this.sendRows(seq);
    }, SELECT_RETRY_MS);
  }

  /**
   * Tests: puts a page that never answers in place of this one, as a page VS Code lost would
   * behave; `alsoWhenLoadedAnew`: the next page loaded for a selection is silent too (once).
   */
  silencePageForTests(alsoWhenLoadedAnew = false): void {
    this.silentForTests = alsoWhenLoadedAnew;
    this.webview.html = SILENT_PAGE;
  }
  private silentForTests = false;

  /** Whether the page has loaded and said `ready`. */
  get pageLoaded(): boolean {
    return this.ready;
  }

  /**
   * The view was hidden (a webview view without retained context). VS Code may unload the page
   * or, as 1.100 was seen doing after the panel was closed and opened again, keep it as it was:
   * so nothing is sent while hidden, and `shown` brings a kept page up to date (a reloaded one
   * says `ready` and gets everything then).
   */
  hidden(): void {
    if (this.hiddenWatch) return;
    this.hiddenWatch = { serverId: this.feed?.watching };
    this.batch.cancel();
    this.feed?.watch(undefined);
  }

  shown(): void {
    const was = this.hiddenWatch;
    if (!was) return;
    this.hiddenWatch = undefined;
    if (!this.ready) return;
    // A kept page holds what it was last sent, a reloaded one nothing (it says `ready` too): every row.
    this.sendRows(this.selectAsked, true);
    this.feed?.sendServers();
    if (was.serverId !== undefined && this.feed?.watching === undefined) this.feed?.watch(was.serverId);
  }

  /** Notes what changed for the next batch; while nothing is sent (hidden, not loaded) the next rebuilds every row. */
  private logChanged(change: LogChange): void {
    const changes = this.changes;
    if (change.cleared || !this.ready || this.hiddenWatch) changes.stale = true;
    if (changes.stale) {
      changes.added = [];
      changes.updated.clear();
      changes.removed.clear();
    } else {
      for (const entry of change.added) changes.added.push(entry);
      for (const entry of change.updated) changes.updated.add(entry.seq);
      for (const entry of change.removed) changes.removed.add(entry.seq);
    }
    this.scheduleRows();
  }

  private scheduleRows(): void {
    if (!this.ready || this.hiddenWatch) return;
    this.batch.schedule();
  }

  /** Sends now what changed (and `select`), or every row (`all`). */
  private sendRows(select?: number, all = false): void {
    this.nextSend = { ...(select !== undefined ? { select } : {}), ...(all ? { all } : {}) };
    this.batch.run();
  }

  private flushRows(): void {
    const { select, all } = this.nextSend;
    this.nextSend = {};
    // Read first: reading the log takes in what it has queued, which is a change too.
    const records = this.changes.stale ? this.records() : undefined;
    const changes = this.changes;
    this.changes = { added: [], updated: new Set(), removed: new Set(), stale: false };
    let plan: { kind: 'all' } | { kind: 'delta'; delta: ReturnType<RowsModel['apply']> } | { kind: 'none' };
    if (records) {
      this.model.reset(records);
      plan = { kind: 'all' };
    } else {
      const delta = this.model.apply(changes);
      // A delta that carries as many rows as there are is no cheaper for either side than all the rows.
      plan =
        all || !this.pageHolds || (this.model.size > 0 && delta.rows.length >= this.model.size)
          ? { kind: 'all' }
          : isEmptyDelta(delta)
            ? { kind: 'none' }
            : { kind: 'delta', delta };
    }
    const next = this.model.rows;
    if (plan.kind === 'all') {
      this.sent.all++;
      this.post({
        type: 'rows',
        rows: next,
        readOnly: this.source.kind === 'recording',
        ...(this.source.kind === 'recording' ? { source: this.source.fileName } : {}),
        ...(select !== undefined ? { select } : {}),
      });
    } else if (plan.kind === 'delta' || select !== undefined) {
      this.sent.deltas++;
      const delta = plan.kind === 'delta' ? plan.delta : { remove: [], rows: [], insert: [] };
      this.post({ type: 'rowsDelta', ...delta, ...(select !== undefined ? { select } : {}) });
    }
    this.pageHolds = true;
    this.onDidUpdateEmitter.fire(next);
  }

  private post(message: ToWebview): void {
    this.channel.post(message);
  }

  private postConsole(message: ConsoleToWebview): void {
    if (message.type === 'consoleLines') {
      this.consoleShown = message.reset ? [message] : [...this.consoleShown, message].slice(-100);
    }
    this.channel.post(message);
  }

  /** The server (or all servers) whose Console lines the page is fed. */
  get consoleWatching(): string | undefined {
    return this.feed?.watching;
  }

  /** Starts feeding a server's console lines to the page, as its Console tab does (tests call it too). */
  watchConsole(serverId: string | undefined): void {
    this.feed?.watch(serverId);
  }

  private async receive(received: PageMessage): Promise<void> {
    if ('console' in received) {
      const consoleMessage = received.console;
      if (consoleMessage.type === 'consoleWatch') this.watchConsole(consoleMessage.serverId);
      else if (consoleMessage.type === 'consoleExport') await this.context.exportConsole(consoleMessage.serverId);
      else this.feed?.clear(consoleMessage.serverId);
      return;
    }
    const message = received.page;
    this.heard.messages++;
    this.heard.last = message.type;
    switch (message.type) {
      case 'ready': // answered by the channel (its ready handler, in the constructor)
        return;
      case 'select':
        // The asked row, or the user's own choice, ends the request; the row a reloaded page had
        // selected before (it asks for its detail again) does not: the asked row still comes.
        if (message.seq === this.selectAsked || !message.refresh) this.selectAsked = undefined;
        this.selected = message.seq;
        this.post(this.detail(message.seq));
        return;
      case 'copy': {
        const record = this.find(message.seq);
        if (!record) return;
        const value =
          message.part === 'request' ? record.request : message.part === 'response' ? record.response : { request: record.request, response: record.response };
        await vscode.env.clipboard.writeText(JSON.stringify(value ?? null, null, 2));
        return;
      }
      case 'export':
        await (message.format === 'har' ? this.exportHar() : this.export());
        return;
      case 'import':
        await this.context.importFile();
        return;
      case 'action':
        await this.act(message.action, message.seq, message.params);
        return;
      case 'cancelReplay':
        this.cancelReplay(message.seq);
        return;
      case 'search':
        this.search.run(message.text, (seqs) => this.post({ type: 'searchMatches', text: message.text, seqs }));
        return;
      case 'startServer': {
        const record = this.find(message.seq);
        if (record) await this.actions.startServer(record, (status) => this.post(status));
        return;
      }
      case 'error':
        this.heard.error = message.message.slice(0, 300);
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
      post({ type: 'actionStatus', seq, action, kind: 'error', text: errorMessage(error) });
    }
    return shown;
  }

  /** The Cancel button of a replay in flight: the SDK sends notifications/cancelled; false when it had ended. */
  cancelReplay(seq: number): boolean {
    return this.actions.cancelReplay(seq);
  }

  /** One exchange's redacted messages (read through the log's getters: redacted on read). */
  detail(seq: number): Extract<ToWebview, { type: 'detail' }> {
    const record = this.find(seq);
    if (!record)
      return {
        type: 'detail',
        seq,
        request: undefined,
        note: vscode.l10n.t('This exchange is no longer in the activity log (see the mcpWorkbench.activity.maxEntries setting).'),
      };
    const response = record.response;
    let note: string | undefined;
    if (record.kind === 'notification') note = vscode.l10n.t('A notification has no response.');
    else if (record.status.kind === 'pending') note = vscode.l10n.t('No response yet.');
    else if (response === undefined) {
      note =
        record.status.kind === 'cancelled'
          ? vscode.l10n.t('Cancelled before a response arrived{0}.', record.status.reason ? `: ${record.status.reason}` : '')
          : vscode.l10n.t('No response: {0}', record.status.kind === 'error' ? record.status.message : record.status.kind);
    }
    const replayOf = this.replayOf(seq);
    const { outputIssues } = this.outputCheck.factsFor(record);
    return {
      type: 'detail',
      seq,
      request: record.request,
      ...(response !== undefined ? { response } : {}),
      ...(note ? { note } : {}),
      ...this.actions.offers(record, this.source.kind === 'recording'),
      ...(replayOf !== undefined ? { replayOf } : {}),
      ...(outputIssues?.length ? { outputIssues: [...outputIssues] } : {}),
      ...(this.source.kind === 'live' && record.status.kind === 'pending' && this.actions.replayInFlight(seq) ? { cancellable: true } : {}),
      ...httpPart(this.httpOf(record)),
    };
  }

  /** The HTTP exchanges behind an exchange: linked now (live), or as the recording carries them. */
  httpOf = (record: InspectorRecord): readonly HttpExchangeView[] | undefined =>
    this.source.kind === 'live' ? this.context.http.exchangesFor(record.serverId, record) : record.http;

  /** Saves the HTTP exchanges of the live recording as HAR 1.2 (built from redacted views only). */
  exportHar(target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    return exportHarToFile(this.source.kind === 'live' ? this.context.http : undefined, target);
  }

  /** Saves the recording as JSON Lines (redacted: the log's getters are the only way to its messages). */
  export(target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    return exportToFile(this.records(), { replayOf: this.replayOf, httpOf: this.httpOf }, target);
  }

  dispose(): void {
    clearInterval(this.selectRetry);
    clearTimeout(this.reloadWatch);
    this.batch.cancel();
    this.search.cancel();
    this.onDidUpdateEmitter.dispose();
    this.disposables.dispose();
  }
}

const httpPart = (http: readonly HttpExchangeView[] | undefined) => (http?.length ? { http: [...http] } : {});
