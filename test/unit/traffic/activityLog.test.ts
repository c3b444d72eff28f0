import * as assert from 'node:assert/strict';
import {
  ActivityLog,
  durationOf,
  formatBytes,
  MAX_RERUN_BYTES,
  MAX_STORED_BYTES,
  matchesFilter,
  type ActivityServer,
} from '../../../src/traffic/common/activityLog';
import { REDACTED } from '../../../src/shared/common/redact';
import type { TraceRecord } from '../../../src/mcp/trace';

const A: ActivityServer = { id: 'file-a::alpha', label: 'alpha', secrets: ['sekrit-value'] };
const B: ActivityServer = { id: 'file-b::beta', label: 'beta', secrets: [] };

const req = (id: number | string, method: string, params: unknown = {}, direction: 'send' | 'receive' = 'send'): TraceRecord => ({
  direction,
  kind: 'request',
  method,
  id,
  message: { jsonrpc: '2.0', id, method, params },
});
const res = (id: number | string, result: unknown = {}, direction: 'send' | 'receive' = 'receive'): TraceRecord => ({
  direction,
  kind: 'response',
  id,
  message: { jsonrpc: '2.0', id, result },
});
const err = (id: number | string, code: number, message: string): TraceRecord => ({
  direction: 'receive',
  kind: 'error',
  id,
  errorCode: code,
  errorMessage: message,
  message: { jsonrpc: '2.0', id, error: { code, message } },
});
const note = (method: string, params: unknown = {}, direction: 'send' | 'receive' = 'send'): TraceRecord => ({
  direction,
  kind: 'notification',
  method,
  message: { jsonrpc: '2.0', method, params },
});

const bytes = (message: unknown) => Buffer.byteLength(JSON.stringify(message));

describe('ActivityLog', () => {
  it('pairs a request with its response: status, duration, sizes, newest first', () => {
    const log = new ActivityLog(100);
    const request = req(1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
    log.add(A, request, 1000);
    const pending = log.entries()[0];
    assert.equal(pending.status.kind, 'pending');
    assert.equal(durationOf(pending), undefined);
    const response = res(1, { content: [{ type: 'text', text: 'echo: hi' }] });
    log.add(A, response, 1012);
    const [entry] = log.entries();
    assert.equal(entry.method, 'tools/call');
    assert.equal(entry.id, 1);
    assert.equal(entry.direction, 'send');
    assert.deepEqual(entry.status, { kind: 'ok' });
    assert.equal(durationOf(entry), 12);
    assert.equal(entry.requestSize, bytes(request.message));
    assert.equal(entry.responseSize, bytes(response.message));
    assert.deepEqual(entry.response, response.message);
    assert.deepEqual(entry.rerun, { name: 'echo', arguments: { text: 'hi' } });
    log.add(A, req(2, 'resources/list'), 1020);
    assert.deepEqual(
      log.entries().map((e) => e.id),
      [2, 1],
    );
  });

  it('keys pairs by server and direction, not by id alone', () => {
    const log = new ActivityLog(100);
    log.add(A, req(1, 'tools/list'), 0);
    log.add(B, req(1, 'prompts/list'), 0);
    log.add(A, req(1, 'roots/list', {}, 'receive'), 0); // server → client request with the same id
    log.add(B, res(1), 5);
    log.add(A, res(1, { roots: [] }, 'send'), 7); // our answer to roots/list
    const byMethod = Object.fromEntries(log.entries().map((e) => [e.method, e]));
    assert.equal(byMethod['prompts/list'].status.kind, 'ok');
    assert.equal(byMethod['roots/list'].status.kind, 'ok');
    assert.equal(byMethod['roots/list'].direction, 'receive');
    assert.equal(byMethod['tools/list'].status.kind, 'pending');
    // A response nobody asked for is ignored.
    assert.equal(log.add(A, res(99), 9), undefined);
  });

  it('records protocol errors with code and message', () => {
    const log = new ActivityLog(10);
    log.add(A, req(3, 'tools/call', { name: 'nope' }), 0);
    log.add(A, err(3, -32602, 'Unknown tool: nope'), 4);
    assert.deepEqual(log.entries()[0].status, { kind: 'error', code: -32602, message: 'Unknown tool: nope' });
    assert.equal(durationOf(log.entries()[0]), 4);
  });

  it('marks a request cancelled by notifications/cancelled from the same side; a late response still attaches', () => {
    const log = new ActivityLog(10);
    log.add(A, req(4, 'tools/call', { name: 'slow' }), 0);
    log.add(A, note('notifications/cancelled', { requestId: 4, reason: 'user' }), 30);
    const [cancel, call] = log.entries();
    assert.equal(cancel.kind, 'notification');
    assert.equal(cancel.method, 'notifications/cancelled');
    assert.deepEqual(call.status, { kind: 'cancelled', reason: 'user' });
    assert.equal(durationOf(call), 30);
    log.add(A, res(4), 50);
    assert.equal(call.status.kind, 'cancelled');
    assert.equal(durationOf(call), 30);
    assert.ok(call.responseSize);
    // A cancel from the other side (server cancelling its own request) does not touch ours.
    log.add(A, req(5, 'tools/call', { name: 'x' }), 0);
    log.add(A, note('notifications/cancelled', { requestId: 5 }, 'receive'), 1);
    assert.equal(log.entries().find((e) => e.id === 5)!.status.kind, 'pending');
  });

  it('notifications are entries without a response', () => {
    const log = new ActivityLog(10);
    log.add(A, note('notifications/initialized'), 5);
    const [n] = log.entries();
    assert.equal(n.kind, 'notification');
    assert.equal(n.status.kind, 'ok');
    assert.equal(n.response, undefined);
    assert.equal(n.rerun, undefined);
  });

  it("an error's status text is redacted too (a transport failure quotes the URL with its credentials)", () => {
    const log = new ActivityLog(10);
    const server: ActivityServer = { id: 's', label: 'secretive', secrets: ['pw-SECRET-4711'] };
    log.add(server, req(1, 'server/discover'), 1);
    log.add(
      server,
      {
        direction: 'receive',
        kind: 'error',
        id: 1,
        errorCode: -32000,
        errorMessage: 'Request cannot be constructed from a URL that includes credentials: http://h/mcp?pw=pw-SECRET-4711',
        message: { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'http://h/mcp?pw=pw-SECRET-4711' } },
      },
      2,
    );
    const [entry] = log.entries();
    assert.equal(entry.status.kind, 'error');
    assert.ok(!JSON.stringify(entry.status).includes('pw-SECRET-4711'), JSON.stringify(entry.status));
    assert.ok(!JSON.stringify(entry.response).includes('pw-SECRET-4711'));
  });

  it('is a ring: keeps the newest maxEntries, and eviction forgets pending pairs', () => {
    const log = new ActivityLog(3);
    for (let i = 1; i <= 5; i++) log.add(A, req(i, `m${i}`), i);
    assert.equal(log.size, 3);
    assert.deepEqual(
      log.entries().map((e) => e.method),
      ['m5', 'm4', 'm3'],
    );
    assert.equal(log.add(A, res(1), 10), undefined, 'the evicted request is not completed');
    assert.equal(log.add(A, res(4), 10)?.method, 'm4');
    log.setMaxEntries(2);
    assert.deepEqual(
      log.entries().map((e) => e.method),
      ['m5', 'm4'],
    );
    log.setMaxEntries(5);
    for (let i = 6; i <= 8; i++) log.add(A, req(i, `m${i}`), i);
    assert.deepEqual(
      log.entries().map((e) => e.method),
      ['m8', 'm7', 'm6', 'm5', 'm4'],
    );
    assert.ok(log.find(log.entries()[0].seq));
    log.clear();
    assert.equal(log.size, 0);
    assert.deepEqual(log.entries(), []);
  });

  it('reads a bound given as a function when first used, not when built or when a record is queued, and once', () => {
    // The extension gives it the setting's reader: no setting is read in activate() (issue 30).
    let reads = 0;
    const log = new ActivityLog(() => (reads++, 2));
    log.record(A, req(1, 'm1'), 1);
    log.record(A, req(2, 'm2'), 2);
    log.record(A, req(3, 'm3'), 3);
    assert.equal(reads, 0, 'read before the log was used');
    assert.deepEqual(
      log.entries().map((e) => e.method),
      ['m3', 'm2'],
    );
    assert.equal(log.maxEntries, 2);
    log.add(A, req(4, 'm4'), 4);
    assert.equal(reads, 1);
    // Each way in reads it first: a clear, the bound itself, a change of the bound.
    const cleared = new ActivityLog(() => (reads++, 1));
    cleared.clear();
    cleared.add(A, req(5, 'm5'), 5);
    cleared.add(A, req(6, 'm6'), 6);
    assert.deepEqual(
      cleared.entries().map((e) => e.method),
      ['m6'],
    );
    assert.equal(new ActivityLog(() => 7.9).maxEntries, 7);
    const changed = new ActivityLog(() => 1);
    changed.setMaxEntries(3);
    for (let i = 1; i <= 4; i++) changed.add(A, req(i, `c${i}`), i);
    assert.equal(changed.size, 3);
    assert.equal(reads, 2);
  });

  it('filters on server label and method, all words, case-insensitive', () => {
    const log = new ActivityLog(10);
    log.add(A, req(1, 'tools/call', { name: 'echo' }), 0);
    log.add(B, req(1, 'tools/list'), 0);
    log.add(B, note('notifications/initialized'), 0);
    assert.deepEqual(
      log.entries('TOOLS').map((e) => e.method),
      ['tools/list', 'tools/call'],
    );
    assert.deepEqual(
      log.entries('beta tools').map((e) => e.method),
      ['tools/list'],
    );
    assert.deepEqual(log.entries('  ').length, 3);
    assert.equal(matchesFilter(log.entries()[0], 'gamma'), false);
  });

  it('redacts secrets before storing but measures the real size; rerun keeps the real arguments', () => {
    const log = new ActivityLog(10);
    const request = req(1, 'tools/call', { name: 'login', arguments: { token: 'abc123456', note: 'uses sekrit-value' } });
    log.add(A, request, 0);
    const [e] = log.entries();
    const stored = e.request as { params: { arguments: Record<string, string> } };
    assert.equal(stored.params.arguments.token, REDACTED);
    assert.equal(stored.params.arguments.note, `uses ${REDACTED}`);
    assert.equal(e.requestSize, bytes(request.message));
    assert.deepEqual(e.rerun, { name: 'login', arguments: { token: 'abc123456', note: 'uses sekrit-value' } });
  });

  it('records lazily but never lets an unredacted message out: every read path redacts', () => {
    const log = new ActivityLog(10);
    const secrets: string[] = ['sekrit-value'];
    const server: ActivityServer = { id: 'lazy', label: 'lazy', secrets: () => secrets };
    const message = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'login', arguments: { token: 'abc123456', note: 'sekrit-value and later-secret' } },
    };
    log.add(server, { direction: 'send', kind: 'request', method: 'tools/call', id: 1, message }, 0);
    log.add(server, res(1, { content: [{ type: 'text', text: 'got later-secret' }] }), 1);
    // A secret learnt after the message was recorded is hidden too: redaction happens on read.
    secrets.push('later-secret');
    const [e] = log.entries();
    const shown = [JSON.stringify(e.request), JSON.stringify(e.response), JSON.stringify(e), JSON.stringify(Object.values(e)), String(Object.keys(e))];
    for (const text of shown) {
      assert.ok(!text.includes('sekrit-value') && !text.includes('later-secret') && !text.includes('abc123456'), text);
    }
    assert.match(JSON.stringify(e), /«redacted»/, 'JSON.stringify(entry) carries the redacted messages');
    assert.equal((e.request as { params: { arguments: { token: string } } }).params.arguments.token, REDACTED);
    assert.equal(e.requestSize, bytes(message));
    // Re-run alone keeps the real arguments (it sends them again; never shown).
    assert.deepEqual(e.rerun, { name: 'login', arguments: { token: 'abc123456', note: 'sekrit-value and later-secret' } });
  });

  it('keeps a snapshot: changing a message object after it was recorded changes nothing', () => {
    const log = new ActivityLog(10);
    const args: Record<string, unknown> = { text: 'original' };
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: args } };
    log.add(B, { direction: 'send', kind: 'request', method: 'tools/call', id: 1, message }, 0);
    const result = { content: [{ type: 'text', text: 'echo: original' }] };
    log.add(B, res(1, result), 1);
    args.text = 'changed';
    args.token = 'added-later';
    result.content[0].text = 'changed';
    const [e] = log.entries();
    assert.deepEqual((e.request as { params: unknown }).params, { name: 'echo', arguments: { text: 'original' } });
    assert.deepEqual((e.response as { result: unknown }).result, { content: [{ type: 'text', text: 'echo: original' }] });
    assert.deepEqual(e.rerun, { name: 'echo', arguments: { text: 'original' } });
    // Each read is a fresh copy: a reader changing it cannot change the log.
    (e.request as { params: { name: string } }).params.name = 'tampered';
    assert.equal((e.request as { params: { name: string } }).params.name, 'echo');
  });

  it('record() takes a message in off its path: in a batch a moment later, or at the first read', async () => {
    const log = new ActivityLog(10);
    let changes = 0;
    log.onDidChange(() => changes++);
    log.record(A, req(1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } }), 0);
    log.record(A, res(1, { content: [] }), 3);
    assert.equal(changes, 0, "nothing done on the message's path");
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(changes, 0, 'not while the caller is still between its request and the next');
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(changes, 1, 'one change for the batch');
    assert.equal(log.entries()[0].status.kind, 'ok');
    // A read takes in what is queued, so readers never see a stale log.
    log.record(A, req(2, 'tools/list'), 5);
    assert.deepEqual(
      log.entries().map((e) => e.id),
      [2, 1],
    );
    log.record(B, req(3, 'tools/call', { name: 'slow' }), 6);
    log.abandon(B.id, 9);
    assert.equal(log.find(log.entries()[0].seq)?.status.kind, 'error', 'abandon() sees the queued request');
    // A burst is taken in before the queue grows past its bound.
    const before = changes;
    for (let i = 0; i < 2500; i++) log.record(A, note('notifications/message'), 10);
    assert.equal(changes - before, 2, 'taken in twice (at 1000 and 2000 queued) without the event loop turning');
    assert.ok((log as unknown as { queued: unknown[] }).queued.length < 3 * 1000, 'the queue stays bounded');
  });

  it('keeps re-run arguments only up to a bound, so a full log stays small', () => {
    const log = new ActivityLog(1000);
    const text = 'A'.repeat(MAX_RERUN_BYTES);
    log.add(A, req(1, 'tools/call', { name: 'upload', arguments: { text } }), 0);
    const [big] = log.entries();
    assert.equal(big.rerun, undefined, 'the arguments were too big to keep');
    assert.match(String(big.rerunUnavailable), /too large to keep for Re-run/);
    log.add(A, req(2, 'tools/call', { name: 'upload', arguments: { text: 'small' } }), 0);
    assert.deepEqual(log.entries()[0].rerun, { name: 'upload', arguments: { text: 'small' } });
    // A thousand such calls keep at most the bound each, not what was sent.
    for (let i = 3; i < 1003; i++) log.add(A, req(i, 'tools/call', { name: 'upload', arguments: { text } }), 0);
    const kept = log.entries().reduce((sum, e) => sum + (e.rerun ? bytes(e.rerun) : 0), 0);
    assert.ok(kept <= 1000 * MAX_RERUN_BYTES, `${kept} bytes of re-run arguments`);
    assert.equal(log.entries().filter((e) => e.rerun).length, 0);
  });

  it('stores huge messages as a preview, keeping the exact size', () => {
    const log = new ActivityLog(10);
    log.add(A, req(1, 'resources/read', { uri: 'x' }), 0);
    const big = res(1, { contents: [{ uri: 'x', blob: 'A'.repeat(MAX_STORED_BYTES + 10) }] });
    log.add(A, big, 1);
    const [e] = log.entries();
    assert.equal(e.responseSize, bytes(big.message));
    assert.match(String((e.response as { truncated: string }).truncated), /message of 1\.0 MB/);
    assert.equal((e.response as { preview: string }).preview.length, 64 * 1024);
  });

  it("abandon() ends a server's pending requests when its connection closes", () => {
    const log = new ActivityLog(10);
    log.add(A, req(1, 'tools/call', { name: 'slow' }), 0);
    log.add(B, req(1, 'tools/call', { name: 'slow' }), 0);
    log.abandon(A.id, 9);
    const [b, a] = log.entries();
    assert.equal(a.status.kind, 'error');
    assert.equal(b.status.kind, 'pending');
  });

  it('fires onDidChange and formats sizes', () => {
    const log = new ActivityLog(10);
    let fired = 0;
    log.onDidChange(() => fired++);
    log.add(A, note('notifications/initialized'), 0);
    assert.equal(fired, 1);
    assert.equal(formatBytes(512), '512 B');
    assert.equal(formatBytes(1229), '1.2 KB');
    assert.equal(formatBytes(3 * 1024 * 1024), '3.0 MB');
  });
});
