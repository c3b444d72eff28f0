import * as assert from 'node:assert/strict';
import { bodyMessages, exchangeView, headerViews, linkExchanges, type RawExchange } from '../../../src/traffic/common/httpExchange';
import { buildHar } from '../../../src/inspector/common/har';
import { HttpLog } from '../../../src/traffic/common/httpLog';
import { ActivityLog, type ActivityServer } from '../../../src/traffic/common/activityLog';
import { exportRecording, importRecording } from '../../../src/inspector/common/recording';
import { parseToWebview } from '../../../src/inspector/common/inspectorProtocol';
import { REDACTED } from '../../../src/shared/common/redact';

const SECRET = 'conf1gured-s3cret-value';
const A: ActivityServer = { id: 'a', label: 'alpha', secrets: [SECRET] };

function post(startedAt: number, body: unknown, extra: Partial<RawExchange> = {}): RawExchange {
  return {
    startedAt,
    method: 'POST',
    url: 'https://mcp.example/mcp',
    requestHeaders: {
      'content-type': 'application/json',
      authorization: 'Bearer abc.def.ghi',
      'mcp-method': 'tools/call',
      'mcp-session-id': 'sess-1',
      'x-custom': SECRET,
    },
    requestBody: JSON.stringify(body),
    headersMs: 3.21,
    totalMs: 5.5,
    status: 200,
    statusText: 'OK',
    responseHeaders: new Headers({ 'content-type': 'application/json', 'set-cookie': 'sid=topsecret', 'mcp-session-id': 'sess-1' }),
    responseBytes: 42,
    ...extra,
  };
}

describe('Inspector HTTP exchanges', () => {
  it('redacts credential headers and configured secrets, and marks Mcp-* headers', () => {
    const views = headerViews(
      [
        ['Authorization', 'Bearer x'],
        ['Cookie', 'a=b'],
        ['X-API-Key', 'k'],
        ['X-Team-Token', 't'],
        ['X-Other', `pre ${SECRET}`],
        ['Mcp-Method', 'tools/call'],
        ['Mcp-Param-Region', 'eu'],
        ['Accept', 'application/json'],
      ],
      [SECRET],
    );
    const by = Object.fromEntries(views.map((v) => [v.name, v]));
    for (const name of ['Authorization', 'Cookie', 'X-API-Key', 'X-Team-Token']) assert.deepEqual(by[name], { name, value: REDACTED, redacted: true }, name);
    assert.equal(by['X-Other'].value, `pre ${REDACTED}`);
    assert.equal(by['X-Other'].redacted, true);
    assert.deepEqual(by['Mcp-Method'], { name: 'Mcp-Method', value: 'tools/call', mcp: true });
    assert.equal(by['Mcp-Param-Region'].mcp, true);
    assert.deepEqual(by.Accept, { name: 'Accept', value: 'application/json' });
  });

  it('a view carries status, timing, session id and sizes, and no secret', () => {
    const view = exchangeView(post(1000, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: { key: SECRET } } }), [SECRET]);
    assert.equal(view.status, 200);
    assert.equal(view.headersMs, 3.2);
    assert.equal(view.totalMs, 5.5);
    assert.equal(view.sessionId, 'sess-1');
    assert.equal(view.responseBytes, 42);
    assert.ok(view.requestBytes! > 0);
    const text = JSON.stringify(view);
    assert.ok(!text.includes(SECRET) && !text.includes('abc.def.ghi') && !text.includes('topsecret'), text);
  });

  it('links a request by JSON-RPC id (nearest in time when ids repeat), a notification by method, a server message by its stream', () => {
    const exchanges: RawExchange[] = [
      post(100, { jsonrpc: '2.0', id: 1, method: 'tools/call' }),
      post(200, { jsonrpc: '2.0', method: 'notifications/initialized' }),
      { ...post(300, { jsonrpc: '2.0', id: 2, method: 'tools/call' }), stream: true, totalMs: 100 },
      post(5000, { jsonrpc: '2.0', id: 1, method: 'tools/call' }),
      post(350, { jsonrpc: '2.0', id: 7, result: {} }),
    ];
    const of = (i: number) => bodyMessages(exchanges[i].requestBody);
    assert.deepEqual(linkExchanges({ kind: 'request', direction: 'send', method: 'tools/call', id: 1, startedAt: 4990 }, exchanges, of), [
      { index: 3, link: 'id' },
    ]);
    assert.deepEqual(linkExchanges({ kind: 'request', direction: 'send', method: 'tools/call', id: 1, startedAt: 99 }, exchanges, of), [
      { index: 0, link: 'id' },
    ]);
    assert.deepEqual(linkExchanges({ kind: 'notification', direction: 'send', method: 'notifications/initialized', startedAt: 199 }, exchanges, of), [
      { index: 1, link: 'method' },
    ]);
    assert.deepEqual(linkExchanges({ kind: 'notification', direction: 'receive', method: 'notifications/progress', startedAt: 320 }, exchanges, of), [
      { index: 2, link: 'stream' },
    ]);
    assert.deepEqual(linkExchanges({ kind: 'request', direction: 'receive', method: 'sampling/createMessage', id: 7, startedAt: 340 }, exchanges, of), [
      { index: 2, link: 'stream' },
      { index: 4, link: 'id' },
    ]);
    assert.deepEqual(linkExchanges({ kind: 'request', direction: 'send', method: 'tools/list', id: 9, startedAt: 100 }, exchanges, of), []);
  });

  it('HAR 1.2: entries with headers, timings and the redacted body, nothing secret', () => {
    const log = new HttpLog();
    log.add(A, post(1000, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { arguments: { key: SECRET } } }));
    log.add(A, {
      startedAt: 900,
      method: 'GET',
      url: `https://mcp.example/mcp?api_key=${SECRET}`,
      requestHeaders: undefined,
      requestBody: undefined,
      headersMs: 2,
      status: 200,
      responseHeaders: new Headers({ 'content-type': 'text/event-stream' }),
      responseBytes: 10,
      stream: true,
    });
    const har = buildHar(log.all(), '1.2.3') as {
      log: {
        version: string;
        creator: { name: string };
        entries: {
          startedDateTime: string;
          request: { method: string; url: string; headers: { name: string; value: string }[]; postData?: { text: string } };
          response: { status: number };
          timings: { wait: number; receive: number };
          comment: string;
        }[];
      };
    };
    assert.equal(har.log.version, '1.2');
    assert.equal(har.log.creator.name, 'MCP Workbench');
    assert.deepEqual(
      har.log.entries.map((e) => e.request.method),
      ['GET', 'POST'],
      'oldest first',
    );
    const [get, call] = har.log.entries;
    assert.match(get.comment, /SSE stream/);
    assert.match(get.comment, /still open/);
    assert.equal(get.timings.receive, -1);
    assert.equal(call.startedDateTime, new Date(1000).toISOString());
    assert.equal(call.response.status, 200);
    assert.equal(call.timings.wait, 3.2);
    assert.ok(call.request.postData?.text.includes('tools/call'));
    assert.ok(call.request.headers.some((h) => h.name === 'mcp-method' && h.value === 'tools/call'));
    const text = JSON.stringify(har);
    assert.ok(!text.includes(SECRET) && !text.includes('abc.def.ghi') && !text.includes('topsecret'));
  });

  it('the JSON Lines export carries the linked HTTP exchanges, and an import shows them again', () => {
    const log = new ActivityLog(100);
    log.add(
      A,
      { direction: 'send', kind: 'request', method: 'tools/call', id: 1, message: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } } },
      1000,
    );
    log.add(A, { direction: 'receive', kind: 'response', id: 1, message: { jsonrpc: '2.0', id: 1, result: { content: [] } } }, 1010);
    const http = new HttpLog();
    http.add(A, post(1001, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } }));
    const text = exportRecording(log.entries(), 5, { httpOf: (r) => http.exchangesFor(r.serverId, r) });
    assert.ok(!text.includes(SECRET) && !text.includes('abc.def.ghi'));
    const imported = importRecording(text);
    assert.deepEqual(imported.skipped, []);
    const views = imported.records[0].http;
    assert.equal(views?.length, 1);
    assert.equal(views![0].link, 'id');
    assert.equal(views![0].sessionId, 'sess-1');
    const detail = parseToWebview({ type: 'detail', seq: 1, request: {}, http: views });
    assert.equal(detail?.type === 'detail' && detail.http?.length, 1, 'the page accepts the HTTP part');
    assert.equal(
      (parseToWebview({ type: 'detail', seq: 1, request: {}, http: [{ method: 'POST' }] }) as { http?: unknown }).http,
      undefined,
      'a malformed one is dropped',
    );
  });
});
