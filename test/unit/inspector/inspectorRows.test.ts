import * as assert from 'node:assert/strict';
import { ActivityLog } from '../../../src/traffic/common/activityLog';
import { classify, filterRows, formatClock, type InspectorRow } from '../../../src/inspector/common/inspectorRows';
import { buildRows } from '../../../src/inspector/common/rowsModel';
import { planRowsMessage } from '../../../src/inspector/common/rowsBatch';
import { factsOf } from '../../../src/traffic/common/exchangeFacts';
import type { TraceRecord } from '../../../src/mcp/trace';
import { MAX_PARAMS_TEXT, parseFromWebview, parseToWebview } from '../../../src/inspector/common/inspectorProtocol';
import { A, B, req, res, note } from './traceRecords';

const err = (id: number, code: number, message: string): TraceRecord => ({
  direction: 'receive',
  kind: 'error',
  id,
  errorCode: code,
  errorMessage: message,
  message: { jsonrpc: '2.0', id, error: { code, message } },
});

const rowsOf = (log: ActivityLog) => buildRows(log.entries(), factsOf);
const flat = (rows: readonly InspectorRow[]): InspectorRow[] => rows.flatMap((r) => [r, ...flat(r.children)]);

describe('Inspector rows', () => {
  it('a row per exchange: tool name, latency, size, newest first', () => {
    const log = new ActivityLog(100);
    log.add(A, req(1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } }), 1000);
    log.add(A, res(1, { content: [{ type: 'text', text: 'echo: hi' }] }), 1012);
    log.add(B, req(1, 'resources/read', { uri: 'file:///x.txt' }), 1020);
    log.add(A, req(2, 'prompts/get', { name: 'greet' }), 1030);
    const rows = rowsOf(log);
    assert.deepEqual(
      rows.map((r) => [r.method, r.name, r.serverLabel, r.status]),
      [
        ['prompts/get', 'greet', 'alpha', 'pending'],
        ['resources/read', 'file:///x.txt', 'beta', 'pending'],
        ['tools/call', 'echo', 'alpha', 'result'],
      ],
    );
    const call = rows[2];
    assert.equal(call.latencyMs, 12);
    const entry = log.entries().find((e) => e.seq === call.seq)!;
    assert.equal(call.size, entry.requestSize + entry.responseSize!);
  });

  it('classifies result, JSON-RPC error, isError result (an error, not a success), cancelled, notification', () => {
    const log = new ActivityLog(100);
    log.add(A, req(1, 'tools/call', { name: 'ok' }), 1);
    log.add(A, res(1, { content: [] }), 2);
    log.add(A, req(2, 'tools/call', { name: 'fail' }), 3);
    log.add(A, res(2, { content: [{ type: 'text', text: 'fixture failure' }], isError: true }), 4);
    log.add(A, req(3, 'tools/call', { name: 'nope' }), 5);
    log.add(A, err(3, -32602, 'Unknown tool: nope'), 6);
    log.add(A, req(4, 'tools/call', { name: 'slow' }), 7);
    log.add(
      A,
      {
        direction: 'send',
        kind: 'notification',
        method: 'notifications/cancelled',
        message: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 4, reason: 'user' } },
      },
      8,
    );
    const byName = new Map(flat(rowsOf(log)).map((r) => [r.name ?? r.method, r]));
    assert.equal(byName.get('ok')!.status, 'result');
    assert.equal(byName.get('fail')!.status, 'toolError');
    assert.equal(byName.get('fail')!.statusText, 'fixture failure');
    assert.equal(byName.get('nope')!.status, 'rpcError');
    assert.equal(byName.get('nope')!.statusText, '-32602: Unknown tool: nope');
    assert.equal(byName.get('slow')!.status, 'cancelled');
    assert.equal(byName.get('notifications/cancelled')!.status, 'notification');
    assert.deepEqual(classify({ kind: 'request', status: { kind: 'ok' } }, { isError: true }), { status: 'toolError', statusText: undefined });
  });

  it('nests progress under the request with its progress token, even with two requests in flight', () => {
    const log = new ActivityLog(100);
    log.add(A, req(1, 'tools/call', { name: 'count', _meta: { progressToken: 'p1' } }), 1);
    log.add(A, req(2, 'tools/call', { name: 'other', _meta: { progressToken: 'p2' } }), 2);
    log.add(A, note('notifications/progress', { progressToken: 'p1', progress: 1, total: 2 }), 3);
    log.add(A, note('notifications/progress', { progressToken: 'p2', progress: 1 }), 4);
    log.add(A, res(1), 5);
    log.add(A, res(2), 6);
    // The same token on another server is that server's.
    log.add(B, note('notifications/progress', { progressToken: 'p1', progress: 1 }), 7);
    const rows = rowsOf(log);
    assert.deepEqual(
      rows.map((r) => [r.serverLabel, r.name ?? r.method, r.children.map((c) => c.method)]),
      [
        ['beta', 'notifications/progress', []],
        ['alpha', 'other', ['notifications/progress']],
        ['alpha', 'count', ['notifications/progress']],
      ],
    );
  });

  it('a call that floods the full log keeps its row and its notifications while it runs; nothing nests under a ping', () => {
    // As seen: at the 1,000-entry limit the tools/call row was evicted and 878 of its log
    // notifications went under an unrelated ping. Here at 20 entries, with 30 notifications.
    const log = new ActivityLog(20);
    log.add(A, req(1, 'tools/call', { name: 'chatty' }), 10);
    log.add(A, req(2, 'ping'), 11);
    log.add(A, res(2), 12);
    for (let i = 0; i < 30; i++) log.add(A, note('notifications/message', { level: 'info', data: `line ${i}` }), 13 + i);
    let rows = rowsOf(log);
    const call = rows.find((r) => r.name === 'chatty');
    assert.ok(call, 'the call in flight is still in the log');
    assert.equal(call.children.length, 19, 'the newest 19 notifications, under their call');
    assert.deepEqual(
      rows.map((r) => r.name ?? r.method),
      ['chatty'],
      'the finished ping went first',
    );
    log.add(A, res(1), 50);
    log.add(A, req(3, 'ping'), 51);
    for (let i = 30; i < 35; i++) log.add(A, note('notifications/message', { level: 'info', data: `late ${i}` }), 52 + i);
    rows = rowsOf(log);
    const ping = rows.find((r) => r.method === 'ping');
    assert.ok(ping);
    assert.equal(ping.children.length, 0, 'a ping is no parent');
  });

  it('a finished flood call stays while its notifications are kept: the next messages evict its oldest notifications, not it', () => {
    // As seen at the default 1,000 entries: the call that had sent 2,000 notifications was
    // evicted by the next message once it had finished, its 999 kept notifications went to the
    // top level, and the panel was sent every row again.
    const log = new ActivityLog(1000);
    log.add(A, req(1, 'tools/call', { name: 'flood' }), 10);
    for (let i = 0; i < 2000; i++) log.add(A, note('notifications/message', { level: 'info', data: `line ${i}` }), 11 + i);
    log.add(A, res(1, { content: [] }), 3000);
    const before = rowsOf(log);
    log.add(A, req(2, 'tools/list'), 3001);
    log.add(A, res(2, { tools: [] }), 3002);
    log.add(A, req(3, 'ping'), 3003);
    for (let i = 0; i < 3; i++) log.add(A, note('notifications/message', { level: 'info', data: `after ${i}` }), 3004 + i);
    const after = rowsOf(log);
    assert.deepEqual(
      after.map((r) => [r.name ?? r.method, r.children.length]),
      [
        ['notifications/message', 0],
        ['notifications/message', 0],
        ['notifications/message', 0],
        ['ping', 0],
        ['tools/list', 0],
        ['flood', 994],
      ],
    );
    const plan = planRowsMessage(before, after);
    assert.equal(plan.kind, 'delta', 'the panel is sent what changed, not every row');
    assert.equal(plan.kind === 'delta' && plan.delta.rows.length, 5, 'the five new rows; no notification moved');
  });

  it('with everything in flight the oldest goes after all; at most a few in-flight requests are passed over', () => {
    const log = new ActivityLog(3);
    for (let i = 1; i <= 5; i++) log.add(A, req(i, `m${i}`), i);
    assert.deepEqual(
      log.entries().map((e) => e.method),
      ['m5', 'm4', 'm3'],
    );
    const many = new ActivityLog(40);
    for (let i = 1; i <= 20; i++) many.add(A, req(i, `call${i}`), i);
    for (let i = 0; i < 30; i++) many.add(A, note('notifications/message', { data: i }), 100 + i);
    const methods = many.entries().map((e) => e.method);
    assert.equal(methods.length, 40);
    assert.ok(methods.includes('call1') === false && methods.includes('call17'), `kept: ${methods.filter((m) => m.startsWith('call')).join(', ')}`);
  });

  it('nests a log message under the one request in flight; with two in flight, or none, it stands alone', () => {
    const log = new ActivityLog(100);
    log.add(A, req(1, 'tools/call', { name: 'log' }), 10);
    log.add(A, note('notifications/message', { level: 'info', data: 'inside' }), 11);
    log.add(A, res(1), 12);
    log.add(A, note('notifications/message', { level: 'info', data: 'after' }), 13);
    log.add(A, req(2, 'tools/call', { name: 'x' }), 20);
    log.add(A, req(3, 'tools/call', { name: 'y' }), 21);
    log.add(A, note('notifications/message', { level: 'info', data: 'ambiguous' }), 22);
    log.add(A, note('notifications/tools/list_changed'), 23);
    const rows = rowsOf(log);
    assert.deepEqual(
      rows.map((r) => [r.name ?? r.method, r.children.length]),
      [
        ['notifications/tools/list_changed', 0],
        ['notifications/message', 0],
        ['y', 0],
        ['x', 0],
        ['notifications/message', 0],
        ['log', 1],
      ],
    );
  });

  it('nests later rounds of a multi-round-trip request under its first round', () => {
    const log = new ActivityLog(100);
    log.add(A, req(1, 'tools/call', { name: 'ask' }), 1);
    log.add(A, res(1, { resultType: 'input_required' }, { inputRequired: true, round: 1 }), 2);
    log.add(A, req(2, 'tools/call', { name: 'ask' }, { round: 2, originId: 1 }), 3);
    log.add(A, res(2, { content: [] }), 4);
    const rows = rowsOf(log);
    assert.equal(rows.length, 1);
    assert.deepEqual(
      rows[0].children.map((c) => [c.name, c.round]),
      [['ask', 2]],
    );
  });

  it("nests a task's polling, status notifications and result under the call that created it; a failed result fails the call", () => {
    const log = new ActivityLog(100);
    log.add(A, req(1, 'tools/call', { name: 'longTask', task: {} }), 1);
    log.add(A, res(1, { task: { taskId: 't-1', status: 'working' } }), 2);
    log.add(A, note('notifications/tasks/status', { taskId: 't-1', status: 'working' }), 3);
    log.add(A, req(2, 'tasks/get', { taskId: 't-1' }), 4);
    log.add(A, res(2, { taskId: 't-1', status: 'failed' }), 5);
    log.add(A, req(3, 'tasks/result', { taskId: 't-1' }), 6);
    log.add(A, res(3, { content: [{ type: 'text', text: 'failed after 1 steps' }], isError: true }), 7);
    // Another server's task with the same id is not this call's.
    log.add(B, req(1, 'tasks/get', { taskId: 't-1' }), 8);
    const rows = rowsOf(log);
    assert.deepEqual(
      rows.map((r) => [r.serverLabel, r.method, r.children.map((c) => c.method)]),
      [
        ['beta', 'tasks/get', []],
        ['alpha', 'tools/call', ['notifications/tasks/status', 'tasks/get', 'tasks/result']],
      ],
    );
    assert.equal(rows[1].status, 'toolError');
    assert.equal(rows[1].statusText, 'failed after 1 steps');
  });

  it('filters by server, method, errors only and words, keeping parents of matching children', () => {
    const log = new ActivityLog(100);
    log.add(A, req(1, 'tools/call', { name: 'echo', _meta: { progressToken: 7 } }), 1);
    log.add(A, note('notifications/progress', { progressToken: 7, progress: 1 }), 2);
    log.add(A, res(1), 3);
    log.add(A, req(2, 'tools/call', { name: 'fail' }), 4);
    log.add(A, res(2, { content: [], isError: true }), 5);
    log.add(B, req(1, 'tools/list'), 6);
    log.add(B, err(1, -32603, 'boom'), 7);
    const rows = rowsOf(log);
    const names = (list: InspectorRow[]) => list.map((r) => r.name ?? r.method);
    assert.deepEqual(names(filterRows(rows, { serverId: 'b' })), ['tools/list']);
    assert.deepEqual(names(filterRows(rows, { errorsOnly: true })), ['tools/list', 'fail']);
    assert.deepEqual(names(filterRows(rows, { errorsOnly: true, serverId: 'a' })), ['fail']);
    assert.deepEqual(names(filterRows(rows, { text: 'ECHO alpha' })), ['echo']);
    assert.equal(filterRows(rows, { text: 'echo' })[0].children.length, 1, 'a matching request keeps its notifications');
    const byMethod = filterRows(rows, { method: 'notifications/progress' });
    assert.deepEqual(names(byMethod), ['echo'], 'the parent of a matching notification stays, for context');
    assert.deepEqual(names(byMethod[0].children), ['notifications/progress']);
    assert.deepEqual(filterRows(rows, { text: 'nothing-like-this' }), []);
    assert.deepEqual(filterRows(rows, {}), rows);
  });

  it('marks a replay with the exchange it replays, on its own row (not nested)', () => {
    const log = new ActivityLog(100);
    log.add(A, req(1, 'tools/call', { name: 'echo' }), 1000);
    log.add(A, res(1), 1001);
    log.add(A, req(2, 'tools/call', { name: 'echo' }), 1002);
    const [first, second] = log
      .entries()
      .map((e) => e.seq)
      .sort((a, b) => a - b);
    const rows = buildRows(log.entries(), factsOf, (seq) => (seq === second ? first : undefined));
    assert.deepEqual(
      rows.map((r) => [r.seq, r.replayOf]),
      [
        [second, first],
        [first, undefined],
      ],
    );
    assert.ok(parseToWebview({ type: 'rows', rows, readOnly: false }), 'the page accepts the marked rows');
  });

  it("the page's actions reach the host only well-formed", () => {
    assert.deepEqual(parseFromWebview({ type: 'action', action: 'replay', seq: 3, params: '{}' }), { type: 'action', action: 'replay', seq: 3, params: '{}' });
    assert.equal(parseFromWebview({ type: 'action', action: 'runAnything', seq: 3, params: '{}' }), undefined);
    assert.equal(parseFromWebview({ type: 'action', action: 'copyCli', seq: 0, params: '{}' }), undefined);
    assert.equal(parseFromWebview({ type: 'action', action: 'replay', seq: 3, params: { a: 1 } }), undefined);
    assert.equal(parseFromWebview({ type: 'action', action: 'replay', seq: 3, params: 'x'.repeat(MAX_PARAMS_TEXT + 1) }), undefined);
    assert.deepEqual(parseFromWebview({ type: 'startServer', seq: 4 }), { type: 'startServer', seq: 4 });
    // A selection asked again for its detail says so (the host then keeps its own request standing).
    assert.deepEqual(parseFromWebview({ type: 'select', seq: 5 }), { type: 'select', seq: 5 });
    assert.deepEqual(parseFromWebview({ type: 'select', seq: 5, refresh: true }), { type: 'select', seq: 5, refresh: true });
    assert.deepEqual(parseFromWebview({ type: 'select', seq: 5, refresh: 'yes' }), { type: 'select', seq: 5 });
    assert.equal(parseToWebview({ type: 'actionStatus', seq: 3, action: 'replay', kind: 'shout', text: 'x' }), undefined);
    assert.deepEqual(parseToWebview({ type: 'actionStatus', seq: 3, action: 'replay', kind: 'info', text: 'x', newSeq: 9 }), {
      type: 'actionStatus',
      seq: 3,
      action: 'replay',
      kind: 'info',
      text: 'x',
      newSeq: 9,
    });
  });

  it('formats times as HH:MM:SS.mmm', () => {
    const at = new Date(2026, 10, 23, 9, 5, 7, 42).getTime();
    assert.equal(formatClock(at), '09:05:07.042');
  });
});
