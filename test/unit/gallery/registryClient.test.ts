// The registry client against the fixture registry (test/fixtures/registry), over real HTTP.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { RegistryCancelled, RegistryClient, RegistryError, registryBaseUrl } from '../../../src/gallery/common/registryClient';
import { startRegistryFixture, type RegistryFixture } from '../../fixtures/registry/registryServer';

describe('gallery: registry client (fixture registry over HTTP)', () => {
  let registry: RegistryFixture;
  before(async () => {
    registry = await startRegistryFixture();
  });
  after(() => registry.close());

  it('lists the latest version of each server, without deleted ones, with the registry status', async () => {
    const page = await new RegistryClient(registry.url).listServers({});
    const names = page.entries.map((e) => e.server.name);
    assert.equal(names.filter((n) => n === 'io.github.example/weather').length, 1);
    assert.equal(page.entries.find((e) => e.server.name === 'io.github.example/weather')?.server.version, '1.4.2');
    assert.ok(!names.includes('io.github.example/removed'));
    assert.equal(page.entries.find((e) => e.server.name === 'io.github.example/old-weather')?.official.status, 'deprecated');
    assert.equal(page.nextCursor, undefined);
    assert.match(registry.requests.at(-1) ?? '', /^GET \/v0\.1\/servers\?limit=30&version=latest$/);
  });

  it('pages by cursor: two pages, no entry twice, none lost', async () => {
    const client = new RegistryClient(registry.url);
    const all = (await client.listServers({ limit: 100 })).entries.map((e) => e.server.name);
    const first = await client.listServers({ limit: 6 });
    assert.equal(first.entries.length, 6);
    assert.ok(first.nextCursor);
    const second = await client.listServers({ limit: 6, cursor: first.nextCursor });
    assert.equal(second.nextCursor, undefined);
    assert.deepEqual(
      [...first.entries, ...second.entries].map((e) => e.server.name),
      all,
    );
    assert.ok(registry.requests.at(-1)?.includes(`cursor=${first.nextCursor}`));
  });

  it('searches by name', async () => {
    const page = await new RegistryClient(registry.url).listServers({ search: ' weather ' });
    assert.deepEqual(
      page.entries.map((e) => e.server.name),
      ['io.github.example/old-weather', 'io.github.example/weather'],
    );
    assert.match(registry.requests.at(-1) ?? '', /search=weather&/);
    assert.deepEqual((await new RegistryClient(registry.url).listServers({ search: 'no-such-server' })).entries, []);
  });

  it('fetches one server (latest) by name, and says when there is none', async () => {
    const client = new RegistryClient(registry.url);
    const entry = await client.getServer('com.example/issues');
    assert.equal(entry.server.remotes[0].type, 'streamable-http');
    assert.equal(registry.requests.at(-1), 'GET /v0.1/servers/com.example%2Fissues/versions/latest');
    await assert.rejects(
      client.getServer('com.example/none'),
      (e: Error) => e instanceof RegistryError && e.message === `The MCP registry at ${registry.url} has no server named "com.example/none".`,
    );
  });

  it('offline: one line saying what happened and what to do', async () => {
    // A port nothing listens on: take one and close it again.
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const url = `http://127.0.0.1:${port}`;
    await assert.rejects(new RegistryClient(url).listServers({}), (e: Error) => {
      assert.ok(e instanceof RegistryError);
      assert.match(
        e.message,
        new RegExp(
          `^Could not reach the MCP registry at ${url.replace(/\./g, '\\.')}: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\. Check your network or mcpWorkbench\\.registry\\.url\\.$`,
        ),
      );
      return true;
    });
  });

  it('times out, and a cancelled request is a cancellation, not an error to show', async () => {
    const slow = await startRegistryFixture({ delayMs: 2000 });
    try {
      const started = Date.now();
      await assert.rejects(
        new RegistryClient(slow.url, { timeoutMs: 200 }).listServers({}),
        /Could not reach the MCP registry at .*: no answer within 200 ms\. Check your network/,
      );
      assert.ok(Date.now() - started < 1500);
      const abort = new AbortController();
      const pending = new RegistryClient(slow.url).listServers({}, abort.signal);
      setTimeout(() => abort.abort(), 50);
      await assert.rejects(pending, (e: Error) => e instanceof RegistryCancelled);
      const aborted = new AbortController();
      aborted.abort();
      await assert.rejects(new RegistryClient(slow.url).listServers({}, aborted.signal), (e: Error) => e instanceof RegistryCancelled);
    } finally {
      await slow.close();
    }
  });

  it('an HTTP error or a body that is not a registry says to check the setting', async () => {
    const failing = await startRegistryFixture({ failStatus: 503 });
    try {
      await assert.rejects(new RegistryClient(failing.url).listServers({}), /answered HTTP 503 Service Unavailable\. Check mcpWorkbench\.registry\.url/);
    } finally {
      await failing.close();
    }
    const other = http.createServer((req, res) => {
      res.writeHead(200, { 'Content-Type': req.url?.includes('html') ? 'text/html' : 'application/json' });
      res.end(req.url?.includes('html') ? '<html></html>' : '{"items":[]}');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    try {
      await assert.rejects(new RegistryClient(base).listServers({}), /sent something that is not a server list \(the response has no "servers" list\)/);
      await assert.rejects(new RegistryClient(`${base}/html`).listServers({}), /sent something that is not JSON/);
    } finally {
      await new Promise((r) => other.close(r));
    }
  });

  it('reads the setting: default, trailing slashes, only http(s)', () => {
    assert.equal(registryBaseUrl(undefined), 'https://registry.modelcontextprotocol.io');
    assert.equal(registryBaseUrl('  '), 'https://registry.modelcontextprotocol.io');
    assert.equal(registryBaseUrl('http://127.0.0.1:8080/registry/'), 'http://127.0.0.1:8080/registry');
    assert.throws(() => registryBaseUrl('file:///etc/passwd'), /must be an http\(s\) URL/);
    assert.throws(() => registryBaseUrl('not a url'), /is not a URL/);
  });
});
