import * as assert from 'node:assert/strict';
import { ActivityLog, type LogChange } from '../../../src/traffic/common/activityLog';
import type { InspectorRecord } from '../../../src/inspector/common/inspectorRows';
import { buildRows, RowsModel } from '../../../src/inspector/common/rowsModel';
import { factsOf } from '../../../src/traffic/common/exchangeFacts';
import { RowTree, type RowsDelta } from '../../../src/inspector/common/rowsDelta';
import { A, B, req, res, note } from './traceRecords';

const log = (data: string) => note('notifications/message', { level: 'info', logger: 'flood', data });

const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** What the Inspector's controller does with the log's changes: collects them, and patches the model once per batch. */
function watch(l: ActivityLog) {
  const changes = { added: [] as InspectorRecord[], updated: new Set<number>(), removed: new Set<number>() };
  l.onDidChange((c: LogChange) => {
    changes.added.push(...c.added);
    c.updated.forEach((e) => changes.updated.add(e.seq));
    c.removed.forEach((e) => changes.removed.add(e.seq));
  });
  let factsRead = 0;
  const model = new RowsModel((record) => {
    factsRead++;
    return factsOf(record);
  });
  model.reset(l.entries());
  return {
    model,
    factsRead: () => factsRead,
    batch(): RowsDelta {
      const delta = model.apply({ ...changes });
      changes.added = [];
      changes.updated = new Set();
      changes.removed = new Set();
      return json(delta);
    },
  };
}

describe('Inspector rows patched per batch (issue 29: the host side of a flood)', () => {
  it('follows the log by its changes: the same rows as a rebuild, and the page that applies each delta too', () => {
    const l = new ActivityLog(12);
    const w = watch(l);
    const page = new RowTree();
    page.reset(json(w.model.rows));
    const steps: (() => void)[] = [
      () => l.add(A, req(1, 'tools/call', { name: 'count', _meta: { progressToken: 'p1' } }), 1),
      () => {
        l.add(A, req(2, 'tools/call', { name: 'other' }), 2);
        l.add(A, note('notifications/progress', { progressToken: 'p1', progress: 1 }), 3);
        l.add(A, log('ambiguous: two in flight'), 4);
      },
      () => {
        l.add(A, res(2, { content: [{ type: 'text', text: 'nope' }], isError: true }), 5);
        l.add(A, log('under count'), 6);
        l.add(B, req(1, 'ping'), 7);
        l.add(B, log('no call on beta: alone'), 8);
      },
      () => {
        for (let i = 0; i < 10; i++) l.add(A, log(`flood ${i}`), 10 + i);
      },
      // A smaller log drops the call in flight: its notifications move to the top level.
      () => l.setMaxEntries(6),
      () => l.setMaxEntries(12),
      () => l.add(A, res(1), 30),
      () => {
        for (let i = 0; i < 4; i++) l.add(A, req(10 + i, 'tools/list'), 31 + i);
      },
      () => {
        // A task: its tasks/result fails, so the call that created it fails.
        l.add(A, req(20, 'tools/call', { name: 'slow', task: {} }), 40);
        l.add(A, res(20, { task: { taskId: 't1', status: 'working' } }), 41);
        l.add(A, req(21, 'tasks/result', { taskId: 't1' }), 42);
        l.add(A, { direction: 'receive', kind: 'error', id: 21, errorCode: -32000, errorMessage: 'task failed', message: {} }, 43);
      },
      () => {
        for (let i = 0; i < 12; i++) l.add(B, log(`beta ${i}`), 50 + i);
      },
    ];
    let moved = 0;
    steps.forEach((step, i) => {
      step();
      const delta = w.batch();
      moved += delta.insert.flatMap((at) => at.seqs).filter((seq) => delta.remove.includes(seq)).length;
      page.apply(delta);
      const rebuilt = json(buildRows(l.entries(), factsOf));
      assert.deepEqual(json(w.model.rows), rebuilt, `model after step ${i}`);
      assert.deepEqual(json(page.rows), rebuilt, `page after step ${i}`);
    });
    assert.ok(moved > 0, 'some rows moved to the top level');
  });

  it('a 100,000-entry log and one more notification: the batch builds one row and reads no message', () => {
    const l = new ActivityLog(100_000);
    l.add(A, req(1, 'tools/call', { name: 'flood' }), 0);
    for (let i = 0; i < 99_999; i++) l.add(A, log(`line ${i}`), 1 + i);
    const w = watch(l);
    assert.equal(w.model.size, 100_000);
    const built = w.model.rowsBuilt;
    const read = w.factsRead();
    l.add(A, log('one more'), 200_000);
    const delta = w.batch();
    assert.equal(w.model.rowsBuilt - built, 1, 'rows built for one new entry');
    assert.equal(w.factsRead() - read, 0, 'messages read: a log notification is nested, and its note read, by the log when it came');
    // The log is full: the oldest notification goes (not the call it is nested under), the new one comes.
    assert.deepEqual(delta.remove, [2]);
    assert.deepEqual(
      delta.rows.map((r) => r.seq),
      [100_001],
    );
    assert.deepEqual(delta.insert, [{ parent: 1, seqs: [100_001] }]);
  });
});
