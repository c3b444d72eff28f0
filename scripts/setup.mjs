#!/usr/bin/env node
// One-time set-up behind `npm start` and `npm test` (their `prestart`/`pretest` hooks), so
// each of them works on a fresh machine: npm dependencies when missing or stale, and with
// `--vscode` the Debian packages and the cached VS Code builds the integration and e2e tests
// run on: every version scripts/install-vscode.sh knows, or only those of
// MCPWB_VSCODE_VERSION (comma-separated), as the test launcher picks them.
// Every step checks first and is skipped when already done.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: REPO, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

// npm writes node_modules/.package-lock.json on install; older than package-lock.json means stale.
const installed = path.join(REPO, 'node_modules', '.package-lock.json');
const lock = path.join(REPO, 'package-lock.json');
if (!fs.existsSync(installed) || fs.statSync(installed).mtimeMs < fs.statSync(lock).mtimeMs) {
  console.log('[setup] installing npm dependencies (npm ci)');
  run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['ci', '--no-audit', '--no-fund']);
}

if (process.argv.includes('--vscode') && process.platform === 'linux') {
  run('bash', [path.join(REPO, 'scripts', 'install-system-deps.sh')]);
  const versions = (process.env.MCPWB_VSCODE_VERSION || '').split(',').map((v) => v.trim()).filter(Boolean);
  for (const version of versions.length ? versions : ['all']) {
    // stdout carries only the installed paths; progress goes to stderr.
    run('bash', [path.join(REPO, 'scripts', 'install-vscode.sh'), version]);
  }
}
