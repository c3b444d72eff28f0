/**
 * The loopback endpoint VS Code's agent reaches our servers through, end to end with no mocks:
 * a real SDK v2 client (speaking 2025-11-25 as VS Code 1.139 does, or 2026-07-28) → the
 * endpoint → our McpServerConnection → a real fixture server process (both eras).
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { Client, ProtocolError, StreamableHTTPClientTransport, type Progress } from '@modelcontextprotocol/client';
import { AgentEndpoint, type AgentRoute } from '../../../src/coexistence/common/agentEndpoint';
import { DECLINED_TEXT } from '../../../src/coexistence/common/agentProxy';
import type { Launch } from '../../../src/config/common/launchDefinition';
import { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import { definition, FIXTURES, recordingHost, RecordingLog, stdioLaunch, textOf, waitFor } from '../mcp/testHost';

const LEGACY_ROUTE = 'legacy-fixture-route-0001';
const MODERN_ROUTE = 'modern-fixture-route-0001';
const STOPPED_ROUTE = 'stopped-fixture-route-01';
const modernLaunch: Launch = { type: 'stdio', command: 'node', args: [path.join(FIXTURES, 'modernStdioServer.js')], env: {}, cwd: undefined } as Launch;

describe("AgentEndpoint (VS Code's agent → loopback → our connection → the server)", function () {
  this.timeout(30000);
  const secretInConfig = 'tok-1234-secret';
  let legacy: McpServerConnection;
  let modern: McpServerConnection;
  let stopped: McpServerConnection;
  let endpoint: AgentEndpoint;
  const asked: string[] = [];
  let allow = true;
  const refused: string[] = [];
  const hooks: AgentRoute['hooks'] = {
    confirmToolCall: async (tool, name) => {
      // The rule the glue applies (Run Tool's): tools not marked read-only ask.
      if (tool?.annotations?.readOnlyHint === true) return true;
      asked.push(name);
      return allow;
    },
  };
  const clients: Client[] = [];

  before(async () => {
    legacy = new McpServerConnection(
      definition(stdioLaunch({ FIXTURE_SERVER_NAME: 'legacy-upstream' }), { id: 'legacy', label: 'legacy', secrets: [secretInConfig] }),
      recordingHost(),
      new RecordingLog(),
    );
    modern = new McpServerConnection(definition(modernLaunch, { id: 'modern', label: 'modern' }), recordingHost(), new RecordingLog());
    stopped = new McpServerConnection(definition(stdioLaunch(), { id: 'stopped', label: 'stopped one' }), recordingHost(), new RecordingLog());
    await Promise.all([legacy.start(), modern.start()]);
    const routes: Record<string, AgentRoute> = {
      [LEGACY_ROUTE]: { target: legacy, hooks },
      [MODERN_ROUTE]: { target: modern, hooks },
      [STOPPED_ROUTE]: { target: stopped, hooks },
    };
    endpoint = new AgentEndpoint(
      (id) => routes[id],
      (line) => refused.push(line),
    );
    await endpoint.listen();
  });
  after(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await endpoint.close();
    await Promise.all([legacy.dispose(), modern.dispose(), stopped.dispose()]);
  });
  beforeEach(() => {
    asked.length = 0;
    allow = true;
  });

  /** What a client heard from the endpoint without asking (list changes), by method. */
  const heard = new Map<Client, string[]>();
  const connectClient = async (route: string, era: 'legacy' | 'modern' = 'legacy') => {
    const seen: string[] = [];
    // As our own connection does: the SDK handles list changes (on 2026-07-28 it opens the listen stream for them).
    const changed = (method: string) => ({ autoRefresh: false, debounceMs: 0, onChanged: () => seen.push(method) });
    const client = new Client(
      { name: 'agent-under-test', version: '0' },
      {
        versionNegotiation: era === 'legacy' ? { mode: 'legacy' } : { mode: { pin: '2026-07-28' } },
        listChanged: { tools: changed('tools/list_changed'), prompts: changed('prompts/list_changed'), resources: changed('resources/list_changed') },
      },
    );
    heard.set(client, seen);
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url(route)), { requestInit: { headers: endpoint.headers() } }));
    return client;
  };
  const post = (url: string, headers: Record<string, string>, body = '{"jsonrpc":"2.0","id":1,"method":"ping"}') =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body });

  it('listens on 127.0.0.1 only, at a random port, one path per server', () => {
    assert.match(endpoint.url(LEGACY_ROUTE), /^http:\/\/127\.0\.0\.1:\d+\/mcp\/legacy-fixture-route-0001$/);
    assert.ok(endpoint.port && endpoint.port > 0);
  });

  for (const era of ['legacy', 'modern'] as const) {
    it(`a ${era === 'legacy' ? '2025-11-25 (VS Code 1.139)' : '2026-07-28'} client lists and calls the tools of a 2025 server, in that server's one process`, async () => {
      const client = await connectClient(LEGACY_ROUTE, era);
      assert.equal(client.getServerVersion()?.name, 'legacy-upstream', "the upstream server's info");
      assert.equal(client.getInstructions(), 'Fixture server for MCP Workbench tests.');
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'echo'));
      assert.ok(!tools.some((t) => 'execution' in t), "task support is ours to follow, not the agent's");
      const result = await client.callTool({ name: 'echo', arguments: { text: 'through the proxy' } });
      assert.equal(textOf(result), 'echo: through the proxy');
      // Our connection is the only client of the process: `cwd` runs in it, and a tool added
      // through the proxy shows in our own list.
      const added = `viaProxy${era}`;
      await client.callTool({ name: 'addTool', arguments: { name: added } });
      assert.deepEqual(asked, ['addTool'], 'addTool is not read-only: our approval was asked');
      assert.ok((await legacy.refresh('tools')).some((t) => t.name === added));
    });
  }

  it("forwards a 2026-07-28 server's tools, resources and prompts to a 2025 client", async () => {
    const client = await connectClient(MODERN_ROUTE);
    assert.equal(client.getServerVersion()?.name, 'modern-fixture');
    assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })), 'echo: hi');
    const { resources } = await client.listResources();
    assert.ok(resources.some((r) => r.uri === 'fixture://static/readme'));
    const read = await client.readResource({ uri: 'fixture://static/readme' });
    assert.ok(read.contents.length > 0);
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.ok(resourceTemplates.some((t) => t.uriTemplate === 'fixture://items/{id}'));
    const { prompts } = await client.listPrompts();
    assert.ok(prompts.some((p) => p.name === 'review'));
    const prompt = await client.getPrompt({ name: 'review', arguments: { code: 'x = 1' } });
    assert.ok(JSON.stringify(prompt.messages).includes('x = 1'));
  });

  it('forwards progress and cancellation of a call', async () => {
    const client = await connectClient(LEGACY_ROUTE);
    const progress: Progress[] = [];
    const result = await client.callTool({ name: 'slow', arguments: { steps: 2, delayMs: 50 } }, { onprogress: (p) => progress.push(p) });
    assert.equal(textOf(result), 'done after 2 steps');
    // The agent's SDK client drops a progress notification that reaches it in the same read as the
    // result (it handles responses first): on a loaded machine the last one did (load 5). The first,
    // 50 ms before the result, is forwarded; any after it must be the next step.
    const messages = progress.map((p) => p.message);
    assert.ok(messages.length >= 1, 'no progress forwarded');
    assert.deepEqual(messages, ['step 1 of 2', 'step 2 of 2'].slice(0, messages.length));
    const controller = new AbortController();
    const call = client.callTool({ name: 'slow', arguments: { steps: 50, delayMs: 100 } }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    await assert.rejects(call);
    await new Promise((r) => setTimeout(r, 300));
    const seen = JSON.parse(textOf(await legacy.callTool('cancellations', {}))) as { tools: string[] };
    assert.ok(seen.tools.includes('slow'), `the server saw the cancel (${JSON.stringify(seen)})`);
  });

  it('a call the user declines in MCP Workbench never reaches the server', async () => {
    allow = false;
    const client = await connectClient(LEGACY_ROUTE);
    const result = await client.callTool({ name: 'addTool', arguments: { name: 'declined' } });
    assert.equal(result.isError, true);
    assert.equal(textOf(result), DECLINED_TEXT);
    assert.ok(!(await legacy.refresh('tools')).some((t) => t.name === 'declined'));
  });

  it("keeps the server's error codes and takes the config's secrets out of messages", async () => {
    // On the wire. The fixture (SDK v1) answers -32002, our client (SDK v2) reads it as
    // ResourceNotFoundError, and the SDK's server side encodes that as -32602 on every era (the
    // 2026-07-28 spec's code, which 2025 clients accept too).
    const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'resources/read', params: { uri: `fixture://nope/${secretInConfig}` } });
    const response = await post(endpoint.url(LEGACY_ROUTE), { ...endpoint.headers(), 'mcp-protocol-version': '2025-11-25' }, body);
    const text = await response.text();
    const answer = JSON.parse(/^data: (.*)$/m.exec(text)?.[1] ?? text) as { id: number; error: { code: number; message: string } };
    assert.equal(answer.id, 7);
    assert.equal(answer.error.code, -32602, text);
    assert.match(answer.error.message, /^Resource not found: fixture:\/\/nope\//);
    assert.ok(!text.includes(secretInConfig), text);
    const client = await connectClient(LEGACY_ROUTE);
    await assert.rejects(
      client.listTools({ cursor: 'made-up' }),
      (e: unknown) => e instanceof ProtocolError && e.code === -32602 && /Invalid cursor/.test(e.message),
    );
  });

  for (const era of ['legacy', 'modern'] as const) {
    it(`passes the server's list changes on to a ${era === 'legacy' ? "2025-11-25 client (its session's GET stream, as VS Code 1.139 opens it)" : '2026-07-28 client (subscriptions/listen)'}`, async () => {
      const client = await connectClient(LEGACY_ROUTE, era);
      const seen = heard.get(client)!;
      await client.listTools();
      // The client opens its GET stream (2025) or its listen stream (2026) just after connecting.
      await new Promise((r) => setTimeout(r, 300));
      // The server adds a tool on its own (through our connection, not the agent's).
      await legacy.callTool('addTool', { name: `changed${era}` });
      await waitFor(() => seen.includes('tools/list_changed'), `tools/list_changed at the ${era} client (heard ${JSON.stringify(seen)})`);
      assert.ok((await client.listTools()).tools.some((t) => t.name === `changed${era}`));
    });
  }

  it('forwards completions in both eras, to servers of both eras', async () => {
    const old = await connectClient(LEGACY_ROUTE, 'modern');
    assert.ok(old.getServerCapabilities()?.completions);
    const styles = await old.complete({ ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'style', value: 'f' } });
    assert.deepEqual(styles.completion.values, ['formal']);
    const modernServer = await connectClient(MODERN_ROUTE, 'legacy');
    const languages = await modernServer.complete({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'language', value: 'r' } });
    assert.deepEqual(languages.completion.values, ['rust']);
  });

  it("a 2025-11-25 client sets its log level and gets the server's log messages at or above it, secrets taken out", async () => {
    const client = await connectClient(LEGACY_ROUTE);
    const messages: { level: string; data: unknown }[] = [];
    client.setNotificationHandler('notifications/message', (n) => void messages.push({ level: n.params.level, data: n.params.data }));
    assert.ok(client.getServerCapabilities()?.logging, 'logging is offered in a session');
    await client.setLoggingLevel('warning');
    await new Promise((r) => setTimeout(r, 200));
    await legacy.callTool('log', { level: 'info', message: 'below the level' });
    await legacy.callTool('log', { level: 'error', message: `failed with ${secretInConfig}` });
    await waitFor(() => messages.some((m) => m.level === 'error'), 'the error message');
    assert.deepEqual(
      messages.map((m) => m.level),
      ['error'],
      "the info message stays below the client's level",
    );
    assert.ok(!JSON.stringify(messages).includes(secretInConfig), JSON.stringify(messages));
    assert.match(String(messages[0].data), /^failed with /);
    const modernClient = await connectClient(LEGACY_ROUTE, 'modern');
    assert.equal(modernClient.getServerCapabilities()?.logging, undefined, '2026-07-28 has no logging/setLevel');
  });

  it('a 2025-11-25 client subscribes to a resource and hears of its updates until it unsubscribes', async () => {
    const uri = 'fixture://static/readme';
    const client = await connectClient(LEGACY_ROUTE);
    const updates: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => void updates.push(n.params.uri));
    assert.equal((client.getServerCapabilities()?.resources as { subscribe?: boolean } | undefined)?.subscribe, true);
    await new Promise((r) => setTimeout(r, 200));
    await client.subscribeResource({ uri });
    assert.equal(textOf(await legacy.callTool('touchResource', { uri })), `updated ${uri}`, 'the server was asked to follow it');
    await waitFor(() => updates.includes(uri), 'resources/updated at the client');
    await client.unsubscribeResource({ uri });
    await legacy.callTool('touchResource', { uri });
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(updates, [uri], 'no update after unsubscribing');
  });

  it('a 2026-07-28 client listening for a resource hears of its updates while our connection follows it', async () => {
    const uri = 'fixture://items/item-2';
    const client = await connectClient(LEGACY_ROUTE, 'modern');
    const updates: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => void updates.push(n.params.uri));
    const subscription = await client.listen({ resourceSubscriptions: [uri] });
    // Our connection follows it upstream (as our editor does for an open resource).
    const stop = await legacy.subscribeResource(uri);
    try {
      await legacy.callTool('touchResource', { uri: 'fixture://static/readme' });
      assert.equal(textOf(await legacy.callTool('touchResource', { uri })), `updated ${uri}`);
      await waitFor(() => updates.includes(uri), 'resources/updated at the listening client');
      assert.deepEqual(updates, [uri], 'only the URI it listens for');
    } finally {
      await subscription.close();
      await stop();
    }
  });

  it('answers 503 with a JSON-RPC error for a server that is not running', async () => {
    const response = await post(endpoint.url(STOPPED_ROUTE), endpoint.headers());
    assert.equal(response.status, 503);
    assert.match(((await response.json()) as { error: { message: string } }).error.message, /stopped one is not running in MCP Workbench/);
  });

  it('refuses requests without the secret, from elsewhere, to unknown paths and over the size cap', async () => {
    const url = endpoint.url(LEGACY_ROUTE);
    assert.equal((await post(url, {})).status, 401);
    assert.equal((await post(url, { authorization: 'Bearer wrong' })).status, 401);
    assert.equal((await post(url.replace(LEGACY_ROUTE, 'unknown-route-000000001'), endpoint.headers())).status, 404);
    assert.equal((await post(url, { ...endpoint.headers(), origin: 'https://evil.example' })).status, 403);
    assert.equal((await post(url.replace('127.0.0.1', 'localhost'), endpoint.headers())).status !== 403, true, 'localhost is the same listener');
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x'.repeat(5 * 1024 * 1024) } } });
    assert.equal((await post(url, endpoint.headers(), big)).status, 413);
    assert.ok(refused.some((line) => /refused POST \(401 Unauthorized\)/.test(line)));
  });

  it("a chunked body over the cap is cut off by the SDK's own limit", async () => {
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 6; i++) controller.enqueue(new Uint8Array(1024 * 1024).fill(0x20));
        controller.close();
      },
    });
    const response = await fetch(endpoint.url(LEGACY_ROUTE), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...endpoint.headers() },
      body: chunks,
      duplex: 'half',
    } as RequestInit);
    assert.equal(response.status, 413);
  });
});
