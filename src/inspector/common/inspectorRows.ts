/**
 * The Inspector's row model: JSON-RPC exchanges (live from the activity log, or imported from a
 * recording) summarized once, then arranged as rows: notifications under the request they
 * belong to, later rounds of a multi-round-trip request under its first round. Pure, and free
 * of Node APIs: the webview filters with the same code (`filterRows`).
 */

import type { ActivityEntry } from '../../traffic/common/activityEntry';
import type { HttpExchangeView } from '../../traffic/common/httpExchange';
import type { ExchangeFacts } from '../../traffic/common/exchangeFacts';

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

/** Notifications that report on a request in flight: nested under it rather than listed apart. */
const REQUEST_NOTIFICATIONS = new Set(['notifications/progress', 'notifications/message']);

/**
 * Rows, newest first. A task's tasks/* requests and status notifications go under the call that
 * created the task. A progress notification goes under the request with its progress token; a
 * progress or log notification without one goes under the server's one request in flight at
 * that moment (when exactly one was, not counting pings: otherwise it stays on its own). Later rounds of a
 * multi-round-trip request go under its first round.
 */
export function buildRows(
  records: readonly InspectorRecord[],
  factsFor: (record: InspectorRecord) => ExchangeFacts,
  replayOf: (seq: number) => number | undefined = () => undefined,
): InspectorRow[] {
  const oldestFirst = [...records].sort((a, b) => a.seq - b.seq);
  const rows = new Map<number, InspectorRow>();
  const facts = new Map<number, ExchangeFacts>();
  const byToken = new Map<string, InspectorRow>();
  /** Requests that created a task (tools/call run as a task), by server + task id. */
  const byTask = new Map<string, InspectorRow>();
  const top: InspectorRow[] = [];
  /** Requests by server: a flood's notifications look for theirs among one server's, not every server's. */
  const requests = new Map<string, InspectorRecord[]>();
  for (const record of oldestFirst) {
    const f = factsFor(record);
    facts.set(record.seq, f);
    const { status, statusText } = classify(record, f);
    const row: InspectorRow = {
      seq: record.seq,
      serverId: record.serverId,
      serverLabel: record.serverLabel,
      method: record.method,
      ...(f.name !== undefined ? { name: f.name } : {}),
      kind: record.kind,
      direction: record.direction,
      startedAt: record.startedAt,
      ...(record.kind === 'request' && record.endedAt !== undefined ? { latencyMs: record.endedAt - record.startedAt } : {}),
      size: record.requestSize + (record.responseSize ?? 0),
      status,
      ...(statusText !== undefined ? { statusText } : {}),
      ...(record.round !== undefined ? { round: record.round } : {}),
      ...(replayOf(record.seq) !== undefined ? { replayOf: replayOf(record.seq) } : {}),
      children: [],
    };
    rows.set(record.seq, row);
    const parent = parentOf(record, f, rows, byToken, requests, byTask);
    if (parent) {
      parent.children.push(row);
      // A tool call run as a task ends with its tasks/result: a failure there is the call's failure.
      if (record.method === 'tasks/result' && isErrorStatus(row.status) && facts.get(parent.seq)?.taskId === f.taskId) {
        parent.status = row.status;
        if (row.statusText !== undefined) parent.statusText = row.statusText;
      }
    } else top.push(row);
    if (record.kind === 'request') {
      const ofServer = requests.get(record.serverId);
      if (ofServer) ofServer.push(record);
      else requests.set(record.serverId, [record]);
      if (f.progressToken !== undefined) byToken.set(tokenKey(record.serverId, f.progressToken), row);
      if (f.taskId !== undefined && !record.method.startsWith('tasks/') && !parent) byTask.set(tokenKey(record.serverId, f.taskId), row);
    }
  }
  return top.reverse();
}

function tokenKey(serverId: string, token: string | number): string {
  return `${serverId}\u0000${typeof token}:${token}`;
}

function parentOf(
  record: InspectorRecord,
  facts: ExchangeFacts,
  rows: Map<number, InspectorRow>,
  byToken: Map<string, InspectorRow>,
  requests: Map<string, InspectorRecord[]>,
  byTask: Map<string, InspectorRow>,
): InspectorRow | undefined {
  if (record.originSeq !== undefined) return rows.get(record.originSeq);
  // A task's polling, result and status notifications belong to the call that created it.
  if (facts.taskId !== undefined && (record.method.startsWith('tasks/') || record.method.startsWith('notifications/tasks/'))) {
    const creator = byTask.get(tokenKey(record.serverId, facts.taskId));
    if (creator) return creator;
  }
  if (record.kind !== 'notification' || record.direction !== 'receive' || !REQUEST_NOTIFICATIONS.has(record.method)) return undefined;
  if (facts.progressToken !== undefined) {
    const byProgress = byToken.get(tokenKey(record.serverId, facts.progressToken));
    if (byProgress) return byProgress;
  }
  // A ping does no work that could report progress or log: a notification that arrives while
  // one is in flight (its own request long evicted from the log, say) is not its child.
  const inFlight = (requests.get(record.serverId) ?? []).filter(
    (r) => r.direction === 'send' && r.method !== 'ping' && r.startedAt <= record.startedAt && (r.endedAt === undefined || r.endedAt >= record.startedAt),
  );
  return inFlight.length === 1 ? rows.get(inFlight[0].seq) : undefined;
}

/** What the filter bar holds. Empty fields match everything. */
export interface RowFilter {
  serverId?: string;
  method?: string;
  errorsOnly?: boolean;
  /** Words that must all occur (case-insensitive) in server, method, name or status text. */
  text?: string;
}

export function isErrorStatus(status: RowStatus): boolean {
  return status === 'rpcError' || status === 'toolError';
}

function matchesRow(row: InspectorRow, filter: RowFilter, words: string[]): boolean {
  if (filter.serverId && row.serverId !== filter.serverId) return false;
  if (filter.method && row.method !== filter.method) return false;
  if (filter.errorsOnly && !isErrorStatus(row.status)) return false;
  if (!words.length) return true;
  const hay = `${row.serverLabel} ${row.method} ${row.name ?? ''} ${row.statusText ?? ''}`.toLowerCase();
  return words.every((w) => hay.includes(w));
}

/**
 * The rows that match, keeping the tree: a row is shown when it or one of its children matches
 * (then with only its matching children, unless it matches itself and the filter is about
 * server or text, where its notifications are context worth keeping).
 */
export function filterRows(rows: readonly InspectorRow[], filter: RowFilter): InspectorRow[] {
  const words = (filter.text ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const out: InspectorRow[] = [];
  for (const row of rows) {
    const children = filterRows(row.children, filter);
    if (matchesRow(row, filter, words)) out.push(filter.errorsOnly || filter.method ? { ...row, children } : row);
    else if (children.length) out.push({ ...row, children });
  }
  return out;
}

/** `HH:MM:SS.mmm` in local time. */
export function formatClock(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
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
