/**
 * The recording fetch of HTTP transports, against real servers: the Streamable HTTP fixture
 * (2025-11-25, sessions), the 2026-07-28 fixture (Mcp-Method headers) and the OAuth-protected
 * fixture (the per-request AbortSignal: no MaxListenersExceededWarning over a long session).
 */
import * as assert from 'node:assert/strict';
import { getEventListeners, setMaxListeners } from 'node:events';
import { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import type { ConnectionAuthHost } from '../../../src/mcp/connection/connectionTypes';
import { linkedSignal, recordingFetch, type HttpRecord } from '../../../src/mcp/connection/httpRecording';
import { MemoryOAuthStore, WorkbenchOAuthProvider, followAuthorizationHeadlessly } from '../../../src/mcp/auth/oauthProvider';
import { exchangeView, headerPairs } from '../../../src/traffic/common/httpExchange';
import { startHttpFixture } from '../../fixtures/servers/httpServer';
import { startModernHttpFixture } from '../../fixtures/servers/modernHttpServer';
import { startProtectedFixture } from '../../fixtures/servers/protectedServer';
import { definition, recordingHost, RecordingLog, textOf, waitFor } from './testHost';

const SECRET = 'configured-secret-header-value-0042';

describe('HTTP exchanges (recording fetch)', function () {
  this.timeout(60000);
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  function connect(url: string, headers: Record<string, string>, auth?: ConnectionAuthHost) {
    const records: HttpRecord[] = [];
    const host = { ...recordingHost(), http: (_def: unknown, r: HttpRecord) => records.push(r), ...(auth ? { auth } : {}) };
    const c = new McpServerConnection(definition({ type: 'http', url, headers }, { secrets: [SECRET] }), host, new RecordingLog());
    cleanup.push(() => c.dispose());
    return { c, records };
  }

  it('records each POST with its JSON-RPC body, status, timing, session id and headers (secret header redacted when shown)', async () => {
    const fixture = await startHttpFixture({ verbose: false });
    cleanup.push(() => fixture.close());
    const { c, records } = connect(fixture.url, { 'X-Team-Token': SECRET, 'X-Plain': `a ${SECRET} b` });
    await c.start();
    assert.equal(c.state.kind, 'running', JSON.stringify(c.state));
    assert.equal(textOf(await c.callTool('echo', { text: 'hi' })), 'echo: hi');
    const call = await waitFor(
      () => records.find((r) => r.method === 'POST' && r.requestBody?.includes('"tools/call"') && r.totalMs !== undefined),
      'the tools/call POST recorded and ended',
    );
    assert.equal(call.status, 200);
    assert.ok(call.headersMs! >= 0 && call.totalMs! >= call.headersMs!);
    assert.ok(call.responseBytes > 0, 'the body bytes are counted');
    const view = exchangeView(call, [SECRET]);
    assert.ok(view.sessionId, 'the session id is shown');
    const names = view.requestHeaders.map((h) => h.name.toLowerCase());
    assert.ok(names.includes('mcp-session-id') && names.includes('mcp-protocol-version'), names.join());
    assert.ok(view.requestHeaders.find((h) => h.name.toLowerCase() === 'mcp-session-id')?.mcp, 'Mcp-* headers are marked');
    assert.ok(!JSON.stringify(view).includes(SECRET), 'no secret in the shown exchange');
    assert.equal(view.requestHeaders.find((h) => h.name.toLowerCase() === 'x-team-token')?.redacted, true);
    // The raw record keeps the headers as sent (the server got the secret).
    assert.ok(headerPairs(call.requestHeaders).some(([, v]) => v === SECRET));
  });

  it('auto era against a 2025-11-25 server: the server/discover probe it refuses ends as an error in the trace, with the answer', async () => {
    // Seen in the Inspector: the probe's row stayed pending forever (later notifications nested
    // under it) and the server's answer was in neither export.
    const fixture = await startHttpFixture({ verbose: false });
    cleanup.push(() => fixture.close());
    const host = recordingHost();
    const c = new McpServerConnection(definition({ type: 'http', url: fixture.url, headers: {} }), host, new RecordingLog());
    cleanup.push(() => c.dispose());
    await c.start();
    assert.equal(c.state.kind, 'running', JSON.stringify(c.state));
    const probe = host.traces.find((t) => t.kind === 'request' && t.method === 'server/discover');
    assert.ok(probe, `the probe is traced; methods: ${host.traces.map((t) => t.method).join(', ')}`);
    const answer = host.traces.find((t) => t.kind !== 'request' && t.kind !== 'notification' && t.id === probe.id);
    assert.ok(answer, 'the probe has an answer in the trace');
    assert.equal(answer.kind, 'error');
    assert.equal(answer.method, 'server/discover');
    // What the server answered (its HTTP body) is the message, so both exports carry it.
    assert.match(answer.errorMessage ?? '', /Bad Request/);
  });

  it('2026-07-28: the request headers carry Mcp-Method and Mcp-Name', async () => {
    const fixture = await startModernHttpFixture();
    cleanup.push(() => fixture.close());
    const { c, records } = connect(fixture.url, {});
    await c.start();
    assert.equal(c.state.kind, 'running', JSON.stringify(c.state));
    await c.callTool('echo', { text: 'hi' });
    const call = await waitFor(() => records.find((r) => r.method === 'POST' && r.requestBody?.includes('"tools/call"')), 'the tools/call POST');
    const view = exchangeView(call, []);
    const method = view.requestHeaders.find((h) => h.name.toLowerCase() === 'mcp-method');
    assert.equal(method?.value, 'tools/call');
    assert.equal(method?.mcp, true);
    assert.equal(view.requestHeaders.find((h) => h.name.toLowerCase() === 'mcp-name')?.value, 'echo');
  });

  it('the recorded response keeps the url and redirected flag the SDK and EventSource read', async () => {
    const fixture = await startHttpFixture({ verbose: false });
    cleanup.push(() => fixture.close());
    const records: HttpRecord[] = [];
    const fetched = await recordingFetch(fetch, (r) => records.push(r))(fixture.url, { method: 'GET', headers: { accept: 'application/json' } });
    assert.equal(fetched.url, fixture.url);
    assert.equal(fetched.redirected, false);
    await fetched.body?.cancel();
    await waitFor(() => records[0]?.totalMs !== undefined, 'the cancelled body to settle the record');
  });

  it('a body aborted by the transport signal mid-stream settles the record with the error and drops its listener', async () => {
    const http = await import('node:http');
    // An SSE stream that sends one event and then stays open, as a long response does.
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress"}\n\n');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanup.push(() => new Promise((r) => server.close(r)));
    cleanup.push(async () => server.closeAllConnections());
    const transportSignal = new AbortController();
    const records: HttpRecord[] = [];
    const { port } = server.address() as { port: number };
    const fetched = await recordingFetch(fetch, (r) => records.push(r))(`http://127.0.0.1:${port}/mcp`, {
      method: 'POST',
      body: '{}',
      signal: transportSignal.signal,
    });
    const reader = fetched.body!.getReader();
    const first = await reader.read();
    assert.ok(first.value && first.value.byteLength > 0);
    assert.equal(records[0].stream, true);
    assert.equal(records[0].totalMs, undefined, 'the stream is still open');
    assert.equal(getEventListeners(transportSignal.signal, 'abort').length, 1);
    transportSignal.abort(new Error('transport closed'));
    await assert.rejects(reader.read());
    await waitFor(() => records[0].totalMs !== undefined, 'the aborted body to settle the record');
    assert.ok(records[0].error, 'the record says why the body ended');
    assert.equal(records[0].responseBytes, first.value.byteLength);
    assert.equal(getEventListeners(transportSignal.signal, 'abort').length, 0, 'the link to the transport signal is undone');
  });

  it('a linked signal follows its parent, and release removes its one listener', () => {
    const parent = new AbortController();
    setMaxListeners(100, parent.signal);
    const links = Array.from({ length: 50 }, () => linkedSignal(parent.signal));
    assert.equal(getEventListeners(parent.signal, 'abort').length, 50);
    links.slice(1).forEach((l) => l.release());
    assert.equal(getEventListeners(parent.signal, 'abort').length, 1);
    parent.abort(new Error('closed'));
    assert.equal(links[0].signal.aborted, true);
    assert.equal((links[0].signal.reason as Error).message, 'closed');
    assert.equal(links[1].signal.aborted, false, 'a released link no longer follows');
  });

  it('with OAuth, 200 tool calls leave no MaxListenersExceededWarning and no listener pile-up on the transport signal', async () => {
    const fixture = await startProtectedFixture({});
    cleanup.push(() => fixture.close());
    const store = new MemoryOAuthStore();
    const auth: ConnectionAuthHost = {
      provider: (_def, launch) =>
        new WorkbenchOAuthProvider({
          keyPrefix: launch.url,
          store,
          redirectUrl: 'http://127.0.0.1:1/oauth/callback',
          settings: launch.oauth,
          authorize: async (url, redirect) => followAuthorizationHeadlessly(url, redirect),
        }),
      mayPrompt: () => false,
    };
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    cleanup.push(async () => process.off('warning', onWarning));
    const { c } = connect(fixture.url, {}, auth);
    await c.signIn();
    assert.equal(c.state.kind, 'running', JSON.stringify(c.state));
    // The transport's long-lived signal (an SDK private field: the one thing the leak is about).
    const transportSignal = (c as unknown as { session: { transport: { _abortController: AbortController } } }).session.transport._abortController.signal;
    let most = 0;
    for (let i = 0; i < 200; i++) {
      assert.equal(textOf(await c.callTool('echo', { text: `n${i}` })), `echo: n${i}`);
      most = Math.max(most, getEventListeners(transportSignal, 'abort').length);
    }
    await new Promise((r) => setImmediate(r));
    // Each settled request has removed its listener: only the few long-lived ones stay (the
    // open GET stream and the like), never one per call (208 here without the per-request signal).
    assert.ok(most < 10, `${most} abort listeners on the transport's signal at once`);
    const leaks = warnings.filter((w) => w.name === 'MaxListenersExceededWarning');
    assert.deepEqual(
      leaks.map((w) => w.message),
      [],
    );
  });
});
