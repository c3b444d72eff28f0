/**
 * What changed between two row trees, as the Inspector's host sends it to its page instead of
 * every row again: under a flood (a call that sends thousands of notifications) the rows are
 * rebuilt on the host as before, but only the rows that are new, changed, moved or gone go to
 * the page, and the page patches its tree (and its DOM) in place. `diffRows` and `RowTree.apply`
 * are each other's inverse: applying `diffRows(a, b)` to a tree holding `a` gives `b`.
 *
 * The place of a new row is given relative to a row both trees keep under the same parent: rows
 * are sorted by seq under each parent (newest first at the top, oldest first under a request),
 * so the kept rows keep their order and new ones only go between them.
 */
import type { InspectorRow } from './inspectorRows';

/** A row as sent in a delta: its own fields, without its children (they are placed by `insert`). */
export type RowData = Omit<InspectorRow, 'children'>;

export interface RowsDelta {
  /** Rows taken out of where they were: gone from the log, or moved (then they are in `insert` too). */
  remove: number[];
  /** The fields of every row that is new, moved or changed. */
  rows: RowData[];
  /**
   * Where new and moved rows go, parents before their children: under `parent` (0: the top
   * level), in this order, before the row `before` (absent: after the last).
   */
  insert: { parent: number; before?: number; seqs: number[] }[];
}

const FIELDS = [
  'serverId',
  'serverLabel',
  'method',
  'name',
  'note',
  'kind',
  'direction',
  'startedAt',
  'latencyMs',
  'size',
  'status',
  'statusText',
  'round',
  'replayOf',
  'outputIssue',
] as const satisfies readonly (keyof RowData)[];

export function sameRowData(a: RowData, b: RowData): boolean {
  return FIELDS.every((f) => a[f] === b[f]);
}

/** Sets a row's fields to `fields`, dropping the optional ones it no longer has. */
function assignFields(row: InspectorRow, fields: RowData): InspectorRow {
  for (const f of FIELDS) if (!(f in fields)) delete (row as Partial<RowData>)[f];
  return Object.assign(row, fields);
}

export function rowData(row: InspectorRow): RowData {
  const { children: _children, ...data } = row;
  return data;
}

/** Every row of a tree by seq, with the seq of its parent (0: top level). */
function index(rows: readonly InspectorRow[], parent = 0, into = new Map<number, { row: InspectorRow; parent: number }>()) {
  for (const row of rows) {
    into.set(row.seq, { row, parent });
    index(row.children, row.seq, into);
  }
  return into;
}

/** The delta that turns the tree `previous` into `next` (both as `buildRows` makes them). */
export function diffRows(previous: readonly InspectorRow[], next: readonly InspectorRow[]): RowsDelta {
  const before = index(previous);
  const delta: RowsDelta = { remove: [], rows: [], insert: [] };
  const seen = new Set<number>();
  const visit = (list: readonly InspectorRow[], parent: number) => {
    let run: number[] = [];
    for (const row of list) {
      seen.add(row.seq);
      const old = before.get(row.seq);
      if (old && old.parent === parent) {
        if (run.length) delta.insert.push({ parent, before: row.seq, seqs: run });
        run = [];
        if (!sameRowData(old.row, row)) delta.rows.push(rowData(row));
        continue;
      }
      if (old) delta.remove.push(row.seq);
      delta.rows.push(rowData(row));
      run.push(row.seq);
    }
    if (run.length) delta.insert.push({ parent, seqs: run });
    for (const row of list) if (row.children.length) visit(row.children, row.seq);
  };
  visit(next, 0);
  for (const seq of before.keys()) if (!seen.has(seq)) delta.remove.push(seq);
  return delta;
}

export function isEmptyDelta(delta: RowsDelta): boolean {
  return !delta.remove.length && !delta.rows.length && !delta.insert.length;
}

/** How many rows a tree holds, children included. */
export function countRows(rows: readonly InspectorRow[]): number {
  let n = 0;
  for (const row of rows) n += 1 + countRows(row.children);
  return n;
}

/** What `RowTree.apply` changed, for a view that patches what it shows. */
export interface AppliedDelta {
  /** Rows taken out (moved ones included). */
  removed: InspectorRow[];
  /** Rows put in, in the order of the delta's `insert` (parents before their children), with their place. */
  inserted: { row: InspectorRow; parent: InspectorRow | undefined; before: InspectorRow | undefined }[];
  /** Rows kept in place whose fields changed. */
  changed: InspectorRow[];
}

/** The most distinct values `RowTree` shares at a time. */
const SHARED_MAX = 10_000;

/**
 * The page's copy of the row tree, patched by deltas. `rows` is the tree itself (top level,
 * newest first), so the pure filters of inspectorRows.ts work on it unchanged.
 */
export class RowTree {
  rows: InspectorRow[] = [];
  private readonly bySeq = new Map<number, { row: InspectorRow; parent: InspectorRow | undefined }>();
  /** One copy of each value of the rows' repeated fields (`shareStrings`). */
  private readonly strings = new Map<string, string>();

  /** Replaces the whole tree (the host's full `rows` message). */
  reset(rows: InspectorRow[]): void {
    this.rows = rows;
    this.bySeq.clear();
    this.strings.clear();
    const visit = (list: readonly InspectorRow[], parent: InspectorRow | undefined) => {
      for (const row of list) {
        this.shareStrings(row);
        this.bySeq.set(row.seq, { row, parent });
        visit(row.children, row);
      }
    };
    visit(rows, undefined);
  }

  /**
   * Points the row's repeated fields (server, method, kind, direction, status) at one copy of
   * each value. A message posted to the page arrives as a structured clone, which makes a string
   * of its own for every field of every row: a 100,000-row recording took 31.7 MB of the page's
   * heap, 21.7 MB with them shared, and every garbage collection of the page walks it (in VS Code
   * 1.139.1 the collection pauses the workbench too: issue 29). Only fields of few values
   * are shared (a name or note of its own per row would make the map grow with the log), and at
   * most SHARED_MAX values are kept.
   */
  private shareStrings(row: InspectorRow): void {
    row.serverId = this.share(row.serverId);
    row.serverLabel = this.share(row.serverLabel);
    row.method = this.share(row.method);
    row.kind = this.share(row.kind);
    row.direction = this.share(row.direction);
    row.status = this.share(row.status);
  }

  /** The copy of `value` the tree keeps. */
  private share<T extends string>(value: T): T {
    const known = this.strings.get(value);
    if (known !== undefined) return known as T;
    if (this.strings.size >= SHARED_MAX) this.strings.clear();
    this.strings.set(value, value);
    return value;
  }

  find(seq: number): InspectorRow | undefined {
    return this.bySeq.get(seq)?.row;
  }

  parentOf(seq: number): InspectorRow | undefined {
    return this.bySeq.get(seq)?.parent;
  }

  get size(): number {
    return this.bySeq.size;
  }

  /** Applies a delta of the host's; rows it names that this tree does not hold are skipped (see `consistent`). */
  apply(delta: RowsDelta): AppliedDelta {
    const applied: AppliedDelta = { removed: [], inserted: [], changed: [] };
    const data = new Map(delta.rows.map((r) => [r.seq, r]));
    // Out first, each parent's list filtered once (a flood evicts hundreds of rows at a time).
    const gone = new Set(delta.remove);
    const touched = new Set<InspectorRow[]>();
    const detached = new Map<number, InspectorRow>();
    for (const seq of delta.remove) {
      const at = this.bySeq.get(seq);
      if (!at) continue;
      touched.add(at.parent ? at.parent.children : this.rows);
      detached.set(seq, at.row);
      applied.removed.push(at.row);
      this.bySeq.delete(seq);
    }
    for (const list of touched) {
      const kept = list.filter((r) => !gone.has(r.seq));
      list.length = 0;
      list.push(...kept);
    }
    for (const { parent: parentSeq, before: beforeSeq, seqs } of delta.insert) {
      const parent = parentSeq === 0 ? undefined : this.bySeq.get(parentSeq)?.row;
      if (parentSeq !== 0 && !parent) continue;
      const list = parent ? parent.children : this.rows;
      const before = beforeSeq === undefined ? undefined : this.bySeq.get(beforeSeq)?.row;
      const at = before ? list.indexOf(before) : -1;
      const rows: InspectorRow[] = [];
      for (const seq of seqs) {
        const fields = data.get(seq);
        if (!fields) continue;
        // A moved row keeps its children: they did not move with respect to it.
        const moved = detached.get(seq);
        const row: InspectorRow = moved ? assignFields(moved, fields) : { ...fields, children: [] };
        this.shareStrings(row);
        this.bySeq.set(seq, { row, parent });
        rows.push(row);
        applied.inserted.push({ row, parent, before });
      }
      if (at < 0) list.push(...rows);
      else list.splice(at, 0, ...rows);
    }
    const placed = new Set(applied.inserted.map((i) => i.row.seq));
    for (const fields of delta.rows) {
      if (placed.has(fields.seq)) continue;
      const row = this.bySeq.get(fields.seq)?.row;
      if (!row) continue;
      this.shareStrings(assignFields(row, fields));
      applied.changed.push(row);
    }
    return applied;
  }
}
