#!/usr/bin/env node
// `npm run screenshots`: regenerates the pictures of the README, the guide (docs/guide/) and the
// walkthrough from the real workbench. Runs the Playwright e2e tests in the latest tested VS Code (they take their
// screenshots as they click through), then copies the chosen ones into media/screenshots/.
// The pictures are therefore always of the current build, never mocked up.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const latest = spawnSync('bash', [path.join(REPO, 'scripts', 'install-vscode.sh'), '--list'], { encoding: 'utf8' })
  .stdout.trim()
  .split('\n')
  .pop();

/** e2e screenshot name → the file in media/screenshots/ (README, docs/guide/ and the walkthrough use these). */
export const PICTURES = {
  '01-mcp-view': 'servers.png',
  '02-tools': 'tools.png',
  '04-result': 'run-tool.png',
  'inspector-04-replay': 'inspector-replay.png',
  'inspector-06-import': 'inspector-import.png',
  'inspector-07-panel': 'inspector-panel.png',
  'inspector-08-console': 'inspector-console-all.png',
  'inspector-09-console-level': 'inspector-console.png',
  'toolRunner-raw': 'run-tool-raw.png',
  'toolRunner-diff': 'run-tool-diff.png',
  'devLoop-diff': 'dev-loop-diff.png',
  'devLoop-debugging': 'debug-server.png',
  'approval-02-sampling-response': 'sampling.png',
  'approval-05-elicit-form': 'elicitation.png',
  'approval-08-sampling-mock': 'sampling-mock.png',
  'coexistence-01-choice-in-view': 'coexistence-choice.png',
  'coexistence-02-run-by-vscode': 'coexistence-run-by-vscode.png',
  'coexistence-03-run-here': 'coexistence-run-here.png',
  'gallery-04-confirm': 'gallery-install.png',
  'check-02-report': 'check-report.png',
  'mcpTests-01-testing-view': 'testing-view.png',
};

const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: REPO, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const e2e = spawnSync(process.execPath, ['test/launch/runInCodeServer.mjs', '--e2e', '--vscode', latest], { cwd: REPO, stdio: 'inherit' });
if (e2e.status !== 0) {
  console.error('[screenshots] the e2e run failed; media/screenshots/ left as it was');
  process.exit(e2e.status ?? 1);
}
const from = path.join(REPO, 'test-results', 'e2e', latest);
const to = path.join(REPO, 'media', 'screenshots');
fs.mkdirSync(to, { recursive: true });
for (const [shot, file] of Object.entries(PICTURES)) {
  const source = path.join(from, `${shot}.png`);
  if (!fs.existsSync(source)) {
    console.error(`[screenshots] the e2e run took no ${shot}.png: update PICTURES in scripts/screenshots.mjs`);
    process.exit(1);
  }
  fs.copyFileSync(source, path.join(to, file));
  console.log(`[screenshots] media/screenshots/${file} (VS Code ${latest}, ${shot})`);
}
