#!/usr/bin/env node
// Runs the integration suites in desktop VS Code (Electron) through @vscode/test-electron,
// for desktops that can download VS Code from Microsoft (the CI and dev machines of this
// project cannot: there use test/launch/runInCodeServer.mjs, which runs the very same
// suites in the VS Code build shipped by code-server). On Linux without a display, run it
// under xvfb-run.
//
//   node test/launch/runInElectron.mjs [--suite NAME]... [--vsix FILE]
//
// Same suites, fixtures, settings and env vars as runInCodeServer.mjs. Run `npm run build`
// first. Last line printed: `integration: N passed, M failed`.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { downloadAndUnzipVSCode, runTests } from '@vscode/test-electron';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const VSCODE_VERSION = '1.100.3';

function readJson(file) {
  const text = fs
    .readFileSync(file, 'utf8')
    .replace(/("(?:[^"\\]|\\.)*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (m, str) => str ?? '')
    .replace(/,(\s*[}\]])/g, '$1');
  return JSON.parse(text);
}

function writeJson(file, value) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
}

function listSuites() {
  const integ = path.join(REPO, 'test', 'integration');
  return fs
    .readdirSync(integ, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(REPO, 'test', 'fixtures', 'workspaces', e.name)))
    .map((e) => e.name)
    .sort((a, b) => (a === 'main' ? -1 : b === 'main' ? 1 : a.localeCompare(b)));
}

/** The copy's single top-level *.code-workspace file (multi-root), else the folder. */
function workspaceTarget(dir) {
  const files = fs.readdirSync(dir).filter((n) => n.endsWith('.code-workspace'));
  if (files.length > 1) throw new Error(`${dir} has several .code-workspace files: ${files.join(', ')}`);
  return files.length === 1 ? path.join(dir, files[0]) : dir;
}

function unzipVsix(vsix, dest) {
  const res = spawnSync('unzip', ['-q', '-o', vsix, '-d', dest], { stdio: 'inherit' });
  if (res.status !== 0) throw new Error(`unzip ${vsix} failed (is \`unzip\` installed?)`);
  return path.join(dest, 'extension');
}

/**
 * runTests() always adds --disable-workspace-trust, which would make every workspace
 * trusted; the `untrusted` suite therefore launches the downloaded VS Code itself with
 * the same arguments minus that flag.
 */
async function runUntrusted({ extensionDevelopmentPath, extensionTestsPath, launchArgs, extensionTestsEnv }) {
  const exe = await downloadAndUnzipVSCode(VSCODE_VERSION);
  const args = [
    ...launchArgs,
    '--no-sandbox',
    '--disable-gpu-sandbox',
    '--disable-updates',
    '--skip-welcome',
    '--skip-release-notes',
    `--extensionTestsPath=${extensionTestsPath}`,
    `--extensionDevelopmentPath=${extensionDevelopmentPath}`,
  ];
  const child = spawn(exe, args, { env: { ...process.env, ...extensionTestsEnv }, stdio: 'inherit' });
  const code = await new Promise((resolve) => child.on('exit', (c, s) => resolve(c ?? s)));
  if (code !== 0) throw new Error(`VS Code exited with ${code}`);
}

/** test/fixtures/extensions/<dir>/ with a package.json: { dir, id: publisher.name }. */
function fixtureExtensions() {
  const root = path.join(REPO, 'test', 'fixtures', 'extensions');
  if (process.env.MCPWB_NO_FIXTURE_EXTENSIONS || !fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(root, e.name, 'package.json')))
    .map((e) => {
      const dir = path.join(root, e.name);
      const manifest = readJson(path.join(dir, 'package.json'));
      return { dir, id: `${manifest.publisher}.${manifest.name}` };
    });
}

async function runSuite(suite, extensionDevelopmentPath) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `mcpwb-electron-${suite}-`));
  const workspace = path.join(tmp, 'workspace');
  const userData = path.join(tmp, 'user-data');
  const extensionsDir = path.join(tmp, 'extensions');
  const resultFile = path.join(tmp, 'result.json');
  fs.cpSync(path.join(REPO, 'test', 'fixtures', 'workspaces', suite), workspace, { recursive: true });

  const untrusted = suite === 'untrusted';
  const settings = {
    'security.workspace.trust.enabled': untrusted,
    ...(untrusted ? { 'security.workspace.trust.startupPrompt': 'never' } : {}),
    'workbench.startupEditor': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
  };
  const extra = path.join(REPO, 'test', 'fixtures', 'workspaces', `${suite}.settings.json`);
  writeJson(path.join(userData, 'User', 'settings.json'), { ...settings, ...(fs.existsSync(extra) ? readJson(extra) : {}) });

  // The test-only fixture extensions (test/fixtures/extensions/*, e.g. the fake vscode.lm
  // model) for the `main` suite, as further development extensions with their proposed API
  // enabled (stable builds allow proposals only with --enable-proposed-api).
  const fixtures = suite === 'main' ? fixtureExtensions() : [];
  const options = {
    version: VSCODE_VERSION,
    extensionDevelopmentPath: fixtures.length ? [extensionDevelopmentPath, ...fixtures.map((f) => f.dir)] : extensionDevelopmentPath,
    extensionTestsPath: path.join(REPO, 'out', 'test', 'integration', 'index.js'),
    launchArgs: [
      workspaceTarget(workspace),
      '--disable-extensions',
      `--user-data-dir=${userData}`,
      `--extensions-dir=${extensionsDir}`,
      ...fixtures.flatMap((f) => ['--enable-proposed-api', f.id]),
    ],
    extensionTestsEnv: {
      MCPWB_SUITE: suite,
      MCPWB_RESULT_FILE: resultFile,
      MCPWB_REPO: REPO,
      MCPWB_FIXTURES: path.join(REPO, 'out', 'test', 'fixtures'),
      MCPWB_WORKSPACE: workspace,
    },
  };

  console.log(`\n=== suite ${suite} (workspace ${workspace}) ===`);
  let crashed = false;
  try {
    if (untrusted) await runUntrusted(options);
    else await runTests(options);
  } catch (err) {
    console.error(`[launcher] suite ${suite}: ${err.message || err}`);
    crashed = true;
  }
  let result;
  try {
    result = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
  } catch {
    // no result: VS Code did not start, or the extension host died
  }
  fs.rmSync(tmp, { recursive: true, force: true });
  const passed = result?.passed ?? 0;
  const failed = result?.failed ?? 0;
  // A failing suite also makes runTests reject; that is only a crash if no result was written.
  if (result && failed > 0) crashed = false;
  if (!result) crashed = true;
  console.log(`=== suite ${suite}: ${passed} passed, ${failed} failed${crashed ? ' (crashed)' : ''} ===`);
  return { passed, failed, crashed };
}

async function main() {
  const { values } = parseArgs({
    options: { suite: { type: 'string', multiple: true }, vsix: { type: 'string' } },
    strict: true,
  });
  if (!fs.existsSync(path.join(REPO, 'out', 'test', 'integration', 'index.js'))) {
    throw new Error('out/test/integration/index.js is missing: run `npm run build` first');
  }
  let extensionDevelopmentPath = REPO;
  let vsixDir;
  if (values.vsix) {
    vsixDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-vsix-'));
    extensionDevelopmentPath = unzipVsix(path.resolve(values.vsix), vsixDir);
  }
  const suites = values.suite?.length ? values.suite : listSuites();
  let passed = 0;
  let failed = 0;
  const crashed = [];
  try {
    for (const suite of suites) {
      const r = await runSuite(suite, extensionDevelopmentPath);
      passed += r.passed;
      failed += r.failed;
      if (r.crashed) crashed.push(suite);
    }
  } finally {
    if (vsixDir) fs.rmSync(vsixDir, { recursive: true, force: true });
  }
  if (crashed.length) {
    console.log(`[launcher] suites that crashed: ${crashed.join(', ')}`);
    if (failed === 0) failed = crashed.length;
  }
  console.log(`integration: ${passed} passed, ${failed} failed`);
  return failed > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`[launcher] ${err.stack || err}`);
    console.log('integration: 0 passed, 1 failed');
    process.exit(1);
  },
);
