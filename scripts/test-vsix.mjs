#!/usr/bin/env node
// `npm run test:vsix`: what a Marketplace user installs. Packages the production build into a
// VSIX (vsce, pinned), checks its size (< 3 MB) and contents (only the bundle and the files the
// manifest points at), then installs that VSIX into each tested VS Code build and runs the
// `smoke` tests there with the extension host log checked: an error it logs about the extension
// fails the run. Rebuilds the development bundle at the end, since the other suites load dist/.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const VSCE = '@vscode/vsce@3.9.2';
const MAX_BYTES = 3 * 1024 * 1024;
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { cwd: REPO, stdio: 'inherit', env: { ...process.env, ...env }, shell: process.platform === 'win32' });
  return r.status ?? 1;
}
class Failed extends Error {}
function fail(message) {
  throw new Failed(message);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-vsix-test-'));
const vsix = path.join(dir, 'mcp-workbench.vsix');
// process.exit() inside `try` would skip `finally` (the temp folder stayed behind every run):
// the outcome is decided inside, the exit happens after the clean-up.
let exitCode;
try {
  if (run(process.execPath, ['esbuild.mjs', '--production']) !== 0) fail('the production build failed');
  if (run(npx, ['-y', VSCE, 'package', '--no-dependencies', '--out', vsix]) !== 0) fail('vsce package failed');

  const bytes = fs.statSync(vsix).size;
  console.log(`[test-vsix] ${path.basename(vsix)}: ${(bytes / 1024).toFixed(0)} KB (limit ${MAX_BYTES / 1024 / 1024} MB)`);
  if (bytes >= MAX_BYTES) fail(`the VSIX is ${(bytes / 1024 / 1024).toFixed(2)} MB, over the 3 MB limit`);
  const listing = spawnSync(npx, ['-y', VSCE, 'ls', '--no-dependencies'], { cwd: REPO, encoding: 'utf8', shell: process.platform === 'win32' }).stdout ?? '';
  // docs/ and CONTRIBUTING.md are read on GitHub (the README's links to them are rewritten there).
  const stray = listing
    .split('\n')
    .filter((f) => /^(src|test|out|node_modules|webview|scripts|docs)\//.test(f.trim()) || /\.map$/.test(f.trim()) || f.trim() === 'CONTRIBUTING.md');
  if (stray.length) fail(`files a user does not need are packaged: ${stray.join(', ')}`);
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
  const walkthroughMedia = manifest.contributes.walkthroughs.flatMap((w) => w.steps.map((s) => s.media.image ?? s.media.markdown));
  const packaged = new Set(listing.split('\n').map((f) => f.trim()));
  const missing = walkthroughMedia.filter((m) => !packaged.has(m));
  if (missing.length) fail(`the walkthrough's media are not packaged: ${missing.join(', ')} (see .vscodeignore)`);
  // Without it every title in the manifest shows as its %key%.
  if (!packaged.has('package.nls.json')) fail("package.nls.json (the manifest's strings) is not packaged (see .vscodeignore)");

  exitCode = run(process.execPath, ['test/launch/runInCodeServer.mjs', '--vsix', vsix, '--suite', 'main'], {
    MCPWB_GREP: '^smoke ',
    MCPWB_CHECK_EXTHOST_LOG: '1',
    // Its tallies say what they count, not `integration: …` in the middle of `npm test`.
    MCPWB_TALLY_LABEL: 'vsix smoke',
  });
  if (run(process.execPath, ['esbuild.mjs']) !== 0) fail('rebuilding the development bundle failed');
} catch (err) {
  if (!(err instanceof Failed)) throw err;
  console.log(`[test-vsix] ${err.message}`);
  run(process.execPath, ['esbuild.mjs']);
  console.log('vsix: 0 passed, 1 failed');
  exitCode = 1;
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(exitCode);
