/**
 * The Inspector under a flood (issue 29): one tools/call whose server sends 2,000
 * notifications/message, with the Inspector panel's host side subscribed and posting to its page
 * vs. the same extension with the panel closed vs. the bare SDK. Each run is a fresh process
 * (inspectorFloodChild.ts) in which the three take turns in rotating order; the ratios are per
 * run, panel / closed and closed / bare SDK, with their spread. Then the closed extension and the
 * bare SDK again, each alone in a process of its own (the two in turns, the first alternating from
 * run to run): sharing one process moved their ratio from 1.2 to 1.7 between two builds whose
 * host did the same work per call (docs/performance.md). Then the page's own work on the
 * messages of one flood, in Chromium (inspectorPage.ts).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { goal, runNodeJson, type BenchOptions, type Scenario, type ScenarioResult } from '../scenario';
import { formatRatios, formatTime, median, type Summary } from '../stats';
import { chromiumAvailable, measurePage, type PageResult } from '../inspectorPage';

interface ChildResult {
  count: number;
  bare: Summary;
  closed: Summary;
  panel: Summary;
  settled: Summary;
  messages: Summary;
  bytes: Summary;
  activityEntries: number;
}

interface AloneResult {
  alone: 'bare' | 'closed';
  samples: Summary;
}

const CHILD = path.join(__dirname, 'inspectorFloodChild.js');
const COUNT = 2000;

export const scenario: Scenario = {
  id: 'inspector',
  async run(options: BenchOptions): Promise<ScenarioResult> {
    const iterations = options.smoke ? 2 : 15;
    const warmup = options.smoke ? 1 : 2;
    const results: ChildResult[] = [];
    const apart: { bare: Summary; closed: Summary }[] = [];
    const recordFile = path.join(os.tmpdir(), `mcpwb-bench-inspector-${process.pid}.json`);
    let page: PageResult | undefined;
    let pageNote = `page not measured: no Chromium at ${process.env.MCPWB_CHROMIUM || '/usr/bin/chromium'} (set MCPWB_CHROMIUM)`;
    try {
      for (let run = 0; run < options.runs; run++) {
        const last = run === options.runs - 1;
        const r = await runNodeJson<ChildResult>(CHILD, [String(COUNT), String(iterations), String(warmup), ...(last ? [recordFile] : [])]);
        results.push(r);
        options.log(
          `  inspector run ${run + 1}: bare ${r.bare.p50.toFixed(0)} ms, closed ${r.closed.p50.toFixed(0)} ms, panel ${r.panel.p50.toFixed(0)} ms (settled ${r.settled.p50.toFixed(0)} ms), ${r.messages.p50} messages, ${(r.bytes.p50 / 1024).toFixed(0)} KB per flood`,
        );
      }
      for (let run = 0; run < options.runs; run++) {
        const order = run % 2 === 0 ? (['bare', 'closed'] as const) : (['closed', 'bare'] as const);
        const pair: Partial<Record<'bare' | 'closed', Summary>> = {};
        for (const alone of order) pair[alone] = (await runNodeJson<AloneResult>(CHILD, [String(COUNT), String(iterations), String(warmup), `--alone=${alone}`])).samples;
        apart.push({ bare: pair.bare!, closed: pair.closed! });
        options.log(`  inspector run ${run + 1}, each alone: bare ${pair.bare!.p50.toFixed(0)} ms, closed ${pair.closed!.p50.toFixed(0)} ms`);
      }
      if (chromiumAvailable() && fs.existsSync(recordFile)) {
        page = await measurePage(JSON.parse(fs.readFileSync(recordFile, 'utf8')) as Parameters<typeof measurePage>[0]);
        pageNote = `The page (dist/webview/inspector.js in headless Chromium), fed the ${page.messages} messages of the last panel flood one per frame: ${page.totalMs.toFixed(0)} ms of script, style and layout in all, the slowest message ${page.maxMs.toFixed(1)} ms; ${page.rowElements} row elements at the end.`;
      }
    } finally {
      fs.rmSync(recordFile, { force: true });
    }
    const per = (pick: (r: ChildResult) => number) => results.map(pick);
    const panelP50 = per((r) => r.panel.p50 / r.closed.p50);
    const panelP99 = per((r) => r.panel.p99 / r.closed.p99);
    const settledP50 = per((r) => r.settled.p50 / r.closed.p50);
    const closedP50 = per((r) => r.closed.p50 / r.bare.p50);
    const closedP99 = per((r) => r.closed.p99 / r.bare.p99);
    const apartP50 = apart.map((r) => r.closed.p50 / r.bare.p50);
    const apartP99 = apart.map((r) => r.closed.p99 / r.bare.p99);
    const apartMs = (pick: (r: { bare: Summary; closed: Summary }) => number) => formatTime(median(apart.map(pick)), 'ms');
    const ms = (pick: (r: ChildResult) => number) => formatTime(median(per(pick)), 'ms');
    const dash = '—';
    return {
      id: 'inspector',
      title: `One tools/call with ${COUNT} notifications/message (stdio), Inspector panel visible vs. closed vs. bare SDK, ${options.runs} run(s) × ${iterations} calls each`,
      params: { count: COUNT, iterations, warmup, runs: options.runs },
      table: {
        header: [
          'contestant',
          'p50',
          'p99',
          'p50 × panel closed [each run] ±spread',
          'p99 × panel closed [each run] ±spread',
          'p50 × bare SDK [each run] ±spread',
          'messages to the page per call (p50)',
          'bytes to the page per call (p50)',
        ],
        rows: [
          ['bare SDK', ms((r) => r.bare.p50), ms((r) => r.bare.p99), dash, dash, '1 (reference)', dash, dash],
          ['host, Inspector closed (recording on)', ms((r) => r.closed.p50), ms((r) => r.closed.p99), '1 (reference)', '1 (reference)', formatRatios(closedP50), dash, dash],
          [
            'host, Inspector panel visible (host side subscribed)',
            ms((r) => r.panel.p50),
            ms((r) => r.panel.p99),
            formatRatios(panelP50),
            formatRatios(panelP99),
            formatRatios(per((r) => r.panel.p50 / r.bare.p50)),
            `${median(per((r) => r.messages.p50))} (fewest ${Math.min(...per((r) => r.messages.min))}, most ${Math.max(...per((r) => r.messages.max))})`,
            `${(median(per((r) => r.bytes.p50)) / 1024).toFixed(0)} KB`,
          ],
          ['bare SDK, alone in its process', apartMs((r) => r.bare.p50), apartMs((r) => r.bare.p99), dash, dash, '1 (reference, alone)', dash, dash],
          ['host, Inspector closed, alone in its process', apartMs((r) => r.closed.p50), apartMs((r) => r.closed.p99), dash, dash, formatRatios(apartP50), dash, dash],
          [
            'host, panel visible, until the call\u2019s finished row was posted',
            ms((r) => r.settled.p50),
            ms((r) => r.settled.p99),
            formatRatios(settledP50),
            dash,
            dash,
            dash,
            dash,
          ],
        ],
      },
      goals: [
        { ...goal('inspector: a flood of 2,000 notifications with the panel visible ≤ 1.2× the panel closed (p50)', panelP50, 1.2, options), context: `p99 ${formatRatios(panelP99)}` },
        { goal: 'inspector: the panel closed, same flood, × bare SDK (no goal, reported)', measured: `p50 ${formatRatios(closedP50)}, p99 ${formatRatios(closedP99)}` },
        {
          goal: 'inspector: the panel closed × bare SDK, each alone in its own process (no goal, reported)',
          measured: `p50 ${formatRatios(apartP50)}, p99 ${formatRatios(apartP99)}`,
        },
      ],
      notes: [
        'A sample is the tools/call\u2019s wall time; "until posted" runs on until the host has sent the page the call\u2019s row with its result. The panel\u2019s view is resolved with a fake webview whose postMessage serializes each message to JSON (what VS Code does with it) and counts it; the view is opened before and disposed after each of its calls, so the closed contestant never has one. Each run is a fresh process; the bare SDK shares it (stats.ts: shared heap flatters the host, never the reverse).',
        pageNote,
      ],
      data: { runs: results, apart, page },
    };
  },
};
