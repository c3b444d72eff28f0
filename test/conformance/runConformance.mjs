#!/usr/bin/env node
// Runs the official MCP conformance suite (@modelcontextprotocol/conformance) against our
// client: test/conformance/client.ts (bundled to out/test/conformance/client.js), which
// drives the extension's McpServerConnection.
//
//   npm run conformance                      every client scenario of the spec version
//   npm run conformance -- sse-retry ...     only the named scenarios
//
// Runs under the system Node 20; the suite needs Node >= 22, so it is installed with its own
// Node 22 binary by scripts/install-conformance.sh (idempotent) and spawned with that binary.
// For each scenario the suite starts a test server and runs
//   npm run -s conformance:client -- <server-url>
// with MCP_CONFORMANCE_SCENARIO=<scenario> in the environment.
// Scenarios run one after another, each with a time limit. test/conformance/baseline.json maps
// expected failures (features not implemented yet) to their reason. Exit code 1 when a
// scenario outside the baseline fails, or a baseline scenario now passes.
// The suite's output per scenario goes to test-results/conformance/<scenario>.log, its
// checks/stdout/stderr files to test-results/conformance/results/.
//
// Environment: MCPWB_CONFORMANCE_DIR (install folder), MCPWB_CONFORMANCE_SPEC (spec version
// filter, default 2025-11-25), MCPWB_CONFORMANCE_TIMEOUT_MS (client time limit per scenario,
// default 30000; the whole scenario gets 30 s more), MCPWB_CONFORMANCE_BASELINE (another
// baseline file, for testing this script).
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLIENT_BUNDLE = join(ROOT, 'out', 'test', 'conformance', 'client.js');
const BASELINE = process.env.MCPWB_CONFORMANCE_BASELINE ? resolve(process.env.MCPWB_CONFORMANCE_BASELINE) : join(ROOT, 'test', 'conformance', 'baseline.json');
const RESULTS = join(ROOT, 'test-results', 'conformance');
const CLIENT_COMMAND = 'npm run -s conformance:client --';
const SPEC = process.env.MCPWB_CONFORMANCE_SPEC || '2025-11-25';
const CLIENT_TIMEOUT_MS = Number(process.env.MCPWB_CONFORMANCE_TIMEOUT_MS || 30000);
const SCENARIO_TIMEOUT_MS = CLIENT_TIMEOUT_MS + 30000;

const note = (message) => console.error(`[conformance] ${message}`);

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
if (!existsSync(CLIENT_BUNDLE)) {
  note('out/test/conformance/client.js is missing: npm run build');
  const build = spawnSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0 || !existsSync(CLIENT_BUNDLE)) {
    note('build failed');
    process.exit(1);
  }
}

// 3. The scenarios, as the CLI lists them ("  - name [versions]" under "Client scenarios").
const listed = spawnSync(NODE22, [CLI, 'list', '--client', '--spec-version', SPEC], { encoding: 'utf8' });
if (listed.status !== 0) {
  note(`listing scenarios failed:\n${listed.stdout}${listed.stderr}`);
  process.exit(1);
}
const all = [...listed.stdout.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]);
if (all.length === 0) {
  note(`the CLI listed no client scenarios:\n${listed.stdout}`);
  process.exit(1);
}
const wanted = process.argv.slice(2);
for (const name of wanted) {
  if (!all.includes(name)) {
    note(`unknown scenario "${name}"; known for ${SPEC}: ${all.join(', ')}`);
    process.exit(1);
  }
}
const scenarios = wanted.length ? wanted : all;

const baseline = JSON.parse(readFileSync(BASELINE, 'utf8'));
for (const name of Object.keys(baseline)) {
  if (!all.includes(name)) note(`baseline.json lists "${name}", which the suite does not list for ${SPEC}`);
}

rmSync(RESULTS, { recursive: true, force: true });
mkdirSync(RESULTS, { recursive: true });

// 4. One scenario: the suite's exit code is the verdict (it fails on a failed check, a
// warning, a client timeout, or a client exit code other than 0 where the scenario needs 0).
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

function runScenario(name) {
  const logFile = join(RESULTS, `${name.replace(/\//g, '__')}.log`);
  const args = [CLI, 'client', '--command', CLIENT_COMMAND, '--scenario', name, '--timeout', String(CLIENT_TIMEOUT_MS), '--output-dir', join(RESULTS, 'results')];
  const log = createWriteStream(logFile);
  log.write(`$ ${NODE22} ${args.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ')}\n\n`);
  const started = Date.now();
  return new Promise((done) => {
    // Own process group, so a time-out also ends npm and the client the suite started.
    const child = spawn(NODE22, args, { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
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
    }, SCENARIO_TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      current = undefined;
      killGroup(child); // leftovers (a client that outlived the suite)
      const ms = Date.now() - started;
      const footer = timedOut ? `\n[runConformance] killed after ${SCENARIO_TIMEOUT_MS} ms\n` : `\n[runConformance] exit ${code ?? signal} after ${ms} ms\n`;
      log.end(footer, () => done({ name, passed: code === 0 && !timedOut, timedOut, ms, output, logFile }));
    });
  });
}

const ANSI = /\x1b\[[0-9;]*m/g;

/** Check counts and the ids of failed checks, from the checks.json the suite saved. */
function summarize(result) {
  const parts = [];
  const saved = /Results saved to (.+)$/m.exec(result.output);
  let checks;
  try {
    checks = saved ? JSON.parse(readFileSync(join(saved[1].trim(), 'checks.json'), 'utf8')) : undefined;
  } catch {
    checks = undefined;
  }
  if (checks) {
    const scored = checks.filter((c) => c.status === 'SUCCESS' || c.status === 'FAILURE');
    const bad = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
    parts.push(`checks ${scored.filter((c) => c.status === 'SUCCESS').length}/${scored.length}`);
    if (bad.length) parts.push(`failed: ${[...new Set(bad.map((c) => `${c.id}${c.status === 'WARNING' ? ' (warning)' : ''}`))].join(', ')}`);
  } else {
    parts.push('no checks.json');
  }
  if (result.timedOut) parts.push(`killed after ${SCENARIO_TIMEOUT_MS} ms`);
  if (/Client timed out/.test(result.output)) parts.push('client timed out');
  const exit = /Client exited with code (-?\d+)/.exec(result.output);
  if (exit) parts.push(`client exit ${exit[1]}`);
  return parts.join('; ');
}

note(`@modelcontextprotocol/conformance ${version} on Node ${spawnSync(NODE22, ['--version'], { encoding: 'utf8' }).stdout.trim()} (${DIR})`);
note(`${scenarios.length} client scenario(s) for spec ${SPEC}; client command: ${CLIENT_COMMAND} <server-url>`);

let passed = 0;
let failed = 0;
let expected = 0;
const problems = [];
const startedAll = Date.now();
for (const name of scenarios) {
  const result = await runScenario(name);
  const inBaseline = Object.hasOwn(baseline, name);
  const seconds = `${(result.ms / 1000).toFixed(1)} s`;
  const summary = summarize(result);
  if (result.passed) {
    passed++;
    if (inBaseline) {
      console.log(`PASS           ${name} (${seconds}) ${summary} -- now passes: remove it from baseline.json`);
      problems.push(`${name} now passes: remove it from baseline.json`);
    } else {
      console.log(`PASS           ${name} (${seconds}) ${summary}`);
    }
  } else {
    failed++;
    if (inBaseline) {
      expected++;
      console.log(`EXPECTED-FAIL  ${name} (${seconds}) ${summary} -- ${baseline[name]}`);
    } else {
      console.log(`FAIL           ${name} (${seconds}) ${summary} -- see ${result.logFile.slice(ROOT.length + 1)}`);
      problems.push(`${name} failed`);
    }
  }
}

console.log(`(${expected} of the failures are expected, listed in ${BASELINE.startsWith(ROOT) ? BASELINE.slice(ROOT.length + 1) : BASELINE}; ${((Date.now() - startedAll) / 1000).toFixed(1)} s in all; output in test-results/conformance/)`);
for (const problem of problems) console.log(`problem: ${problem}`);
console.log(`conformance: ${passed} passed, ${failed} failed`);
process.exit(problems.length ? 1 : 0);
