/**
 * The flood: one server sends many notifications at once. Each contestant runs in its own
 * fresh process (floodChild.ts), in rotating order per run (stats.ts, rules 1–4), and reports
 * the memory the flood cost it, whether every notification arrived, and how calls made during
 * the flood (to the flooding server, and to a quiet second server) compare with the same calls
 * when idle. Ratios here are to the contestant's own idle calls, not to the bare SDK.
 */
import * as path from 'node:path';
import { goal, runNodeJson, type BenchOptions, type Scenario, type ScenarioResult } from '../scenario';
import { formatRatios, formatTime, median, rotation, type Summary } from '../stats';

interface ChildResult {
  kind: string;
  count: number;
  received: number;
  floodMs: number;
  idleSame: Summary;
  idleOther: Summary;
  same: Summary;
  other: Summary;
  peakRssGrowthMb: number;
  peakHeapGrowthMb: number;
  retainedHeapMb: number;
  activityEntries?: number;
}

const CHILD = path.join(__dirname, 'floodChild.js');

export const scenario: Scenario = {
  id: 'flood',
  async run(options: BenchOptions): Promise<ScenarioResult> {
    const count = options.smoke ? 2000 : 100_000;
    const idleCalls = options.smoke ? 50 : 300;
    const names = ['raw', 'bare', 'host'];
    const results: Record<string, ChildResult[]> = { raw: [], bare: [], host: [] };
    for (let run = 0; run < options.runs; run++) {
      for (const name of rotation(names, run)) {
        const r = await runNodeJson<ChildResult>(CHILD, [name, String(count), String(idleCalls)], ['--expose-gc']);
        if (r.received !== count) throw new Error(`${name} received ${r.received} of ${count} notifications`);
        results[name].push(r);
      }
      options.log(`  flood run ${run + 1}: ${names.map((n) => {
        const r = results[n][run];
        return `${n} ${r.floodMs.toFixed(0)} ms, same server ×idle ${(r.same.p50 / r.idleSame.p50).toFixed(1)}, other ×idle ${(r.other.p50 / r.idleOther.p50).toFixed(1)}, peak heap +${r.peakHeapGrowthMb.toFixed(0)} MB`;
      }).join('; ')}`);
    }
    const label: Record<string, string> = { raw: 'raw pipe (floor)', bare: 'bare SDK', host: 'host (shipped, recording on)' };
    const mb = (xs: number[]) => `${median(xs).toFixed(1)} MB [${xs.map((x) => x.toFixed(1)).join(' ')}]`;
    const sameRatio = (name: string) => results[name].map((r) => r.same.p50 / r.idleSame.p50);
    const otherRatio = (name: string) => results[name].map((r) => r.other.p50 / r.idleOther.p50);
    const hostRetained = results.host.map((r) => r.retainedHeapMb);
    const entries = results.host.map((r) => r.activityEntries ?? NaN);
    return {
      id: 'flood',
      title: `${count} notifications/message from one stdio server, each contestant in a fresh process, ${options.runs} run(s)`,
      params: { count, idleCalls, runs: options.runs },
      table: {
        header: ['contestant', 'flood time (× bare SDK [each run])', 'call to flooding server: idle p50 → during p50 (× idle [each run])', 'call to quiet server: idle p50 → during p50 (× idle [each run])', 'peak heap growth', 'peak RSS growth', 'heap retained after GC'],
        rows: names.map((n) => {
          const rs = results[n];
          const m = (pick: (r: ChildResult) => number) => median(rs.map(pick));
          return [
            label[n],
            `${formatTime(m((r) => r.floodMs), 'ms')}${n === 'bare' ? '' : ` (${formatRatios(rs.map((r, i) => r.floodMs / results.bare[i].floodMs))})`}`,
            `${formatTime(m((r) => r.idleSame.p50), 'µs')} → ${formatTime(m((r) => r.same.p50), 'µs')} (${formatRatios(sameRatio(n))})`,
            `${formatTime(m((r) => r.idleOther.p50), 'µs')} → ${formatTime(m((r) => r.other.p50), 'µs')} (${formatRatios(otherRatio(n))})`,
            mb(rs.map((r) => r.peakHeapGrowthMb)),
            mb(rs.map((r) => r.peakRssGrowthMb)),
            mb(rs.map((r) => r.retainedHeapMb)),
          ];
        }),
      },
      goals: [
        // Judged on the quiet server: a call to the flooding server waits behind the notifications
        // already in its pipe, so even the raw floor is many times its idle time there.
        {
          ...goal('flood: a concurrent call ≤ 2× idle (host p50, call to another server)', otherRatio('host'), 2, options),
          // The reference points: when they are far above the limit too, the flood saturates any SDK client.
          context: `raw floor ${formatRatios(otherRatio('raw'))}, bare SDK ${formatRatios(otherRatio('bare'))}`,
        },
        { goal: 'flood: a concurrent call to the flooding server itself (host p50; no goal, reported)', measured: `${formatRatios(sameRatio('host'))} × idle (raw floor ${formatRatios(sameRatio('raw'))}, bare SDK ${formatRatios(sameRatio('bare'))})` },
        {
          goal: 'flood: memory bounded (host heap retained after GC)',
          measured: `${mb(hostRetained)} after ${count} notifications; Activity log holds ${median(entries)} entries`,
          // Bounded means what stays does not grow with the flood: the Activity log keeps at most
          // mcpWorkbench.activity.maxEntries (default 1000) entries. 25 MB is far above what they hold.
          met: options.smoke ? undefined : median(hostRetained) < 25,
        },
      ],
      notes: ['Flood time is how long the contestant took to take in every notification (the server waits for the pipe to drain), so its ratio to the bare SDK is the per-notification cost. Memory is sampled every 5 ms in the contestant\'s process. The host\'s server log goes to the stub\'s output channel (lines counted, not kept).'],
      data: results,
    };
  },
};
