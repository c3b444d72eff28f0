/**
 * tools/call over Streamable HTTP: the HTTP fixture runs in its own process (so its work is not
 * in this one), every contestant has its own session on it; one call per contestant per
 * iteration in rotating order (stats.ts, rules 1–5). The floor is a raw fetch POST.
 */
import { connectBareHttp, connectBareHttpV1 } from '../bareClient';
import { activateExtension } from '../host';
import { connectRawHttp } from '../rawClient';
import { goal, latencyTable, p99Noise, startHttpFixtureProcess, type BenchOptions, type Scenario, type ScenarioResult } from '../scenario';
import { interleave, ratios, summarize, type ContestantResult, type ContestantRun } from '../stats';

const ARGS = { text: 'benchmark' };

export const scenario: Scenario = {
  id: 'http',
  async run(options: BenchOptions): Promise<ScenarioResult> {
    const iterations = options.smoke ? 100 : 2000;
    const warmup = options.smoke ? 20 : 200;
    const host = await activateExtension();
    const fixture = await startHttpFixtureProcess();
    const runs: Record<string, ContestantRun[]> = { raw: [], bare: [], bareV1: [], host: [] };
    try {
      for (let run = 0; run < options.runs; run++) {
        const [raw, bare, bareV1] = await Promise.all([
          connectRawHttp(fixture.url),
          connectBareHttp(fixture.url),
          connectBareHttpV1(fixture.url),
          host.configure({ 'bench-http': { type: 'http', url: fixture.url } }),
        ]);
        const shipped = host.running('bench-http');
        const samples = await interleave({
          raw: () => raw.request('tools/call', { name: 'echo', arguments: ARGS }),
          bare: () => bare.callTool('echo', ARGS),
          bareV1: () => bareV1.callTool('echo', ARGS),
          host: () => shipped.callTool('echo', ARGS),
        }, iterations, warmup);
        for (const [name, s] of Object.entries(samples)) runs[name].push(summarize(s));
        options.log(`  http run ${run + 1}: p50 raw ${(runs.raw[run].p50 * 1000).toFixed(0)} µs, bare ${(runs.bare[run].p50 * 1000).toFixed(0)} µs, bare v1 ${(runs.bareV1[run].p50 * 1000).toFixed(0)} µs, host ${(runs.host[run].p50 * 1000).toFixed(0)} µs`);
        await Promise.all([raw.close(), bare.close(), bareV1.close(), host.configure({})]);
      }
    } finally {
      await fixture.stop();
    }
    const v1 = (name: string) => {
      const { ratioP50, ratioP99 } = ratios(runs[name], runs.bareV1);
      return { v1RatioP50: ratioP50, v1RatioP99: ratioP99 };
    };
    const contestants: ContestantResult[] = [
      { name: 'raw', label: 'raw fetch POST (floor)', unit: 'µs', runs: runs.raw, ...ratios(runs.raw, runs.bare), ...v1('raw') },
      { name: 'bare', label: 'bare SDK v2, shipped (same request: progress token)', unit: 'µs', runs: runs.bare, ...v1('bare') },
      { name: 'bareV1', label: 'bare SDK v1 (same request)', unit: 'µs', runs: runs.bareV1, ...ratios(runs.bareV1, runs.bare) },
      { name: 'host', label: 'host (shipped, recording on)', unit: 'µs', runs: runs.host, ...ratios(runs.host, runs.bare), ...v1('host') },
    ];
    return {
      id: 'http',
      title: `Streamable HTTP tools/call (echo), ${iterations} calls per contestant per run after ${warmup} warm-up, ${options.runs} run(s)`,
      params: { iterations, warmup, runs: options.runs, payload: ARGS },
      table: latencyTable(contestants),
      goals: [goal('HTTP tools/call host p50 ≤ 1.05× bare SDK', contestants[3].ratioP50, 1.05, options)],
      notes: p99Noise(contestants[0]) ? [`p99: ${p99Noise(contestants[0])}, so the p99 column measures this machine more than the clients.`] : [],
      data: contestants,
    };
  },
};
