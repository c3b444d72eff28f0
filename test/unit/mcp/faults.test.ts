/**
 * Servers that crash: real fixture processes (faultServer.ts), no mocks. Restart delays run on a
 * clock 20 times faster than real time, so the 1 s → 30 s backoff takes milliseconds.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ServerDefinition } from '../../../src/config/common/launchDefinition';
import { ServerRegistry, type RegistryPolicy } from '../../../src/mcp/serverRegistry';
import type { RestartClock } from '../../../src/mcp/crashRestarts';
import { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import { definition, FIXTURES, recordingHost, RecordingLog, textOf, waitFor } from './testHost';
import { alive } from '../../shared/processAlive';

const FAULT_FIXTURE = path.join(FIXTURES, 'faultServer.js');

const fastClock: RestartClock = {
  now: () => Date.now() * 20,
  schedule: (fn, ms) => {
    const timer = setTimeout(fn, ms / 20);
    return () => clearTimeout(timer);
  },
};

describe('faults: crashed servers', function () {
  this.timeout(20000);
  let dir: string;
  let defs: ServerDefinition[];
  let registry: ServerRegistry;
  let autoRestart: boolean;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  const faultDef = (env: Record<string, string>) =>
    definition(
      {
        type: 'stdio',
        command: 'node',
        args: [FAULT_FIXTURE],
        env: { FAULT_COUNTER_FILE: path.join(dir, 'starts'), ...env },
        cwd: undefined,
      } as ServerDefinition['launch'],
      // legacy: no era probe, which would spawn a second process per start and blur the counts.
      { id: 'f', name: 'f', label: 'f', protocolEra: 'legacy', timeouts: { connect: 5, request: 3 } },
    );
  const starts = () => (fs.existsSync(path.join(dir, 'starts')) ? fs.readFileSync(path.join(dir, 'starts'), 'utf8').trim().split('\n').length : 0);
  const state = () => registry.get('f')!.state;
  const message = () => {
    const s = state();
    return s.kind === 'error' ? s.message : '';
  };
  /** Every error message the user was shown, in order (polling could miss short-lived ones). */
  let messages: string[];

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-faults-'));
    autoRestart = true;
    unhandled.length = 0;
    process.on('unhandledRejection', onUnhandled);
    const policy: RegistryPolicy = {
      autoStart: () => true,
      blockedReason: () => undefined,
      collectInputs: async () => false,
      reportError: (e) => unhandled.push(e),
      autoRestart: () => autoRestart,
    };
    registry = new ServerRegistry(recordingHost(), () => new RecordingLog(), policy, fastClock);
    messages = [];
    registry.onDidChange(() => {
      const m = registry.get('f') && message();
      if (m && messages.at(-1) !== m) messages.push(m);
    });
  });
  afterEach(async () => {
    await registry.dispose();
    process.off('unhandledRejection', onUnhandled);
    fs.rmSync(dir, { recursive: true, force: true });
    assert.deepEqual(unhandled, [], 'nothing unhandled');
  });

  it('restarts a crashed server with backoff, and after 5 crashes says why it stays down', async () => {
    defs = [faultDef({ FAULT_MODE: 'crash-after-init', FAULT_DELAY_MS: '50' })];
    await registry.apply(defs);
    await waitFor(() => messages.some((m) => m.includes('stays stopped')), 'giving up');
    assert.deepEqual(
      messages.filter((m) => m.includes('Restarting')).map((m) => /Restarting in (\d+) s/.exec(m)?.[1]),
      ['1', '2', '4', '8'],
    );
    assert.equal(messages[1], 'Server "f" exited with code 3: fault: crashing. Restarting in 1 s.');
    assert.match(message(), /exited with code 3: fault: crashing\. It crashed 5 times in 3 minutes, so it stays stopped: check its log, then use Restart\.$/);
    assert.equal(starts(), 5);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(starts(), 5, 'no restart after giving up');
    assert.equal(state().kind, 'error');
    // Restart by the user starts afresh.
    await registry.restart('f');
    assert.equal(starts(), 6);
  });

  it('never restarts after the user stops it, nor when autoRestart is off', async () => {
    defs = [faultDef({ FAULT_MODE: 'crash-on-call' })];
    await registry.apply(defs);
    assert.equal(state().kind, 'running');
    await registry.stop('f');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(state().kind, 'stopped');
    assert.equal(starts(), 1);

    autoRestart = false;
    await registry.start('f');
    await assert.rejects(registry.get('f')!.callTool('work', {}), /closed/i);
    await waitFor(() => state().kind === 'error', 'the crash');
    assert.equal(message(), 'Server "f" exited with code 3: fault: crashing in tools/call. Use Restart to start it again.');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(starts(), 2);
  });

  it('fails the pending call at once when the server crashes mid-call, then restarts it', async () => {
    defs = [faultDef({ FAULT_MODE: 'crash-on-call' })];
    await registry.apply(defs);
    const began = Date.now();
    await assert.rejects(registry.get('f')!.callTool('work', {}));
    assert.ok(Date.now() - began < 3000, 'within the request timeout');
    await waitFor(() => state().kind === 'running' && starts() === 2, `the restart (${starts()} starts, ${messages.join(' | ')})`);
  });

  it('retries a server that crashes on start under the same backoff, then says why it stays down', async () => {
    defs = [faultDef({ FAULT_MODE: 'crash-on-start' })];
    await registry.apply(defs);
    await waitFor(() => messages.some((m) => m.includes('stays stopped')), `giving up (${messages.join(' | ')})`);
    assert.equal(messages[1], 'Server "f" exited with code 3 during start: fault: crashing on start. Restarting in 1 s.');
    assert.match(
      message(),
      /exited with code 3 during start: fault: crashing on start\. It crashed 5 times in 3 minutes, so it stays stopped: check its log, then use Restart\.$/,
    );
    assert.equal(starts(), 5);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(starts(), 5, 'no retry after giving up');
  });

  it('does not retry a start that fails for a reason a retry cannot fix', async () => {
    defs = [
      definition({ type: 'stdio', command: 'no-such-command-mcp-faults', args: [], env: {}, cwd: undefined } as ServerDefinition['launch'], {
        id: 'f',
        name: 'f',
        label: 'f',
        protocolEra: 'legacy',
      }),
    ];
    await registry.apply(defs);
    await new Promise((r) => setTimeout(r, 300));
    assert.match(message(), /^"no-such-command-mcp-faults" not found on PATH\. /);
    assert.ok(!messages.some((m) => m.includes('Restarting')), messages.join(' | '));
  });

  it('ends what a crashed server started, not only what a stopped one started', async function () {
    if (process.platform === 'win32') this.skip();
    autoRestart = false;
    const pidFile = path.join(dir, 'child.pid');
    defs = [faultDef({ FAULT_MODE: 'spawn-child-then-crash', FAULT_PID_FILE: pidFile, FAULT_DELAY_MS: '300' })];
    await registry.apply(defs);
    const child = Number(await waitFor(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8'), 'the grandchild'));
    await waitFor(() => state().kind === 'error', 'the crash');
    assert.equal(message(), 'Server "f" exited with code 3: fault: crashing. Use Restart to start it again.');
    await waitFor(() => !alive(child), 'the grandchild of the crashed server to be gone', 4000);
  });

  it('stops the processes the server started, not only the server', async function () {
    if (process.platform === 'win32') this.skip();
    const pidFile = path.join(dir, 'child.pid');
    defs = [faultDef({ FAULT_MODE: 'spawn-child', FAULT_PID_FILE: pidFile })];
    await registry.apply(defs);
    assert.equal(state().kind, 'running');
    const child = Number(await waitFor(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8'), 'the grandchild'));
    assert.ok(alive(child), 'the grandchild runs');
    await registry.stop('f');
    await waitFor(() => !alive(child), 'the grandchild to be gone', 4000);
  });
});

describe('faults: large messages', function () {
  this.timeout(30000);

  const bigDef = (mb: string) =>
    definition(
      {
        type: 'stdio',
        command: 'node',
        args: [FAULT_FIXTURE],
        env: { FAULT_MODE: 'big-result', FAULT_BIG_MB: mb },
        cwd: undefined,
      } as ServerDefinition['launch'],
      { id: 'big', name: 'big', label: 'big', protocolEra: 'legacy', timeouts: { connect: 5, request: 15 } },
    );

  it('reads a 20 MB result under the default limit', async () => {
    const c = new McpServerConnection(bigDef('20'), { ...recordingHost(), trace: undefined, maxMessageBytes: () => 64 * 1024 * 1024 }, new RecordingLog());
    try {
      await c.start();
      const result = await c.callTool('work', {});
      assert.equal(textOf(result).length, 20 * 1024 * 1024);
      assert.equal(c.state.kind, 'running');
    } finally {
      await c.dispose();
    }
  });

  it('past the limit, fails the call and names the size and the setting', async () => {
    const c = new McpServerConnection(bigDef('2'), { ...recordingHost(), trace: undefined, maxMessageBytes: () => 1024 * 1024 }, new RecordingLog());
    try {
      await c.start();
      const began = Date.now();
      await assert.rejects(c.callTool('work', {}));
      assert.ok(Date.now() - began < 10000, 'the call fails well within its timeout');
      await waitFor(() => c.state.kind === 'error', 'the error state');
      assert.equal(
        c.state.kind === 'error' && c.state.message,
        'Server "big" sent a message larger than 1 MB, so it was stopped; raise "mcpWorkbench.maxMessageSizeMB" if that is expected.',
      );
    } finally {
      await c.dispose();
    }
  });
});

describe('faults: hung servers', function () {
  this.timeout(20000);

  it('shows a server that stops answering as not responding, and fails its pending call within the timeout', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const def = definition(
      {
        type: 'stdio',
        command: 'node',
        args: [FAULT_FIXTURE],
        env: { FAULT_MODE: 'hang-after-init', FAULT_ANSWERS: '1' },
        cwd: undefined,
      } as ServerDefinition['launch'],
      { id: 'hung', name: 'hung', label: 'hung', protocolEra: 'legacy', timeouts: { connect: 5, request: 1 } },
    );
    const c = new McpServerConnection(def, { ...recordingHost(), trace: undefined, pingIntervalMs: () => 200 }, new RecordingLog());
    try {
      await c.start();
      await c.list('tools');
      const began = Date.now();
      await assert.rejects(c.callTool('work', {}));
      assert.ok(Date.now() - began < 2500, 'the pending call fails within its timeout');
      await waitFor(() => c.state.kind === 'error', 'not responding', 5000);
      assert.equal(c.state.kind === 'error' && c.state.message, 'Server "hung" is not responding: no answer to a ping within 1 s.');
    } finally {
      await c.dispose();
      process.off('unhandledRejection', onUnhandled);
    }
    assert.deepEqual(unhandled, []);
  });
});

describe('faults: broken handshakes', function () {
  this.timeout(20000);

  it('names a missing protocolVersion in one line instead of a schema dump', async () => {
    const def = definition(
      { type: 'stdio', command: 'node', args: [FAULT_FIXTURE], env: { FAULT_MODE: 'no-protocol-version' }, cwd: undefined } as ServerDefinition['launch'],
      { id: 'np', name: 'np', label: 'np', protocolEra: 'legacy', timeouts: { connect: 5 } },
    );
    const c = new McpServerConnection(def, { ...recordingHost(), trace: undefined }, new RecordingLog());
    try {
      await c.start();
      assert.equal(
        c.state.kind === 'error' && c.state.message,
        'Server "np" answered initialize without a valid "protocolVersion", so it is not a compatible MCP server: update it or check its command.',
      );
      assert.match(c.state.kind === 'error' ? (c.state.detail ?? '') : '', /invalid_type/);
    } finally {
      await c.dispose();
    }
  });
});
