/**
 * `npm run bench`: what the extension adds to MCP over the bare SDK it ships, and the floor
 * (a raw client), scenario by scenario (test/bench/scenarios/*). Prints Markdown tables and
 * writes the numbers with the machine they ran on to bench/results.json (the tables to
 * bench/results.md).
 *
 *   npm run bench                      full counts, 3 runs of each scenario
 *   npm run bench -- --smoke           small counts, for CI: never judged, fails only on a crash
 *   npm run bench -- --only=stdio,http --runs=5 --out=/tmp/r.json
 *
 * A script, not a test: numbers never fail it. Fairness rules: test/bench/stats.ts.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BARE_SDK_PACKAGE, BARE_SDK_V1_PACKAGE } from './bareClient';
import { BUNDLE, deactivateExtension, REPO } from './host';
import type { GoalResult, Scenario, ScenarioResult } from './scenario';

const SCENARIOS = ['stdio', 'http', 'lists', 'biglist', 'servers', 'flood', 'inspector', 'scroll', 'activation'] as const;
const MODULES: Record<(typeof SCENARIOS)[number], string> = {
  stdio: './scenarios/toolCallStdio',
  http: './scenarios/toolCallHttp',
  lists: './scenarios/lists',
  biglist: './scenarios/bigList',
  servers: './scenarios/manyServers',
  flood: './scenarios/flood',
  inspector: './scenarios/inspectorFlood',
  scroll: './scenarios/inspectorScroll',
  activation: './scenarios/activation',
};

function arg(name: string): string | undefined {
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

function markdownTable(header: string[], rows: string[][]): string {
  const esc = (cell: string) => cell.replace(/\|/g, '\\|');
  return [`| ${header.map(esc).join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`)].join('\n');
}

function verdict(goal: GoalResult): string {
  if (goal.inconclusive) return `inconclusive: ${goal.inconclusive}`;
  return goal.met === undefined ? '—' : goal.met ? 'met' : 'MISSED';
}

function packageVersion(name: string): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(REPO, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'not installed';
  }
}

async function main(): Promise<void> {
  const smoke = process.argv.includes('--smoke');
  const runs = Number(arg('runs') ?? (smoke ? 1 : 3));
  const only = arg('only')?.split(',');
  const unknown = only?.filter((s) => !(SCENARIOS as readonly string[]).includes(s));
  if (unknown?.length) throw new Error(`unknown scenario ${unknown.join(', ')}; known: ${SCENARIOS.join(', ')}`);
  const out = path.resolve(REPO, arg('out') ?? (smoke ? 'bench/results.smoke.json' : 'bench/results.json'));
  if (!fs.existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: run \`npm run build\` first (npm run bench does)`);

  // The comparison is only honest against the SDK the extension ships.
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  const shipped = Object.keys(pkg.dependencies ?? {}).filter((d) => d.startsWith('@modelcontextprotocol/'));
  const sdkWarning = shipped.includes(BARE_SDK_PACKAGE) ? undefined
    : `WARNING: the bare contestant runs on ${BARE_SDK_PACKAGE}, but the extension ships ${shipped.join(', ') || 'no MCP SDK'}: edit test/bench/bareClient.ts`;

  const cpus = os.cpus();
  const machine = {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGb: Math.round(os.totalmem() / 1024 ** 3),
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    loadAverageAtStart: os.loadavg().map((l) => Number(l.toFixed(2))),
    loadAverageAtEnd: [] as number[],
  };
  const started = new Date();
  const log = (line: string) => process.stderr.write(`${line}\n`);
  log(`bench ${smoke ? '(smoke) ' : ''}on ${machine.cpu} × ${machine.cores}, Node ${machine.node}, load ${machine.loadAverageAtStart.join(' ')}; ${runs} run(s) per scenario`);
  if (sdkWarning) log(sdkWarning);

  const results: ScenarioResult[] = [];
  const failed: string[] = [];
  for (const id of SCENARIOS) {
    if (only && !only.includes(id)) continue;
    log(`${id}…`);
    const t = Date.now();
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { scenario } = require(MODULES[id]) as { scenario: Scenario };
    try {
      results.push(await scenario.run({ smoke, runs, log }));
    } catch (error) {
      // One scenario failing (e.g. servers timing out on an overloaded machine) must not throw
      // away the others: it is reported as failed, and the process exits 1 at the end.
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      failed.push(id);
      log(`  ${id} FAILED: ${message}`);
      results.push({ id, title: `${id}: FAILED`, params: {}, table: { header: ['error'], rows: [[message.slice(0, 2000)]] }, goals: [{ goal: `the ${id} scenario completes`, measured: message.slice(0, 300), met: false }], notes: [], data: { error: message } });
    }
    log(`  ${id} took ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  await deactivateExtension();
  machine.loadAverageAtEnd = os.loadavg().map((l) => Number(l.toFixed(2)));

  const lines: string[] = [];
  lines.push(`MCP Workbench bench${smoke ? ' (SMOKE: small counts, not judged)' : ''}, ${started.toISOString()}`);
  lines.push(`Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGb} GB, ${machine.platform}, Node ${machine.node}; load average ${machine.loadAverageAtStart.join(' ')} at start, ${machine.loadAverageAtEnd.join(' ')} at end.`);
  lines.push(`Contestants: host = the extension's production code (dist/extension.js activated under a stub \`vscode\`, Activity recording on); bare SDK = ${BARE_SDK_PACKAGE} ${packageVersion(BARE_SDK_PACKAGE)}, and in the tool call tables also bare SDK v1 = ${BARE_SDK_V1_PACKAGE} ${packageVersion(BARE_SDK_V1_PACKAGE)} (test/bench/bareClient.ts); raw = newline JSON / fetch, the floor. Ratios: median of runs [each run] ±half the spread.`);
  if (sdkWarning) lines.push(sdkWarning);
  for (const r of results) {
    lines.push('', `### ${r.title}`, '', markdownTable(r.table.header, r.table.rows));
    for (const note of r.notes) lines.push('', note);
  }
  const goals = results.flatMap((r) => r.goals);
  lines.push('', '### Goals (issue 16)', '', markdownTable(['goal', 'measured', smoke ? 'verdict (smoke: not judged)' : 'verdict'], goals.map((g) => [g.goal, g.context ? `${g.measured} (${g.context})` : g.measured, verdict(g)])));
  process.stdout.write(`${lines.join('\n')}\n`);

  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify({
    date: started.toISOString(),
    mode: smoke ? 'smoke' : 'full',
    runs,
    machine,
    contestants: { bareSdk: `${BARE_SDK_PACKAGE} ${packageVersion(BARE_SDK_PACKAGE)}`, bareSdkV1: `${BARE_SDK_V1_PACKAGE} ${packageVersion(BARE_SDK_V1_PACKAGE)}`, shippedSdk: shipped.map((d) => `${d} ${pkg.dependencies![d]}`), sdkWarning },
    goals,
    scenarios: results,
  }, null, 2)}\n`);
  // The same tables as Markdown beside it, for docs/performance.md.
  const markdown = out.replace(/\.json$/, '') + '.md';
  fs.writeFileSync(markdown, `${lines.join('\n')}\n`);
  log(`wrote ${path.relative(REPO, out)} and ${path.relative(REPO, markdown)}`);
  if (failed.length) throw new Error(`scenario(s) failed: ${failed.join(', ')}`);
}

main().then(() => process.exit(0), (error: unknown) => {
  console.error(error);
  process.exit(1);
});
