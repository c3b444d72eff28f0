#!/usr/bin/env node
// `npm test`: every check in order, stopping at the first that fails. Each stage says what it
// is and how long it usually takes before it starts (the type-check alone is silent for half
// a minute). On a failure it stops with a list of the stages and their times; on success the last line is
// still the integration tests' own tally (`integration: N passed, M failed`).
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** [npm script, what it is, its usual time on 2 cores]. */
const stages = [
  ['typecheck', 'type-check (tsc: extension, tests, webviews)', '~40 s'],
  ['build', 'build (esbuild)', '~5 s'],
  ['test:unit', 'unit tests (mocha on plain Node, real fixture servers)', '~1 min'],
  ['test:bench', 'benchmark smoke run (no thresholds)', '~30 s'],
  ['conformance', 'official MCP conformance scenarios (Node 22)', '~3 min'],
  ['test:vsix', 'the packaged VSIX: size, contents, installed and activated in each VS Code version', '~1.5 min'],
  ['test:e2e', 'end-to-end clicks in the real workbench, each VS Code version', '~3 min'],
  ['test:integration', 'integration suites in a real VS Code extension host, each version', '~5 min'],
];

const done = [];
for (const [script, what, usual] of stages) {
  console.log(`\n== ${what}: npm run ${script} (usually ${usual})`);
  const t0 = Date.now();
  const r = spawnSync(npm, ['run', '-s', script], { cwd: REPO, stdio: 'inherit', shell: process.platform === 'win32' });
  const secs = ((Date.now() - t0) / 1000).toFixed(0);
  done.push(`${r.status === 0 ? 'ok  ' : 'FAIL'} ${script} (${secs} s)`);
  if (r.status !== 0) {
    console.log(`\n== npm test stopped: ${script} failed after ${secs} s\n${done.join('\n')}`);
    process.exit(r.status ?? 1);
  }
}
