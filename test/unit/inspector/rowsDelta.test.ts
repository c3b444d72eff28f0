import * as assert from 'node:assert/strict';
import { ActivityLog } from '../../../src/traffic/common/activityLog';
import type { InspectorRow } from '../../../src/inspector/common/inspectorRows';
import { buildRows } from '../../../src/inspector/common/rowsModel';
import { factsOf } from '../../../src/traffic/common/exchangeFacts';
import type { TraceRecord } from '../../../src/mcp/trace';
import { diffRows, RowTree, type RowsDelta } from '../../../src/inspector/common/rowsDelta';
import { BATCH_MS, Coalescer, LOAD_FACTOR, MAX_GAP_MS, planRowsMessage, type Clock } from '../../../src/inspector/common/rowsBatch';
import { parseToWebview } from '../../../src/inspector/common/inspectorProtocol';
import { A, B, req, res } from './traceRecords';

const err = (id: number, message: string): TraceRecord => ({
  direction: 'receive',
  kind: 'error',
  id,
  errorCode: -32000,
  errorMessage: message,
  message: { jsonrpc: '2.0', id, error: { code: -32000, message } },
});
const log = (data: string): TraceRecord => ({
  direction: 'receive',
  kind: 'notification',
  method: 'notifications/message',
  message: { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', logger: 'flood', data } },
});

const rowsOf = (l: ActivityLog) => buildRows(l.entries(), factsOf);
const flat = (rows: readonly InspectorRow[]): InspectorRow[] => rows.flatMap((r) => [r, ...flat(r.children)]);
/** The delta as the page gets it: through JSON, as postMessage carries it. */
const wire = (delta: RowsDelta): RowsDelta => JSON.parse(JSON.stringify(delta)) as RowsDelta;

/** A page's copy fed every delta of `steps` (each changes the log); checks it equals a full rebuild after each. */
function follow(l: ActivityLog, steps: (() => void)[]): RowsDelta[] {
  const page = new RowTree();
  let sent = rowsOf(l);
  page.reset(JSON.parse(JSON.stringify(sent)) as InspectorRow[]);
  const deltas: RowsDelta[] = [];
  steps.forEach((step, i) => {
    step();
    const next = rowsOf(l);
    const delta = wire(diffRows(sent, next));
    deltas.push(delta);
    page.apply(delta);
    assert.deepEqual(page.rows, JSON.parse(JSON.stringify(next)), `after step ${i}`);
    assert.equal(page.size, flat(next).length);
    sent = next;
  });
  return deltas;
}

describe('Inspector rows as deltas (issue 29: a flood)', () => {
  it('a call that sends 2,000 notifications, in batches: the page keeps the same rows, and gets each notification once', () => {
    const l = new ActivityLog(1000);
    l.add(A, req(1, 'tools/list'), 1);
    l.add(A, res(1, { tools: [] }), 2);
    l.add(A, req(2, 'tools/call', { name: 'flood', arguments: { count: 2000 } }), 10);
    let i = 0;
    const batch = (n: number) => () => {
      for (const end = i + n; i < end; i++) l.add(A, log(`flood message ${i}`), 11 + i);
    };
    const steps = [...Array.from({ length: 40 }, () => batch(50)), () => l.add(A, res(2, { content: [{ type: 'text', text: 'flooded 2000' }] }), 3000)];
    const deltas = follow(l, steps);
    const sent = new Map<number, number>();
    for (const d of deltas) for (const r of d.rows) sent.set(r.seq, (sent.get(r.seq) ?? 0) + 1);
    const notifications = [...sent].filter(([seq]) => seq > 2);
    assert.equal(notifications.length, 2000);
    assert.ok(
      notifications.every(([, n]) => n === 1),
      'each notification row is sent once',
    );
    // The call's row is sent when it changes: once, with its result.
    assert.equal(sent.get(2), 1);
    const last = deltas.at(-1)!;
    assert.deepEqual(
      last.rows.map((r) => [r.seq, r.status]),
      [[2, 'result']],
    );
    assert.deepEqual(last.insert, []);
    // A batch is its 50 rows and the places of the evicted ones, never the whole log.
    assert.ok(
      deltas.every((d) => d.rows.length <= 50 && d.remove.length <= 50),
      JSON.stringify(deltas.map((d) => [d.rows.length, d.remove.length])),
    );
  });

  it('rows that move (their request evicted), change back and forth, or go: the page follows', () => {
    const l = new ActivityLog(8);
    const steps = [
      () => l.add(A, req(1, 'tools/call', { name: 'a' }), 10),
      () => {
        l.add(A, log('one'), 11);
        l.add(B, req(1, 'ping'), 12);
      },
      () => l.add(A, err(1, 'boom'), 13),
      () => {
        for (let n = 0; n < 6; n++) l.add(B, log(`beta ${n}`), 20 + n);
      },
      // The call goes: its notification is now a row of its own at the top level.
      () => l.add(A, req(2, 'tools/list'), 30),
      () => l.add(A, res(2), 31),
      () => l.clear(),
      () => l.add(A, req(3, 'tools/call', { name: 'b' }), 40),
    ];
    follow(l, steps);
  });

  it('a row whose status text goes away loses it on the page too', () => {
    const page = new RowTree();
    const row = (extra: Partial<InspectorRow>): InspectorRow => ({
      seq: 1,
      serverId: 'a',
      serverLabel: 'alpha',
      method: 'tools/call',
      kind: 'request',
      direction: 'send',
      startedAt: 1,
      size: 10,
      status: 'pending',
      children: [],
      ...extra,
    });
    const before = [row({ status: 'rpcError', statusText: 'boom' })];
    const after = [row({ status: 'result' })];
    page.reset(structuredClone(before));
    page.apply(wire(diffRows(before, after)));
    assert.deepEqual(page.rows, after);
  });

  it('plans every row first, then deltas, nothing when nothing changed, and every row when a delta would carry them all', () => {
    const l = new ActivityLog(100);
    l.add(A, req(1, 'tools/call', { name: 'a' }), 1);
    const first = rowsOf(l);
    assert.equal(planRowsMessage(undefined, first).kind, 'all');
    assert.equal(planRowsMessage(first, rowsOf(l)).kind, 'none');
    l.add(A, log('x'), 2);
    const second = rowsOf(l);
    const plan = planRowsMessage(first, second);
    assert.equal(plan.kind, 'delta');
    l.clear();
    l.add(B, req(1, 'ping'), 3);
    assert.equal(planRowsMessage(second, rowsOf(l)).kind, 'all');
  });

  it('coalesces: a steady stream of changes flushes once per batch, the first within one batch', () => {
    let now = 0;
    const timers: { at: number; run: () => void }[] = [];
    const clock: Clock = {
      now: () => now,
      setTimeout: (run, ms) => {
        const t = { at: now + ms, run };
        timers.push(t);
        return t;
      },
      clearTimeout: (t) => timers.splice(timers.indexOf(t as (typeof timers)[number]), 1),
    };
    const flushes: number[] = [];
    const coalescer = new Coalescer(() => flushes.push(now), BATCH_MS, clock);
    // 2,000 changes over one second (one every 0.5 ms).
    for (let step = 0; step < 2000; step++) {
      now = step / 2;
      for (const t of timers.filter((x) => x.at <= now)) {
        timers.splice(timers.indexOf(t), 1);
        t.run();
      }
      coalescer.schedule();
    }
    assert.ok(flushes[0] <= 0.5, `the first change shows in the next turn, not a batch later: ${flushes[0]}`);
    assert.ok(flushes.length <= 1000 / BATCH_MS + 1, `${flushes.length} flushes`);
    assert.ok(
      flushes.slice(1).every((t, k) => t - flushes[k] >= BATCH_MS && t - flushes[k] <= BATCH_MS + 1),
      `one per batch: ${flushes.join(' ')}`,
    );
    coalescer.run();
    assert.equal(coalescer.pending, false, 'a flush now drops the scheduled one');
  });

  it('a slow flush waits longer for the next: the panel keeps to a share of the thread', () => {
    let now = 0;
    let timer: { at: number; run: () => void } | undefined;
    const clock: Clock = {
      now: () => now,
      setTimeout: (run, ms) => (timer = { at: now + ms, run }),
      clearTimeout: () => (timer = undefined),
    };
    const flushes: number[] = [];
    // The flushes take 20, 30, 100 (all rows at once, say) and 20 ms.
    const costs = [20, 30, 100, 20];
    const coalescer = new Coalescer(
      () => {
        now += costs[flushes.length];
        flushes.push(now - costs[flushes.length]);
      },
      BATCH_MS,
      clock,
    );
    for (let k = 0; k < 4; k++) {
      coalescer.schedule();
      now = Math.max(now, timer!.at);
      const t = timer!;
      timer = undefined;
      t.run();
    }
    const gaps = flushes.slice(1).map((t, k) => t - flushes[k]);
    assert.deepEqual(gaps, [20 * LOAD_FACTOR, 30 * LOAD_FACTOR, MAX_GAP_MS]);
  });

  it('the page checks a delta as it checks every message: a malformed one is dropped', () => {
    const good = { type: 'rowsDelta', remove: [3], rows: [], insert: [{ parent: 0, seqs: [] }], select: 4 };
    assert.deepEqual(parseToWebview(good), good);
    assert.equal(parseToWebview({ ...good, remove: ['3'] }), undefined);
    assert.equal(parseToWebview({ ...good, insert: [{ parent: -1, seqs: [] }] }), undefined);
    assert.equal(parseToWebview({ ...good, rows: [{ seq: 1 }] }), undefined);
  });
});
