#!/usr/bin/env node
// One-time set-up behind `npm start` and `npm test` (their `prestart`/`pretest` hooks), so
// each of them works on a fresh machine: npm dependencies when missing or stale, and with
// `--vscode` the Debian packages and the cached VS Code builds the integration and e2e tests
// run on: every version scripts/install-vscode.sh knows, or only those of
// MCPWB_VSCODE_VERSION (comma-separated), as the test launcher picks them.
// Every step checks first and is skipped when already done.
import { spawnSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: REPO, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

// Stale means: package-lock.json's content differs from the one the last `npm ci` here
// installed (its hash is kept in node_modules/.mcpwb-lock-hash). Not by file times: a checkout
// or a new git worktree touches package-lock.json without changing it, and the `npm ci` that
// followed also emptied a node_modules shared through a symlink.
const nodeModules = path.join(REPO, 'node_modules');
const installed = path.join(nodeModules, '.package-lock.json');
const lock = path.join(REPO, 'package-lock.json');
const hashFile = path.join(nodeModules, '.mcpwb-lock-hash');
const lockHash = crypto.createHash('sha256').update(fs.readFileSync(lock)).digest('hex');
const readHash = () => (fs.existsSync(hashFile) ? fs.readFileSync(hashFile, 'utf8').trim() : undefined);
if (fs.existsSync(nodeModules) && fs.lstatSync(nodeModules).isSymbolicLink()) {
  if (readHash() !== lockHash) console.log('[setup] node_modules is a link to another checkout; not reinstalling it (run npm ci there if it is stale)');
} else if (!fs.existsSync(installed) || (readHash() ?? (fs.statSync(installed).mtimeMs >= fs.statSync(lock).mtimeMs ? lockHash : undefined)) !== lockHash) {
  console.log('[setup] installing npm dependencies (npm ci)');
  run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['ci', '--no-audit', '--no-fund']);
  fs.writeFileSync(hashFile, lockHash + '\n');
} else if (readHash() === undefined) {
  fs.writeFileSync(hashFile, lockHash + '\n');
}

if (process.argv.includes('--vscode') && process.platform === 'linux') {
  run('bash', [path.join(REPO, 'scripts', 'install-system-deps.sh')]);
  const versions = (process.env.MCPWB_VSCODE_VERSION || '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  for (const version of versions.length ? versions : ['all']) {
    // stdout carries only the installed paths; progress goes to stderr.
    run('bash', [path.join(REPO, 'scripts', 'install-vscode.sh'), version]);
  }
}
