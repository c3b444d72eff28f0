/**
 * One stdio fixture behaviour per test (faultServer.ts, real processes, no mocks): what the user
 * sees (the state and its one-line message), that pending requests fail within their timeout,
 * that nothing unhandled escapes, and that memory stays bounded under floods.
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { ServerDefinition } from '../../../src/config/common/launchDefinition';
import { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import type { ServerLog } from '../../../src/mcp/connection/connectionTypes';
import { recordingHost, RecordingLog, textOf, waitFor } from './testHost';
import { CountingLog, faultDefinition, heapAfterGc, watchUnhandled } from './faultHelpers';
import type { FloodProbeResult } from './floodProbe';

/** A log that keeps counts and the last lines only, so a flood does not fill the test's own memory. */
const execFileAsync = promisify(execFile);

describe('faults: one fixture behaviour each (stdio)', function () {
  this.timeout(30000);
  let unhandled: ReturnType<typeof watchUnhandled>;
  const open: McpServerConnection[] = [];
  const connect = (def: ServerDefinition, log: ServerLog = new RecordingLog()) => {
    const c = new McpServerConnection(def, { ...recordingHost(), trace: undefined }, log);
    open.push(c);
    return c;
  };
  const message = (c: McpServerConnection) => (c.state.kind === 'error' ? c.state.message : `(${c.state.kind})`);

  beforeEach(() => {
    unhandled = watchUnhandled();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.dispose()));
    unhandled.dispose();
    assert.deepEqual(unhandled.seen, [], 'nothing unhandled');
  });

  it('crash on start: names the exit code and the last stderr line', async () => {
    const c = connect(faultDefinition({ FAULT_MODE: 'crash-on-start' }));
    const began = Date.now();
    await c.start();
    assert.ok(Date.now() - began < 5000, 'fails before the connect timeout');
    assert.equal(message(c), 'Server "f" exited with code 3 during start: fault: crashing on start.');
  });

  it('never answers: fails the start at the connect timeout, naming the setting', async () => {
    const c = connect(faultDefinition({ FAULT_MODE: 'never-answers' }, { connect: 1 }));
    const began = Date.now();
    await c.start();
    const took = Date.now() - began;
    assert.ok(took < 2500, `failed after ${took} ms`);
    assert.match(
      message(c),
      /^Server "f" did not complete the MCP handshake within 1 s\. Check that the server process \(.+\) is an MCP server, or raise "timeouts\.connect"/,
    );
  });

  it('wrong protocol version: one line naming the version it sent', async () => {
    const c = connect(faultDefinition({ FAULT_MODE: 'wrong-version' }));
    await c.start();
    assert.equal(message(c), 'Server "f" answered with protocol version "1999-01-01", which this client does not support: update the server.');
  });

  it('garbage and partial lines on stdout: skipped and logged, calls still answered', async () => {
    const log = new RecordingLog();
    const c = connect(faultDefinition({ FAULT_MODE: 'garbage' }), log);
    await c.start();
    assert.equal(c.state.kind, 'running');
    assert.equal(textOf(await c.callTool('work', {})), 'done');
    assert.deepEqual(
      (await c.list('tools')).map((t) => t.name),
      ['work'],
    );
    assert.equal(c.state.kind, 'running');
    assert.match(log.text('warn'), /Transport: /, 'the junk is logged as a warning');
  });

  it('unknown and duplicate response ids: the call resolves once, the session stays up', async () => {
    const log = new RecordingLog();
    const c = connect(faultDefinition({ FAULT_MODE: 'bad-ids' }), log);
    await c.start();
    assert.equal(textOf(await c.callTool('work', {})), 'first');
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(c.state.kind, 'running');
    assert.equal(log.text('warn').match(/unknown message ID/g)?.length, 2, 'both stray answers are logged');
    assert.equal(textOf(await c.callTool('work', {})), 'first');
  });

  it('unadvertised methods from the server: answered "method not found", the session stays up', async () => {
    const c = connect(faultDefinition({ FAULT_MODE: 'unadvertised' }));
    await c.start();
    const codes = JSON.parse(textOf(await c.callTool('work', {}))) as unknown[];
    assert.deepEqual(codes, [-32601, -32601, -32601]);
    assert.equal(c.state.kind, 'running');
  });

  it('timeouts.maxTotal: a call that hears nothing fails at maxTotal, not at the longer request timeout', async () => {
    const c = connect(faultDefinition({ FAULT_MODE: 'hang-after-init', FAULT_ANSWERS: '1' }, { request: 6, maxTotal: 1 }));
    await c.start();
    await c.list('tools');
    const began = Date.now();
    await assert.rejects(c.callTool('work', {}), (error: Error) => {
      assert.equal(
        error.message,
        'tools/call took longer than the maximum of 1 s. Raise "timeouts.maxTotal" for server "f" in test config, or the mcpWorkbench.timeouts setting.',
      );
      return true;
    });
    const took = Date.now() - began;
    assert.ok(took >= 900 && took < 2000, `failed after ${took} ms`);
  });

  it('stderr flood (100k lines): the server keeps running, the crash tail stays at 20 lines', async () => {
    const log = new CountingLog();
    const before = heapAfterGc();
    const c = connect(faultDefinition({ FAULT_MODE: 'stderr-flood', FAULT_LINES: '100000' }, { connect: 20 }), log);
    await c.start();
    assert.equal(c.state.kind, 'running');
    await waitFor(() => (log.counts.stderr ?? 0) >= 100000, 'all stderr lines', 20000);
    assert.equal(textOf(await c.callTool('work', {})), 'done');
    const session = (c as unknown as { session: { stderrTail: string[] } }).session;
    assert.equal(session.stderrTail.length, 20);
    const grown = heapAfterGc() - before;
    assert.ok(grown < 30 * 1024 * 1024, `heap grew ${Math.round(grown / 1048576)} MB`);
  });

  it('100k-notification flood: the call is answered and the heap stays bounded', async function () {
    // 5 s on a quiet machine; the machine running the suite may be busy.
    this.timeout(120000);
    // In a process of its own (floodProbe.ts): what the peak counts besides the flood is then nothing.
    const { stdout } = await execFileAsync(process.execPath, [path.join(__dirname, 'floodProbe.js'), '100000'], { timeout: 110000, maxBuffer: 1 << 20 });
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as FloodProbeResult;
    assert.equal(result.answer, 'flooded 100000');
    assert.ok(result.logged >= 100000, `logged ${result.logged} messages`);
    assert.equal(result.state, 'running');
    const mb = (bytes: number) => Math.round(bytes / 1048576);
    assert.ok(result.grown < 20 * 1024 * 1024, `heap after GC grew ${mb(result.grown)} MB`);
    // 60-64 MB measured (garbage included; V8 collects as the flood allocates, so load does not
    // change it). Keeping a small object per message already peaks at 148 MB (and grows 32 MB).
    assert.ok(result.peak < 120 * 1024 * 1024, `heap peaked ${mb(result.peak)} MB above the start`);
  });
});
