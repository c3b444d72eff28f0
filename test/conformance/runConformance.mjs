#!/usr/bin/env node
// Runs the official MCP conformance suite (@modelcontextprotocol/conformance) against our
// client: test/conformance/client.ts (bundled to out/test/conformance/client.js), which
// drives the extension's McpServerConnection.
//
//   npm run conformance                          every client scenario, at every spec version
//                                                it is listed for
//   npm run conformance -- sse-retry auth/dpop   only the named scenarios (all their versions)
//   npm run conformance -- --spec 2026-07-28     only that version ("leg"); repeat or give a
//                                                comma list; "extension" is the leg of the
//                                                off-timeline extension scenarios
//   npm run conformance -- --docs                also write the results table into
//                                                docs/conformance.md (between its conformance-table
//                                                markers; only after a full run). --readme is the
//                                                old name of the same option (the table left the
//                                                README for docs/conformance.md).
//
// Legs. The suite tags each client scenario with the spec versions it applies to, e.g.
// `tools_call [2025-06-18,2025-11-25,2026-07-28]`, or [extension]. Each tagged version is one
// run with `--spec-version <version>`: the suite's test server then speaks that version's wire
// (stateful initialize handshake up to 2025-11-25, stateless per-request _meta from
// 2026-07-28) and the scenario emits that version's checks. Extension scenarios are off the
// spec timeline (`--spec-version` skips them), so they run once without it, at the suite's
// default wire (2025-11-25).
//
// Runs under the system Node 20; the suite needs Node >= 22, so it is installed with its own
// Node 22 binary by scripts/install-conformance.sh (idempotent) and spawned with that binary.
// For each run the suite starts a test server and runs
//   node out/test/conformance/client.js <server-url>
// with MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_PROTOCOL_VERSION and, for some scenarios,
// MCP_CONFORMANCE_CONTEXT in the environment.
// Runs go one after another, each with a time limit; the suite's exit code is the verdict, except
// that a run whose every check was SKIPPED fails (it passed vacuously: nothing was checked).
//
// Baseline: test/conformance/baseline.json maps a leg to the scenarios expected to fail on
// it, each with its reason: { "2026-07-28": { "request-metadata": "why" }, ... }. Exit code 1
// when a run outside the baseline fails (regression), or a baseline entry is stale: its run
// passed, or the suite has no such scenario on that leg.
//
// Output: one line per scenario on stdout (its verdict over all its legs), one line per run
// on stderr, then `conformance: N passed, M failed` (scenarios: a scenario passes when every
// leg passes). test-results/conformance.md gets the table of results by spec version; the
// suite's output of each run goes to test-results/conformance/<scenario>@<leg>.log, its
// checks/stdout/stderr files to test-results/conformance/results/<leg>/.
//
// Environment: MCPWB_CONFORMANCE_DIR (install folder), MCPWB_CONFORMANCE_SPEC (legs, like
// --spec), MCPWB_CONFORMANCE_TIMEOUT_MS (client time limit per run, default 30000; the whole
// run gets 30 s more), MCPWB_CONFORMANCE_BASELINE (another baseline file, for testing this
// script), MCPWB_CONFORMANCE_CLIENT (another client command, run from the repository root and
// split on spaces by the suite: to compare our client with another one; use it with its own
// baseline).
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLIENT_BUNDLE = join(ROOT, 'out', 'test', 'conformance', 'client.js');
const BASELINE = process.env.MCPWB_CONFORMANCE_BASELINE ? resolve(process.env.MCPWB_CONFORMANCE_BASELINE) : join(ROOT, 'test', 'conformance', 'baseline.json');
const RESULTS = join(ROOT, 'test-results', 'conformance');
const TABLE = join(ROOT, 'test-results', 'conformance.md');
const DOC = join(ROOT, 'docs', 'conformance.md');
// Relative to ROOT (the suite's cwd): the suite splits the command on spaces.
const CLIENT_COMMAND = process.env.MCPWB_CONFORMANCE_CLIENT || 'node out/test/conformance/client.js';
const CLIENT_TIMEOUT_MS = Number(process.env.MCPWB_CONFORMANCE_TIMEOUT_MS || 30000);
const RUN_TIMEOUT_MS = CLIENT_TIMEOUT_MS + 30000;
const EXTENSION = 'extension';

const note = (message) => console.error(`[conformance] ${message}`);
const rel = (path) => (path === ROOT ? '.' : path.startsWith(`${ROOT}/`) ? relative(ROOT, path) : path);

// 0. Arguments.
const wanted = [];
const legFilter = new Set(
  (process.env.MCPWB_CONFORMANCE_SPEC || '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
let writeDoc = false;
for (let i = 2; i < process.argv.length; i++) {
  const arg = process.argv[i];
  if (arg === '--spec') {
    for (const leg of (process.argv[++i] ?? '').split(',')) if (leg.trim()) legFilter.add(leg.trim());
  } else if (arg.startsWith('--spec=')) {
    for (const leg of arg.slice('--spec='.length).split(',')) if (leg.trim()) legFilter.add(leg.trim());
  } else if (arg === '--docs' || arg === '--readme') {
    writeDoc = true;
  } else if (arg.startsWith('-')) {
    note(`unknown option ${arg}; usage: runConformance.mjs [--spec VERSION[,VERSION]] [--docs] [scenario ...]`);
    process.exit(2);
  } else {
    wanted.push(arg);
  }
}

// 1. The suite and its Node 22 (a marker makes this a no-op after the first install).
const install = spawnSync('bash', [join(ROOT, 'scripts', 'install-conformance.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
if (install.status !== 0) {
  note('scripts/install-conformance.sh failed');
  process.exit(1);
}
const DIR = install.stdout.trim().split('\n').pop();
const NODE22 = join(DIR, 'node_modules', 'node', 'bin', 'node');
const CLI = join(DIR, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const version = JSON.parse(readFileSync(join(DIR, 'node_modules', '@modelcontextprotocol', 'conformance', 'package.json'), 'utf8')).version;

// 2. The client bundle.
if (!process.env.MCPWB_CONFORMANCE_CLIENT && !existsSync(CLIENT_BUNDLE)) {
  note('out/test/conformance/client.js is missing: npm run build');
  const build = spawnSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0 || !existsSync(CLIENT_BUNDLE)) {
    note('build failed');
    process.exit(1);
  }
}

// 3. The scenarios and their legs, as the CLI lists them:
//      Client scenarios (test against a client):
//        - tools_call [2025-06-18,2025-11-25,2026-07-28]
//        - auth/dpop [extension]
function cli(args) {
  const result = spawnSync(NODE22, [CLI, ...args], { encoding: 'utf8' });
  if (result.status !== 0) {
    note(`conformance ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
    process.exit(1);
  }
  return result.stdout;
}
/** Scenario → its legs (spec versions, or "extension"), in the suite's order. */
const catalog = new Map(
  [...cli(['list', '--client']).matchAll(/^\s+- (\S+) \[([^\]]*)\]/gm)].map((m) => [
    m[1],
    m[2]
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  ]),
);
if (catalog.size === 0) {
  note('the CLI listed no client scenarios');
  process.exit(1);
}
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const allLegs = [...new Set([...catalog.values()].flat())].sort((a, b) => (a === EXTENSION) - (b === EXTENSION) || a.localeCompare(b));
for (const leg of legFilter) {
  if (!allLegs.includes(leg)) {
    note(`unknown leg "${leg}"; the suite's: ${allLegs.join(', ')}`);
    process.exit(2);
  }
}
for (const name of wanted) {
  if (!catalog.has(name)) {
    note(`unknown scenario "${name}"; known: ${[...catalog.keys()].join(', ')}`);
    process.exit(2);
  }
}

/** Revision → the client scenarios its frozen requirement set scores, and why it runs others
 * without scoring them ("extension", "added-after-release"), for the table. */
const required = new Map();
const notScored = new Map(); // scenario → Set of reasons
const revisions =
  /Requirement sets available: ([0-9, -]+)/
    .exec(cli(['list', '--help']).replace(/\s+/g, ' '))?.[1]
    .split(',')
    .map((s) => s.trim())
    .filter((s) => DATE.test(s)) ?? [];
for (const revision of revisions) {
  const text = cli(['list', '--client', '--requirements', revision]);
  const section = /Client scenarios \(test against a client\):\n((?:\s+- \S+\n?)*)/.exec(text)?.[1] ?? '';
  required.set(revision, new Set([...section.matchAll(/- (\S+)/g)].map((m) => m[1])));
  //   Run and reported, but never scored:
  //     extension (6):
  //       - auth/dpop [client]
  const unscored = text.split(/^Run and reported, but never scored:$/m)[1] ?? '';
  let reason;
  for (const line of unscored.split('\n')) {
    const heading = /^\s+(\S+) \(\d+\):$/.exec(line);
    const entry = /^\s+- (\S+) \[client\]$/.exec(line);
    if (heading) reason = heading[1];
    else if (entry && reason) notScored.set(entry[1], new Set([...(notScored.get(entry[1]) ?? []), reason.replace(/-/g, ' ')]));
  }
}

const runs = [];
for (const [name, legs] of catalog) {
  if (wanted.length && !wanted.includes(name)) continue;
  for (const leg of legs) if (!legFilter.size || legFilter.has(leg)) runs.push({ name, leg });
}
if (runs.length === 0) {
  note('nothing to run for that selection');
  process.exit(2);
}
const fullRun = wanted.length === 0 && legFilter.size === 0;

// 4. The baseline: { leg: { scenario: reason } }.
const baseline = JSON.parse(readFileSync(BASELINE, 'utf8'));
const problems = [];
for (const [leg, entries] of Object.entries(baseline)) {
  if (leg.startsWith('$')) continue; // "$comment"
  for (const name of Object.keys(entries)) {
    if (!catalog.get(name)?.includes(leg)) problems.push(`stale baseline entry ${name} @ ${leg}: the suite has no such scenario on that leg`);
  }
}
const expectedReason = (name, leg) => (leg.startsWith('$') ? undefined : baseline[leg]?.[name]);

rmSync(RESULTS, { recursive: true, force: true });
mkdirSync(RESULTS, { recursive: true });

// 5. One run: the suite's exit code is the verdict (it fails on a failed check, a warning, a
// client timeout, or a client exit code other than 0 where the scenario needs 0).
let current;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (current) killGroup(current);
    process.exit(130);
  });
}

function killGroup(child) {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

const ANSI = /\x1b\[[0-9;]*m/g;

function runOne({ name, leg }) {
  const logFile = join(RESULTS, `${name.replace(/\//g, '__')}@${leg}.log`);
  const args = [
    CLI,
    'client',
    '--command',
    CLIENT_COMMAND,
    '--scenario',
    name,
    '--timeout',
    String(CLIENT_TIMEOUT_MS),
    '--output-dir',
    join(RESULTS, 'results', leg),
  ];
  if (leg !== EXTENSION) args.push('--spec-version', leg);
  const log = createWriteStream(logFile);
  log.write(`$ ${NODE22} ${args.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ')}\n\n`);
  const started = Date.now();
  return new Promise((done) => {
    // Own process group, so a time-out also ends the client the suite started.
    const child = spawn(NODE22, args, {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    current = child;
    let output = '';
    const collect = (chunk) => {
      const text = String(chunk).replace(ANSI, '');
      output += text;
      log.write(text);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, RUN_TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      current = undefined;
      killGroup(child); // leftovers (a client that outlived the suite)
      const ms = Date.now() - started;
      // The suite exits 0 for a scenario it finds inapplicable at that version: not a pass.
      const skipped = /^SKIPPED: scenario/m.test(output);
      // A run whose every check was SKIPPED proved nothing (the client never did what the
      // scenario checks, e.g. never called skills/list): not a pass either.
      const vacuous = !skipped && savedChecks(output)?.every((c) => c.status === 'SKIPPED') === true;
      const footer = timedOut ? `\n[runConformance] killed after ${RUN_TIMEOUT_MS} ms\n` : `\n[runConformance] exit ${code ?? signal} after ${ms} ms\n`;
      log.end(footer, () => done({ name, leg, passed: code === 0 && !timedOut && !skipped && !vacuous, skipped, vacuous, timedOut, ms, output, logFile }));
    });
  });
}

/** The checks.json the suite saved for a run, if it saved one with at least one check. */
function savedChecks(output) {
  const saved = /Results saved to (.+)$/m.exec(output);
  try {
    const checks = saved ? JSON.parse(readFileSync(join(saved[1].trim(), 'checks.json'), 'utf8')) : undefined;
    return Array.isArray(checks) && checks.length ? checks : undefined;
  } catch {
    return undefined;
  }
}

/** Check counts and the ids of failed checks, from the checks.json the suite saved. */
function summarize(result) {
  const parts = [];
  const checks = savedChecks(result.output);
  if (result.vacuous) parts.push('every check SKIPPED: the client never did what the scenario checks');
  if (result.skipped) {
    parts.push('the suite skipped it (not applicable at that version)');
  } else if (checks) {
    const scored = checks.filter((c) => c.status === 'SUCCESS' || c.status === 'FAILURE');
    const bad = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
    parts.push(`checks ${scored.filter((c) => c.status === 'SUCCESS').length}/${scored.length}`);
    if (bad.length) parts.push(`failed: ${[...new Set(bad.map((c) => `${c.id}${c.status === 'WARNING' ? ' (warning)' : ''}`))].join(', ')}`);
  } else {
    parts.push('no checks.json');
  }
  if (result.timedOut) parts.push(`killed after ${RUN_TIMEOUT_MS} ms`);
  if (/Client timed out/.test(result.output)) parts.push('client timed out');
  // A client exit code other than 0 is part of some scenarios (the client must give up on a
  // bad server); printed bare beside "pass" it read as a failure, so say that it was expected.
  const exit = /Client exited with code (-?\d+)/.exec(result.output);
  if (exit) parts.push(result.passed ? `client exited ${exit[1]}, as this scenario allows` : `client exit ${exit[1]}`);
  return parts.join('; ');
}

note(`@modelcontextprotocol/conformance ${version} on Node ${spawnSync(NODE22, ['--version'], { encoding: 'utf8' }).stdout.trim()} (${DIR})`);
note(
  `${runs.length} run(s) of ${new Set(runs.map((r) => r.name)).size} client scenario(s) on legs ${[...new Set(runs.map((r) => r.leg))].join(', ')}; client command: ${CLIENT_COMMAND} <server-url>`,
);

// 6. Run scenario by scenario, each at its legs.
const startedAll = Date.now();
const results = new Map(); // name → [{ leg, passed, expected }]
const byName = Map.groupBy ? Map.groupBy(runs, (r) => r.name) : runs.reduce((m, r) => m.set(r.name, [...(m.get(r.name) ?? []), r]), new Map());
let passed = 0;
let failed = 0;
let runsPassed = 0;
let runsExpected = 0;
for (const [name, legRuns] of byName) {
  const outcomes = [];
  let ms = 0;
  for (const run of legRuns) {
    const result = await runOne(run);
    ms += result.ms;
    const reason = expectedReason(name, run.leg);
    const summary = summarize(result);
    const seconds = `${(result.ms / 1000).toFixed(1)} s`;
    if (result.passed) {
      runsPassed++;
      note(`  ${name} @ ${run.leg}: pass (${seconds}) ${summary}`);
      if (reason !== undefined) problems.push(`${name} @ ${run.leg} now passes: remove it from ${rel(BASELINE)}`);
    } else {
      if (reason !== undefined) runsExpected++;
      else problems.push(`${name} @ ${run.leg} failed: see ${rel(result.logFile)}`);
      note(`  ${name} @ ${run.leg}: ${reason !== undefined ? 'expected failure' : 'FAIL'} (${seconds}) ${summary} -- ${rel(result.logFile)}`);
    }
    const checks = savedChecks(result.output) ?? [];
    outcomes.push({
      leg: run.leg,
      passed: result.passed,
      expected: reason !== undefined,
      reason,
      checksPassed: checks.filter((c) => c.status === 'SUCCESS').length,
      checksScored: checks.filter((c) => c.status === 'SUCCESS' || c.status === 'FAILURE').length,
    });
  }
  results.set(name, outcomes);
  const ok = outcomes.every((o) => o.passed);
  const unexpected = outcomes.some((o) => !o.passed && !o.expected) || outcomes.some((o) => o.passed && o.expected);
  if (ok) passed++;
  else failed++;
  const verdict = ok ? (unexpected ? 'PASS (stale)' : 'PASS') : unexpected ? 'FAIL' : 'EXPECTED-FAIL';
  const legs = outcomes.map((o) => `${o.leg} ${o.passed ? 'pass' : o.expected ? 'fail (expected)' : 'FAIL'}`).join(', ');
  const reasons = [...new Set(outcomes.filter((o) => !o.passed && o.reason).map((o) => o.reason))];
  console.log(`${verdict.padEnd(14)} ${name} [${legs}] (${(ms / 1000).toFixed(1)} s)${reasons.length ? ` -- ${reasons.join('; ')}` : ''}`);
}

// 7. The table by spec version.
const tableLegs = allLegs.filter((leg) => runs.some((r) => r.leg === leg));
function table() {
  const mark = (name, leg) => {
    const outcome = results.get(name)?.find((o) => o.leg === leg);
    if (!outcome) return catalog.get(name).includes(leg) ? 'not run' : '–';
    return outcome.passed ? '✅' : '❌';
  };
  const checkCounts = (name) => {
    const outcomes = results.get(name) ?? [];
    return `${outcomes.reduce((n, o) => n + o.checksPassed, 0)}/${outcomes.reduce((n, o) => n + o.checksScored, 0)}`;
  };
  const requiredBy = (name) =>
    [...required]
      .filter(([, names]) => names.has(name))
      .map(([revision]) => revision)
      .join(', ') || `none${notScored.has(name) ? ` (${[...notScored.get(name)].join(', ')})` : ''}`;
  const lines = [
    `Client scenarios of \`@modelcontextprotocol/conformance\` ${version}, each run at every spec version it is listed for (extension scenarios at the suite's default, 2025-11-25). ✅ passes, ❌ fails (listed in \`test/conformance/baseline.json\`), – not defined for that version. **${passed} of ${results.size} scenarios pass at every version.** "Checks" counts the suite's checks that passed, of those it scored (SUCCESS or FAILURE; SKIPPED and INFO are not), over all the scenario's runs: a run whose every check was SKIPPED counts as failed, since it tested nothing. "Scored by" names the spec revisions whose frozen requirement set (\`conformance list --requirements\`) scores the scenario.`,
    '',
    `| Scenario | ${tableLegs.join(' | ')} | Checks | Scored by |`,
    `| --- | ${tableLegs.map(() => ':---:').join(' | ')} | :---: | --- |`,
    ...[...results.keys()].map(
      (name) => `| \`${name}\` | ${tableLegs.map((leg) => mark(name, leg)).join(' | ')} | ${checkCounts(name)} | ${requiredBy(name)} |`,
    ),
    `| **passed** | ${tableLegs
      .map((leg) => {
        const atLeg = [...results.values()].flat().filter((o) => o.leg === leg);
        return `${atLeg.filter((o) => o.passed).length}/${atLeg.length}`;
      })
      .join(' | ')} | | |`,
  ];
  return `${lines.join('\n')}\n`;
}
const markdown = table();
writeFileSync(TABLE, markdown);
if (writeDoc) {
  const START = '<!-- conformance-table:start -->';
  const END = '<!-- conformance-table:end -->';
  const doc = readFileSync(DOC, 'utf8');
  const from = doc.indexOf(START);
  const to = doc.indexOf(END);
  if (!fullRun) {
    problems.push('--docs needs a full run (no scenario names, no --spec)');
  } else if (from < 0 || to < from) {
    problems.push(`--docs: docs/conformance.md has no ${START} ... ${END} block`);
  } else {
    const next = `${doc.slice(0, from + START.length)}\n<!-- written by \`npm run conformance -- --docs\`; do not edit by hand -->\n\n${markdown}\n${doc.slice(to)}`;
    if (next !== doc) writeFileSync(DOC, next);
    note(next !== doc ? 'docs/conformance.md: table updated' : 'docs/conformance.md: table unchanged');
  }
}

console.log(
  `(${runs.length} runs: ${runsPassed} passed, ${runs.length - runsPassed} failed, ${runsExpected} of them expected by ${rel(BASELINE)}; ${((Date.now() - startedAll) / 1000).toFixed(1)} s in all; table in ${rel(TABLE)}, output in ${rel(RESULTS)}/)`,
);
for (const problem of problems) console.log(`problem: ${problem}`);
console.log(`conformance: ${passed} passed, ${failed} failed`);
process.exit(problems.length ? 1 : 0);
