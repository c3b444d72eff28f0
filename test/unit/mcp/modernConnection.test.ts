/**
 * McpServerConnection against the 2026-07-28 fixture (SDK v2 server, test/fixtures/servers/
 * modernServer.ts) over stdio and Streamable HTTP, and the era choice against both fixtures.
 * Real processes and sockets; the 2025 flows against the v1 fixture are in serverConnection.test.ts.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client, SdkError, SdkErrorCode, StreamableHTTPClientTransport, type ElicitRequestFormParams } from '@modelcontextprotocol/client';
import { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import { ActivityLog } from '../../../src/traffic/common/activityLog';
import type { TraceRecord } from '../../../src/mcp/trace';
import { createClientFeatures } from '../../../src/mcp/clientFeatures';
import type { ProtocolEraSetting } from '../../../src/config/common/serverConfig';
import type { Launch } from '../../../src/config/common/launchDefinition';
import { startModernHttpFixture, type ModernHttpFixture } from '../../fixtures/servers/modernHttpServer';
import { DEFS_SCHEMA, TASKS_EXTENSION } from '../../fixtures/servers/modernServer';
import { definition, FIXTURES, recordingHost, RecordingLog, stdioLaunch, textOf, waitFor } from './testHost';

const MODERN_STDIO = path.join(FIXTURES, 'modernStdioServer.js');

function modernStdio(env: Record<string, string | null> = {}): Launch {
  return { type: 'stdio', command: 'node', args: [MODERN_STDIO], env, cwd: undefined };
}

/** A host whose sampling and elicitation answer like a user would, recording what they were asked. */
function interactiveHost(options: { logLevel?: 'debug' | 'info' | 'warning'; decline?: boolean } = {}) {
  const host = recordingHost({ logLevel: options.logLevel });
  const asked: { elicit: ElicitRequestFormParams[]; sample: unknown[] } = { elicit: [], sample: [] };
  const features = createClientFeatures({
    sample: async (_server, params) => {
      asked.sample.push(params);
      return { role: 'assistant', model: 'test-model', content: { type: 'text', text: 'forty-two' } };
    },
    elicitForm: async (_server, params) => {
      asked.elicit.push(params);
      return options.decline ? { action: 'decline' } : { action: 'accept', content: { name: 'Ada' } };
    },
    elicitUrl: async () => ({ action: 'decline' }),
    elicitationComplete: () => undefined,
  });
  return { host: { ...host, clientFeatures: features }, traces: host.traces, asked };
}

describe('McpServerConnection, 2026-07-28 era', function () {
  this.timeout(30000);
  const open: McpServerConnection[] = [];
  const connect = (launch: Launch, era: ProtocolEraSetting = 'auto', h = interactiveHost()) => {
    const log = new RecordingLog();
    const c = new McpServerConnection(definition(launch, { protocolEra: era }), h.host, log);
    open.push(c);
    return { c, log, ...h };
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.dispose()));
  });

  for (const transport of ['stdio', 'http'] as const) {
    describe(`over ${transport}`, () => {
      let http: ModernHttpFixture | undefined;
      const launch = (): Launch => (transport === 'stdio' ? modernStdio() : { type: 'http', url: http!.url, headers: {} });
      beforeEach(async () => {
        if (transport === 'http') http = await startModernHttpFixture();
      });
      afterEach(async () => {
        await http?.close();
        http = undefined;
      });

      it('negotiates 2026-07-28 under auto, and says so in the state and the log', async () => {
        const { c, log } = connect(launch());
        await c.start();
        assert.equal(c.state.kind, 'running', log.text());
        if (c.state.kind !== 'running') return;
        assert.equal(c.state.era, 'modern');
        assert.equal(c.state.protocolVersion, '2026-07-28');
        assert.equal(c.state.serverInfo.name, 'modern-fixture');
        assert.match(log.text('info'), /protocol 2026-07-28 \(stateless 2026 era\)/);
        if (transport === 'http') {
          assert.ok(
            http!.requests.some((r) => r.endsWith('server/discover')),
            http!.requests.join('\n'),
          );
          assert.ok(!http!.requests.some((r) => r.endsWith('initialize')), 'no initialize on the modern era');
        }
      });

      it('lists, calls, reads resources and templates, gets prompts and completes arguments', async () => {
        const { c } = connect(launch());
        await c.start();
        const tools = await c.list('tools');
        assert.ok(['echo', 'slow', 'fail', 'address', 'askName', 'askModel', 'roots'].every((n) => tools.some((t) => t.name === n)));
        assert.equal(textOf(await c.callTool('echo', { text: 'hi' })), 'echo: hi');
        const failed = await c.callTool('fail', {});
        assert.equal(failed.isError, true);
        assert.equal(textOf(failed), 'fixture failure');
        const readme = await c.readResource('fixture://static/readme');
        assert.equal((readme.contents[0] as { text: string }).text, 'Modern fixture read-me.');
        assert.ok((await c.list('resourceTemplates')).some((t) => t.uriTemplate === 'fixture://items/{id}'));
        assert.equal((await c.readResource('fixture://items/beta')).contents[0].uri, 'fixture://items/beta');
        const prompt = await c.getPrompt('review', { code: 'x = 1', language: 'python' });
        assert.match(JSON.stringify(prompt.messages), /Review this python/);
        const completion = await c.client!.complete({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'language', value: 'py' } });
        assert.deepEqual(completion.completion.values, ['python']);
        const items = await c.client!.complete({ ref: { type: 'ref/resource', uri: 'fixture://items/{id}' }, argument: { name: 'id', value: 'g' } });
        assert.deepEqual(items.completion.values, ['gamma']);
      });

      it('keeps JSON Schema 2020-12 input schemas whole ($schema, $defs, $ref, additionalProperties)', async () => {
        const { c } = connect(launch());
        await c.start();
        const tool = (await c.list('tools')).find((t) => t.name === 'address')!;
        assert.deepEqual(tool.inputSchema, DEFS_SCHEMA);
        assert.equal(textOf(await c.callTool('address', { name: 'Ada', home: { city: 'London' } })), '{"name":"Ada","home":{"city":"London"}}');
      });

      it('mirrors x-mcp-header parameters as Mcp-Param-* headers (SEP-2243), even before the tree listed the tools', async () => {
        const { c } = connect(launch());
        await c.start();
        assert.equal(textOf(await c.callTool('region', { region: 'eu-west1' })), 'region eu-west1');
        if (transport === 'http') assert.deepEqual(http!.paramHeaders, ['mcp-param-region: eu-west1']);
      });

      it('reports progress and cancels a call', async () => {
        const { c } = connect(launch());
        await c.start();
        const progress: string[] = [];
        const done = await c.callTool('slow', { steps: 3, delayMs: 50 }, { onprogress: (p) => progress.push(p.message ?? '') });
        assert.equal(textOf(done), 'done after 3 steps');
        // The SDK dispatches notifications to their handlers asynchronously: on a loaded machine the
        // result was seen before the second progress handler ran (a unit run at load 20). What
        // matters to the user is that each step's progress arrives; it does, moments later.
        for (let i = 0; i < 100 && progress.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
        assert.deepEqual(progress.slice(0, 2), ['step 1 of 3', 'step 2 of 3']);
        const abort = new AbortController();
        const call = c.callTool('slow', { steps: 50, delayMs: 100 }, { signal: abort.signal });
        setTimeout(() => abort.abort('user cancelled'), 300);
        await assert.rejects(call);
        assert.equal(textOf(await c.callTool('echo', { text: 'still fine' })), 'echo: still fine');
      });

      it('answers input_required with the client feature handlers and retries: elicitation, sampling, roots', async () => {
        const { c, asked, traces } = connect(launch());
        await c.start();
        assert.equal(textOf(await c.callTool('askName', {})), 'hello, Ada');
        assert.equal(asked.elicit[0]?.message, 'What is your name?');
        assert.equal(textOf(await c.callTool('askModel', { prompt: 'meaning of life?' })), 'model test-model said: forty-two');
        assert.equal(asked.sample.length, 1);
        assert.deepEqual(JSON.parse(textOf(await c.callTool('roots', {}))).roots, [{ uri: 'file:///workspace/one', name: 'one' }]);
        // No server→client request on this era: the input came in results, the answers in retries.
        assert.ok(!traces.some((t) => t.direction === 'receive' && t.kind === 'request'), 'no server→client requests');
        const first = traces.find((t) => t.kind === 'response' && t.inputRequired && t.method === 'tools/call');
        assert.ok(first, 'an input_required response is traced');
        const retry = traces.find((t) => t.kind === 'request' && t.direction === 'send' && t.round === 2);
        assert.ok(retry && retry.originId === first!.originId && retry.id !== first!.id, JSON.stringify(retry));
      });

      it('passes a declined elicitation to the tool', async () => {
        const { c } = connect(launch(), 'auto', interactiveHost({ decline: true }));
        await c.start();
        assert.equal(textOf(await c.callTool('askName', {})), 'no name (decline)');
      });

      it('sends the log level with each request (no logging/setLevel on this era)', async () => {
        const h = interactiveHost({ logLevel: 'info' });
        const { c, log, traces } = connect(launch(), 'auto', h);
        await c.start();
        await c.callTool('log', { level: 'warning', message: 'heads up' });
        await waitFor(() => /heads up/.test(log.text()), 'the log message');
        assert.ok(!traces.some((t) => t.method === 'logging/setLevel'));
      });

      it('follows a resource over subscriptions/listen (no resources/subscribe on this era)', async () => {
        const { c, traces } = connect(launch());
        await c.start();
        const updated = new Promise<string>((resolve) => c.client!.setNotificationHandler('notifications/resources/updated', (n) => resolve(n.params.uri)));
        const stop = await c.subscribeResource('fixture://static/readme');
        assert.ok(!traces.some((t) => t.method === 'resources/subscribe'));
        await c.callTool('touchReadme', {});
        assert.equal(await updated, 'fixture://static/readme');
        await stop();
      });

      it('follows list changes over subscriptions/listen', async () => {
        const { c, traces } = connect(launch());
        await c.start();
        await c.list('tools');
        await waitFor(() => traces.some((t) => t.method === 'subscriptions/listen' && t.direction === 'send'), 'the listen request');
        const changed = new Promise<void>((resolve) => c.onDidChangeList((kind) => kind === 'tools' && resolve()));
        await c.callTool('addTool', { name: `added-${transport}` });
        await changed;
        assert.ok((await c.list('tools')).some((t) => t.name === `added-${transport}`));
      });
    });
  }

  it('says in the log that a 2026 server’s tasks extension is not used, and offers no tasks', async () => {
    const { c, log } = connect(modernStdio({ FIXTURE_TASKS_EXTENSION: '1' }));
    await c.start();
    assert.equal(c.state.kind, 'running', log.text());
    assert.match(log.text('info'), /offers the tasks extension \(io\.modelcontextprotocol\/tasks\); its tools are called without tasks/);
    assert.equal(c.offersTasks, false);
    assert.equal(textOf(await c.callTool('echo', { text: 'direct' })), 'echo: direct');
  });

  it('does not declare the tasks extension on 2026-07-28: a task-only tool refuses to run instead of answering a task', async () => {
    const { c } = connect(modernStdio());
    await c.start();
    // McpServer turns the fixture's -32021 into a tool error; a task answer would have made the
    // SDK throw (see the next test), so this also shows the extension was not declared.
    const result = await c.callTool('longTask', {});
    assert.equal(result.isError, true);
    assert.match(textOf(result), /Missing required client capabilit/);
  });

  // Pins why 2026-07-28 tasks are not used (src/mcp/connection/toolCalls.ts): SDK 2.4.0 turns a
  // task result into an error that keeps no task id. When this fails, the SDK has learned
  // tasks: declare the extension and follow 2026 tasks there.
  it('SDK limit: a 2026 task result reaches the client as an error without its task id', async () => {
    const http = await startModernHttpFixture();
    const client = new Client(
      { name: 'pin', version: '0' },
      {
        capabilities: { extensions: { [TASKS_EXTENSION]: {} } },
        versionNegotiation: { mode: { pin: '2026-07-28' } },
      },
    );
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
      await assert.rejects(client.callTool({ name: 'longTask', arguments: {} }), (e: unknown) => {
        assert.ok(e instanceof SdkError && e.code === SdkErrorCode.UnsupportedResultType, String(e));
        assert.ok(!JSON.stringify(e.data ?? {}).includes('fixture-task-1'), 'the task id is lost');
        return true;
      });
    } finally {
      await client.close();
      await http.close();
    }
  });

  it('groups the rounds of a multi-round-trip call under its first round in the Activity log', async () => {
    const h = interactiveHost();
    const activity = new ActivityLog(100);
    const server = { id: 'fixture', label: 'fixture', secrets: [] };
    let now = 0;
    const host = { ...h.host, trace: (_def: unknown, record: TraceRecord) => activity.add(server, record, ++now) };
    const { c } = connect(modernStdio(), 'auto', { ...h, host });
    await c.start();
    await c.callTool('askName', {});
    const calls = activity.entries().filter((e) => e.method === 'tools/call');
    assert.equal(calls.length, 2, 'two rounds on the wire');
    const [first] = activity.topLevel().filter((e) => e.method === 'tools/call');
    assert.equal(first.round, 1);
    assert.equal(first.inputRequired, true);
    const rounds = activity.rounds(first);
    assert.equal(rounds.length, 1);
    assert.equal(rounds[0].round, 2);
    assert.equal(rounds[0].originSeq, first.seq);
    assert.notEqual(rounds[0].id, first.id);
    assert.match(JSON.stringify(rounds[0].response), /hello, Ada/);
    assert.match(JSON.stringify(rounds[0].request), /inputResponses/);
  });

  it('serves lists from cache within their ttlMs, and fetches again after', async () => {
    const { c, traces } = connect(modernStdio({ FIXTURE_LIST_TTL_MS: '1500' }));
    await c.start();
    await c.list('prompts');
    const fetches = () => traces.filter((t) => t.direction === 'send' && t.method === 'prompts/list').length;
    const before = fetches();
    await c.list('prompts');
    await c.list('prompts');
    assert.equal(fetches(), before, 'within the ttl: no request');
    await new Promise((r) => setTimeout(r, 1700));
    await c.list('prompts');
    assert.equal(fetches(), before + 1, 'past the ttl: fetched again');
  });

  it('speaks 2025-11-25 to the new server when told to (legacy), input coming as server requests', async () => {
    const { c, asked, traces } = connect(modernStdio(), 'legacy');
    await c.start();
    assert.equal(c.state.kind === 'running' && c.state.era, 'legacy');
    assert.equal(c.state.kind === 'running' && c.state.protocolVersion, '2025-11-25');
    assert.equal(textOf(await c.callTool('askName', {})), 'hello, Ada');
    assert.equal(asked.elicit.length, 1);
    assert.ok(traces.some((t) => t.direction === 'receive' && t.kind === 'request' && t.method === 'elicitation/create'));
  });

  it('falls back to 2025-11-25 for an old server under auto, and refuses it in one line under modern', async () => {
    const auto = connect(stdioLaunch(), 'auto');
    await auto.c.start();
    assert.equal(auto.c.state.kind === 'running' && auto.c.state.era, 'legacy');
    const strict = connect(stdioLaunch(), 'modern');
    await strict.c.start();
    assert.equal(strict.c.state.kind, 'error');
    if (strict.c.state.kind === 'error') {
      assert.match(strict.c.state.message, /does not speak MCP 2026-07-28, and "protocolEra" is "modern"/);
      assert.ok(!strict.c.state.message.includes('\n'));
    }
  });

  it('refuses a 2025 client when the new server serves 2026-07-28 only', async () => {
    const { c } = connect(modernStdio({ FIXTURE_LEGACY: 'reject' }), 'legacy');
    await c.start();
    assert.equal(c.state.kind, 'error');
    const modern = connect(modernStdio({ FIXTURE_LEGACY: 'reject' }), 'modern');
    await modern.c.start();
    assert.equal(modern.c.state.kind === 'running' && modern.c.state.era, 'modern');
  });

  it('restarts with one spawn: the era verdict is reused and the probe runs on the session itself', async () => {
    const record = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-')), 'events.jsonl');
    const { c, traces } = connect(modernStdio({ FIXTURE_RECORD: record }));
    await c.start();
    // The first probe ran on a disposable sibling (untraced): two spawns.
    assert.equal(fs.readFileSync(record, 'utf8').trim().split('\n').length, 2);
    assert.ok(!traces.some((t) => t.method === 'server/discover' && t.direction === 'send'), 'no probe on the first session');
    await c.restart();
    assert.equal(c.state.kind === 'running' && c.state.era, 'modern');
    assert.equal(fs.readFileSync(record, 'utf8').trim().split('\n').length, 3, 'the restart spawned the server once');
    // A modern verdict is checked at each start, in place: fresh capabilities, one request.
    assert.ok(
      traces.some((t) => t.method === 'server/discover' && t.direction === 'send'),
      'probed on the session',
    );
  });
});
