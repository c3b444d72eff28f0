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

function matchesRow(row: InspectorRow, filter: RowFilter, words: string[], payloads: ReadonlySet<number> | undefined): boolean {
  if (filter.serverId && row.serverId !== filter.serverId) return false;
  if (filter.method && row.method !== filter.method) return false;
  if (filter.errorsOnly && !isErrorStatus(row.status)) return false;
  if (filter.hidePings && row.method === 'ping') return false;
  if (!words.length || payloads?.has(row.seq)) return true;
  return rowHasWords(row, words);
}

/**
 * Whether one of the fields the text filter searches holds `word` (lower-cased, no spaces: it
 * never spans two fields). Nothing is kept per row: a lower-cased string per row, cached, was
 * 100,000 objects the garbage collector had to copy and mark while typing in a big recording's
 * filter (issue 29). Nothing is built either for a field that `toLowerCase` would leave as it is.
 */
function hasWord(row: InspectorRow, word: string): boolean {
  return (
    fieldHas(row.serverLabel, word) ||
    fieldHas(row.method, word) ||
    (row.name !== undefined && fieldHas(row.name, word)) ||
    (row.note !== undefined && fieldHas(row.note, word)) ||
    (row.statusText !== undefined && fieldHas(row.statusText, word))
  );
}

/** A character `toLowerCase` may change: an ASCII capital, or any beyond ASCII. */
const CASED = /[A-Z\u0080-\uffff]/;

function fieldHas(field: string, word: string): boolean {
  return field.includes(word) || (CASED.test(field) && field.toLowerCase().includes(word));
}

/** The words of a text filter, lower-cased: each must occur. */
export const filterWords = (text: string | undefined): string[] => (text ?? '').toLowerCase().split(/\s+/).filter(Boolean);

/**
 * The rows that match, keeping the tree: a row is shown when it or one of its children matches
 * (then with only its matching children, unless it matches itself and the filter is about
 * server or text, where its notifications are context worth keeping). `payloads`: the rows whose
 * messages hold every word of the text (the host searched them: the page has no payloads).
 */
export function filterRows(rows: readonly InspectorRow[], filter: RowFilter, payloads?: ReadonlySet<number>): InspectorRow[] {
  const keep = rowFilter(filter, payloads);
  const out: InspectorRow[] = [];
  for (const row of rows) {
    const shown = keep(row);
    if (shown) out.push(shown);
  }
  return out;
}

/**
 * `filterRows` for one top-level row at a time: what `row` shows as (itself, a copy with only its
 * matching children) or undefined (hidden). Made once per filtering (the words are split once,
 * not per row: a recording may hold 100,000 rows); a sliced render feeds its answers to the
 * layout as it goes, with no list made per slice (issue 29).
 */
export function rowFilter(filter: RowFilter, payloads?: ReadonlySet<number>): (row: InspectorRow) => InspectorRow | undefined {
  const words = filterWords(filter.text);
  const keepChildren = !(filter.errorsOnly || filter.method);
  const keep = (row: InspectorRow): InspectorRow | undefined => {
    const matches = matchesRow(row, filter, words, payloads);
    // A matching row that keeps its children as they are needs them not filtered (nothing built to be dropped).
    if (matches && keepChildren) return row;
    const children = (row.children.length && visit(row.children)) || NO_ROWS;
    return matches || children.length ? { ...row, children } : undefined;
  };
  const visit = (list: readonly InspectorRow[]): InspectorRow[] | undefined => {
    // Made for the first row shown: most calls of a big recording have no child that matches.
    let out: InspectorRow[] | undefined;
    for (const row of list) {
      const shown = keep(row);
      if (shown) (out ??= []).push(shown);
    }
    return out;
  };
  return keep;
}

/** Whether `row`'s own fields hold every one of `words` (lower-cased: `filterWords`). */
export function rowHasWords(row: InspectorRow, words: readonly string[]): boolean {
  for (const word of words) if (!hasWord(row, word)) return false;
  return true;
}

/**
 * Whether the host's payload matches `seqs` for `filter`'s words show a row the words alone do
 * not: only a row that passes the other fields and lacks a word in its own fields is shown
 * because of its payload. When none is (the host leaves out the rows that hold the words
 * themselves), the list as filtered by the words is already the answer and is not laid out again.
 */
export function payloadsShowMore(filter: RowFilter, seqs: Iterable<number>, find: (seq: number) => InspectorRow | undefined): boolean {
  const words = filterWords(filter.text);
  if (!words.length) return false;
  const others: RowFilter = { ...filter, text: undefined };
  for (const seq of seqs) {
    const row = find(seq);
    if (row && matchesRow(row, others, [], undefined) && !rowHasWords(row, words)) return true;
  }
  return false;
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

/** Pixels a shown row takes: its first line, and each further line (a round, a status text). */
export interface LineHeights {
  first: number;
  more: number;
}

/** Lines a row takes: its own, and one each for a round and a status text (they span the columns below). */
export function linesOf(row: InspectorRow): number {
  return 1 + (row.round !== undefined ? 1 : 0) + ((row.statusText && isErrorStatus(row.status)) || row.status === 'cancelled' ? 1 : 0);
}

/**
 * The shown rows (filtered) in screen order, each with its depth, its place among its siblings
 * and its offset in pixels; the children of a collapsed row left out. Built a slice of top-level
 * rows at a time (`add`), then `finish`ed. The numbers live in typed arrays that a layout keeps
 * from one build to the next (`reset`), not in an object per row: the page lays out a
 * 100,000-row recording again on every keystroke in the filter, and 100,000 objects per layout,
 * alive across the slices of a build, were what the garbage collector copied and marked in pauses
 * of 50–70 ms (issue 29). Only `rows` holds references.
 */
export class RowLayout {
  /** The shown rows, `count` of them (the rest is left from a longer build, cleared by `finish`). */
  readonly rows: (InspectorRow | undefined)[] = [];
  count = 0;
  /** The whole list's height in pixels. */
  height = 0;
  private capacity = 0;
  private seqs = new Float64Array(0);
  private tops = new Float64Array(0);
  private levels = new Int32Array(0);
  private positions = new Int32Array(0);
  private sizes = new Int32Array(0);
  private topCount = 0;
  private line: LineHeights = { first: 0, more: 0 };
  private collapsed: ReadonlySet<number> = new Set();

  /** Starts a new build, keeping the storage. */
  reset(line: LineHeights, collapsed: ReadonlySet<number>): this {
    this.line = line;
    this.collapsed = collapsed;
    this.count = 0;
    this.height = 0;
    this.topCount = 0;
    return this;
  }

  /** Adds top-level rows (and their shown children) after those added so far. */
  add(rows: readonly InspectorRow[]): void {
    for (const row of rows) this.addRow(row);
  }

  /** Adds one top-level row (and its shown children) after those added so far. */
  addRow(row: InspectorRow): void {
    this.put(row, 1, ++this.topCount, 0);
    if (row.children.length && !this.collapsed.has(row.seq)) this.visit(row.children, 2);
  }

  /**
   * Ends a build. The top-level rows' set size is known once every slice is in: it is read from
   * `topCount`, not written into each top-level row (a pass over every row in the task that
   * shows the list, issue 29).
   */
  finish(): this {
    this.tops[this.count] = this.height;
    // What a longer build left: rows a live log dropped are not kept alive.
    if (this.rows.length > this.count) this.rows.fill(undefined, this.count);
    return this;
  }

  row(index: number): InspectorRow {
    return this.rows[index]!;
  }
  top(index: number): number {
    return this.tops[index];
  }
  heightOf(index: number): number {
    return (index + 1 < this.count ? this.tops[index + 1] : this.height) - this.tops[index];
  }
  level(index: number): number {
    return this.levels[index];
  }
  posInSet(index: number): number {
    return this.positions[index];
  }
  setSize(index: number): number {
    return this.levels[index] === 1 ? this.topCount : this.sizes[index];
  }

  /** The index of the row with `seq`, or -1 if it is not shown (a scan: for a row or two, not per drawn row). */
  indexOf(seq: number): number {
    const index = this.seqs.indexOf(seq);
    return index < this.count ? index : -1;
  }

  /** The index of the row at `y` pixels from the top (the last one past the end; 0 if none). */
  indexAt(y: number): number {
    let lo = 0;
    let hi = this.count - 1;
    if (hi < 0) return 0;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.tops[mid] <= y) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Nested rows (level 2 and deeper) with theirs. */
  private visit(list: readonly InspectorRow[], level: number): void {
    for (let i = 0; i < list.length; i++) {
      const row = list[i];
      this.put(row, level, i + 1, list.length);
      if (row.children.length && !this.collapsed.has(row.seq)) this.visit(row.children, level + 1);
    }
  }

  /** Appends one row's numbers; returns its index. */
  private put(row: InspectorRow, level: number, position: number, size: number): number {
    const at = this.count++;
    if (at >= this.capacity) this.grow();
    this.rows[at] = row;
    this.seqs[at] = row.seq;
    this.tops[at] = this.height;
    this.levels[at] = level;
    this.positions[at] = position;
    this.sizes[at] = size;
    this.height += this.line.first + (linesOf(row) - 1) * this.line.more;
    return at;
  }

  private grow(): void {
    this.capacity = Math.max(1024, this.capacity * 2);
    const bigger = <T extends Float64Array | Int32Array>(old: T, make: (n: number) => T, n: number): T => {
      const next = make(n);
      next.set(old);
      return next;
    };
    this.seqs = bigger(this.seqs, (n) => new Float64Array(n), this.capacity);
    // One more top: the end of the last row.
    this.tops = bigger(this.tops, (n) => new Float64Array(n), this.capacity + 1);
    this.levels = bigger(this.levels, (n) => new Int32Array(n), this.capacity);
    this.positions = bigger(this.positions, (n) => new Int32Array(n), this.capacity);
    this.sizes = bigger(this.sizes, (n) => new Int32Array(n), this.capacity);
  }
}

/**
 * What a draw of the rows `from`–`to` of `layout` does with the row elements drawn so far
 * (`drawn`, by the seq of the row each shows): those still in the window stay,
 * filled again in place if their row changed (another object, or `stale`); the rest leave, and
 * their elements show the `fresh` rows (issue 29: a scrollbar jump fills the ~50 elements it has
 * with other text instead of building ~50 new ones, which with the layout of the new ones was
 * most of a jump's frame). `fresh` is in screen order: the list hands the leaving elements on in
 * their page order, so the elements of a whole jump need no move in the page.
 */
export function planWindow<T extends { readonly row?: InspectorRow }>(
  drawn: ReadonlyMap<number, T>,
  layout: RowLayout,
  from: number,
  to: number,
  stale: ReadonlySet<number>,
): { leaving: T[]; refill: number[]; fresh: number[] } {
  const refill: number[] = [];
  const fresh: number[] = [];
  const staying = new Set<number>();
  for (let i = from; i < to; i++) {
    const row = layout.row(i);
    const element = drawn.get(row.seq);
    if (!element) fresh.push(i);
    else {
      staying.add(row.seq);
      if (element.row !== row || stale.has(row.seq)) refill.push(i);
    }
  }
  const leaving: T[] = [];
  for (const [seq, element] of drawn) if (!staying.has(seq)) leaving.push(element);
  return { leaving, refill, fresh };
}

/**
 * Which drawn rows must move in the page for it to be in screen order, moving the fewest:
 * `pagePositions` are the page positions of the drawn rows' elements, in screen order; the
 * answer is the indexes (into it) of the rows outside one longest run already in order. A page
 * scrolled by k rows, its elements handed on in place (rowsView.ts), is a rotation: min(k, n - k)
 * moves.
 */
export function rowsToMove(pagePositions: readonly number[]): number[] {
  // Patience sorting: `tails[l]` is the index ending the smallest-ending run of length l + 1.
  const tails: number[] = [];
  const previous = new Int32Array(pagePositions.length).fill(-1);
  pagePositions.forEach((position, i) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pagePositions[tails[mid]] < position) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) previous[i] = tails[lo - 1];
    tails[lo] = i;
  });
  const inOrder = new Set<number>();
  for (let i = tails.length ? tails[tails.length - 1] : -1; i >= 0; i = previous[i]) inOrder.add(i);
  return pagePositions.map((_, i) => i).filter((i) => !inOrder.has(i));
}

/**
 * How a draw puts its rows in the page (rowsView.ts): `pagePositions` are, in screen order, each
 * drawn row element's place in the page, or undefined for one not in the page yet (new, or from
 * the pool), which goes in at its place for nothing. Rows already laid out are moved only when at
 * most `maxMoves` of them do it: `put` lists the rows to insert, each before its successor in
 * screen order, from the last. Beyond (after a fast scroll), `append` lists the rows not in the
 * page, and `ordered` is false: the page is not in screen order, and aria-owns must say it.
 */
export function planOrder(pagePositions: readonly (number | undefined)[], maxMoves: number): { ordered: boolean; put: number[]; append: number[] } {
  const inPage = pagePositions.flatMap((position, i) => (position === undefined ? [] : [i]));
  const moving = new Set(rowsToMove(inPage.map((i) => pagePositions[i]!)).map((k) => inPage[k]));
  const outside = pagePositions.flatMap((position, i) => (position === undefined ? [i] : []));
  if (moving.size > maxMoves) return { ordered: false, put: [], append: outside };
  const put = pagePositions.flatMap((position, i) => (position === undefined || moving.has(i) ? [i] : [])).reverse();
  return { ordered: true, put, append: [] };
}
