/**
 * McpServerConnection against the real fixture servers (stdio child processes and in-process
 * Streamable HTTP / legacy SSE servers). No mocks: these are real MCP sessions on the SDK.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import { createClientFeatures } from '../../../src/mcp/clientFeatures';
import { startHttpFixture } from '../../fixtures/servers/httpServer';
import { startSseFixture } from '../../fixtures/servers/sseServer';
import { definition, recordingHost, RecordingLog, STDIO_FIXTURE, stdioLaunch, textOf, waitFor } from './testHost';
import { alive } from '../../shared/processAlive';

/** The pid of the session's server process (in protocolEra auto the SDK also runs a short-lived probe process). */
function sessionPid(c: McpServerConnection): number {
  return (c.client as unknown as { transport: { pid: number } }).transport.pid;
}

/** The events the fixture recorded for one process. */
function eventsOf(record: string, pid: number): string[] {
  return fs
    .readFileSync(record, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { event: string; pid: number })
    .filter((e) => e.pid === pid)
    .map((e) => e.event);
}

describe('McpServerConnection', function () {
  this.timeout(20000);
  const open: McpServerConnection[] = [];
  const connect = (def = definition(stdioLaunch()), host = recordingHost(), log = new RecordingLog()) => {
    const c = new McpServerConnection(def, host, log);
    open.push(c);
    return { c, host, log };
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.dispose()));
  });

  describe('stdio', () => {
    it('starts, negotiates, and exposes server info, capabilities and instructions', async () => {
      const states: string[] = [];
      const { c } = connect();
      c.onDidChangeState((s) => states.push(s.kind));
      await c.start();
      assert.equal(c.state.kind, 'running');
      if (c.state.kind !== 'running') return;
      assert.equal(c.state.serverInfo.name, 'fixture-server');
      assert.equal(c.state.protocolVersion, '2025-11-25');
      assert.equal(c.state.instructions, 'Fixture server for MCP Workbench tests.');
      assert.ok(c.state.capabilities.tools);
      assert.deepEqual(states, ['starting', 'running']);
    });

    it('a stop while starting ends the process now, not at the connect timeout (a debuggee no debugger attached to)', async function () {
      if (process.platform === 'win32') this.skip();
      // Paused under --inspect-brk, the server never answers `initialize`; the debugger's connect timeout is 300 s.
      const marker = `stop-while-starting-${process.pid}-${Date.now()}`;
      const { c } = connect(
        definition(stdioLaunch({}, { args: ['--inspect-brk=127.0.0.1:0', STDIO_FIXTURE, marker] }), { protocolEra: 'legacy', timeouts: { connect: 300 } }),
      );
      const started = c.start();
      const { execFileSync } = await import('node:child_process');
      const pidOf = () =>
        Number(
          execFileSync('ps', ['-A', '-o', 'pid=', '-o', 'args='], { encoding: 'utf8' })
            .split('\n')
            .find((l) => l.includes(marker))
            ?.trim()
            .split(/\s+/)[0] ?? 0,
        );
      const pid = await waitFor(pidOf, 'the server process');
      await c.stop();
      try {
        await waitFor(() => !alive(pid), `the server process ${pid} to end after the stop`, 8000);
      } finally {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          // Gone, as it should be.
        }
      }
      await started;
      assert.equal(c.state.kind, 'stopped');
    });

    it('returns a result whose structuredContent breaks the outputSchema instead of throwing it away', async () => {
      const { c } = connect();
      await c.start();
      await c.list('tools');
      const result = await c.callTool('badOutput', {});
      assert.deepEqual(result.structuredContent, { count: 'seven' });
    });

    it('answers roots/list with the host roots and sends roots/list_changed', async () => {
      const { c, host } = connect();
      await c.start();
      const first = JSON.parse(textOf(await c.callTool('roots', {})));
      assert.deepEqual(first.roots, [{ uri: 'file:///workspace/one', name: 'one' }]);
      host.setRoots([{ uri: 'file:///workspace/two', name: 'two' }]);
      await c.notifyRootsChanged();
      const second = await waitFor(async () => {
        const r = JSON.parse(textOf(await c.callTool('roots', {})));
        return r.listChangedCount === 1 && r.roots[0]?.name === 'two' && r;
      }, 'the server to re-read roots');
      assert.equal(second.listCalls, 2);
    });

    it('fetches every page of every list', async () => {
      const { c, host } = connect(definition(stdioLaunch({ FIXTURE_PAGE_SIZE: '3', FIXTURE_EXTRA_TOOLS: '20' })));
      await c.start();
      const tools = await c.list('tools');
      assert.ok(tools.length > 20, `got ${tools.length} tools`);
      assert.equal(new Set(tools.map((t) => t.name)).size, tools.length);
      assert.ok(tools.some((t) => t.name === 'tool-0020'));
      const listCalls = host.traces.filter((t) => t.direction === 'send' && t.method === 'tools/list').length;
      assert.equal(listCalls, Math.ceil(tools.length / 3));
      assert.deepEqual((await c.list('prompts')).map((p) => p.name).sort(), ['describe-image', 'greet', 'noargs', 'review']);
      assert.ok((await c.list('resourceTemplates')).some((t) => t.uriTemplate === 'fixture://items/{id}'));
    });

    it('shares the listing a new session started: a list asked for meanwhile is not fetched twice', async () => {
      const { c, host } = connect(definition(stdioLaunch({ FIXTURE_PAGE_SIZE: '2', FIXTURE_EXTRA_TOOLS: '40' })));
      await c.start();
      const listCalls = () => host.traces.filter((t) => t.direction === 'send' && t.method === 'tools/list').length;
      // The start's own listing is under way (past its first page) when the tree asks.
      await waitFor(() => listCalls() >= 2, 'the start to be listing tools');
      const tools = await c.list('tools');
      assert.equal(listCalls(), Math.ceil(tools.length / 2));
    });

    it("lists more than 64 pages (the SDK's default cap)", async () => {
      const { c } = connect(definition(stdioLaunch({ FIXTURE_PAGE_SIZE: '1', FIXTURE_EXTRA_TOOLS: '70' })));
      await c.start();
      assert.ok((await c.list('tools')).some((t) => t.name === 'tool-0070'));
    });

    it('lists 270,000 tools in pages of 135,000 without overflowing the stack', async function () {
      this.timeout(120_000);
      // Pages of ~13 MB: the extension's default limit (64 MB, mcpWorkbench.maxMessageSizeMB), not the test host's 10 MB.
      const host = { ...recordingHost(), maxMessageBytes: () => 64 * 1024 * 1024 };
      const { c, log } = connect(definition(stdioLaunch({ FIXTURE_PAGE_SIZE: '135000', FIXTURE_EXTRA_TOOLS: '270000' })), host);
      await c.start();
      const tools = await c.list('tools');
      assert.ok(tools.length > 270_000, `got ${tools.length} tools; log: ${log.text().slice(-500)}`);
      assert.ok(tools.some((t) => t.name === 'tool-270000'));
    });

    it('refreshes the cache on list_changed', async () => {
      const { c } = connect();
      await c.start();
      await c.list('tools');
      const changed = new Promise<string>((resolve) => c.onDidChangeList((kind) => kind === 'tools' && resolve(kind)));
      await c.callTool('addTool', { name: 'dynamic' });
      await changed;
      await waitFor(() => c.cached('tools')?.some((t) => t.name === 'dynamic'), 'the new tool in the cache');
      await c.callTool('removeTool', { name: 'dynamic' });
      await waitFor(() => c.cached('tools') && !c.cached('tools')!.some((t) => t.name === 'dynamic'), 'the tool to go');
    });

    it('sets the log level and routes server log messages and stderr to the log', async () => {
      const host = recordingHost({ logLevel: 'debug' });
      const { c, log } = connect(definition(stdioLaunch()), host);
      await c.start();
      assert.equal(textOf(await c.callTool('logLevel', {})), 'debug');
      await c.callTool('log', { level: 'warning', message: 'disk almost full' });
      await c.callTool('stderr', { text: 'plain stderr line' });
      await waitFor(() => log.lines.some((l) => l.level === 'warn' && l.message === '[fixture] disk almost full'), 'the log message');
      await waitFor(() => log.lines.some((l) => l.level === 'stderr' && l.message === 'plain stderr line'), 'the stderr line');
      assert.ok(!log.lines.some((l) => l.level === 'error'), 'nothing is logged as an error');
    });

    it('answers sampling and elicitation requests of a 2025 server with the client feature handlers', async () => {
      const asked: string[] = [];
      const host = {
        ...recordingHost(),
        clientFeatures: createClientFeatures({
          sample: async (_s, params) => {
            asked.push(`sample ${JSON.stringify(params.messages[0].content)}`);
            return { role: 'assistant', model: 'test-model', content: { type: 'text', text: 'sampled' } };
          },
          elicitForm: async (_s, params) => {
            asked.push(`elicit ${params.message}`);
            return { action: 'accept', content: { x: 'given' } };
          },
          elicitUrl: async () => ({ action: 'decline' }),
          elicitationComplete: () => undefined,
        }),
      };
      const { c } = connect(definition(stdioLaunch()), host);
      await c.start();
      const sampled = JSON.parse(textOf(await c.callTool('sample', { prompt: 'hi' })));
      assert.equal(sampled.ok, true);
      assert.equal(sampled.result.model, 'test-model');
      const elicited = JSON.parse(textOf(await c.callTool('elicit', { schema: { type: 'object', properties: { x: { type: 'string' } } } })));
      assert.deepEqual(elicited.result, { action: 'accept', content: { x: 'given' } });
      assert.equal(asked.length, 2);
      assert.match(asked[0], /hi/);
      // On this era they came as server→client requests.
      assert.ok(host.traces.some((t) => t.direction === 'receive' && t.kind === 'request' && t.method === 'sampling/createMessage'));
      assert.ok(host.traces.some((t) => t.direction === 'receive' && t.kind === 'request' && t.method === 'elicitation/create'));
    });

    it('passes env (with null removing variables), envFile and cwd to the process', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-'));
      fs.writeFileSync(path.join(dir, '.env'), 'FROM_FILE=file-value\nOVERRIDDEN=file\n');
      process.env.MCPWB_TEST_INHERITED = 'inherited';
      try {
        const { c } = connect(definition(stdioLaunch({ OVERRIDDEN: 'config', MCPWB_TEST_INHERITED: null }, { cwd: dir, envFile: path.join(dir, '.env') })));
        await c.start();
        const env = async (name: string) => textOf(await c.callTool('env', { name }));
        assert.equal(await env('FROM_FILE'), 'file-value');
        assert.equal(await env('OVERRIDDEN'), 'config');
        assert.equal(await env('MCPWB_TEST_INHERITED'), '<unset>');
        assert.equal(fs.realpathSync(textOf(await c.callTool('cwd', {}))), fs.realpathSync(dir));
      } finally {
        delete process.env.MCPWB_TEST_INHERITED;
      }
    });

    it('names the command and the PATH searched when the command does not exist', async () => {
      const { c } = connect(definition({ type: 'stdio', command: 'no-such-mcp-server', args: [], env: { PATH: '/nowhere:/also/not' }, cwd: undefined }));
      await c.start();
      assert.equal(c.state.kind, 'error');
      if (c.state.kind !== 'error') return;
      assert.equal(c.state.message, '"no-such-mcp-server" not found on PATH. Install no-such-mcp-server or set "command" to its full path.');
      assert.match(c.state.detail ?? '', /PATH searched \(2 directories\):\n {2}\/nowhere\n {2}\/also\/not/);
    });

    it('reports a process that exits during start with its stderr', async () => {
      const { c } = connect(definition(stdioLaunch({ FIXTURE_EXIT_ON_START: '3' })));
      await c.start();
      assert.equal(c.state.kind, 'error');
      if (c.state.kind !== 'error') return;
      assert.match(c.state.detail ?? '', /fixture: exiting as asked/);
    });

    it('names the connect timeout when initialize never answers', async () => {
      const { c } = connect(definition(stdioLaunch({ FIXTURE_HANG_INITIALIZE: '1' }), { timeouts: { connect: 0.5 } }));
      await c.start();
      assert.equal(c.state.kind, 'error');
      if (c.state.kind !== 'error') return;
      assert.match(c.state.message, /did not complete the MCP handshake within 0\.5 s.*"timeouts\.connect"/);
    });

    it('times out a request, names the setting and sends notifications/cancelled', async () => {
      const { c, host } = connect(definition(stdioLaunch(), { timeouts: { request: 0.3, resetOnProgress: false } }));
      await c.start();
      await assert.rejects(c.callTool('slow', { steps: 5, delayMs: 200 }), /tools\/call got no answer within 0\.3 s\. Raise "timeouts\.request"/);
      assert.ok(host.traces.some((t) => t.direction === 'send' && t.method === 'notifications/cancelled'));
    });

    it('lets progress reset the request timeout, within maxTotal', async () => {
      const { c } = connect(definition(stdioLaunch(), { timeouts: { request: 0.5, resetOnProgress: true } }));
      await c.start();
      const progress: string[] = [];
      const result = await c.callTool('slow', { steps: 4, delayMs: 300 }, { onprogress: (p) => progress.push(p.message ?? '') });
      assert.equal(textOf(result), 'done after 4 steps');
      // 4 were sent; the SDK client may drop the last when it arrives in the same read as the result.
      assert.ok(progress.length >= 3, `got ${progress.length} progress notifications`);
      c.updateDefinition(definition(stdioLaunch(), { timeouts: { request: 0.5, resetOnProgress: true, maxTotal: 0.7 } }));
      await assert.rejects(c.callTool('slow', { steps: 6, delayMs: 300 }), /longer than the maximum of 0\.7 s\. Raise "timeouts\.maxTotal"/);
    });

    it('cancels a request when the caller aborts', async () => {
      const { c, host } = connect();
      await c.start();
      const abort = new AbortController();
      const call = c.callTool('slow', { steps: 20, delayMs: 100 }, { signal: abort.signal });
      setTimeout(() => abort.abort('user cancelled'), 250);
      await assert.rejects(call);
      const cancel = host.traces.find((t) => t.method === 'notifications/cancelled');
      assert.ok(cancel);
    });

    it('shuts down by closing stdin first', async () => {
      const record = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-')), 'events.jsonl');
      const { c } = connect(definition(stdioLaunch({ FIXTURE_RECORD: record })));
      await c.start();
      const pid = sessionPid(c);
      await c.stop();
      assert.equal(c.state.kind, 'stopped');
      const events = eventsOf(record, pid);
      assert.ok(events.includes('stdinClosed'), events.join());
      assert.ok(!events.includes('sigterm'));
    });

    it('escalates to SIGTERM and SIGKILL for a server that ignores stdin close', async function () {
      this.timeout(15000);
      const record = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-')), 'events.jsonl');
      const { c } = connect(definition(stdioLaunch({ FIXTURE_RECORD: record, FIXTURE_IGNORE_STDIN_CLOSE: '1', FIXTURE_IGNORE_SIGTERM: '1' })));
      await c.start();
      const pid = sessionPid(c);
      await c.stop();
      const events = eventsOf(record, pid);
      assert.deepEqual(
        events.filter((e) => e === 'stdinClosed' || e === 'sigterm'),
        ['stdinClosed', 'sigterm'],
      );
      await waitFor(() => !isAlive(pid), 'the process to be killed', 3000);
    });

    it('turns an unexpected exit into an error state with the last output', async () => {
      const record = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-')), 'events.jsonl');
      const { c } = connect(definition(stdioLaunch({ FIXTURE_RECORD: record })));
      await c.start();
      const pid = sessionPid(c);
      await c.callTool('stderr', { text: 'about to die' });
      process.kill(pid, 'SIGKILL');
      await waitFor(() => c.state.kind === 'error', 'the error state');
      if (c.state.kind !== 'error') return;
      assert.equal(c.state.message, 'Server "fixture" was killed by SIGKILL: about to die.');
      assert.match(c.state.detail ?? '', /about to die/);
    });

    it('traces requests with latency and redacts secrets', async () => {
      const { c, host } = connect(definition(stdioLaunch(), { secrets: ['very-secret-value'] }));
      await c.start();
      await c.callTool('echo', { text: 'very-secret-value' });
      const response = host.traces.find((t) => t.kind === 'response' && t.method === 'tools/call');
      assert.ok(response && typeof response.latencyMs === 'number');
      const init = host.traces.find((t) => t.method === 'initialize' && t.kind === 'response');
      assert.ok(init);
    });
  });

  describe('Streamable HTTP and legacy SSE', () => {
    it('connects over Streamable HTTP and DELETEs the session on stop', async () => {
      const server = await startHttpFixture();
      try {
        const { c } = connect(definition({ type: 'http', url: server.url, headers: { 'X-Test': '1' } }));
        await c.start();
        assert.equal(c.state.kind, 'running');
        if (c.state.kind === 'running') assert.equal(c.state.transport, 'http');
        assert.equal(textOf(await c.callTool('echo', { text: 'hi' })), 'echo: hi');
        await c.stop();
        await waitFor(() => server.stats.sessionsDeleted === 1, 'the DELETE');
      } finally {
        await server.close();
      }
    });

    it('falls back to legacy SSE when the POST is refused with 4xx', async () => {
      const server = await startSseFixture();
      try {
        const { c, log } = connect(definition({ type: 'http', url: server.url, headers: {} }));
        await c.start();
        assert.equal(c.state.kind, 'running');
        if (c.state.kind === 'running') assert.equal(c.state.transport, 'sse');
        // protocolEra auto: the server/discover probe POST, the initialize POST, then the SSE GET.
        assert.deepEqual(server.stats.requests.slice(0, 3), ['POST /sse', 'POST /sse', 'GET /sse']);
        assert.match(log.text('info'), /Streamable HTTP was refused \(HTTP 405\); trying the legacy HTTP\+SSE transport/);
        assert.equal(textOf(await c.callTool('echo', { text: 'old' })), 'echo: old');
      } finally {
        await server.close();
      }
    });

    it('says the server cannot be reached when nothing listens', async () => {
      const server = await startHttpFixture();
      const url = server.url;
      await server.close();
      const { c } = connect(definition({ type: 'http', url, headers: {} }, { timeouts: { connect: 5 } }));
      await c.start();
      assert.equal(c.state.kind, 'error');
      if (c.state.kind === 'error') assert.match(c.state.message, /Cannot reach/);
    });
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
