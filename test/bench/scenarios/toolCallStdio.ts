/**
 * tools/call over stdio: the same `echo` call to the same fixture server, one call per
 * contestant per iteration in rotating order (stats.ts, rules 1–5).
 *
 * - raw pipe: newline JSON on the child's stdio (the floor)
 * - bare SDK: bareClient.ts
 * - host (shipped): the activated extension's own connection, Activity recording on (host.ts)
 * - host without recording: McpServerConnection with no trace hook. A diagnostic that shows
 *   what recording costs; NOT the shipped path, and no goal is judged on it.
 */
import { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import { DEFAULT_TIMEOUTS } from '../../../src/config/common/serverConfig';
import { connectBareStdio } from '../bareClient';
import { activateExtension, stdioEntry } from '../host';
import { connectRawStdio } from '../rawClient';
import { fixtureEnv, goal, latencyTable, p99Noise, STDIO_FIXTURE, type BenchOptions, type Scenario, type ScenarioResult } from '../scenario';
import { interleave, ratios, summarize, type ContestantResult, type ContestantRun } from '../stats';

const ARGS = { text: 'benchmark' };

/** The connection as the extension builds it, but with no trace hook (so nothing is recorded). */
async function connectUnrecorded(): Promise<McpServerConnection> {
  const connection = new McpServerConnection({
    id: 'bench-unrecorded', name: 'bench-unrecorded', label: 'bench-unrecorded', source: { scope: 'user', label: 'bench' }, disabled: false,
    timeouts: DEFAULT_TIMEOUTS, secrets: [], launch: { type: 'stdio', command: process.execPath, args: [STDIO_FIXTURE], env: {}, cwd: undefined },
  }, {
    clientInfo: { name: 'mcp-workbench', version: '0' },
    roots: () => [],
    baseEnv: async () => fixtureEnv(),
    serverLogLevel: () => 'info',
  }, { log: () => undefined, stderr: () => undefined });
  await connection.start();
  if (connection.state.kind !== 'running') throw new Error(`fixture did not start: ${JSON.stringify(connection.state)}`);
  return connection;
}

export const scenario: Scenario = {
  id: 'stdio',
  async run(options: BenchOptions): Promise<ScenarioResult> {
    const iterations = options.smoke ? 200 : 5000;
    const warmup = options.smoke ? 50 : 500;
    const host = await activateExtension();
    const runs: Record<string, ContestantRun[]> = { raw: [], bare: [], host: [], unrecorded: [] };
    for (let run = 0; run < options.runs; run++) {
      const [raw, bare, unrecorded] = await Promise.all([
        connectRawStdio(process.execPath, [STDIO_FIXTURE], fixtureEnv()),
        connectBareStdio(process.execPath, [STDIO_FIXTURE], fixtureEnv()),
        connectUnrecorded(),
        host.configure({ 'bench-stdio': stdioEntry(STDIO_FIXTURE) }),
      ]);
      const shipped = host.running('bench-stdio');
      const samples = await interleave({
        raw: () => raw.request('tools/call', { name: 'echo', arguments: ARGS }),
        bare: () => bare.callTool('echo', ARGS),
        host: () => shipped.callTool('echo', ARGS),
        unrecorded: () => unrecorded.callTool('echo', ARGS),
      }, iterations, warmup);
      for (const [name, s] of Object.entries(samples)) runs[name].push(summarize(s));
      options.log(`  stdio run ${run + 1}: p50 raw ${(runs.raw[run].p50 * 1000).toFixed(0)} µs, bare ${(runs.bare[run].p50 * 1000).toFixed(0)} µs, host ${(runs.host[run].p50 * 1000).toFixed(0)} µs, unrecorded ${(runs.unrecorded[run].p50 * 1000).toFixed(0)} µs`);
      await Promise.all([raw.close(), bare.close(), unrecorded.dispose(), host.configure({})]);
    }
    const contestants: ContestantResult[] = [
      { name: 'raw', label: 'raw pipe (floor)', unit: 'µs', runs: runs.raw, ...ratios(runs.raw, runs.bare) },
      { name: 'bare', label: 'bare SDK', unit: 'µs', runs: runs.bare },
      { name: 'host', label: 'host (shipped, recording on)', unit: 'µs', runs: runs.host, ...ratios(runs.host, runs.bare) },
      { name: 'unrecorded', label: 'host, no trace hook (diagnostic only)', unit: 'µs', runs: runs.unrecorded, ...ratios(runs.unrecorded, runs.bare) },
    ];
    const shipped = contestants[2];
    return {
      id: 'stdio',
      title: `stdio tools/call (echo), ${iterations} calls per contestant per run after ${warmup} warm-up, ${options.runs} run(s)`,
      params: { iterations, warmup, runs: options.runs, payload: ARGS },
      table: latencyTable(contestants),
      goals: [
        goal('stdio tools/call host p50 ≤ 1.05× bare SDK (recording on)', shipped.ratioP50, 1.05, options),
        goal('stdio tools/call host p99 ≤ 1.10× bare SDK (recording on)', shipped.ratioP99, 1.10, options, p99Noise(contestants[0])),
      ],
      notes: p99Noise(contestants[0]) ? [`p99: ${p99Noise(contestants[0])}, so the p99 column measures this machine more than the clients.`] : [],
      data: contestants,
    };
  },
};
