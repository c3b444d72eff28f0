/**
 * Cost per tool call of one contestant alone in this process, for load-independent measures
 * (the bench's wall times move with whatever else the machine runs):
 *
 *   node out/test/bench/callCost.js <bare|host|log> [stdio|http] [warmup] [calls]
 *
 * - bare: the bare SDK client (bareClient.ts); host: the activated extension's own connection,
 *   recording on (host.ts); log: the Activity log alone, taking in an echo call's request and
 *   response (no server), in batches of 100 calls as its 20 ms timer would.
 * - It prints wall and CPU µs per call, minor page faults and context switches per call.
 *
 * Instructions per call: run it under callgrind with two call counts and divide the difference
 * of the totals by the difference of the counts (start-up cancels out); `--separate-threads=yes`
 * keeps the main thread (file `…-01`) apart from V8's compiler and GC helpers, whose counts vary
 * from run to run:
 *
 *   valgrind --tool=callgrind --separate-threads=yes node out/test/bench/callCost.js host stdio 1000 500
 *   valgrind --tool=callgrind --separate-threads=yes node out/test/bench/callCost.js host stdio 1000 3500
 *
 * Syscalls per call the same way with `strace -f -c`. Under valgrind the Activity log's 20 ms
 * batch timer fires every few calls instead of every ~100, which inflates the host's count.
 */
import { ActivityLog } from '../../src/traffic/common/activityLog';
import type { TraceRecord } from '../../src/mcp/trace';
import { connectBareHttp, connectBareStdio } from './bareClient';
import { activateExtension, deactivateExtension, stdioEntry } from './host';
import { fixtureEnv, startHttpFixtureProcess, STDIO_FIXTURE } from './scenario';

const ARGS = { text: 'benchmark' };

async function contestant(mode: string, kind: string): Promise<{ call(i: number): unknown; close(): Promise<void> }> {
  if (mode === 'log') {
    const log = new ActivityLog(1000);
    const server = { id: 'bench-stdio', label: 'bench-stdio', secrets: () => [] };
    return {
      call(i) {
        const request = { method: 'tools/call', params: { name: 'echo', arguments: ARGS, _meta: { progressToken: i } }, jsonrpc: '2.0', id: i };
        const response = { result: { content: [{ type: 'text', text: 'echo: benchmark' }] }, jsonrpc: '2.0', id: i };
        log.record(server, { direction: 'send', kind: 'request', method: 'tools/call', id: i, message: request } as TraceRecord, 1);
        log.record(server, { direction: 'receive', kind: 'response', method: 'tools/call', id: i, latencyMs: 0, message: response } as TraceRecord, 2);
        if (i % 100 === 99) log.flush();
      },
      close: async () => log.dispose(),
    };
  }
  const fixture = kind === 'http' ? await startHttpFixtureProcess() : undefined;
  if (mode === 'bare') {
    const bare = fixture ? await connectBareHttp(fixture.url) : await connectBareStdio(process.execPath, [STDIO_FIXTURE], fixtureEnv());
    return { call: () => bare.callTool('echo', ARGS), close: async () => { await bare.close(); await fixture?.stop(); } };
  }
  if (mode === 'host') {
    const host = await activateExtension();
    await host.configure({ 'call-cost': fixture ? { type: 'http', url: fixture.url } : stdioEntry(STDIO_FIXTURE) });
    const connection = host.running('call-cost');
    return { call: () => connection.callTool('echo', ARGS), close: async () => { await deactivateExtension(); await fixture?.stop(); } };
  }
  throw new Error(`unknown contestant "${mode}": bare, host or log`);
}

async function main(): Promise<void> {
  const [mode = 'host', kind = 'stdio', warmup = '1000', calls = '3000'] = process.argv.slice(2);
  const n = Number(calls);
  const c = await contestant(mode, kind);
  for (let i = 0; i < Number(warmup); i++) await c.call(i);
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const usage = process.resourceUsage();
  for (let i = 0; i < n; i++) await c.call(i);
  const wall = Number(process.hrtime.bigint() - start) / 1e3 / n;
  const { user, system } = process.cpuUsage(cpu);
  const after = process.resourceUsage();
  const per = (key: 'minorPageFault' | 'voluntaryContextSwitches' | 'involuntaryContextSwitches') => ((after[key] - usage[key]) / n).toFixed(2);
  process.stdout.write(`${mode} ${mode === 'log' ? '' : `${kind} `}${n} calls: ${wall.toFixed(1)} µs/call wall, CPU user ${(user / n).toFixed(1)} + system ${(system / n).toFixed(1)} µs/call, `
    + `minor faults ${per('minorPageFault')}, context switches ${per('voluntaryContextSwitches')} + ${per('involuntaryContextSwitches')} involuntary per call\n`);
  await c.close();
}

main().then(() => process.exit(0), (error: unknown) => {
  console.error(error);
  process.exit(1);
});
