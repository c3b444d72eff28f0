/**
 * The stdio transport that owns the server process (src/mcp/process/ownedStdioTransport.ts), on
 * real processes. Pins what crash messages, the message-size limit and the era probe rely on, so
 * an SDK upgrade that changes the SDK side of any of it fails here instead of silently.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { MessageTooLargeError, OwnedStdioTransport } from '../../../src/mcp/process/ownedStdioTransport';
import { FIXTURES, waitFor } from './testHost';
import { alive } from '../../shared/processAlive';

const FAULT_FIXTURE = path.join(FIXTURES, 'faultServer.js');

describe('OwnedStdioTransport', function () {
  this.timeout(20000);
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-owned-stdio-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const script = (code: string) => new OwnedStdioTransport({ command: process.execPath, args: ['-e', code], env: { ...process.env }, stderr: 'pipe' });

  it('knows the exit code, and the signal, by the time it reports the close', async () => {
    const t = script('process.exit(7)');
    const closed = new Promise<void>((r) => (t.onclose = r));
    await t.start();
    await closed;
    assert.deepEqual(t.exit, { code: 7, signal: null });

    const killed = script('setInterval(() => {}, 1000)');
    const closedToo = new Promise<void>((r) => (killed.onclose = r));
    await killed.start();
    process.kill(killed.pid!, 'SIGKILL');
    await closedToo;
    assert.deepEqual(killed.exit, { code: null, signal: 'SIGKILL' });
  });

  it('assembles partial lines, skips junk with an error, and delivers the messages', async () => {
    const t = script(`
      const w = (s) => process.stdout.write(s);
      w('not json\\n{"jsonrpc":"2.0","met'); setTimeout(() => { w('hod":"a"}\\r\\n\\n{"jsonrpc":"2.0","method":"b"}\\n'); setTimeout(() => process.exit(0), 50); }, 50);
    `);
    const messages: JSONRPCMessage[] = [];
    const errors: Error[] = [];
    t.onmessage = (m) => messages.push(m);
    t.onerror = (e) => errors.push(e);
    const closed = new Promise<void>((r) => (t.onclose = r));
    await t.start();
    await closed;
    assert.deepEqual(
      messages.map((m) => (m as { method: string }).method),
      ['a', 'b'],
    );
    assert.equal(errors.length, 1);
  });

  it('a flood gives the event loop turns between slices, delivers every message in order, and none is lost at exit', async () => {
    const total = 40000;
    // ~60-byte notifications written at once (64 KB chunks of ~1000 lines), then the process ends.
    const t = script(
      `let s='';for(let i=0;i<${total};i++)s+=JSON.stringify({jsonrpc:'2.0',method:'notifications/message',params:{level:'info',data:i}})+'\\n';process.stdout.write(s,()=>process.exit(0));`,
    );
    const seen: number[] = [];
    let sinceTurn = 0;
    let mostInOneTurn = 0;
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      mostInOneTurn = Math.max(mostInOneTurn, sinceTurn);
      sinceTurn = 0;
      if (ticking) setImmediate(tick);
    };
    t.onmessage = (m) => {
      seen.push((m as unknown as { params: { data: number } }).params.data);
      sinceTurn++;
    };
    const closed = new Promise<void>((r) => (t.onclose = r));
    await t.start();
    setImmediate(tick);
    await closed;
    ticking = false;
    mostInOneTurn = Math.max(mostInOneTurn, sinceTurn);
    assert.equal(seen.length, total, 'every message before the exit is delivered, before the close');
    assert.ok(
      seen.every((v, i) => v === i),
      'in order',
    );
    // Without slicing, each 64 KB chunk (~1000 of these lines) is handed over in one go.
    assert.ok(mostInOneTurn < 500, `at most ${mostInOneTurn} messages were delivered without the event loop getting a turn (${turns} turns)`);
  });

  it('stops a server whose message outgrows the limit, with a typed error', async () => {
    const t = new OwnedStdioTransport({
      command: process.execPath,
      args: ['-e', `process.stdout.write('x'.repeat(3000)); setInterval(() => {}, 1000)`],
      env: { ...process.env },
      maxBufferSize: 1000,
    });
    const errors: Error[] = [];
    t.onerror = (e) => errors.push(e);
    const closed = new Promise<void>((r) => (t.onclose = r));
    await t.start();
    await closed;
    assert.ok(errors[0] instanceof MessageTooLargeError);
    assert.equal((errors[0] as MessageTooLargeError).limit, 1000);
    assert.equal(t.oversized, 1000);
  });

  it('ends what the server started when the server itself dies', async function () {
    if (process.platform === 'win32') this.skip();
    const pidFile = path.join(dir, 'child.pid');
    const t = new OwnedStdioTransport({
      command: process.execPath,
      args: [FAULT_FIXTURE],
      env: { ...process.env, FAULT_MODE: 'spawn-child', FAULT_PID_FILE: pidFile },
    });
    const closed = new Promise<void>((r) => (t.onclose = r));
    await t.start();
    const child = Number(await waitFor(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8'), 'the grandchild'));
    process.kill(t.pid!, 'SIGKILL');
    await closed;
    await waitFor(() => !alive(child), 'the grandchild to be gone', 4000);
  });

  it('a server paused under --inspect-brk (it never reads stdin) ends when the extension host exits without stopping it', async function () {
    if (process.platform === 'win32') this.skip();
    // A stand-in for the extension host: it starts the debuggee as a debug session does and
    // exits at once, as VS Code closing ends its extension host.
    const transport = path.join(__dirname, '../../../src/mcp/process/ownedStdioTransport.js');
    const host = `const { OwnedStdioTransport } = require(${JSON.stringify(transport)});
      const t = new OwnedStdioTransport({ command: process.execPath, args: ['--inspect-brk=127.0.0.1:0', ${JSON.stringify(path.join(FIXTURES, 'stdioServer.js'))}], env: process.env });
      t.start().then(() => { console.log(t.pid); process.exit(0); });`;
    const { execFileSync } = await import('node:child_process');
    const pid = Number(execFileSync(process.execPath, ['-e', host], { encoding: 'utf8', timeout: 15000 }).trim());
    assert.ok(pid > 0, 'the debuggee started');
    try {
      await waitFor(() => !alive(pid), `the debuggee ${pid} to be gone with its host`, 5000);
    } finally {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // Gone, as it should be.
      }
    }
  });

  /** The SDK's own contract with its stdio transport, which this class keeps: pinned here. */
  describe('with the SDK era probe', () => {
    const probeWith = async (Transport: typeof OwnedStdioTransport) => {
      const counter = path.join(dir, 'starts');
      const transport = new Transport({
        command: process.execPath,
        args: [FAULT_FIXTURE],
        env: { ...process.env, FAULT_COUNTER_FILE: counter },
        stderr: 'pipe',
      });
      const client = new Client({ name: 't', version: '0' }, { versionNegotiation: { mode: 'auto', probe: { timeoutMs: 5000 } } });
      await client.connect(transport);
      try {
        assert.equal(client.getProtocolEra(), 'legacy');
        return { starts: fs.readFileSync(counter, 'utf8').trim().split('\n').map(Number), pid: transport.pid };
      } finally {
        await client.close();
      }
    };

    it('probes on a disposable sibling process, so the session process never sees the probe', async () => {
      const { starts, pid } = await probeWith(OwnedStdioTransport);
      assert.equal(starts.length, 2, 'a probe sibling, then the session');
      assert.equal(starts[1], pid);
    });

    it('probes in place for a subclass (a server under the debugger)', async () => {
      class InPlace extends OwnedStdioTransport {}
      const { starts } = await probeWith(InPlace);
      assert.equal(starts.length, 1);
    });
  });
});
