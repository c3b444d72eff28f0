/**
 * HTTP servers that misbehave: faultHttpServer.ts run as its own process (no mocks). Each test
 * asserts what the user sees, that the pending request fails within its timeout (or fast), that
 * nothing unhandled escapes, and that the work stays bounded (sessions opened, requests sent).
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import * as readline from 'node:readline';
import type { ServerDefinition } from '../../../src/config/common/launchDefinition';
import type { TimeoutSettings } from '../../../src/config/common/serverConfig';
import { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import { definition, FIXTURES, recordingHost, RecordingLog, textOf, waitFor } from './testHost';
import { watchUnhandled } from './faultHelpers';

const HTTP_FAULT_FIXTURE = path.join(FIXTURES, 'faultHttpServer.js');

interface Stats {
  sessions: number;
  requests: string[];
}

async function startFaultHttp(mode: string, env: Record<string, string> = {}): Promise<{ url: string; process: ChildProcess; stats(): Promise<Stats> }> {
  const child = spawn(process.execPath, [HTTP_FAULT_FIXTURE], { env: { ...process.env, FAULT_MODE: mode, ...env }, stdio: ['pipe', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /^LISTENING (\S+)/.exec(line);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`fault http server exited with ${code}`)));
  });
  return {
    url,
    process: child,
    stats: async () => (await (await fetch(new URL('/stats', url))).json()) as Stats,
  };
}

describe('faults: HTTP servers', function () {
  this.timeout(30000);
  let unhandled: ReturnType<typeof watchUnhandled>;
  const open: McpServerConnection[] = [];
  const servers: ChildProcess[] = [];
  const connect = async (mode: string, timeouts: Partial<TimeoutSettings> = {}, env: Record<string, string> = {}) => {
    const server = await startFaultHttp(mode, env);
    servers.push(server.process);
    const def = definition({ type: 'http', url: server.url, headers: {} } as ServerDefinition['launch'], {
      id: 'h',
      name: 'h',
      label: 'h',
      protocolEra: 'legacy',
      timeouts: { connect: 5, request: 5, ...timeouts },
    });
    const log = new RecordingLog();
    const c = new McpServerConnection(def, { ...recordingHost(), trace: undefined }, log);
    open.push(c);
    return { c, log, stats: server.stats };
  };
  const message = (c: McpServerConnection) => (c.state.kind === 'error' ? c.state.message : `(${c.state.kind})`);

  beforeEach(() => {
    unhandled = watchUnhandled();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.dispose()));
    servers.splice(0).forEach((s) => s.kill());
    unhandled.dispose();
    assert.deepEqual(unhandled.seen, [], 'nothing unhandled');
  });

  it('404 on every call: a bounded number of new sessions, then one clear line', async () => {
    const { c, stats } = await connect('404');
    await c.start();
    const began = Date.now();
    await assert.rejects(c.callTool('work', {}));
    assert.ok(Date.now() - began < 5000, 'the call fails within its timeout');
    await waitFor(() => c.state.kind === 'error', 'the error state', 10000);
    assert.equal(
      message(c),
      'Server "h" forgets every session (HTTP 404 right after each new session), so it was stopped after 3 new sessions: check the server (behind a load balancer, sessions need to stick), then use Restart.',
    );
    const sessions = (await stats()).sessions;
    assert.ok(sessions <= 4, `${sessions} sessions opened`);
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal((await stats()).sessions, sessions, 'no more sessions once stopped');
  });

  it('HTTP 500 on a call: the call fails with the status, the server stays running', async () => {
    const { c } = await connect('500');
    await c.start();
    await assert.rejects(c.callTool('work', {}), (error: Error) => {
      assert.equal(error.message, 'Server "h" answered tools/call with HTTP 500: fault: internal server error');
      return true;
    });
    assert.equal(c.state.kind, 'running');
    assert.deepEqual(
      (await c.list('tools')).map((t) => t.name),
      ['work'],
    );
  });

  it('slow server: the call fails at the request timeout, naming the setting', async () => {
    const { c } = await connect('slow', { request: 1 }, { FAULT_DELAY_MS: '4000' });
    await c.start();
    const began = Date.now();
    await assert.rejects(c.callTool('work', {}), /tools\/call got no answer within 1 s\. Raise "timeouts\.request"/);
    const took = Date.now() - began;
    assert.ok(took >= 900 && took < 2500, `failed after ${took} ms`);
    assert.equal(c.state.kind, 'running');
  });

  it('SSE response stream cut mid-response: the call fails at once, not at the timeout', async () => {
    const { c } = await connect('sse-cut', { request: 20 });
    await c.start();
    const began = Date.now();
    await assert.rejects(c.callTool('work', {}), (error: Error) => {
      assert.equal(
        error.message,
        'Server "h" cut the response stream of tools/call before it answered. Try again; if it keeps happening, check the server or the proxy in between.',
      );
      return true;
    });
    const took = Date.now() - began;
    assert.ok(took < 3000, `failed after ${took} ms`);
    assert.equal(c.state.kind, 'running');
  });

  it('SSE response stream cut after an event id: the SDK resumes it and the call succeeds', async () => {
    const { c, stats } = await connect('sse-cut-resumable', { request: 20 });
    await c.start();
    assert.equal(textOf(await c.callTool('work', {})), 'done');
    assert.ok(
      (await stats()).requests.some((r) => /^GET call-\d+$/.test(r)),
      (await stats()).requests.join(', '),
    );
  });
});
