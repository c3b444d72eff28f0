/**
 * tools/call over stdio: the same `echo` call to the same fixture server, one call per
 * contestant per iteration in rotating order (stats.ts, rules 1–5).
 *
 * - raw pipe: newline JSON on the child's stdio (the floor)
 * - bare SDK: bareClient.ts (the same request on the wire as the host's, progress token included)
 * - bare SDK v1: the same request on SDK v1 (`@modelcontextprotocol/sdk`), the other bare line:
 *   what a host built on v1 pays per call (issue 30)
 * - bare SDK, no progress token: what the token the extension puts on every call costs
 *   (a diagnostic)
 * - host (shipped): the activated extension's own connection, Activity recording on (host.ts)
 * - host without recording: the bundle's own connection class with the Workbench's own host,
 *   minus the trace hook. A diagnostic that shows what recording costs; NOT the shipped path,
 *   and no goal is judged on it.
 * Every contestant but the raw pipe runs on the one SDK copy the extension ships (see
 * bareClient.ts for why that matters in one process).
 */
import type { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import type { ConnectionHost, ServerLog } from '../../../src/mcp/connection/connectionTypes';
import type { ServerDefinition } from '../../../src/config/common/launchDefinition';
import { connectBareStdio, connectBareStdioV1 } from '../bareClient';
import { activateExtension, stdioEntry } from '../host';
import { connectRawStdio } from '../rawClient';
import { fixtureEnv, goal, latencyTable, p99Noise, STDIO_FIXTURE, type BenchOptions, type Scenario, type ScenarioResult } from '../scenario';
import { interleave, ratios, summarize, type ContestantResult, type ContestantRun } from '../stats';

const ARGS = { text: 'benchmark' };

/** What the bundle's connection keeps privately: read here only to build the diagnostic twin. */
type Internals = { host: ConnectionHost; log: ServerLog; constructor: new (d: ServerDefinition, h: ConnectionHost, l: ServerLog) => McpServerConnection };

/**
 * The connection as the extension builds it (the bundle's class, the Workbench's ConnectionHost:
 * client features, liveness, log level), but with no trace hook, so nothing is recorded.
 */
async function connectUnrecorded(shipped: McpServerConnection): Promise<McpServerConnection> {
  const inner = shipped as unknown as Internals;
  const def = { ...shipped.definition, id: 'bench-unrecorded', name: 'bench-unrecorded', label: 'bench-unrecorded' };
  const connection = new inner.constructor(def, { ...inner.host, trace: undefined }, inner.log);
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
    const runs: Record<string, ContestantRun[]> = { raw: [], bare: [], bareV1: [], bareNoProgress: [], host: [], unrecorded: [] };
    for (let run = 0; run < options.runs; run++) {
      const [raw, bare, bareV1] = await Promise.all([
        connectRawStdio(process.execPath, [STDIO_FIXTURE], fixtureEnv()),
        connectBareStdio(process.execPath, [STDIO_FIXTURE], fixtureEnv()),
        connectBareStdioV1(process.execPath, [STDIO_FIXTURE], fixtureEnv()),
        host.configure({ 'bench-stdio': stdioEntry(STDIO_FIXTURE) }),
      ]);
      const shipped = host.running('bench-stdio');
      const unrecorded = await connectUnrecorded(shipped);
      // The diagnostic twin of the bare client is its own client and server, so each
      // contestant's server sleeps between its own turns alike.
      const bareNoProgress = await connectBareStdio(process.execPath, [STDIO_FIXTURE], fixtureEnv());
      const samples = await interleave({
        raw: () => raw.request('tools/call', { name: 'echo', arguments: ARGS }),
        bare: () => bare.callTool('echo', ARGS),
        bareV1: () => bareV1.callTool('echo', ARGS),
        bareNoProgress: () => bareNoProgress.callToolWithoutProgress('echo', ARGS),
        host: () => shipped.callTool('echo', ARGS),
        unrecorded: () => unrecorded.callTool('echo', ARGS),
      }, iterations, warmup);
      for (const [name, s] of Object.entries(samples)) runs[name].push(summarize(s));
      const µs = (name: string) => `${name} ${(runs[name][run].p50 * 1000).toFixed(0)} µs`;
      options.log(`  stdio run ${run + 1}: p50 ${Object.keys(runs).map(µs).join(', ')}`);
      await Promise.all([raw.close(), bare.close(), bareV1.close(), bareNoProgress.close(), unrecorded.dispose(), host.configure({})]);
    }
    const v1 = (name: string) => {
      const { ratioP50, ratioP99 } = ratios(runs[name], runs.bareV1);
      return { v1RatioP50: ratioP50, v1RatioP99: ratioP99 };
    };
    const contestants: ContestantResult[] = [
      { name: 'raw', label: 'raw pipe (floor)', unit: 'µs', runs: runs.raw, ...ratios(runs.raw, runs.bare), ...v1('raw') },
      { name: 'bare', label: 'bare SDK v2, shipped (same request: progress token)', unit: 'µs', runs: runs.bare, ...v1('bare') },
      { name: 'bareV1', label: 'bare SDK v1 (same request)', unit: 'µs', runs: runs.bareV1, ...ratios(runs.bareV1, runs.bare) },
      { name: 'bareNoProgress', label: 'bare SDK v2, no progress token (diagnostic only)', unit: 'µs', runs: runs.bareNoProgress, ...ratios(runs.bareNoProgress, runs.bare), ...v1('bareNoProgress') },
      { name: 'host', label: 'host (shipped, recording on)', unit: 'µs', runs: runs.host, ...ratios(runs.host, runs.bare), ...v1('host') },
      { name: 'unrecorded', label: 'host, no trace hook (diagnostic only)', unit: 'µs', runs: runs.unrecorded, ...ratios(runs.unrecorded, runs.bare), ...v1('unrecorded') },
    ];
    const shipped = contestants[4];
    // Issue 30's goals: against the other SDK line and against the floor.
    const overRaw = ratios(runs.host, runs.raw);
    return {
      id: 'stdio',
      title: `stdio tools/call (echo), ${iterations} calls per contestant per run after ${warmup} warm-up, ${options.runs} run(s)`,
      params: { iterations, warmup, runs: options.runs, payload: ARGS },
      table: latencyTable(contestants),
      goals: [
        goal('stdio tools/call host p50 ≤ 1.05× bare SDK (recording on)', shipped.ratioP50, 1.05, options),
        goal('stdio tools/call host p99 ≤ 1.10× bare SDK (recording on)', shipped.ratioP99, 1.10, options, p99Noise(contestants[0])),
        goal('stdio tools/call host p50 ≤ 1.10× bare SDK v1 (recording on)', shipped.v1RatioP50, 1.1, options),
        goal('stdio tools/call host p50 ≤ 1.5× raw pipe (recording on)', overRaw.ratioP50, 1.5, options),
      ],
      notes: p99Noise(contestants[0]) ? [`p99: ${p99Noise(contestants[0])}, so the p99 column measures this machine more than the clients.`] : [],
      data: contestants,
    };
  },
};
