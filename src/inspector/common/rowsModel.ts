/**
 * The Inspector's row tree, built once and then patched as the log changes: what a batch costs is
 * the rows it adds, changes or evicts, not every row of the log (a flood of 2,000 notifications
 * at the 1,000-entry limit rebuilt 1,000 rows per batch before). `apply` returns the delta
 * (rowsDelta.ts) that brings a page holding the rows before to the rows after, so nothing is
 * diffed either. `buildRows` is the same code run over a list of records at once.
 *
 * Nesting: a task's tasks/* requests and status notifications go under the call that created the
 * task. A progress or log notification goes under the request the log found for it when it was
 * recorded (`parentSeq`: its progress token's, else the server's one request in flight, not
 * counting pings); a record without `parentSeq` (an old recording) is looked up the same way
 * here. Later rounds of a multi-round-trip request go under its first round.
 */
import type { ExchangeFacts } from '../../traffic/common/exchangeFacts';
import { classify, isErrorStatus, outputIssueLine, rowHasWords, type InspectorRecord, type InspectorRow, type RowFacts } from './inspectorRows';
import { rowData, sameRowData, type RowData, type RowsDelta } from './rowsDelta';

/** Notifications that report on a request in flight: nested under it rather than listed apart. */
const REQUEST_NOTIFICATIONS = new Set(['notifications/progress', 'notifications/message']);

interface Node {
  row: InspectorRow;
  record: InspectorRecord;
  facts: RowFacts;
  parent: Node | undefined;
  /** A child tasks/result that failed: a tool call run as a task ends with it, so it is the call's failure. */
  taskFailure?: Node;
}

/** The facts of a notification whose request the log found and that has no note. */
const NO_FACTS: ExchangeFacts = Object.freeze({});

/** What changed in the log since the last `apply`, by entry. */
export interface RowsChange {
  added: readonly InspectorRecord[];
  updated: Iterable<number>;
  removed: Iterable<number>;
}

const tokenKey = (serverId: string, token: string | number) => `${serverId}\u0000${typeof token}:${token}`;

/** The index in `list` (sorted by seq, oldest first) of the row with `seq`, or -1. */
function indexOfSeq(list: readonly InspectorRow[], seq: number): number {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = list[mid].seq;
    if (at === seq) return mid;
    if (at < seq) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Puts `row` into `list` (sorted by seq, oldest first): at the end, where new rows go, or in its place. */
function insertSorted(list: InspectorRow[], row: InspectorRow): void {
  if (!list.length || list[list.length - 1].seq < row.seq) {
    list.push(row);
    return;
  }
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].seq < row.seq) lo = mid + 1;
    else hi = mid;
  }
  list.splice(lo, 0, row);
}

export class RowsModel {
  private readonly nodes = new Map<number, Node>();
  /** The top-level rows, oldest first (the page shows them newest first: `rows`). */
  private top: InspectorRow[] = [];
  private newestFirst: InspectorRow[] | undefined;
  private readonly byToken = new Map<string, Node>();
  /** Requests that created a task (tools/call run as a task), by server + task id. */
  private readonly byTask = new Map<string, Node>();
  /** Sent requests by server, for records without `parentSeq` that look for the one in flight. */
  private readonly open = new Map<string, Node[]>();
  /** The delta `apply` is collecting (undefined: none, as in `reset`). */
  private delta: { inserted: Map<number, Set<number>>; added: Set<number>; changed: Set<Node>; remove: number[] } | undefined;
  /** Rows built or rebuilt since the model was made: what the batches cost (tests read it). */
  rowsBuilt = 0;

  constructor(
    private readonly factsFor: (record: InspectorRecord) => RowFacts,
    private readonly replayOf: (seq: number) => number | undefined = () => undefined,
  ) {}

  /** The rows, newest first. */
  get rows(): InspectorRow[] {
    return (this.newestFirst ??= [...this.top].reverse());
  }

  /** Whether the row of the exchange with `seq` (none before the batch that builds it) holds every one of `words` itself. */
  holdsWords(seq: number, words: readonly string[]): boolean {
    const row = this.nodes.get(seq)?.row;
    return row !== undefined && rowHasWords(row, words);
  }

  /** How many rows there are, children included. */
  get size(): number {
    return this.nodes.size;
  }

  /** Builds every row from `records` (in any order). */
  reset(records: readonly InspectorRecord[]): void {
    this.nodes.clear();
    this.byToken.clear();
    this.byTask.clear();
    this.open.clear();
    this.top = [];
    this.newestFirst = undefined;
    this.delta = undefined;
    for (const record of [...records].sort((a, b) => a.seq - b.seq)) this.add(record);
  }

  /** Patches the rows with what changed; returns the delta from the rows before to the rows now. */
  apply(change: RowsChange): RowsDelta {
    const delta = (this.delta = { inserted: new Map<number, Set<number>>(), added: new Set<number>(), changed: new Set<Node>(), remove: [] as number[] });
    const removed = new Set(change.removed);
    this.remove(removed);
    for (const record of change.added) if (!removed.has(record.seq) && !this.nodes.has(record.seq)) this.add(record);
    for (const seq of change.updated) {
      const node = this.nodes.get(seq);
      // A row added in this batch was built from the record as it is now.
      if (node && !delta.added.has(seq)) this.refresh(node);
    }
    this.delta = undefined;
    const out: RowsDelta = { remove: delta.remove, rows: [], insert: [] };
    const sent = new Set<number>();
    for (const parent of [...delta.inserted.keys()].sort((a, b) => a - b)) {
      const list = parent === 0 ? this.top : this.nodes.get(parent)?.row.children;
      const seqs = delta.inserted.get(parent)!;
      if (!list) continue;
      out.insert.push(...placements(list, seqs, parent, parent === 0));
      for (const seq of seqs) {
        const node = this.nodes.get(seq);
        if (node) out.rows.push(rowData(node.row));
        sent.add(seq);
      }
    }
    for (const node of delta.changed) if (this.nodes.get(node.row.seq) === node && !sent.has(node.row.seq)) out.rows.push(rowData(node.row));
    return out;
  }

  private add(record: InspectorRecord): void {
    // A log or progress notification whose request the log found shows nothing of its message
    // but the note the log read when it came: its message is not read again (a flood is thousands).
    const facts =
      record.note !== undefined && record.parentSeq !== undefined && record.kind === 'notification' && REQUEST_NOTIFICATIONS.has(record.method)
        ? record.note
          ? { note: record.note }
          : NO_FACTS
        : this.factsFor(record);
    const row = this.fields(record, facts, undefined) as InspectorRow;
    row.children = [];
    const node: Node = { record, facts, parent: undefined, row };
    this.nodes.set(record.seq, node);
    this.delta?.added.add(record.seq);
    node.parent = this.parentOf(record, facts);
    this.place(node);
    if (record.kind === 'request') {
      if (record.direction === 'send' && record.method !== 'ping') {
        const open = this.open.get(record.serverId);
        if (open) open.push(node);
        else this.open.set(record.serverId, [node]);
      }
      if (facts.progressToken !== undefined) this.byToken.set(tokenKey(record.serverId, facts.progressToken), node);
      this.registerTask(node);
    }
    this.reportTaskResult(node);
  }

  /** Puts a node's row under its parent (or at the top level) and notes it for the delta. */
  private place(node: Node): void {
    const parentSeq = node.parent?.row.seq ?? 0;
    insertSorted(node.parent ? node.parent.row.children : this.top, node.row);
    if (!node.parent) this.newestFirst = undefined;
    if (this.delta) {
      let seqs = this.delta.inserted.get(parentSeq);
      if (!seqs) this.delta.inserted.set(parentSeq, (seqs = new Set()));
      seqs.add(node.row.seq);
    }
  }

  /** A call that created a task: its tasks/* requests and task notifications go under it. */
  private registerTask(node: Node): void {
    const { record, facts } = node;
    if (facts.taskId !== undefined && !record.method.startsWith('tasks/') && !node.parent) this.byTask.set(tokenKey(record.serverId, facts.taskId), node);
  }

  /** A tool call run as a task ends with its tasks/result: a failure there is the call's failure. */
  private reportTaskResult(node: Node): void {
    const parent = node.parent;
    if (node.record.method !== 'tasks/result' || !parent || parent.facts.taskId !== node.facts.taskId) return;
    const failed = isErrorStatus(node.row.status);
    if (failed ? parent.taskFailure === node : parent.taskFailure !== node) return;
    parent.taskFailure = failed ? node : undefined;
    this.refresh(parent, false);
  }

  /** Reads a changed record again (a response arrived, a replay mark was set) and redraws its row if it differs. */
  private refresh(node: Node, readFacts = true): void {
    if (readFacts && node.record.kind === 'request') {
      node.facts = this.factsFor(node.record);
      if (node.facts.progressToken !== undefined) this.byToken.set(tokenKey(node.record.serverId, node.facts.progressToken), node);
      this.registerTask(node);
    }
    const fields = this.fields(node.record, node.facts, node.taskFailure);
    if (sameRowData(node.row, fields)) return;
    for (const key of Object.keys(node.row) as (keyof InspectorRow)[]) if (key !== 'children' && !(key in fields)) delete node.row[key];
    Object.assign(node.row, fields);
    this.delta?.changed.add(node);
    this.reportTaskResult(node);
  }

  private fields(record: InspectorRecord, facts: RowFacts, taskFailure: Node | undefined): RowData {
    this.rowsBuilt++;
    const own = classify(record, facts);
    const failure = taskFailure?.row;
    const status = failure ? failure.status : own.status;
    const statusText = failure?.statusText ?? own.statusText;
    const replayOf = this.replayOf(record.seq);
    // Field by field, not spread: a flood builds thousands of these per second.
    const data: RowData = {
      seq: record.seq,
      serverId: record.serverId,
      serverLabel: record.serverLabel,
      method: record.method,
      kind: record.kind,
      direction: record.direction,
      startedAt: record.startedAt,
      size: record.requestSize + (record.responseSize ?? 0),
      status,
    };
    if (facts.name !== undefined) data.name = facts.name;
    if (facts.note !== undefined) data.note = facts.note;
    else if (record.kind === 'request' && record.note) data.note = record.note;
    if (record.kind === 'request' && record.endedAt !== undefined) data.latencyMs = record.endedAt - record.startedAt;
    if (statusText !== undefined) data.statusText = statusText;
    if (record.round !== undefined) data.round = record.round;
    if (replayOf !== undefined) data.replayOf = replayOf;
    if (facts.outputIssues?.length) data.outputIssue = outputIssueLine(facts.outputIssues);
    return data;
  }

  private parentOf(record: InspectorRecord, facts: ExchangeFacts): Node | undefined {
    if (record.originSeq !== undefined) return this.nodes.get(record.originSeq);
    // A task's polling, result and status notifications belong to the call that created it.
    if (facts.taskId !== undefined && (record.method.startsWith('tasks/') || record.method.startsWith('notifications/tasks/'))) {
      const creator = this.byTask.get(tokenKey(record.serverId, facts.taskId));
      if (creator) return creator;
    }
    if (record.kind !== 'notification' || record.direction !== 'receive' || !REQUEST_NOTIFICATIONS.has(record.method)) return undefined;
    if (record.parentSeq !== undefined) return record.parentSeq ? this.nodes.get(record.parentSeq) : undefined;
    if (facts.progressToken !== undefined) {
      const byProgress = this.byToken.get(tokenKey(record.serverId, facts.progressToken));
      if (byProgress) return byProgress;
    }
    // A ping does no work that could report progress or log: it is not in `open`. Requests that
    // ended before this notification cannot be in flight for a later one either (records come
    // oldest first): they leave the list here.
    const open = (this.open.get(record.serverId) ?? []).filter((n) => n.record.endedAt === undefined || n.record.endedAt >= record.startedAt);
    this.open.set(record.serverId, open);
    const inFlight = open.filter((n) => n.record.startedAt <= record.startedAt);
    return inFlight.length === 1 ? inFlight[0] : undefined;
  }

  /** Takes evicted rows out; rows nested under one of them and kept go to the top level. */
  private remove(seqs: ReadonlySet<number>): void {
    const gone: Node[] = [];
    for (const seq of seqs) {
      const node = this.nodes.get(seq);
      if (node) gone.push(node);
    }
    if (!gone.length) return;
    const lists = new Set<InspectorRow[]>();
    const servers = new Set<string>();
    const orphans: Node[] = [];
    for (const node of gone) {
      const { seq } = node.row;
      this.nodes.delete(seq);
      this.delta?.remove.push(seq);
      lists.add(node.parent ? node.parent.row.children : this.top);
      servers.add(node.record.serverId);
      const { serverId } = node.record;
      if (node.facts.progressToken !== undefined && this.byToken.get(tokenKey(serverId, node.facts.progressToken)) === node)
        this.byToken.delete(tokenKey(serverId, node.facts.progressToken));
      if (node.facts.taskId !== undefined && this.byTask.get(tokenKey(serverId, node.facts.taskId)) === node)
        this.byTask.delete(tokenKey(serverId, node.facts.taskId));
      for (const child of node.row.children) if (!seqs.has(child.seq)) orphans.push(this.nodes.get(child.seq)!);
    }
    for (const list of lists) {
      const kept = list.filter((r) => !seqs.has(r.seq));
      list.length = 0;
      list.push(...kept);
    }
    if (lists.has(this.top)) this.newestFirst = undefined;
    for (const server of servers) {
      const open = this.open.get(server);
      if (open)
        this.open.set(
          server,
          open.filter((n) => !seqs.has(n.row.seq)),
        );
    }
    for (const node of gone) {
      const parent = node.parent;
      if (parent?.taskFailure === node && this.nodes.get(parent.row.seq) === parent) {
        parent.taskFailure = undefined;
        this.refresh(parent, false);
      }
    }
    // What was under an evicted row stands alone now (the page takes it out and puts it back there).
    for (const orphan of orphans.sort((a, b) => a.row.seq - b.row.seq)) {
      orphan.parent = undefined;
      this.delta?.remove.push(orphan.row.seq);
      this.place(orphan);
    }
  }
}

/**
 * Where the rows `seqs` of `list` (sorted by seq, oldest first) go on the page: runs in the
 * page's order (newest first at the top level, oldest first under a request), each before the
 * row that follows it there, or at the end.
 */
function placements(list: readonly InspectorRow[], seqs: ReadonlySet<number>, parent: number, newestFirst: boolean): RowsDelta['insert'] {
  const out: RowsDelta['insert'] = [];
  let run: number[] = [];
  for (const seq of [...seqs].sort((a, b) => (newestFirst ? b - a : a - b))) {
    const i = indexOfSeq(list, seq);
    if (i < 0) continue;
    run.push(seq);
    const next = list[newestFirst ? i - 1 : i + 1];
    if (next && seqs.has(next.seq)) continue;
    out.push({ parent, ...(next ? { before: next.seq } : {}), seqs: run });
    run = [];
  }
  if (run.length) out.push({ parent, seqs: run });
  return out;
}

/** The rows of `records` (any order), newest first: the model built at once. */
export function buildRows(
  records: readonly InspectorRecord[],
  factsFor: (record: InspectorRecord) => RowFacts,
  replayOf: (seq: number) => number | undefined = () => undefined,
): InspectorRow[] {
  const model = new RowsModel(factsFor, replayOf);
  model.reset(records);
  return model.rows;
}
