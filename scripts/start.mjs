#!/usr/bin/env node
// `npm start`: builds the extension and opens the demo workspace (demo/) with it.
//  - a desktop VS Code (`code` on PATH): `code --extensionDevelopmentPath=<repo> demo`
//  - otherwise: VS Code from code-server in your browser, served on http://127.0.0.1:$PORT
//    (default 3010) until Ctrl-C (test/launch/runInCodeServer.mjs --keep-open; its state lives
//    in .vscode-test/code-server-<version>/). The version: MCPWB_VSCODE_VERSION, else the oldest
//    the tests run on (1.100.3); only that one is installed.
import { spawn, spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEMO = path.join(REPO, 'demo');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

// MCPWB_START_SKIP_BUILD: the test of this script (test/unit/launch/start.test.ts) runs while the
// unit tests read out/, which a build would rewrite under them.
if (!process.env.MCPWB_START_SKIP_BUILD) {
  const build = spawnSync(npm, ['run', 'build'], { cwd: REPO, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

function onPath(cmd) {
  const probe = process.platform === 'win32' ? spawnSync('where', [cmd]) : spawnSync('sh', ['-c', `command -v ${cmd}`]);
  return probe.status === 0;
}

if (onPath('code') && !process.env.MCPWB_START_IN_BROWSER) {
  const res = spawnSync('code', [`--extensionDevelopmentPath=${REPO}`, DEMO], {
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  process.exit(res.status ?? 0);
}

// The browser path needs the cached VS Code build (and on Linux the packages to build it):
// one version only, not every version the tests run on.
const list = spawnSync('bash', [path.join(REPO, 'scripts', 'install-vscode.sh'), '--list'], { encoding: 'utf8' });
const version = (process.env.MCPWB_VSCODE_VERSION || '').split(',')[0].trim() || list.stdout?.split('\n')[0].trim();
if (!version) {
  console.error(`scripts/install-vscode.sh --list failed: ${list.stderr ?? list.error}`);
  process.exit(1);
}
const env = { ...process.env, MCPWB_VSCODE_VERSION: version };
const setup = spawnSync(process.execPath, [path.join(REPO, 'scripts', 'setup.mjs'), '--vscode'], { cwd: REPO, stdio: 'inherit', env });
if (setup.status !== 0) process.exit(setup.status ?? 1);

// The port is passed only when the user chose one (PORT): the launcher then fails if it is taken.
// Otherwise it tries 3010 and, when that is taken, says so and takes a free one (CONTRIBUTING.md).
const portArgs = process.env.PORT ? ['--port', process.env.PORT] : [];
const child = spawn(process.execPath, [path.join(REPO, 'test', 'launch', 'runInCodeServer.mjs'), '--keep-open', '--folder', DEMO, ...portArgs], {
  cwd: REPO,
  stdio: 'inherit',
  env,
});
// Ctrl-C reaches the child through the terminal's process group; just wait for it.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => child.kill('SIGTERM'));
child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' ? 130 : 1)));
