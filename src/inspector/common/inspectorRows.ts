/**
 * The Inspector's rows: JSON-RPC exchanges (live from the activity log, or imported from a
 * recording) summarized once, as rows arranged in a tree by rowsModel.ts (notifications under
 * the request they belong to, later rounds of a multi-round-trip request under its first round).
 * Pure, and free of Node APIs: the webview filters with the same code (`filterRows`).
 */

import type { ActivityEntry } from '../../traffic/common/activityEntry';
import type { HttpExchangeView } from '../../traffic/common/httpExchange';
import * as l10n from '@vscode/l10n';
import type { ExchangeFacts } from '../../traffic/common/exchangeFacts';
import { timeOfDay } from '../../shared/common/durations';

/**
 * One exchange as the Inspector reads it: an activity log entry (its `request`/`response` are
 * redacting getters) without the re-run data, or a record of an imported recording. Type-only
 * import: nothing of the log reaches the webview bundle.
 */
export type InspectorRecord = Readonly<Omit<ActivityEntry, 'rerun' | 'rerunUnavailable'>> & {
  /** An imported recording's HTTP exchanges behind this one (live ones are linked when opened). */
  readonly http?: readonly HttpExchangeView[];
  /** An imported exchange that was sent by Replay from the exchange with this seq (live ones: the replay marks). */
  readonly replayOf?: number;
};

/** What the Inspector reads of an exchange: the traffic model's facts, and how a tool result keeps to its outputSchema. */
export type RowFacts = ExchangeFacts & {
  /** The result breaks the tool's outputSchema this way (see outputSchemaIssues); absent: not checked, or fine. */
  outputIssues?: readonly string[];
};

/** A row's one-line summary of outputSchema issues. */
export function outputIssueLine(issues: readonly string[]): string {
  return issues.length > 1 ? `${issues[0]} (+${issues.length - 1} more)` : (issues[0] ?? '');
}

/** How an exchange ended, as the Inspector colours it. `toolError` is a result with `isError: true`. */
export type RowStatus = 'pending' | 'result' | 'rpcError' | 'toolError' | 'cancelled' | 'notification';

/** What a row shows; server text (`serverLabel`, `name`, `statusText`) is plain text for `textContent`. */
export interface InspectorRow {
  seq: number;
  serverId: string;
  serverLabel: string;
  method: string;
  /** The tool, resource or prompt the request names (`params.name` / `params.uri`). */
  name?: string;
  /** A log or progress notification's message (`warning: disk almost full`, `3/10 Indexing…`), or how a handshake's era was decided. */
  note?: string;
  kind: 'request' | 'notification';
  direction: 'send' | 'receive';
  startedAt: number;
  /** Milliseconds from request to response (requests only, once answered). */
  latencyMs?: number;
  /** Bytes of request + response JSON. */
  size: number;
  status: RowStatus;
  /** JSON-RPC error message, cancel reason or the tool error's first text. */
  statusText?: string;
  round?: number;
  /** This exchange was sent by Replay from the exchange with this seq. */
  replayOf?: number;
  /** A tools/call result whose structuredContent breaks the tool's outputSchema: the first issue (and how many more). */
  outputIssue?: string;
  /** Rows nested under this one: its notifications and later rounds, oldest first. */
  children: InspectorRow[];
}

/** The Inspector's status of an exchange: a result with `isError` is an error, not a success. */
export function classify(record: Pick<InspectorRecord, 'kind' | 'status'>, facts: ExchangeFacts): { status: RowStatus; statusText?: string } {
  const s = record.status;
  switch (s.kind) {
    case 'pending':
      return { status: 'pending' };
    case 'cancelled':
      return { status: 'cancelled', statusText: s.reason };
    case 'error':
      return { status: 'rpcError', statusText: s.code !== undefined ? `${s.code}: ${s.message}` : s.message };
    case 'ok':
      if (record.kind === 'notification') return { status: 'notification' };
      return facts.isError ? { status: 'toolError', statusText: facts.errorText } : { status: 'result' };
  }
}

/** What the filter bar holds. Empty fields match everything. */
export interface RowFilter {
  serverId?: string;
  method?: string;
  errorsOnly?: boolean;
  /** Words that must all occur (case-insensitive) in server, method, name, message or status text (or the payloads: `payloadMatches`). */
  text?: string;
  /** Leave out ping requests (either way): a server pinged every few seconds fills the list. */
  hidePings?: boolean;
}

export function isErrorStatus(status: RowStatus): boolean {
  return status === 'rpcError' || status === 'toolError';
}

function matchesRow(row: InspectorRow, filter: RowFilter, words: string[], hays: HayCache | undefined, payloads: ReadonlySet<number> | undefined): boolean {
  if (filter.serverId && row.serverId !== filter.serverId) return false;
  if (filter.method && row.method !== filter.method) return false;
  if (filter.errorsOnly && !isErrorStatus(row.status)) return false;
  if (filter.hidePings && row.method === 'ping') return false;
  if (!words.length || payloads?.has(row.seq)) return true;
  const hay = hayOf(row, hays);
  return words.every((w) => hay.includes(w));
}

/**
 * What the text filter searches in each row, lower-cased once per row (the page keeps one):
 * typing a filter over a 100,000-row recording then costs a lookup per row, not a string built
 * per row and keystroke. Of those fields only the status text changes once a row exists (a delta
 * patches it in place).
 */
export type HayCache = WeakMap<InspectorRow, { statusText: string | undefined; hay: string }>;

export const rowHay = (row: InspectorRow): string =>
  `${row.serverLabel} ${row.method} ${row.name ?? ''} ${row.note ?? ''} ${row.statusText ?? ''}`.toLowerCase();

function hayOf(row: InspectorRow, hays: HayCache | undefined): string {
  if (!hays) return rowHay(row);
  const cached = hays.get(row);
  if (cached && cached.statusText === row.statusText) return cached.hay;
  const hay = rowHay(row);
  hays.set(row, { statusText: row.statusText, hay });
  return hay;
}

/** The words of a text filter, lower-cased: each must occur. */
export const filterWords = (text: string | undefined): string[] => (text ?? '').toLowerCase().split(/\s+/).filter(Boolean);

/**
 * The rows that match, keeping the tree: a row is shown when it or one of its children matches
 * (then with only its matching children, unless it matches itself and the filter is about
 * server or text, where its notifications are context worth keeping). `payloads`: the rows whose
 * messages hold every word of the text (the host searched them: the page has no payloads).
 */
export function filterRows(rows: readonly InspectorRow[], filter: RowFilter, hays?: HayCache, payloads?: ReadonlySet<number>): InspectorRow[] {
  // The words once per filtering, not once per row: a recording may hold 100,000 rows.
  const words = filterWords(filter.text);
  const keepChildren = !(filter.errorsOnly || filter.method);
  const visit = (list: readonly InspectorRow[]): InspectorRow[] => {
    const out: InspectorRow[] = [];
    for (const row of list) {
      const children = row.children.length ? visit(row.children) : NO_ROWS;
      if (matchesRow(row, filter, words, hays, payloads)) out.push(keepChildren ? row : { ...row, children });
      else if (children.length) out.push({ ...row, children });
    }
    return out;
  };
  return visit(rows);
}

/** The filtered children of a row without any (frozen: shared). */
const NO_ROWS = Object.freeze([]) as unknown as InspectorRow[];

/** `HH:MM:SS.mmm` in local time. */
export function formatClock(ms: number): string {
  return timeOfDay(ms, true);
}

/** The short name of a nested row's kind in a call's summary: "progress" and "log" for its notifications, else its method. */
function groupLabel(method: string, count: number): string {
  if (method === 'notifications/progress') return l10n.t('{0} progress', count);
  if (method === 'notifications/message') return l10n.t('{0} log', count);
  return `${count} ${method}`;
}

/** What is nested under a row, counted by kind in order of first appearance: "10 progress, 9 log". */
export function groupSummary(children: readonly InspectorRow[]): string {
  const counts = new Map<string, number>();
  for (const child of children) counts.set(child.method, (counts.get(child.method) ?? 0) + 1);
  return [...counts].map(([method, count]) => groupLabel(method, count)).join(', ');
}

/** Servers and methods present, for the filter dropdowns. */
export function filterChoices(rows: readonly InspectorRow[]): { servers: { id: string; label: string }[]; methods: string[] } {
  const servers = new Map<string, string>();
  const methods = new Set<string>();
  const visit = (list: readonly InspectorRow[]) => {
    for (const row of list) {
      servers.set(row.serverId, row.serverLabel);
      methods.add(row.method);
      visit(row.children);
    }
  };
  visit(rows);
  return { servers: [...servers].map(([id, label]) => ({ id, label })).sort((a, b) => a.label.localeCompare(b.label)), methods: [...methods].sort() };
}
