// Self-check of the fixture servers in test/fixtures/servers, driven by the SDK's own client.
// Run: npm run build && npx mocha out/test/unit/fixtures.test.js
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { ListRootsRequestSchema, LoggingMessageNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Progress, Tool } from '@modelcontextprotocol/sdk/types.js';
import { startHttpFixture } from '../fixtures/servers/httpServer.js';
import { startSseFixture } from '../fixtures/servers/sseServer.js';

// out/test/unit/fixtures.test.js → out/test/fixtures/servers/stdioServer.js
const STDIO_SERVER = join(__dirname, '..', 'fixtures', 'servers', 'stdioServer.js');
const ROOT = { uri: 'file:///tmp/fixture-root', name: 'fixture root' };

function firstText(result: unknown): string {
  const content = (result as CallToolResult).content;
  const first = content[0];
  assert.equal(first.type, 'text');
  return first.type === 'text' ? first.text : '';
}

function newClient(withRoots: boolean): Client {
  const client = new Client({ name: 'fixture-self-check', version: '0.0.0' }, { capabilities: withRoots ? { roots: { listChanged: true } } : {} });
  if (withRoots) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [ROOT] }));
  return client;
}

function stdioTransport(extraEnv: Record<string, string> = {}): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: [STDIO_SERVER],
    env: { ...(process.env as Record<string, string>), ...extraEnv },
    stderr: 'pipe',
  });
}

async function waitFor<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function callSlowWithProgress(client: Client): Promise<{ text: string; progress: Progress[] }> {
  const progress: Progress[] = [];
  const result = await client.callTool({ name: 'slow', arguments: { steps: 3, delayMs: 50 } }, undefined, {
    onprogress: (p) => progress.push(p),
  });
  return { text: firstText(result), progress };
}

async function commonChecks(client: Client): Promise<void> {
  assert.equal(client.getServerVersion()?.name, 'fixture-server');
  assert.equal(client.getInstructions(), 'Fixture server for MCP Workbench tests.');
  const caps = client.getServerCapabilities();
  assert.deepEqual(caps?.tools, { listChanged: true });
  assert.deepEqual(caps?.resources, { listChanged: true, subscribe: true });
  const { tools } = await client.listTools();
  assert.ok(tools.some((t) => t.name === 'echo'));
  assert.equal(tools.find((t) => t.name === 'echo')?.annotations?.readOnlyHint, true);
  assert.equal(firstText(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })), 'echo: hi');
  const added = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
  assert.deepEqual(added.structuredContent, { sum: 5 });
  const failed = await client.callTool({ name: 'fail', arguments: {} });
  assert.equal(failed.isError, true);
  assert.equal(firstText(failed), 'fixture failure');
  const slow = await callSlowWithProgress(client);
  assert.equal(slow.text, 'done after 3 steps');
  // The SDK client drops a progress notification that arrives in the same read as the
  // response (it handles responses first). On a loaded machine the client may not read the pipe
  // for longer than a step: the last two progress notifications and the result came in one read
  // once (unit tests beside the bench and conformance, load 5). Each step is 50 ms apart, so the
  // first comes well before the result; the rest must be the next steps, in order.
  const expected = [
    [1, 3, 'step 1 of 3'],
    [2, 3, 'step 2 of 3'],
    [3, 3, 'step 3 of 3'],
  ];
  const seen = slow.progress.map((p) => [p.progress, p.total, p.message]);
  assert.ok(seen.length >= 1, `progress: ${JSON.stringify(seen)}`);
  assert.deepEqual(seen, expected.slice(0, seen.length));
}

describe('fixture servers', function () {
  this.timeout(20000);

  describe('stdioServer', () => {
    // The integration test of a cancelled MCP test run (mcpTests.test.ts) sends the call, its
    // notifications/cancelled and the `cancellations` call within 2 ms: one chunk on the pipe.
    it('records a call cancelled by a notifications/cancelled that comes in the same chunk', async () => {
      const child = spawn(process.execPath, [STDIO_SERVER], { stdio: ['pipe', 'pipe', 'ignore'] });
      try {
        const replies = new Map<number, (message: { result?: CallToolResult }) => void>();
        let pending = '';
        child.stdout.on('data', (chunk: Buffer) => {
          const lines = (pending + chunk.toString('utf8')).split('\n');
          pending = lines.pop() ?? '';
          for (const line of lines) {
            const message = JSON.parse(line) as { id?: number; result?: CallToolResult };
            if (message.id !== undefined) replies.get(message.id)?.(message);
          }
        });
        const reply = (id: number) => new Promise<{ result?: CallToolResult }>((resolve) => replies.set(id, resolve));
        const write = (...messages: object[]) => child.stdin.write(messages.map((m) => `${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`).join(''));
        const initialized = reply(0);
        write({
          id: 0,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fixture-self-check', version: '0' } },
        });
        await initialized;
        const answered = reply(2);
        write(
          { method: 'notifications/initialized' },
          { id: 1, method: 'tools/call', params: { name: 'slow', arguments: { steps: 600, delayMs: 100 } } },
          { method: 'notifications/cancelled', params: { requestId: 1 } },
          { id: 2, method: 'tools/call', params: { name: 'cancellations', arguments: {} } },
        );
        assert.deepEqual(JSON.parse(firstText((await answered).result)), { count: 1, tools: ['slow'] });
      } finally {
        child.kill();
      }
    });

    it('serves tools, progress, and fetches roots after initialized', async () => {
      const client = newClient(true);
      await client.connect(stdioTransport());
      try {
        await commonChecks(client);
        const roots = await waitFor(async () => {
          const r = JSON.parse(firstText(await client.callTool({ name: 'roots', arguments: {} })));
          return r.listCalls >= 1 && r.roots.length ? r : undefined;
        }, 'roots/list');
        assert.deepEqual(roots, { roots: [ROOT], listCalls: 1, listChangedCount: 0 });
        await client.sendRootsListChanged();
        const after = await waitFor(async () => {
          const r = JSON.parse(firstText(await client.callTool({ name: 'roots', arguments: {} })));
          return r.listCalls === 2 ? r : undefined;
        }, 'second roots/list');
        assert.equal(after.listChangedCount, 1);

        // list_changed + logging
        let toolsChanged = 0;
        const logs: unknown[] = [];
        client.setNotificationHandler(ToolListChangedNotificationSchema, () => void toolsChanged++);
        client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
        await client.callTool({ name: 'addTool', arguments: { name: 'extra' } });
        assert.equal(firstText(await client.callTool({ name: 'extra', arguments: { text: 'x' } })), 'extra: x');
        await client.setLoggingLevel('warning');
        await client.callTool({ name: 'log', arguments: { level: 'info', message: 'quiet' } });
        await client.callTool({ name: 'log', arguments: { level: 'error', message: 'loud' } });
        assert.equal(toolsChanged, 1);
        assert.deepEqual(logs, [{ level: 'error', logger: 'fixture', data: 'loud' }]);

        // resources, prompts, completion
        const read = await client.readResource({ uri: 'fixture://static/hello' });
        assert.equal((read.contents[0] as { text: string }).text, 'Hello from the fixture');
        const completion = await client.complete({
          ref: { type: 'ref/resource', uri: 'fixture://items/{id}' },
          argument: { name: 'id', value: 'item-' },
        });
        assert.equal(completion.completion.values.length, 5);
        const prompt = await client.getPrompt({ name: 'greet', arguments: { name: 'Ada', style: 'formal' } });
        assert.equal(prompt.messages.length, 1);
      } finally {
        await client.close();
      }
    });

    it('pages lists with FIXTURE_PAGE_SIZE=2', async () => {
      const client = newClient(false);
      await client.connect(stdioTransport({ FIXTURE_PAGE_SIZE: '2', FIXTURE_EXTRA_TOOLS: '3' }));
      try {
        const all: Tool[] = [];
        let cursor: string | undefined;
        let pages = 0;
        do {
          const result = await client.listTools(cursor === undefined ? {} : { cursor });
          assert.ok(result.tools.length <= 2);
          all.push(...result.tools);
          cursor = result.nextCursor;
          pages++;
        } while (cursor !== undefined);
        assert.ok(pages > 2);
        assert.equal(new Set(all.map((t) => t.name)).size, all.length);
        assert.ok(all.some((t) => t.name === 'echo'));
        assert.equal(all[all.length - 1].name, 'tool-0003');
        const first = await client.listResources();
        assert.equal(first.resources.length, 2);
        assert.ok(first.nextCursor);
        await assert.rejects(client.listTools({ cursor: 'not-a-cursor' }), /Invalid cursor/);
      } finally {
        await client.close();
      }
    });

    it('records lifecycle and exits on stdin close', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'fixture-'));
      const recordPath = join(dir, 'record.jsonl');
      const client = newClient(true);
      const transport = stdioTransport({ FIXTURE_RECORD: recordPath });
      await client.connect(transport);
      await client.close();
      const events = await waitFor(async () => {
        let lines: string[];
        try {
          lines = readFileSync(recordPath, 'utf8').trim().split('\n');
        } catch {
          return undefined;
        }
        const parsed = lines.map((l) => JSON.parse(l) as { event: string });
        return parsed.some((e) => e.event === 'stdinClosed' || e.event === 'sigterm') ? parsed : undefined;
      }, 'shutdown record');
      const names = events.map((e) => e.event);
      assert.equal(names[0], 'start');
      assert.ok(names.includes('initialize'));
      const init = events.find((e) => e.event === 'initialize') as unknown as { clientCapabilities: unknown };
      assert.deepEqual(init.clientCapabilities, { roots: { listChanged: true } });
    });

    it('stops slow on cancellation', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'fixture-'));
      const recordPath = join(dir, 'record.jsonl');
      const client = newClient(false);
      await client.connect(stdioTransport({ FIXTURE_RECORD: recordPath }));
      try {
        const controller = new AbortController();
        const call = client.callTool({ name: 'slow', arguments: { steps: 50, delayMs: 50 } }, undefined, {
          signal: controller.signal,
          onprogress: (p) => {
            if (p.progress === 2) controller.abort('enough');
          },
        });
        await assert.rejects(call);
        const cancelled = await waitFor(async () => {
          const events = readFileSync(recordPath, 'utf8')
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l));
          return events.find((e: { event: string }) => e.event === 'cancelled');
        }, 'cancelled record');
        assert.ok(cancelled.stepsDone < 50);
      } finally {
        await client.close();
      }
    });

    it('honours FIXTURE_EXIT_ON_START', () => {
      const run = spawnSync(process.execPath, [STDIO_SERVER], {
        env: { ...process.env, FIXTURE_EXIT_ON_START: '3' },
        encoding: 'utf8',
      });
      assert.equal(run.status, 3, run.stderr);
      assert.match(run.stderr, /fixture: exiting as asked/);
    });
  });

  describe('httpServer (Streamable HTTP)', () => {
    it('serves a session and counts the DELETE', async () => {
      const fixture = await startHttpFixture({ port: 0 });
      try {
        const client = newClient(true);
        const transport = new StreamableHTTPClientTransport(new URL(fixture.url));
        await client.connect(transport);
        assert.ok(transport.sessionId);
        await commonChecks(client);
        // roots/list goes out on the standalone GET stream the SDK client opens after initialize
        const roots = await waitFor(async () => {
          const r = JSON.parse(firstText(await client.callTool({ name: 'roots', arguments: {} })));
          return r.roots.length ? r : undefined;
        }, 'roots/list over HTTP');
        assert.deepEqual(roots.roots, [ROOT]);
        await transport.terminateSession();
        await client.close();
        assert.equal(fixture.stats.sessionsCreated, 1);
        assert.equal(fixture.stats.sessionsDeleted, 1);
        assert.deepEqual(fixture.stats.deletedSessionIds, [transport.sessionId ?? fixture.stats.deletedSessionIds[0]]);
      } finally {
        await fixture.close();
      }
    });
  });

  describe('sseServer (legacy HTTP+SSE)', () => {
    it('answers POST /sse with 405 and serves the legacy transport', async () => {
      const fixture = await startSseFixture({ port: 0 });
      try {
        const post = await fetch(fixture.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
        });
        assert.equal(post.status, 405);
        const client = newClient(false);
        await client.connect(new SSEClientTransport(new URL(fixture.url)));
        await commonChecks(client);
        await client.close();
        assert.equal(fixture.stats.sseConnections, 1);
      } finally {
        await fixture.close();
      }
    });
  });
});
