/**
 * Starting many stdio servers at once against starting one: the wall time until every server
 * has finished `initialize` (for the host: until the registry's reload that adds them all
 * resolves, which is what a workspace with that many servers costs when it opens). Each
 * iteration starts one server (ONE_REPEATS times, for its p99), stops it, starts N at once and
 * stops them, contestants in rotating order (stats.ts, rules 1–5); stopping is not timed.
 *
 * The host starts in two ways (issue 30): a server seen before (its era verdict is in
 * `globalState`: one spawn, the shipped everyday case) and a first-ever start (the verdicts are
 * cleared before it: the SDK's `server/discover` probe spawns the server a second time). The
 * bare SDK's default is the 2025 handshake with no probe; "bare SDK, auto" is the SDK's own
 * probe, what any client that does not know the server's era pays. "bare SDK v1" is the SDK line
 * most other hosts still ship (issue 30 asks for both lines in one interleaved run).
 */
import { MementoEraVerdictStore } from '../../../src/mcp/connection/eraVerdicts';
import { connectBareStdio, connectBareStdioV1 } from '../bareClient';
import { activateExtension, stdioEntry } from '../host';
import { connectRawStdio } from '../rawClient';
import { fixtureEnv, goal, STDIO_FIXTURE, type BenchOptions, type Scenario, type ScenarioResult } from '../scenario';
import { formatRatios, formatTime, median, rotation, summarize, timeMs, type ContestantRun } from '../stats';

type Name = 'raw' | 'bare' | 'bareV1' | 'bareAuto' | 'host' | 'hostFirst';

/** Starts of one server per contestant per iteration (interleaved), so one-server p99 has samples. */
const ONE_REPEATS = 5;

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
      bareV1: async (n) => {
        const clients = await Promise.all(Array.from({ length: n }, () => connectBareStdioV1(process.execPath, [STDIO_FIXTURE], fixtureEnv())));
        return () => Promise.all(clients.map((c) => c.close()));
      },
      bareAuto: async (n) => {
        const clients = await Promise.all(Array.from({ length: n }, () => connectBareStdio(process.execPath, [STDIO_FIXTURE], fixtureEnv(), true)));
        return () => Promise.all(clients.map((c) => c.close()));
      },
      host: (n) => hostStart(n),
      hostFirst: (n) => hostStart(n, true),
    };
    /** The host's start; `firstEver`: with no era verdict kept (cleared untimed, as on a new machine). */
    const hostStart = async (n: number, firstEver = false) => {
      if (firstEver) await host.globalState.update(MementoEraVerdictStore.KEY, undefined);
      await host.configure(servers(n));
      const notRunning = host.api.servers().filter((c) => c.state.kind !== 'running');
      if (notRunning.length) throw new Error(`${notRunning.length} servers did not start: ${JSON.stringify(notRunning[0].state)}`);
      return () => host.configure({});
    };
    const names: Name[] = ['raw', 'bare', 'bareV1', 'bareAuto', 'host', 'hostFirst'];
    const runs = Object.fromEntries(names.flatMap((n) => [[`${n}:1`, [] as ContestantRun[]], [`${n}:${many}`, [] as ContestantRun[]]])) as Record<string, ContestantRun[]>;
    const scaling: Record<Name, number[]> = { raw: [], bare: [], bareV1: [], bareAuto: [], host: [], hostFirst: [] };
    const oneRepeats = options.smoke ? 1 : ONE_REPEATS;
    for (let run = 0; run < options.runs; run++) {
      const samples: Record<string, number[]> = Object.fromEntries(Object.keys(runs).map((k) => [k, []]));
      const sample = async (name: Name, n: number, keep: boolean) => {
        let stop: () => Promise<unknown> = async () => undefined;
        const ms = await timeMs(async () => (stop = await start[name](n)));
        await stop();
        if (keep) samples[`${name}:${n}`].push(ms);
      };
      for (let i = 0; i < warmup + iterations; i++) {
        for (let r = 0; r < oneRepeats; r++) for (const name of rotation(names, i * oneRepeats + r)) await sample(name, 1, i >= warmup);
        for (const name of rotation(names, i)) await sample(name, many, i >= warmup);
      }
      for (const [key, s] of Object.entries(samples)) runs[key].push(summarize(s));
      for (const name of names) scaling[name].push(runs[`${name}:${many}`][run].p50 / runs[`${name}:1`][run].p50);
      options.log(`  servers run ${run + 1}: ${names.map((n) => `${n} 1: ${runs[`${n}:1`][run].p50.toFixed(0)} ms, ${many}: ${runs[`${n}:${many}`][run].p50.toFixed(0)} ms`).join('; ')}`);
    }
    const ratio = (key: string, bareKey: string, p: 'p50' | 'p99' = 'p50') => runs[key].map((r, i) => r[p] / runs[bareKey][i][p]);
    const mid = (xs: ContestantRun[], p: 'p50' | 'p99' = 'p50') => median(xs.map((r) => r[p]));
    const label: Record<Name, string> = {
      raw: 'raw pipe (floor)',
      bare: 'bare SDK v2 (2025 handshake, its default)',
      bareV1: 'bare SDK v1 (2025 handshake)',
      bareAuto: 'bare SDK, auto era negotiation (probe on a sibling process; diagnostic)',
      host: 'host (shipped), server seen before (era remembered)',
      hostFirst: 'host (shipped), first-ever start (era probed)',
    };
    return {
      id: 'servers',
      title: `${many} stdio servers started at once vs one, ${iterations} iterations per run after ${warmup} warm-up, ${options.runs} run(s)`,
      params: { many, iterations, warmup, runs: options.runs },
      table: {
        header: [
          'contestant',
          'one server p50',
          'one server p99',
          `${many} servers p50`,
          `${many} ÷ one [each run]`,
          'one × bare SDK v2, p50 [each run] ±spread',
          'one × bare SDK v2, p99',
          `${many} × bare SDK v2`,
          'one × bare SDK v1, p50 [each run] ±spread',
        ],
        rows: names.map((n) => [
          label[n],
          formatTime(mid(runs[`${n}:1`]), 'ms'),
          formatTime(mid(runs[`${n}:1`], 'p99'), 'ms'),
          formatTime(mid(runs[`${n}:${many}`]), 'ms'),
          formatRatios(scaling[n]),
          n === 'bare' ? '1 (reference)' : formatRatios(ratio(`${n}:1`, 'bare:1')),
          n === 'bare' ? '1 (reference)' : formatRatios(ratio(`${n}:1`, 'bare:1', 'p99')),
          n === 'bare' ? '1 (reference)' : formatRatios(ratio(`${n}:${many}`, `bare:${many}`)),
          n === 'bareV1' ? '1 (reference)' : formatRatios(ratio(`${n}:1`, 'bareV1:1')),
        ]),
      },
      goals: [
        goal('first start of one stdio server seen before, host ≤ 1.1× bare SDK (p50)', ratio('host:1', 'bare:1'), 1.1, options),
        {
          goal: 'first-ever start of one stdio server (era probed), host × bare SDK (no goal; reported)',
          measured: `${formatRatios(ratio('hostFirst:1', 'bare:1'))} (bare SDK, auto: ${formatRatios(ratio('bareAuto:1', 'bare:1'))})`,
        },
        {
          goal: 'first start of one stdio server seen before, host × bare SDK v1 (no goal set; reported)',
          measured: formatRatios(ratio('host:1', 'bareV1:1')),
        },
        {
          goal: `${many} servers at once ÷ one: host vs bare SDK (no goal set; reported)`,
          measured: `host ${formatRatios(scaling.host)}, bare SDK ${formatRatios(scaling.bare)}`,
        },
      ],
      notes: [
        'The host start includes what the extension does before `initialize` (PATH resolution, the login shell PATH, cached after the first start) and logging/setLevel after it; the lists it then fetches run in the background and are not waited for.',
        `One-server p99 is the slowest of ${iterations * oneRepeats} starts per run. A first-ever host start is measured with the era verdicts cleared before it (untimed); the ${many} servers share one launch, so they share one verdict.`,
      ],
      data: { runs, scaling, oneRepeats },
    };
  },
};
