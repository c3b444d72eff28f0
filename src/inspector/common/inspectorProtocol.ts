/**
 * The messages between the Inspector panel (extension host, `src/inspector/inspectorPanel.ts`)
 * and its webview (`webview/inspector/main.ts`). Defined once here, imported by both sides, and
 * checked on arrival by both (`parseFromWebview` in the host, `parseToWebview` in the page).
 *
 * Lifecycle: the webview posts `ready`; the host answers with `rows` (every row), then, as the
 * log changes, `rowsDelta` (what changed since its last message, coalesced: rowsBatch.ts); a
 * page shown again gets `rows` once more. `select` asks for one exchange's messages; the host answers `detail`
 * with the same `seq` (the page ignores an answer for a row no longer selected).
 */
import type { InspectorRow } from './inspectorRows';
import type { RowData, RowsDelta } from './rowsDelta';
import type { HttpExchangeView, HttpHeader } from '../../traffic/common/httpExchange';

/** Host → webview. All strings are server text: the page sets them with `textContent` only. */
export type ToWebview =
  | {
      type: 'rows';
      rows: InspectorRow[];
      /** An imported recording: no export, no live updates; `source` names the file. */
      readOnly: boolean;
      source?: string;
      /** Select this row (opened from an Activity entry). */
      select?: number;
    }
  | ({
      /** What changed since the last `rows` or `rowsDelta` (see rowsDelta.ts). */
      type: 'rowsDelta';
      /** Select this row (opened from an Activity entry). */
      select?: number;
    } & RowsDelta)
  | {
      type: 'detail';
      seq: number;
      /** The redacted messages as parsed JSON (undefined when there is none, e.g. still pending). */
      request: unknown;
      response?: unknown;
      /** Why there is no response (pending, cancelled, no longer in the log). */
      note?: string;
      /** Why Replay is not offered (a notification, a server's request, a read-only recording); absent: offered. */
      replayUnavailable?: string;
      /** A tools/call: Open in Run Tool is offered. */
      runTool?: boolean;
      /** Why Copy as Inspector CLI Command is not offered; absent: offered. */
      cliUnavailable?: string;
      /** This exchange replays the one with this seq. */
      replayOf?: number;
      /** HTTP servers: the HTTP exchange(s) that carried it, redacted (absent for stdio). */
      http?: HttpExchangeView[];
      /** A replay still in flight: the Cancel button is offered. */
      cancellable?: boolean;
      /** A tools/call result whose structuredContent breaks the tool's outputSchema: each issue, one line. */
      outputIssues?: string[];
    }
  | {
      /** The answer to a replay, runTool or copyCli of the exchange `seq`, shown in one line in its detail. */
      type: 'actionStatus';
      seq: number;
      action: DetailAction;
      /** `notRunning` offers a Start Server button beside the text; `warning`: done, with something to look at. */
      kind: 'info' | 'warning' | 'error' | 'notRunning';
      text: string;
      /** The new exchange a replay created (the page selects it). */
      newSeq?: number;
    }
  | {
      /** The answer to `search`: the exchanges whose redacted messages hold every word of `text`. */
      type: 'searchMatches';
      text: string;
      seqs: number[];
    };

/** What the detail pane's buttons ask of the host; `params` is the edited params text (JSON). */
export type DetailAction = 'replay' | 'runTool' | 'copyCli';
const ACTIONS = new Set<string>(['replay', 'runTool', 'copyCli']);
/** Bigger params text is refused (the log keeps tool arguments for replay up to 64 KB anyway). */
export const MAX_PARAMS_TEXT = 1024 * 1024;

/** Webview → host. */
export type FromWebview =
  | { type: 'ready' }
  /** `refresh`: the page asks again for the detail of the row already selected (it reloaded, or the exchange changed): not a new choice. */
  | { type: 'select'; seq: number; refresh?: true }
  | { type: 'copy'; seq: number; part: 'request' | 'response' | 'both' }
  | { type: 'export'; format: 'jsonl' | 'har' }
  | { type: 'import' }
  | { type: 'action'; action: DetailAction; seq: number; params: string }
  /** The Start Server button of a `notRunning` status. */
  | { type: 'startServer'; seq: number }
  /** The Cancel button of a replay in flight (`seq`: the replay's exchange). */
  | { type: 'cancelReplay'; seq: number }
  /** The filter's text, to search the exchanges' payloads for (answered by `searchMatches`). */
  | { type: 'search'; text: string }
  /** An uncaught error in the webview script, for the log. */
  | { type: 'error'; message: string };

/** Longer filter text is not searched for in the payloads (words that long match nothing anyway). */
export const MAX_SEARCH_TEXT = 1000;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isSeq = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;

export function parseFromWebview(message: unknown): FromWebview | undefined {
  if (!isRecord(message) || typeof message.type !== 'string') return undefined;
  switch (message.type) {
    case 'ready':
      return { type: 'ready' };
    case 'export':
      return { type: 'export', format: message.format === 'har' ? 'har' : 'jsonl' };
    case 'import':
      return { type: 'import' };
    case 'select':
      return isSeq(message.seq) ? { type: 'select', seq: message.seq, ...(message.refresh === true ? { refresh: true as const } : {}) } : undefined;
    case 'copy':
      return isSeq(message.seq) && (message.part === 'request' || message.part === 'response' || message.part === 'both')
        ? { type: 'copy', seq: message.seq, part: message.part }
        : undefined;
    case 'error':
      return typeof message.message === 'string' ? { type: 'error', message: message.message.slice(0, 2000) } : undefined;
    case 'action':
      return isSeq(message.seq) &&
        typeof message.action === 'string' &&
        ACTIONS.has(message.action) &&
        typeof message.params === 'string' &&
        message.params.length <= MAX_PARAMS_TEXT
        ? { type: 'action', action: message.action as DetailAction, seq: message.seq, params: message.params }
        : undefined;
    case 'startServer':
      return isSeq(message.seq) ? { type: 'startServer', seq: message.seq } : undefined;
    case 'cancelReplay':
      return isSeq(message.seq) ? { type: 'cancelReplay', seq: message.seq } : undefined;
    case 'search':
      return typeof message.text === 'string' && message.text.length <= MAX_SEARCH_TEXT ? { type: 'search', text: message.text } : undefined;
    default:
      return undefined;
  }
}

const STATUSES = new Set(['pending', 'result', 'rpcError', 'toolError', 'cancelled', 'notification']);

function isRow(v: unknown, depth = 0): v is InspectorRow {
  return isRowData(v) && depth < 4 && Array.isArray(v.children) && v.children.every((c) => isRow(c, depth + 1));
}

function isRowData(v: unknown): v is RowData & Record<string, unknown> {
  return (
    isRecord(v) &&
    isSeq(v.seq) &&
    typeof v.serverId === 'string' &&
    typeof v.serverLabel === 'string' &&
    typeof v.method === 'string' &&
    (v.name === undefined || typeof v.name === 'string') &&
    (v.note === undefined || typeof v.note === 'string') &&
    typeof v.startedAt === 'number' &&
    typeof v.size === 'number' &&
    (v.latencyMs === undefined || typeof v.latencyMs === 'number') &&
    typeof v.status === 'string' &&
    STATUSES.has(v.status) &&
    (v.statusText === undefined || typeof v.statusText === 'string') &&
    (v.replayOf === undefined || isSeq(v.replayOf)) &&
    (v.outputIssue === undefined || typeof v.outputIssue === 'string')
  );
}

const isInsert = (v: unknown): v is RowsDelta['insert'][number] =>
  isRecord(v) && (v.parent === 0 || isSeq(v.parent)) && (v.before === undefined || isSeq(v.before)) && Array.isArray(v.seqs) && v.seqs.every(isSeq);

const isHeader = (v: unknown): v is HttpHeader => isRecord(v) && typeof v.name === 'string' && typeof v.value === 'string';
const optional = (v: unknown, type: 'string' | 'number') => v === undefined || typeof v === type;

/** An HTTP exchange's shape (also what an imported recording must carry to show one). */
export function isHttpView(v: unknown): v is HttpExchangeView {
  return (
    isRecord(v) &&
    typeof v.startedAt === 'number' &&
    typeof v.method === 'string' &&
    typeof v.url === 'string' &&
    Array.isArray(v.requestHeaders) &&
    v.requestHeaders.every(isHeader) &&
    Array.isArray(v.responseHeaders) &&
    v.responseHeaders.every(isHeader) &&
    optional(v.status, 'number') &&
    optional(v.statusText, 'string') &&
    optional(v.headersMs, 'number') &&
    optional(v.totalMs, 'number') &&
    optional(v.sessionId, 'string') &&
    optional(v.requestBytes, 'number') &&
    optional(v.responseBytes, 'number') &&
    optional(v.error, 'string') &&
    optional(v.requestBody, 'string') &&
    optional(v.link, 'string')
  );
}

/** The page's check of what the host sent (a message of another shape is ignored). */
export function parseToWebview(message: unknown): ToWebview | undefined {
  if (!isRecord(message)) return undefined;
  if (message.type === 'rows') {
    if (!Array.isArray(message.rows) || !message.rows.every((r) => isRow(r)) || typeof message.readOnly !== 'boolean') return undefined;
    return {
      type: 'rows',
      rows: message.rows,
      readOnly: message.readOnly,
      ...(typeof message.source === 'string' ? { source: message.source } : {}),
      ...(isSeq(message.select) ? { select: message.select } : {}),
    };
  }
  if (message.type === 'rowsDelta') {
    const { remove, rows, insert } = message;
    if (!Array.isArray(remove) || !remove.every(isSeq) || !Array.isArray(rows) || !rows.every(isRowData) || !Array.isArray(insert) || !insert.every(isInsert))
      return undefined;
    return { type: 'rowsDelta', remove, rows, insert, ...(isSeq(message.select) ? { select: message.select } : {}) };
  }
  if (message.type === 'detail') {
    if (!isSeq(message.seq)) return undefined;
    return {
      type: 'detail',
      seq: message.seq,
      request: message.request,
      response: message.response,
      ...(typeof message.note === 'string' ? { note: message.note } : {}),
      ...(typeof message.replayUnavailable === 'string' ? { replayUnavailable: message.replayUnavailable } : {}),
      ...(message.runTool === true ? { runTool: true } : {}),
      ...(typeof message.cliUnavailable === 'string' ? { cliUnavailable: message.cliUnavailable } : {}),
      ...(isSeq(message.replayOf) ? { replayOf: message.replayOf } : {}),
      ...(Array.isArray(message.http) && message.http.every(isHttpView) ? { http: message.http } : {}),
      ...(message.cancellable === true ? { cancellable: true } : {}),
      ...(Array.isArray(message.outputIssues) && message.outputIssues.every((i) => typeof i === 'string') ? { outputIssues: message.outputIssues } : {}),
    };
  }
  if (message.type === 'actionStatus') {
    if (
      !isSeq(message.seq) ||
      typeof message.action !== 'string' ||
      !ACTIONS.has(message.action) ||
      typeof message.text !== 'string' ||
      (message.kind !== 'info' && message.kind !== 'warning' && message.kind !== 'error' && message.kind !== 'notRunning')
    )
      return undefined;
    return {
      type: 'actionStatus',
      seq: message.seq,
      action: message.action as DetailAction,
      kind: message.kind,
      text: message.text,
      ...(isSeq(message.newSeq) ? { newSeq: message.newSeq } : {}),
    };
  }
  if (message.type === 'searchMatches') {
    if (typeof message.text !== 'string' || !Array.isArray(message.seqs) || !message.seqs.every(isSeq)) return undefined;
    return { type: 'searchMatches', text: message.text, seqs: message.seqs };
  }
  return undefined;
}
