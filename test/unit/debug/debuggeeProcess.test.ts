import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { StdioLaunch } from '../../../src/config/common/launchDefinition';
import { DebuggeeProcess } from '../../../src/debug/common/debuggeeProcess';
import type { SpawnError } from '../../../src/mcp/process/stdioSpawn';
import { FIXTURES } from '../mcp/testHost';
import { alive } from '../../shared/processAlive';

const HTTP_FIXTURE = path.join(FIXTURES, 'httpServer.js');
const launch = (command: string, args: string[], env: Record<string, string | null> = {}, cwd?: string): StdioLaunch => ({
  type: 'stdio',
  command,
  args,
  env,
  cwd,
});

async function lineMatching(proc: DebuggeeProcess, pattern: RegExp, timeoutMs = 10000): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const found = proc.tail.map((l) => pattern.exec(l)).find(Boolean);
    if (found) return resolve(found);
    const timer = setTimeout(() => reject(new Error(`no line matching ${String(pattern)}; output: ${proc.tail.join(' | ')}`)), timeoutMs);
    const sub = proc.onLine(({ line }) => {
      const m = pattern.exec(line);
      if (m) {
        clearTimeout(timer);
        sub.dispose();
        resolve(m);
      }
    });
  });
}

describe('DebuggeeProcess (a server process the mcp debug type starts for an HTTP server)', () => {
  it('starts the HTTP fixture, streams its output by line, kill ends it', async () => {
    const proc = await DebuggeeProcess.start(launch('node', [HTTP_FIXTURE], { PORT: '0' }), process.env, 'fixture');
    const streams = new Set<string>();
    proc.onLine(({ stream }) => streams.add(stream));
    const [, url] = await lineMatching(proc, /^LISTENING (http:\/\/127\.0\.0\.1:\d+\/mcp)$/);
    const pid = proc.pid!;
    assert.ok(alive(pid));
    assert.equal(proc.exited, undefined);
    assert.ok((await fetch(url.replace(/\/mcp$/, '/stats'))).ok);
    await proc.kill();
    assert.ok(proc.exited, 'exited');
    assert.ok(!alive(pid), 'the process is gone');
    assert.ok(streams.has('stdout'));
  });

  it('environment: base, then env (null removes); cwd; stderr lines too', async () => {
    const code = 'console.log([process.env.KEEP, process.env.SET, process.env.DROP ?? "unset", process.cwd()].join(",")); console.error("on stderr")';
    const proc = await DebuggeeProcess.start(
      launch('node', ['-e', code], { SET: 's', DROP: null }, os.tmpdir()),
      { ...process.env, KEEP: 'k', DROP: 'd' },
      'x',
    );
    const seen: string[] = [];
    proc.onLine(({ stream, line }) => seen.push(`${stream}:${line}`));
    await proc.exit;
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(seen.sort(), [`stdout:k,s,unset,${fs.realpathSync(os.tmpdir())}`, 'stderr:on stderr'].sort());
  });

  it('reports an early exit with its code and last output', async () => {
    const proc = await DebuggeeProcess.start(launch('node', ['-e', 'console.error("bad port"); process.exit(3)']), process.env, 'x');
    const exit = await proc.exit;
    assert.equal(exit.code, 3);
    await lineMatching(proc, /bad port/);
  });

  it('names the missing command and the PATH searched', async () => {
    await assert.rejects(
      DebuggeeProcess.start(launch('no-such-mcp-server-cmd', []), { PATH: '/nonexistent' }, 'srv'),
      // missingCommand: the debug adapter asks the login shell again before failing (mcpDebugAdapter.ts).
      (error: SpawnError) => error.missingCommand && /Cannot start "srv".*no-such-mcp-server-cmd/s.test(error.message),
    );
    await assert.rejects(DebuggeeProcess.start(launch('node', [], {}, '/no/such/dir'), process.env, 'srv'), /working directory "\/no\/such\/dir"/);
  });

  it('kill also ends what a wrapper started (the process group)', async function () {
    if (process.platform === 'win32') this.skip();
    const script = `node -e "setInterval(() => {}, 1000)" & echo "child $!"; wait`;
    const proc = await DebuggeeProcess.start(launch('sh', ['-c', script]), process.env, 'wrapper');
    const [, childPid] = await lineMatching(proc, /^child (\d+)$/);
    assert.ok(alive(Number(childPid)));
    await proc.kill(1000);
    const deadline = Date.now() + 5000;
    while (alive(Number(childPid)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.ok(!alive(Number(childPid)), 'the grandchild is gone');
  });
});
