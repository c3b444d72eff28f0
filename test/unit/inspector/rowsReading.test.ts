// Reading the Inspector's list (issue 29): what is nested under a call counted on its row, the
// message of a log or progress notification in the name column, pings hidden, and the filter's
// words found in the exchanges' messages (the host's search, the page's filter).
import * as assert from 'node:assert/strict';
import { ActivityLog } from '../../../src/traffic/common/activityLog';
import { filterRows, groupSummary, type InspectorRow } from '../../../src/inspector/common/inspectorRows';
import { buildRows } from '../../../src/inspector/common/rowsModel';
import { diffRows, RowTree } from '../../../src/inspector/common/rowsDelta';
import { factsOf } from '../../../src/traffic/common/exchangeFacts';
import { PayloadSearch } from '../../../src/inspector/common/payloadSearch';
import { parseFromWebview, parseToWebview, MAX_SEARCH_TEXT } from '../../../src/inspector/common/inspectorProtocol';
import { A, B, req, res, note } from './traceRecords';

const rowsOf = (log: ActivityLog) => buildRows(log.entries(), factsOf);
const names = (list: readonly InspectorRow[]) => list.map((r) => r.name ?? r.method);

/** A call that reported 10 steps of progress and logged 9 lines while it ran. */
function busyCall(): ActivityLog {
  const log = new ActivityLog(100);
  log.add(A, req(1, 'tools/call', { name: 'index', _meta: { progressToken: 't' } }), 1);
  for (let i = 1; i <= 10; i++) {
    log.add(A, note('notifications/progress', { progressToken: 't', progress: i, total: 10, message: 'Indexing…' }), 1 + i);
    if (i < 10) log.add(A, note('notifications/message', { level: i === 3 ? 'warning' : 'info', data: i === 3 ? 'disk almost full' : `file ${i}` }), 1 + i);
  }
  log.add(A, res(1, { content: [] }), 30);
  return log;
}

describe('Inspector rows, reading the list', () => {
  it('counts what is nested under a call by kind, in the order they came: "10 progress, 9 log"', () => {
    const [call] = rowsOf(busyCall());
    assert.equal(call.children.length, 19);
    assert.equal(groupSummary(call.children), '10 progress, 9 log');
    const other = [{ ...call, method: 'tasks/get', children: [] }];
    assert.equal(groupSummary([...call.children.slice(0, 1), ...other, ...other]), '1 progress, 2 tasks/get');
    assert.equal(groupSummary([]), '');
  });

  it("shows a nested log or progress notification's message (the log found its request: it was not read before)", () => {
    const [call] = rowsOf(busyCall());
    const entries = busyCall().entries();
    assert.ok(
      entries.some((e) => e.method === 'notifications/message' && e.parentSeq),
      'the log nests these notifications when it records them',
    );
    assert.deepEqual(
      call.children.slice(0, 6).map((c) => c.note),
      ['1/10 Indexing…', 'info: file 1', '2/10 Indexing…', 'info: file 2', '3/10 Indexing…', 'warning: disk almost full'],
    );
    assert.equal(call.note, undefined, 'a request has no note');
  });

  it('notes are one line, cut at 200 characters; structured log data is shown as JSON; a progress without total or message is its number', () => {
    const log = new ActivityLog(100);
    log.add(A, note('notifications/message', { level: 'error', data: { code: 7, path: '/x' } }), 1);
    log.add(A, note('notifications/message', { level: 'info', data: 'two\nlines' }), 2);
    log.add(A, note('notifications/message', { level: 'info', data: 'x'.repeat(500) }), 3);
    log.add(A, note('notifications/progress', { progressToken: 'none', progress: 4 }), 4);
    const notes = rowsOf(log).map((r) => r.note);
    assert.deepEqual(notes.slice(0, 3), ['4', `info: ${'x'.repeat(194)}`, 'info: two lines']);
    assert.equal(notes[3], 'error: {"code":7,"path":"/x"}');
  });

  it("a note is redacted: the log reads it from the message as it came, with the server's secrets; an imported record's is read from its message", () => {
    const log = new ActivityLog(100);
    const secretive = { ...A, secrets: ['hunter2-secret'] };
    log.add(secretive, req(1, 'tools/call', { name: 'x' }), 1);
    log.add(secretive, note('notifications/message', { level: 'info', data: 'token hunter2-secret used' }), 2);
    log.add(secretive, note('notifications/message', { level: 'info', data: { password: 'pw-1234', key: 'hunter2-secret' } }), 3);
    const notes = rowsOf(log)[0].children.map((c) => c.note ?? '');
    assert.equal(notes.length, 2);
    assert.ok(
      notes.every((n) => !n.includes('hunter2') && !n.includes('pw-1234')),
      JSON.stringify(notes),
    );
    assert.match(notes[0], /^info: token .*redacted.* used$/);
    // A recording's records carry no note: it is read from the (redacted) message in the file.
    const imported = log.entries().map((e) => ({ ...e, request: e.request, response: e.response, note: undefined }));
    assert.deepEqual(
      buildRows(imported, factsOf)[0].children.map((c) => c.note),
      notes,
    );
  });

  it('a note reaches the page: in the rows, in a delta, and the page refuses one that is not text', () => {
    const rows = rowsOf(busyCall());
    assert.ok(parseToWebview({ type: 'rows', rows, readOnly: false }));
    const tree = new RowTree();
    tree.reset([]);
    tree.apply(diffRows([], rows));
    assert.equal(tree.find(rows[0].children[5].seq)?.note, 'warning: disk almost full');
    const bad = [{ ...rows[0], children: [], note: 5 }];
    assert.equal(parseToWebview({ type: 'rows', rows: bad, readOnly: false }), undefined);
  });

  it('finds a notification by its message, and "Hide pings" leaves out pings either way', () => {
    const log = busyCall();
    log.add(A, req(2, 'ping'), 40);
    log.add(A, res(2), 41);
    log.add(B, { ...req(9, 'ping'), direction: 'receive' }, 42);
    log.add(B, req(3, 'tools/list'), 43);
    const rows = rowsOf(log);
    assert.deepEqual(names(filterRows(rows, { hidePings: true })), ['tools/list', 'index']);
    assert.deepEqual(names(filterRows(rows, {})), ['tools/list', 'ping', 'ping', 'index']);
    const found = filterRows(rows, { text: 'disk full' });
    assert.deepEqual(names(found), ['index']);
    assert.deepEqual(
      found[0].children.map((c) => c.note),
      ['warning: disk almost full'],
    );
  });

  it("the filter's words are searched in the redacted params and results too (the host's answer)", async () => {
    const log = new ActivityLog(100);
    const secretive = { ...A, secrets: ['hunter2-secret'] };
    log.add(secretive, req(1, 'tools/call', { name: 'echo', arguments: { text: 'Zebra crossing', key: 'hunter2-secret' } }), 1);
    log.add(secretive, res(1, { content: [{ type: 'text', text: 'echo: zebra CROSSING' }] }), 2);
    log.add(B, req(2, 'tools/call', { name: 'other', arguments: { text: 'zebra' } }), 3);
    log.add(B, res(2, { content: [{ type: 'text', text: 'plain' }] }), 4);
    const search = new PayloadSearch(() => log.entries());
    const run = (text: string) => new Promise<number[]>((resolve) => search.run(text, resolve));
    const [first, second] = log
      .entries()
      .map((e) => e.seq)
      .sort((a, b) => a - b);
    assert.deepEqual(await run('zebra crossing'), [first]);
    assert.deepEqual(
      (await run('ZEBRA')).sort((a, b) => a - b),
      [first, second],
    );
    assert.deepEqual(await run('plain'), [second], 'a word of the result');
    assert.deepEqual(await run('hunter2'), [], 'secrets are redacted before they are searched');
    assert.deepEqual(await run('  '), []);
    // The page: a row the host found is shown although its own fields hold no word of the text.
    const rows = rowsOf(log);
    assert.deepEqual(filterRows(rows, { text: 'crossing' }), []);
    assert.deepEqual(names(filterRows(rows, { text: 'crossing' }, new Set([first]))), ['echo']);
  });

  it('a response that arrives after a search is searched the next time', async () => {
    const log = new ActivityLog(100);
    log.add(A, req(1, 'tools/call', { name: 'slow' }), 1);
    const search = new PayloadSearch(() => log.entries());
    const run = (text: string) => new Promise<number[]>((resolve) => search.run(text, resolve));
    assert.deepEqual(await run('finally'), []);
    log.add(A, res(1, { content: [{ type: 'text', text: 'finally done' }] }), 2);
    assert.equal((await run('finally')).length, 1);
  });

  it('the search and its answer are checked on arrival', () => {
    assert.deepEqual(parseFromWebview({ type: 'search', text: 'a b' }), { type: 'search', text: 'a b' });
    assert.equal(parseFromWebview({ type: 'search', text: 'x'.repeat(MAX_SEARCH_TEXT + 1) }), undefined);
    assert.equal(parseToWebview({ type: 'searchMatches', text: 'a', seqs: [0] }), undefined);
    assert.deepEqual(parseToWebview({ type: 'searchMatches', text: 'a', seqs: [3] }), { type: 'searchMatches', text: 'a', seqs: [3] });
  });
});
