/**
 * Starting many stdio servers at once against starting one: the wall time until every server
 * has finished `initialize` (for the host: until the registry's reload that adds them all
 * resolves, which is what a workspace with that many servers costs when it opens). Each
 * iteration starts one server, stops it, starts N at once and stops them, contestants in
 * rotating order (stats.ts, rules 1–5); stopping is not timed.
 */
import { connectBareStdio } from '../bareClient';
import { activateExtension, stdioEntry } from '../host';
import { connectRawStdio } from '../rawClient';
import { fixtureEnv, STDIO_FIXTURE, type BenchOptions, type Scenario, type ScenarioResult } from '../scenario';
import { formatRatios, formatTime, median, rotation, summarize, timeMs, type ContestantRun } from '../stats';

type Name = 'raw' | 'bare' | 'host';

export const scenario: Scenario = {
  id: 'servers',
  async run(options: BenchOptions): Promise<ScenarioResult> {
    const many = options.smoke ? 3 : 20;
    const iterations = options.smoke ? 1 : 3;
    const warmup = options.smoke ? 0 : 1;
    const host = await activateExtension();
    const servers = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`bench-many-${i + 1}`, stdioEntry(STDIO_FIXTURE)]));
    const start: Record<Name, (n: number) => Promise<() => Promise<unknown>>> = {
      raw: async (n) => {
        const clients = await Promise.all(Array.from({ length: n }, () => connectRawStdio(process.execPath, [STDIO_FIXTURE], fixtureEnv())));
        return () => Promise.all(clients.map((c) => c.close()));
      },
      bare: async (n) => {
        const clients = await Promise.all(Array.from({ length: n }, () => connectBareStdio(process.execPath, [STDIO_FIXTURE], fixtureEnv())));
        return () => Promise.all(clients.map((c) => c.close()));
      },
      host: async (n) => {
        await host.configure(servers(n));
        const notRunning = host.api.servers().filter((c) => c.state.kind !== 'running');
        if (notRunning.length) throw new Error(`${notRunning.length} servers did not start: ${JSON.stringify(notRunning[0].state)}`);
        return () => host.configure({});
      },
    };
    const names: Name[] = ['raw', 'bare', 'host'];
    const runs = Object.fromEntries(names.flatMap((n) => [[`${n}:1`, [] as ContestantRun[]], [`${n}:${many}`, [] as ContestantRun[]]])) as Record<string, ContestantRun[]>;
    const scaling: Record<Name, number[]> = { raw: [], bare: [], host: [] };
    for (let run = 0; run < options.runs; run++) {
      const samples: Record<string, number[]> = Object.fromEntries(Object.keys(runs).map((k) => [k, []]));
      for (let i = 0; i < warmup + iterations; i++) {
        for (const name of rotation(names, i)) {
          for (const n of [1, many]) {
            let stop: () => Promise<unknown> = async () => undefined;
            const ms = await timeMs(async () => (stop = await start[name](n)));
            await stop();
            if (i >= warmup) samples[`${name}:${n}`].push(ms);
          }
        }
      }
      for (const [key, s] of Object.entries(samples)) runs[key].push(summarize(s));
      for (const name of names) scaling[name].push(runs[`${name}:${many}`][run].p50 / runs[`${name}:1`][run].p50);
      options.log(`  servers run ${run + 1}: ${names.map((n) => `${n} 1: ${runs[`${n}:1`][run].p50.toFixed(0)} ms, ${many}: ${runs[`${n}:${many}`][run].p50.toFixed(0)} ms`).join('; ')}`);
    }
    const ratio = (key: string, bareKey: string) => runs[key].map((r, i) => r.p50 / runs[bareKey][i].p50);
    const mid = (xs: ContestantRun[]) => median(xs.map((r) => r.p50));
    const label: Record<Name, string> = { raw: 'raw pipe (floor)', bare: 'bare SDK', host: 'host (shipped)' };
    return {
      id: 'servers',
      title: `${many} stdio servers started at once vs one, ${iterations} iterations per run after ${warmup} warm-up, ${options.runs} run(s)`,
      params: { many, iterations, warmup, runs: options.runs },
      table: {
        header: ['contestant', 'one server p50', `${many} servers p50`, `${many} ÷ one [each run]`, `one × bare SDK`, `${many} × bare SDK`],
        rows: names.map((n) => [
          label[n],
          formatTime(mid(runs[`${n}:1`]), 'ms'),
          formatTime(mid(runs[`${n}:${many}`]), 'ms'),
          formatRatios(scaling[n]),
          n === 'bare' ? '1 (reference)' : formatRatios(ratio(`${n}:1`, 'bare:1')),
          n === 'bare' ? '1 (reference)' : formatRatios(ratio(`${n}:${many}`, `bare:${many}`)),
        ]),
      },
      goals: [{
        goal: `${many} servers at once ÷ one: host vs bare SDK (no goal set; reported)`,
        measured: `host ${formatRatios(scaling.host)}, bare SDK ${formatRatios(scaling.bare)}`,
      }],
      notes: ['The host start includes what the extension does before `initialize` (PATH resolution, the login shell PATH, cached after the first start) and logging/setLevel after it; the lists it then fetches run in the background and are not waited for.'],
      data: { runs, scaling },
    };
  },
};
