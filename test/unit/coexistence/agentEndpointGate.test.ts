/** What the loopback endpoint lets through before any MCP code runs (a table of requests). */
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import {
  checkAgentRequest,
  hasSecret,
  isAllowedOrigin,
  isLoopbackHost,
  MAX_AGENT_REQUEST_BYTES,
  newRouteId,
  newSecret,
  type AgentRequestHead,
} from '../../../src/coexistence/common/agentEndpointGate';

describe('checkAgentRequest', () => {
  const port = 40123;
  const secret = 'c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3I';
  const route = 'AbCdEfGhIjKlMnOpQrStUv';
  const good: AgentRequestHead = {
    method: 'POST',
    url: `/mcp/${route}`,
    headers: { host: `127.0.0.1:${port}`, authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'content-length': '120' },
  };
  const withHeaders = (headers: AgentRequestHead['headers']): AgentRequestHead => ({ ...good, headers: { ...good.headers, ...headers } });
  const verdict = (request: AgentRequestHead) => checkAgentRequest(request, { port, secret });

  it('lets through a POST to a route with the secret, from VS Code (no Origin)', () => {
    assert.deepEqual(verdict(good), { ok: true, routeId: route });
    assert.deepEqual(verdict({ ...good, method: 'GET' }), { ok: true, routeId: route });
    assert.deepEqual(verdict({ ...good, method: 'DELETE' }), { ok: true, routeId: route });
    assert.deepEqual(verdict(withHeaders({ host: `localhost:${port}` })), { ok: true, routeId: route });
  });

  // Exactly the headers desktop VS Code 1.139.1 sends (its Node extension host's fetch, as
  // McpHTTPHandle builds them: extHostMcp.ts _sendStreamableHttp, _attachStreamableBackchannel
  // and _fetch), as Node 20 and 24 put them on the wire; recorded with a local listener.
  it('lets through the requests desktop VS Code 1.139.1 sends (no Origin)', () => {
    const common = {
      host: `127.0.0.1:${port}`,
      connection: 'keep-alive',
      authorization: `Bearer ${secret}`,
      'user-agent': 'Visual Studio Code/1.139.1',
      'accept-language': '*',
      'sec-fetch-mode': 'cors',
      'accept-encoding': 'gzip, deflate',
    };
    const post: AgentRequestHead = {
      method: 'POST',
      url: `/mcp/${route}`,
      headers: { ...common, 'content-type': 'application/json', accept: 'text/event-stream, application/json', 'content-length': '40' },
    };
    const backchannel: AgentRequestHead = { method: 'GET', url: `/mcp/${route}`, headers: { ...common, accept: 'text/event-stream' } };
    const close: AgentRequestHead = { method: 'DELETE', url: `/mcp/${route}`, headers: { ...common, 'mcp-session-id': 'abc' } };
    for (const request of [post, backchannel, close]) assert.deepEqual(verdict(request), { ok: true, routeId: route });
  });

  // request → status; each row says why.
  const table: [AgentRequestHead, number, string][] = [
    [withHeaders({ authorization: undefined }), 401, 'no secret'],
    [withHeaders({ authorization: `Bearer ${secret}x` }), 401, 'a longer secret'],
    [withHeaders({ authorization: `Bearer ${secret.slice(0, -1)}X` }), 401, 'a wrong secret of the right length'],
    [withHeaders({ authorization: secret }), 401, 'the secret without the scheme'],
    [withHeaders({ authorization: `bearer ${secret}` }), 401, 'the scheme spelled otherwise (VS Code sends what we gave it)'],
    [withHeaders({ host: `evil.example:${port}` }), 403, 'a rebound DNS name'],
    [withHeaders({ host: `127.0.0.1:${port + 1}` }), 403, 'another port'],
    [withHeaders({ host: undefined }), 403, 'no Host'],
    [withHeaders({ origin: 'https://evil.example' }), 403, 'a web page'],
    [withHeaders({ origin: 'vscode-webview://abc' }), 403, 'a webview (MCP Apps show server-made pages)'],
    [withHeaders({ origin: 'null' }), 403, 'an opaque origin'],
    [withHeaders({ origin: 'http://localhost:3000' }), 403, "a page served from this machine (VS Code's requests carry no Origin)"],
    [withHeaders({ origin: `http://127.0.0.1:${port}` }), 403, 'a page claiming our own origin'],
    [withHeaders({ origin: 'vscode-file://vscode-app' }), 403, "VS Code's desktop window (it makes no MCP requests; its extension host does)"],
    [withHeaders({ origin: '' }), 403, 'an empty Origin'],
    [{ ...good, method: 'OPTIONS' }, 405, 'a CORS preflight gets no CORS answer'],
    [{ ...good, method: 'PUT' }, 405, 'PUT'],
    [{ ...good, url: '/mcp' }, 404, 'no route id'],
    [{ ...good, url: `/mcp/${route}/x` }, 404, 'a longer path'],
    [{ ...good, url: `/mcp/${route}?x=1` }, 404, 'a query'],
    [{ ...good, url: '/mcp/short' }, 404, 'a route id too short to be ours'],
    [{ ...good, url: `/other/${route}` }, 404, 'another path'],
    [withHeaders({ 'content-length': String(MAX_AGENT_REQUEST_BYTES + 1) }), 413, 'a body over the cap'],
    [withHeaders({ 'content-length': 'lots' }), 413, 'a length that is no number'],
  ];
  for (const [request, status, why] of table) {
    it(`${status}: ${why}`, () => {
      const result = verdict(request);
      assert.equal(result.ok, false);
      if (!result.ok) assert.equal(result.status, status);
    });
  }

  it('checks the secret before the path: without it, no one learns which paths exist', () => {
    const result = verdict({ ...withHeaders({ authorization: undefined }), url: '/nothing' });
    assert.ok(!result.ok && result.status === 401);
  });

  it('takes the first of repeated headers', () => {
    assert.equal(verdict(withHeaders({ authorization: [`Bearer ${secret}`, 'Bearer x'] })).ok, true);
    assert.equal(verdict(withHeaders({ authorization: ['Bearer x', `Bearer ${secret}`] })).ok, false);
  });
});

describe('agent endpoint helpers', () => {
  it('hasSecret refuses an empty secret even when the header matches it', () => {
    assert.equal(hasSecret('Bearer ', ''), false);
    assert.equal(hasSecret(undefined, 'abc'), false);
    assert.equal(hasSecret('Bearer abc', 'abc'), true);
  });

  it('isLoopbackHost and isAllowedOrigin', () => {
    assert.equal(isLoopbackHost('127.0.0.1:80', 80), true);
    assert.equal(isLoopbackHost('127.0.0.1', 80), false);
    assert.equal(isLoopbackHost('[::1]:80', 80), false, 'we listen on 127.0.0.1 only');
    assert.equal(isAllowedOrigin(undefined), true);
    assert.equal(isAllowedOrigin('http://127.0.0.1:8080'), false);
    assert.equal(isAllowedOrigin('file://'), false);
  });

  it('makes route ids the gate accepts and secrets of 256 bits, different each time', () => {
    const id = newRouteId(randomBytes);
    assert.match(id, /^[A-Za-z0-9_-]{22}$/);
    assert.notEqual(id, newRouteId(randomBytes));
    const secret = newSecret(randomBytes);
    assert.equal(Buffer.from(secret, 'base64url').length, 32);
    assert.notEqual(secret, newSecret(randomBytes));
  });
});
