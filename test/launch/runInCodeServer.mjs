#!/usr/bin/env node
// Runs the integration suites inside real VS Code builds (those that ship in the npm
// package code-server), offline: VS Code's own server + headless Chromium. By default on
// every version scripts/install-vscode.sh knows (`--list`): 1.100.3, the `engines` minimum,
// and 1.139.1, the latest. See shared/notes/testing-in-real-vscode.md for the recipe.
//
//   node test/launch/runInCodeServer.mjs [--vscode VERSION]... [--suite NAME]... [--vsix FILE]
//        [--extension-path DIR]... [--keep-open [--folder DIR] [--port N]]
//   node test/launch/runInCodeServer.mjs --e2e [MODULE]... [--vscode VERSION]... [--vsix FILE]
//        [--extension-path DIR]...
//
// --vscode VERSION     run on this VS Code version only (repeatable; `all` = every known
//                      version; default: env MCPWB_VSCODE_VERSION, comma-separated, else all).
//                      Each version is installed on first use (scripts/install-vscode.sh,
//                      cached). Its server runs on the Node the install links as
//                      `server-node` (Node 24 for 1.139), else on this Node. Per version a
//                      summary line `integration (VS Code 1.139.1): N passed, M failed`; with
//                      several versions the last line is their total. --keep-open uses the
//                      first version given, else the oldest.
// --suite NAME         run test/integration/NAME (compiled in out/) against a fresh copy
//                      of test/fixtures/workspaces/NAME (opened as its single top-level
//                      *.code-workspace file if it has one, else as a folder); repeatable.
//                      Default: every test/integration/<dir> that has a
//                      test/fixtures/workspaces/<dir>; `main` first.
// --vsix FILE          test the packaged extension: unzip FILE and load its extension/
// --extension-path DIR load DIR as development extension instead of the repo root
//                      (repeatable, e.g. for a test-only fixture extension)
//
//                      NOTE: the browser workbench keeps only the LAST extensionDevelopmentPath
//                      of its `payload` (it becomes a Map), so with several paths only the
//                      last one loads; the launcher warns. Fixture extensions are installed
//                      instead (below).
//
// Test-only fixture extensions: every test/fixtures/extensions/<dir>/ with a package.json
// (e.g. fake-model, a deterministic vscode.lm chat model) is copied into the run's
// --extensions-dir as an installed extension, with --enable-proposed-api <publisher.name>,
// for the `main` suite and for --e2e, whatever extension is under test (repo, --vsix or
// --extension-path). (code-server's build also allows the proposals every extension
// declares.) MCPWB_NO_FIXTURE_EXTENSIONS=1 leaves them out.
// --keep-open          run no tests: start VS Code, print the URL, wait for Ctrl-C
//   --folder DIR       the folder (or .code-workspace file) to open (default: a copy of
//                      the `main` workspace)
//   --port N           the port (default: env PORT, else 3010); host: env HOST or 127.0.0.1
//
// --e2e [MODULE]...    instead of the mocha suites, run Playwright end-to-end tests that
//                      click through the real workbench: every test/e2e/*.e2e.mjs, or the
//                      given ones (a path, or a name: `explorer` = test/e2e/explorer.e2e.mjs).
//                      Each module exports `async function run({ page, step, screenshot,
//                      workspace, workspaceFile, log })` and gets its own VS Code server and
//                      browser, on a fresh copy of the `main` fixture workspace (settings as
//                      for --suite main), opened with the extension(s) under development and
//                      no extensionTestsPath. `step(title, fn, { timeout })` runs and reports
//                      one step (default timeout MCPWB_E2E_STEP_TIMEOUT_MS, 60 s; Playwright
//                      actions: MCPWB_E2E_ACTION_TIMEOUT_MS, 30 s); the first failing step
//                      ends the module. `vscodeVersion` is the version under test. A module
//                      may also export `keybindings` (keybindings.json entries, written
//                      before the workbench starts), to run commands hidden from the palette.
//                      And `env`: variables for the VS Code server and so the extension host
//                      (e.g. the test bundle of test/e2e/l10n.e2e.mjs).
//                      `screenshot(name)` saves test-results/e2e/<version>/<name>.png (the
//                      e2e folder is emptied at the start of an --e2e run). On failure, in
//                      test-results/runs/<run id>/e2e/<version>/: <module>.failure.png,
//                      <module>.frames.txt, <module>-logs/,
//                      <module>.browser-console.log, <module>.server.log and log tails
//                      printed. Last line: `e2e: N passed, M failed`, counting steps (the
//                      launcher's "open the workbench" step included; steps after a failure
//                      are not counted); exit code 0 only if all passed.
//
// Environment: MCPWB_SUITE_TIMEOUT_MS (default 2400000 per suite), MCPWB_SUITE_STALL_MS
// (default 360000: no test finished for that long ends the suite), MCPWB_VSCODE_CACHE
// (see scripts/install-vscode.sh), MCPWB_KEEP_TMP=1 keeps the temp folders,
// MCPWB_KEEP_GLOBAL_STORAGE=<folder> carries the extension's global storage from run to run,
// MCPWB_VERBOSE=1 echoes every browser console and server line, MCPWB_BUILTIN_MCP=1 leaves
// VS Code's own MCP support at its defaults (see baseSettings()).
//
// The VS Code server and the extension host it spawns get MCPWB_SUITE,
// MCPWB_RESULT_FILE, MCPWB_OUTPUT_FILE, MCPWB_REPO, MCPWB_FIXTURES, MCPWB_WORKSPACE, MCPWB_USER_PROFILE_DIR
// (the temp copy of the workspace folder) and MCPWB_VSCODE_VERSION in their env. The suite's result comes from
// MCPWB_RESULT_FILE, not from the extension host's exit code: in this browser-based
// VS Code the extension host exits with 0 even when run() rejects.
// On failure: test-results/runs/<run id>/<version>/<suite>.png (screenshot), <suite>-logs/
// (VS Code's log files), <suite>.browser-console.log, <suite>.server.log, <suite>.output.log
// and the result so far; the temp folder is removed all the same (MCPWB_KEEP_TMP=1 keeps it).
// Last line printed: `integration: N passed, M failed`; exit code 0 only if all passed.
import { spawn, spawnSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const INSTALL_VSCODE = path.join(REPO, 'scripts', 'install-vscode.sh');
const CHROMIUM = process.env.MCPWB_CHROMIUM || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];
// A suite is given up on when no test has finished for SUITE_STALL_MS (the longest single test
// allows itself 120 s; a stall is a hang, not a slow machine), or after SUITE_TIMEOUT_MS in all
// (a safety net, set far above the ~6 min `main` takes on an idle 2-core machine, because a
// loaded machine may take three times that while making steady progress).
const SUITE_TIMEOUT_MS = Number(process.env.MCPWB_SUITE_TIMEOUT_MS || 40 * 60 * 1000);
const SUITE_STALL_MS = Number(process.env.MCPWB_SUITE_STALL_MS || 6 * 60 * 1000);
const VERBOSE = !!process.env.MCPWB_VERBOSE;
// Failure evidence goes to test-results/runs/<run id>/ so the next run does not overwrite it
// (`npm test` passes its run id in MCPWB_TEST_RUN and keeps the newest runs' folders).
const RUN_ID = process.env.MCPWB_TEST_RUN || new Date().toISOString().replace(/[:.]/g, '-');
const EVIDENCE = path.join(REPO, 'test-results', 'runs', RUN_ID);
const EXIT_LINE = /Extension Host Process exited with code: (-?\d+|null)/;

// ---------------------------------------------------------------------------------
// Cleanup: everything started registers here, so Ctrl-C and failures kill it all.
const cleanups = [];
// One line per failed test, step or suite, repeated just above the summary: a CI log often keeps
// only its tail, and the tally alone does not say what failed.
const failedNames = [];
async function cleanupAll() {
  while (cleanups.length) {
    const fn = cleanups.pop();
    try {
      await fn();
    } catch {
      // best effort
    }
  }
}
// Last resort on any exit (even process.exit from elsewhere): kill the process groups of
// the servers still running; synchronous, as 'exit' handlers must be.
const liveGroups = new Set();
process.on('exit', () => {
  for (const pgid of liveGroups) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    console.error(`\n[launcher] ${signal}: stopping VS Code and the browser`);
    cleanupAll().finally(() => process.exit(130));
  });
}

const log = (...args) => console.log('[launcher]', ...args);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------
/** The VS Code versions scripts/install-vscode.sh knows, oldest first. */
function knownVersions() {
  const res = spawnSync('bash', [INSTALL_VSCODE, '--list'], { encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`scripts/install-vscode.sh --list failed (exit ${res.status}): ${res.stderr}`);
  return res.stdout
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}

/** The versions to run on: --vscode (repeatable), else MCPWB_VSCODE_VERSION (a,b), else all. */
function selectVersions(given) {
  const known = knownVersions();
  const wanted = (given?.length ? given : (process.env.MCPWB_VSCODE_VERSION || '').split(',')).map((v) => v.trim()).filter(Boolean);
  const versions = !wanted.length || wanted.includes('all') ? known : [...new Set(wanted)];
  for (const v of versions) {
    if (!known.includes(v)) throw new Error(`unknown VS Code version ${v} (scripts/install-vscode.sh knows ${known.join(', ')})`);
  }
  return versions;
}

/**
 * One installed VS Code: { version, dir (its lib/vscode), node (the Node its server runs on) }.
 * Installs it first if needed.
 */
function ensureVSCode(version) {
  const cacheRoot = process.env.MCPWB_VSCODE_CACHE || path.join(os.homedir(), '.cache', 'mcp-workbench');
  const root = path.join(cacheRoot, `vscode-${version}`);
  let dir = path.join(root, 'node_modules', 'code-server', 'lib', 'vscode');
  if (!fs.existsSync(path.join(root, '.installed'))) {
    log(`VS Code ${version} not installed yet; running scripts/install-vscode.sh ${version}`);
    const res = spawnSync('bash', [INSTALL_VSCODE, version], {
      stdio: ['ignore', 'pipe', 'inherit'],
      encoding: 'utf8',
    });
    if (res.status !== 0) throw new Error(`scripts/install-vscode.sh ${version} failed (exit ${res.status})`);
    dir = res.stdout.trim().split('\n').pop() || dir;
  }
  // 1.139's server needs Node 24: the install links the one it downloaded as `server-node`.
  const serverNode = path.join(root, 'server-node');
  const node = fs.existsSync(serverNode) ? serverNode : process.execPath;
  return { version, dir, node };
}

function freePort(host) {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, host, () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Whether nothing listens on host:port yet (so a later answer there is ours). */
function portIsFree(port, host) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen(port, host, () => srv.close(() => resolve(true)));
  });
}

function httpStatus(url) {
  return new Promise((resolve) => {
    const req = http.get(url, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('error', () => resolve(0));
    req.setTimeout(2000, () => {
      req.destroy();
      resolve(0);
    });
  });
}

function readJson(file) {
  // Settings files may carry comments and trailing commas, as VS Code allows.
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

/** Lists files (recursively) whose name matches `re`. */
function findFiles(dir, re) {
  const out = [];
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...findFiles(p, re));
    else if (re.test(e.name)) out.push(p);
  }
  return out;
}

function tail(text, lines) {
  const all = text.split('\n');
  return all.slice(Math.max(0, all.length - lines)).join('\n');
}

// ---------------------------------------------------------------------------------
// Test-only fixture extensions (test/fixtures/extensions/<dir>/package.json), installed next
// to the extension under test for the `main` suite and the e2e tests.
const FIXTURE_EXTENSIONS_DIR = path.join(REPO, 'test', 'fixtures', 'extensions');
const FIXTURE_EXTENSION_RUNS = new Set(['main', 'e2e']);

/**
 * Copies the fixture extensions into `extensionsDir` (a fresh --extensions-dir: VS Code's
 * server registers what it finds there when it starts) for the runs that use them. Returns
 * the server arguments enabling their proposed API.
 */
function installFixtureExtensions(run, extensionsDir) {
  if (!FIXTURE_EXTENSION_RUNS.has(run) || process.env.MCPWB_NO_FIXTURE_EXTENSIONS || !fs.existsSync(FIXTURE_EXTENSIONS_DIR)) return [];
  const args = [];
  const names = [];
  for (const e of fs.readdirSync(FIXTURE_EXTENSIONS_DIR, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const dir = path.join(FIXTURE_EXTENSIONS_DIR, e.name);
    if (!e.isDirectory() || !fs.existsSync(path.join(dir, 'package.json'))) continue;
    const manifest = readJson(path.join(dir, 'package.json'));
    const id = `${manifest.publisher}.${manifest.name}`;
    fs.cpSync(dir, path.join(extensionsDir, `${id}-${manifest.version}`), { recursive: true });
    if (manifest.enabledApiProposals?.length) args.push('--enable-proposed-api', id);
    names.push(id);
  }
  if (names.length) log(`installed test fixture extension(s): ${names.join(', ')}`);
  return args;
}

// ---------------------------------------------------------------------------------
// VSIX: a zip; the extension lives under extension/.
function unzipVsix(vsix, dest) {
  fs.mkdirSync(dest, { recursive: true });
  const unzip = spawnSync('unzip', ['-q', '-o', vsix, '-d', dest], { stdio: 'inherit' });
  if (unzip.error?.code === 'ENOENT') {
    extractZip(fs.readFileSync(vsix), dest);
  } else if (unzip.status !== 0) {
    throw new Error(`unzip ${vsix} failed (exit ${unzip.status})`);
  }
  const ext = path.join(dest, 'extension');
  if (!fs.existsSync(path.join(ext, 'package.json'))) throw new Error(`${vsix} has no extension/package.json`);
  return ext;
}

/** Minimal zip reader (stored + deflate), for machines without `unzip`. */
function extractZip(buf, dest) {
  let eocd = buf.length - 22;
  while (eocd >= 0 && buf.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  if (eocd < 0) throw new Error('not a zip file');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  for (let i = 0; i < count; i++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error('bad zip central directory');
    const method = buf.readUInt16LE(p + 10);
    const compSize = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const localOff = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    p += 46 + nameLen + extraLen + commentLen;
    const target = path.resolve(dest, name);
    if (!target.startsWith(path.resolve(dest) + path.sep)) throw new Error(`unsafe zip entry ${name}`);
    if (name.endsWith('/')) {
      fs.mkdirSync(target, { recursive: true });
      continue;
    }
    const dataStart = localOff + 30 + buf.readUInt16LE(localOff + 26) + buf.readUInt16LE(localOff + 28);
    const raw = buf.subarray(dataStart, dataStart + compSize);
    const data = method === 0 ? raw : method === 8 ? zlib.inflateRawSync(raw) : null;
    if (!data) throw new Error(`unsupported zip method ${method} for ${name}`);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, data);
  }
}

// ---------------------------------------------------------------------------------
/**
 * Starts VS Code's server. Returns { port, url(folder, payload), output, onLine, stop, exited }.
 */
async function startServer({ vscode, host, port, userDataDir, serverDataDir, extensionsDir, env, logFile, connectionToken, extraArgs = [] }) {
  const args = [
    path.join(vscode.dir, 'out', 'server-main.js'),
    '--host',
    host,
    '--port',
    String(port),
    // The test runs use a fresh random port for a few minutes; `npm start` keeps a workbench
    // open for as long as the user likes, so anything else on the machine that can reach the
    // port must not get a VS Code (a terminal, files) without the token printed in the URL.
    ...(connectionToken ? ['--connection-token', connectionToken] : ['--without-connection-token']),
    '--accept-server-license-terms',
    // Without it the built 1.139 workbench ignores extensionDevelopmentPath/extensionTestsPath
    // in the URL payload (no test runs); 1.100 accepts it too.
    '--enable-smoke-test-driver',
    '--user-data-dir',
    userDataDir,
    '--server-data-dir',
    serverDataDir,
    '--extensions-dir',
    extensionsDir,
    ...extraArgs,
  ];
  const childEnv = { ...process.env, MCPWB_VSCODE_VERSION: vscode.version, ...env };
  // Variables of a surrounding VS Code (integrated terminal) would confuse this one.
  for (const key of Object.keys(childEnv)) {
    if (key.startsWith('VSCODE_') || key === 'ELECTRON_RUN_AS_NODE') delete childEnv[key];
  }
  const child = spawn(vscode.node, args, {
    cwd: REPO,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // own process group: the extension host and MCP servers die with it
  });
  liveGroups.add(child.pid);
  child.on('exit', () => liveGroups.delete(child.pid));
  const logStream = fs.createWriteStream(logFile);
  const listeners = new Set();
  const server = {
    child,
    output: '',
    onLine(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    exitCode: undefined,
    exited: new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal))),
  };
  server.exited.then((c) => (server.exitCode = c));
  for (const stream of [child.stdout, child.stderr]) {
    let partial = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      logStream.write(chunk);
      server.output += chunk;
      if (server.output.length > 4_000_000) server.output = server.output.slice(-2_000_000);
      const lines = (partial + chunk).split('\n');
      partial = lines.pop();
      for (const line of lines) for (const fn of listeners) fn(line);
    });
  }
  server.stop = async () => {
    if (server.exitCode !== undefined) return;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return;
    }
    const done = await Promise.race([server.exited.then(() => true), sleep(5000).then(() => false)]);
    if (!done) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    // Children that outlived the server in its process group.
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // gone
    }
    logStream.end();
  };
  cleanups.push(server.stop);

  // Wait until it answers HTTP.
  const deadline = Date.now() + 60_000;
  const base = `http://${host}:${port}`;
  for (;;) {
    if (server.exitCode !== undefined) {
      throw new Error(`VS Code server exited early (${server.exitCode}):\n${tail(server.output, 40)}`);
    }
    const status = await httpStatus(`${base}/`);
    if (status && status < 500) break;
    if (Date.now() > deadline) throw new Error(`VS Code server did not answer on ${base} within 60 s`);
    await sleep(250);
  }
  server.base = base;
  // A folder opens as ?folder=, a multi-root `.code-workspace` file as ?workspace=.
  server.url = (target, payload) => {
    const kind = target.endsWith('.code-workspace') ? 'workspace' : 'folder';
    let url = `${base}/?${kind}=${encodeURIComponent(target).replace(/%2F/g, '/')}`;
    if (connectionToken) url += `&tkn=${connectionToken}`;
    if (payload) url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    return url;
  };
  server.remote = (absPath) => `vscode-remote://${host}:${port}${absPath}`;
  return server;
}

/**
 * VS Code's own MCP support, off: in 1.139 it is on by default (`chat.mcp.access` "all",
 * `chat.mcp.autostart` "newAndOutdated": it starts the servers when a chat request may use
 * tools) and reads the same .vscode/mcp.json and .mcp.json, so a second process of a fixture
 * server could run beside ours and the suites would see both. 1.100 has it behind
 * `chat.mcp.enabled` (default true). How the two hosts coexist is a product question with its
 * own tests (the `coexistence` suite, the one exception); MCPWB_BUILTIN_MCP=1 leaves VS Code's defaults for looking at it by hand. (Even off,
 * 1.139 keeps the `mcp-resource:` scheme: src/resources uses its own.)
 */
function builtinMcpSettings(version, fixture) {
  if (process.env.MCPWB_BUILTIN_MCP) return {};
  // The suite that tests living beside it: on, but never starting servers on its own (it
  // would start them only for a chat request anyway), so the suite sees our choices alone.
  if (fixture === 'coexistence') {
    return compareVersions(version, '1.101.0') < 0
      ? { 'chat.mcp.enabled': true, 'chat.mcp.discovery.enabled': false }
      : { 'chat.mcp.access': 'all', 'chat.mcp.autostart': 'never' };
  }
  if (compareVersions(version, '1.101.0') < 0) {
    return { 'chat.mcp.enabled': false, 'chat.mcp.discovery.enabled': false };
  }
  return { 'chat.mcp.access': 'none', 'chat.mcp.autostart': 'never' };
}

/** -1, 0 or 1 as a < b, a = b or a > b for dotted numeric versions. */
function compareVersions(a, b) {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d) return Math.sign(d);
  }
  return 0;
}

function baseSettings(trusted, version, fixture) {
  return {
    ...builtinMcpSettings(version, fixture),
    'security.workspace.trust.enabled': trusted === 'untrusted',
    ...(trusted === 'untrusted' ? { 'security.workspace.trust.startupPrompt': 'never' } : {}),
    'workbench.startupEditor': 'none',
    // VS Code in a browser saves after a 1 s delay by default (desktop: off). Tests that edit a
    // fixture config in an unsaved editor (the language server's) then wrote it to disk, and
    // every later test met a changed mcp.json (21 failures in a row on a slow machine).
    'files.autoSave': 'off',
    // VS Code 1.139 animates the quick input: hiding it leaves the widget in the page, `inert`,
    // for a 150 ms closing animation, and the next pick (ours, right after the palette's) reuses
    // that widget. Twice in 13 runs of appsPolicy on a loaded 1.139.1 the pick that followed the
    // palette stayed inert (or "not stable") for 30 s, so no key reached it. Without motion the
    // widget is hidden at once, as in 1.100.3; what is tested is ours, not VS Code's animations.
    'workbench.reduceMotion': 'on',
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'extensions.ignoreRecommendations': true,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'git.enabled': false,
  };
}

// ---------------------------------------------------------------------------------
// Building blocks shared by the mocha suites (runSuite) and the Playwright e2e tests
// (runE2eModule): a sandbox with a fresh workspace copy and settings, the browser, the
// artifacts of a failure, and stopping what a run started.

/**
 * A fresh temp folder for one run: `workspace/` (a copy of test/fixtures/workspaces/<fixture>),
 * VS Code's user, server and extension dirs with the base settings plus
 * test/fixtures/workspaces/<fixture>.settings.json, and a Chromium profile dir.
 * On Ctrl-C the folder goes too (the run's own end handles the other cases).
 */
const sandboxTemps = new Map();
function prepareSandbox(label, fixture, version) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `mcpwb-${label}-${version}-`));
  const dirs = {
    workspace: path.join(tmp, 'workspace'),
    userData: path.join(tmp, 'user-data'),
    serverData: path.join(tmp, 'server-data'),
    extensions: path.join(tmp, 'extensions'),
    browser: path.join(tmp, 'chromium'),
  };
  for (const d of Object.values(dirs)) fs.mkdirSync(d, { recursive: true });
  // The temp folder of VS Code, its extension host and all they start (IPC sockets, js-debug's
  // callbacks, the TypeScript server's files, the tests' own exports): removed with the
  // sandbox, as VS Code killed at the end never removes its sockets itself. Kept short and
  // outside `tmp`, since a Unix socket path may not exceed 107 bytes.
  dirs.temp = fs.mkdtempSync(path.join(os.tmpdir(), 't'));
  sandboxTemps.set(tmp, dirs.temp);
  cleanups.push(() => interrupted && !process.env.MCPWB_KEEP_TMP && [tmp, dirs.temp].forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  fs.cpSync(path.join(REPO, 'test', 'fixtures', 'workspaces', fixture), dirs.workspace, { recursive: true });

  const settings = baseSettings(fixture === 'untrusted' ? 'untrusted' : 'trusted', version, fixture);
  const extraSettings = path.join(REPO, 'test', 'fixtures', 'workspaces', `${fixture}.settings.json`);
  const userSettings = { ...settings, ...(fs.existsSync(extraSettings) ? readJson(extraSettings) : {}) };
  writeJson(path.join(dirs.userData, 'User', 'settings.json'), userSettings);
  writeJson(path.join(dirs.serverData, 'data', 'Machine', 'settings.json'), settings);
  const kept = process.env.MCPWB_KEEP_GLOBAL_STORAGE;
  if (kept && fs.existsSync(kept)) fs.cpSync(kept, globalStorageOf(tmp), { recursive: true });
  return { tmp, dirs, serverLog: path.join(tmp, 'server.log') };
}

/**
 * The extension's global storage in a sandbox. MCPWB_KEEP_GLOBAL_STORAGE=<folder> carries it
 * from run to run (copied in before VS Code starts, back when the run's temp folder goes): a
 * run then activates the extension as a user's second window does, e.g. with the V8 code cache
 * the first activation made (src/codeCacheLoader.ts; docs/performance.md measures both).
 */
function globalStorageOf(tmp) {
  return path.join(tmp, 'user-data', 'User', 'globalStorage', 'mcp-workbench.mcp-workbench');
}

/** The environment every VS Code server gets (the fixture configs read MCPWB_FIXTURES). */
function sandboxEnv(dirs) {
  return {
    MCPWB_REPO: REPO,
    MCPWB_FIXTURES: path.join(REPO, 'out', 'test', 'fixtures'),
    MCPWB_WORKSPACE: dirs.workspace,
    // The user profile folder, where VS Code 1.102+ keeps the user's mcp.json.
    MCPWB_USER_PROFILE_DIR: path.join(dirs.userData, 'User'),
    // GitHub Copilot's user folder (its mcp-config.json is a config source): an empty one of the
    // run's own, so the servers of a developer's ~/.copilot never join a suite.
    COPILOT_HOME: path.join(dirs.temp, 'copilot-home'),
    TMPDIR: dirs.temp,
    TEMP: dirs.temp,
    TMP: dirs.temp,
  };
}

/** Headless Chromium on a persistent profile; returns { context, page, browserConsole }. */
async function launchBrowser(chromium, profileDir) {
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1400, height: 900 },
    // Our own handlers close everything in order; Playwright's would exit the process first.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  cleanups.push(() => context.close());
  // VS Code in a browser encrypts SecretStorage with a key it POSTs for at <base>/mint-key.
  // code-server's own CLI serves that route; the bare server-main we start does not (405), so
  // every secrets.store() would fail. Answer it here with one random key per run, as the
  // code-server host would (desktop VS Code uses the OS keychain instead).
  const mintKey = crypto.randomBytes(32);
  await context.route(/\/mint-key$/, (route) => route.fulfill({ status: 200, contentType: 'application/octet-stream', body: mintKey }));
  const page = context.pages()[0] ?? (await context.newPage());
  const browserConsole = [];
  page.on('console', (msg) => {
    const text = `[${msg.type()}] ${msg.text()}`;
    browserConsole.push(text);
    if (browserConsole.length > 5000) browserConsole.shift();
    if (VERBOSE) console.log(`[browser] ${text}`);
  });
  page.on('pageerror', (err) => browserConsole.push(`[pageerror] ${err.stack || err}`));
  // Pages the workbench opens (vscode.env.openExternal, e.g. an OAuth sign-in) are logged.
  context.on('page', (popup) => {
    if (popup === page) return;
    popup.on('framenavigated', (frame) => {
      if (frame === popup.mainFrame()) browserConsole.push(`[popup] ${frame.url()}`);
    });
  });
  return { context, page, browserConsole };
}

/**
 * After a failure: a screenshot (`shot`), the tails of VS Code's server/extension host logs
 * and of our extension's log channels printed, and in `outDir`: <name>-logs/ (VS Code's log
 * files), <name>.browser-console.log and <name>.server.log.
 */
async function saveFailureArtifacts({ outDir, name, shot, page, tmp, dirs, server, serverLog, browserConsole }) {
  fs.mkdirSync(outDir, { recursive: true });
  // The most common cause of a window without our UI, said first.
  const activation = browserConsole.find((l) => /Activating extension '[^']+' failed/.test(l));
  if (activation) {
    console.log(`[launcher] ${activation.replace(/^\[\w+\] (Error: )?/, '')}`);
    if (/ENOENT[^\n]*\/(dist|out)\//.test(activation)) {
      console.log('[launcher] (dist/ or out/ vanished: an `npm run build` running at the same time empties them)');
    }
  }
  if (shot) {
    try {
      await page.screenshot({ path: shot, timeout: 10_000 });
      log(`screenshot: ${path.relative(REPO, shot)}`);
    } catch (err) {
      log(`screenshot failed: ${err.message}`);
    }
  }
  // The server writes its logs under <user-data-dir>/logs/<timestamp>/: remoteagent.log,
  // exthost1/remoteexthost.log, and exthost1/<extension id>/<channel>.log for each
  // extension's LogOutputChannel (ours included).
  const logFiles = [dirs.userData, dirs.serverData].flatMap((d) => findFiles(path.join(d, 'logs'), /\.log$/));
  // First, each MCP server's life in a few lines (starts, connections, stops, exits): a failure in
  // the view is often a server that restarted under the test, and the tails below are long (CI
  // output may be cut before them).
  const lifeLine = /\b(Starting|Connected|Stopped|stopped|exited|crashed|restart|held back|Failed|failed)\b/;
  const timelines = logFiles
    .filter((f) => /mcp-workbench/.test(f) && /[\\/]MCP [^\\/]+\.log$/.test(f))
    .map((file) => {
      const lines = fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => lifeLine.test(l) && !/ [→←] /.test(l));
      return lines.length ? `${path.basename(file, '.log')}:\n${tail(lines.join('\n'), 8)}` : '';
    })
    .filter(Boolean);
  if (timelines.length) console.log(`\n--- MCP servers' starts and stops ---\n${timelines.join('\n')}`);
  for (const file of logFiles) {
    const rel = path.relative(tmp, file);
    if (/remoteexthost\.log$|remoteagent\.log$/.test(file) || rel.includes('mcp-workbench')) {
      const text = fs.readFileSync(file, 'utf8').trim();
      if (text) console.log(`\n--- tail of ${rel} ---\n${tail(text, 60)}`);
    }
  }
  const savedLogs = path.join(outDir, `${name}-logs`);
  fs.rmSync(savedLogs, { recursive: true, force: true });
  for (const file of logFiles) {
    const dest = path.join(savedLogs, path.relative(tmp, file));
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.copyFileSync(file, dest);
  }
  if (!logFiles.some((f) => f.endsWith('remoteagent.log'))) {
    console.log(`\n--- tail of the server output ---\n${tail(server.output, 30)}`);
  }
  // Errors the offline workbench always logs (no gallery, no service worker, no manifest).
  const noise = /Failed to load resource|Manifest fetch|ServiceWorker|Service Worker|open-vsx|bad HTTP response code/;
  // A webview's own errors are kept: a page that never loads names its cause only here.
  const errors = browserConsole.filter((l) => /^\[(error|pageerror)\]/.test(l) && (!noise.test(l) || /webview/i.test(l)));
  if (errors.length) console.log(`\n--- browser console errors (last 20) ---\n${errors.slice(-20).join('\n')}`);
  fs.writeFileSync(path.join(outDir, `${name}.browser-console.log`), browserConsole.join('\n') + '\n');
  if (fs.existsSync(serverLog)) fs.copyFileSync(serverLog, path.join(outDir, `${name}.server.log`));
}

/**
 * The `[error]` entries of the extension host logs (remoteexthost.log) that name our extension
 * (its id, or a file of the extension under test in a stack), each with its continuation lines,
 * trimmed. (Not the word "mcp-workbench" alone: VS Code's own cache folder has that name, and
 * VS Code logs cancelled createDirectory calls of its own at shutdown.)
 */
function extensionHostErrors(dirs, extensionPaths) {
  const ours = (entry) => entry.includes('mcp-workbench.mcp-workbench') || extensionPaths.some((p) => entry.includes(p + path.sep));
  const files = [dirs.userData, dirs.serverData].flatMap((d) => findFiles(path.join(d, 'logs'), /exthost\.log$/));
  const found = [];
  for (const file of files) {
    // Entries start with a timestamp; lines without one continue the entry above.
    const entries = fs.readFileSync(file, 'utf8').split(/\n(?=\d{4}-\d\d-\d\d )/);
    for (const entry of entries) {
      if (/\[error\]/.test(entry.split('\n')[0]) && ours(entry)) found.push(entry.trim().slice(0, 600));
    }
  }
  return found;
}

/**
 * Removes a run's temp folder, failed or not: what a failure needs is already copied to
 * test-results/runs/ (a kept folder was a leftover nobody looked at). MCPWB_KEEP_TMP=1 keeps it.
 */
function removeTemp(tmp) {
  const kept = process.env.MCPWB_KEEP_GLOBAL_STORAGE;
  if (kept && fs.existsSync(globalStorageOf(tmp))) {
    fs.rmSync(kept, { recursive: true, force: true });
    fs.cpSync(globalStorageOf(tmp), kept, { recursive: true });
  }
  const folders = [tmp, sandboxTemps.get(tmp)].filter(Boolean);
  sandboxTemps.delete(tmp);
  if (process.env.MCPWB_KEEP_TMP) {
    log(`kept temp folders ${folders.join(', ')}`);
    return;
  }
  for (const folder of folders) {
    try {
      fs.rmSync(folder, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    } catch (err) {
      log(`could not remove temp folder ${folder}: ${err.message}`);
    }
  }
}

/** Runs (in reverse order) the cleanups registered since `mark` = cleanups.length. */
async function cleanupSince(mark) {
  while (cleanups.length > mark) {
    try {
      await cleanups.pop()();
    } catch {
      // best effort
    }
  }
}

function readJsonIfAny(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Resolves `{ kind: 'timeout', reason }` when the suite stalls (its progress file, written after
 * every test, unchanged for SUITE_STALL_MS) or runs past SUITE_TIMEOUT_MS; the reason names the
 * variable that raises the limit.
 */
async function suiteLimit(resultFile, stopped) {
  const start = Date.now();
  let lastProgress = start;
  let lastMtime = 0;
  while (!stopped()) {
    await sleep(1000);
    try {
      const mtime = fs.statSync(`${resultFile}.progress`).mtimeMs;
      if (mtime !== lastMtime) {
        lastMtime = mtime;
        lastProgress = Date.now();
      }
    } catch {
      // no test has finished yet
    }
    const now = Date.now();
    if (now - start > SUITE_TIMEOUT_MS) {
      return { kind: 'timeout', reason: `timed out after ${Math.round(SUITE_TIMEOUT_MS / 1000)} s in all (MCPWB_SUITE_TIMEOUT_MS=<ms> raises the limit)` };
    }
    if (now - lastProgress > SUITE_STALL_MS) {
      return {
        kind: 'timeout',
        reason: `no test finished for ${Math.round(SUITE_STALL_MS / 1000)} s, so the suite looks hung (MCPWB_SUITE_STALL_MS=<ms> raises the limit)`,
      };
    }
  }
  return new Promise(() => {});
}

// ---------------------------------------------------------------------------------
async function runSuite(suite, { vscode, extensionPaths, chromium }) {
  const started = Date.now();
  const host = '127.0.0.1';
  const testsIndex = path.join(REPO, 'out', 'test', 'integration', 'index.js');
  if (!fs.existsSync(testsIndex)) throw new Error(`${testsIndex} is missing: run \`npm run build\` first`);
  const localCleanups = cleanups.length;
  const { tmp, dirs, serverLog } = prepareSandbox(suite, suite, vscode.version);
  const resultFile = path.join(tmp, 'result.json');
  const outputFile = path.join(tmp, 'output.log');

  const port = await freePort(host);
  const env = {
    MCPWB_SUITE: suite,
    MCPWB_RESULT_FILE: resultFile,
    MCPWB_OUTPUT_FILE: outputFile,
    ...sandboxEnv(dirs),
  };

  console.log(`\n=== suite ${suite} on VS Code ${vscode.version} (workspace ${workspaceTarget(dirs.workspace)}) ===`);
  const server = await startServer({
    vscode,
    host,
    port,
    userDataDir: dirs.userData,
    serverDataDir: dirs.serverData,
    extensionsDir: dirs.extensions,
    env,
    logFile: serverLog,
    extraArgs: installFixtureExtensions(suite, dirs.extensions),
  });

  // console.* in the extension host (mocha's reporter too) lands only in the browser's
  // console, mixed with the workbench's logs; test/integration/index.ts copies it to
  // MCPWB_OUTPUT_FILE, which is streamed here. (Direct process.stdout/stderr writes of the
  // extension host go to both: VS Code forwards them to console, and the server logs them
  // as `[ExtensionHostConnection] <pid><stderr> text`, shown with MCPWB_VERBOSE=1.)
  const outputTail = tailFile(outputFile, (line) => console.log(`  | ${line}`));
  cleanups.push(() => outputTail.stop());
  let exitCode;
  const exitSeen = new Promise((resolve) => {
    server.onLine((line) => {
      const m = EXIT_LINE.exec(line);
      if (m && exitCode === undefined) {
        exitCode = m[1] === 'null' ? null : Number(m[1]);
        resolve(exitCode);
      }
      if (VERBOSE) console.log(`[server] ${line}`);
    });
  });

  const { page, browserConsole } = await launchBrowser(chromium, dirs.browser);

  const payload = [...extensionPaths.map((p) => ['extensionDevelopmentPath', server.remote(p)]), ['extensionTestsPath', server.remote(testsIndex)]];
  const url = server.url(workspaceTarget(dirs.workspace), payload);
  if (VERBOSE) log(`opening ${url}`);
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });

  // Wait for: the extension host exiting (run() settled), the server dying, or timeout.
  // If the result is written but the extension host then does not exit (a hanging
  // deactivate(), say), go on with the result after a grace period.
  let stopPolling = false;
  const resultThenGrace = (async () => {
    while (!stopPolling && !fs.existsSync(resultFile)) await sleep(500);
    const graceEnd = Date.now() + 30_000;
    while (!stopPolling && Date.now() < graceEnd) await sleep(500);
    return { kind: 'result-without-exit' };
  })();
  const outcome = await Promise.race([
    resultThenGrace,
    exitSeen.then((code) => ({ kind: 'exited', code })),
    server.exited.then((code) => ({ kind: 'server-died', code })),
    suiteLimit(resultFile, () => stopPolling),
  ]);
  stopPolling = true;
  if (interrupted) return new Promise(() => {}); // the signal handler cleans up and exits
  if (outcome.kind === 'result-without-exit') log('the extension host did not exit within 30 s of writing its result');
  // The result file is written just before run() settles; allow the file system a moment.
  if (outcome.kind === 'exited') {
    for (let i = 0; i < 20 && !fs.existsSync(resultFile); i++) await sleep(250);
  }

  outputTail.flush();
  const printedTestOutput = outputTail.lines > 0;
  let result;
  if (fs.existsSync(resultFile)) {
    try {
      result = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
    } catch (err) {
      console.error(`[launcher] unreadable result file ${resultFile}: ${err}`);
    }
  }

  // Given up on (time limit, crash) before the final result: what ran so far, from the
  // progress file the suite writes after every test, so no result is thrown away unseen.
  let neverRan = 0;
  if (!result) {
    const progress = readJsonIfAny(`${resultFile}.progress`);
    if (progress) {
      result = progress;
      neverRan = Math.max(0, (progress.total ?? 0) - progress.tests.length);
    }
  }

  let problem;
  if (outcome.kind === 'timeout') problem = outcome.reason;
  else if (outcome.kind === 'server-died') problem = `VS Code server exited (${outcome.code}) before the tests finished`;
  else if (!result) problem = `extension host exited with code ${outcome.code} without writing a result`;
  else if (outcome.kind === 'exited' && outcome.code !== 0 && result.failed === 0) {
    problem = `extension host exited with code ${outcome.code}`;
  }

  // MCPWB_CHECK_EXTHOST_LOG=1 (the VSIX test): an error the extension host logged about our
  // extension (failed activation, an unhandled rejection in our bundle) fails the suite even
  // when every test passed, since a user would meet it in a normal window.
  if (!problem && process.env.MCPWB_CHECK_EXTHOST_LOG) {
    const hostErrors = extensionHostErrors(dirs, extensionPaths);
    if (hostErrors.length) problem = `the extension host logged ${hostErrors.length} error(s) about mcp-workbench:\n${hostErrors.slice(0, 5).join('\n')}`;
    else log('extension host log: no errors about mcp-workbench');
  }

  const passed = result?.passed ?? 0;
  // Tests that never ran because the suite was given up on count as failed: a tally of the
  // survivors alone would read almost green.
  const failed = (result?.failed ?? 0) + neverRan;
  const ok = !problem && failed === 0 && passed + (result?.pending ?? 0) > 0;
  if (!problem && !ok && failed === 0) problem = 'no tests ran';

  if (result) {
    for (const t of result.tests) {
      if (!printedTestOutput) console.log(`  ${t.state === 'passed' ? 'ok  ' : t.state === 'failed' ? 'FAIL' : 'skip'} ${t.title}`);
    }
    for (const f of result.failures) {
      // The reporter's output above already has the stacks; repeat them only if it is missing.
      failedNames.push(`${suite} on VS Code ${vscode.version}: ${f.title}: ${f.error.split('\n')[0]}`);
      if (printedTestOutput) console.log(`  FAILED: ${f.title}: ${f.error.split('\n')[0]}`);
      else console.log(`\n  FAILED: ${f.title}\n${f.error.replace(/^/gm, '    ')}`);
    }
  }

  if (!ok) {
    if (problem) {
      console.log(`\n[launcher] suite ${suite}: ${problem}`);
      failedNames.push(`${suite} on VS Code ${vscode.version}: ${problem.split('\n')[0]}`);
    }
    if (result && result.done === false) {
      console.log(
        `[launcher] suite ${suite} stopped early: ${result.passed} passed, ${result.failed} failed, ${neverRan} of ${result.total} never ran (counted as failed)`,
      );
    }
    const outDir = path.join(EVIDENCE, vscode.version);
    await saveFailureArtifacts({ outDir, name: suite, shot: path.join(outDir, `${suite}.png`), page, tmp, dirs, server, serverLog, browserConsole });
    // Webviews still open at the end (blank, loading, or an error page) are nested frames the screenshot cannot explain.
    await saveFrames(page, path.join(outDir, `${suite}.frames.txt`));
    for (const [file, as] of [
      [outputFile, `${suite}.output.log`],
      [resultFile, `${suite}.result.json`],
      [`${resultFile}.progress`, `${suite}.progress.json`],
    ]) {
      if (fs.existsSync(file)) fs.copyFileSync(file, path.join(outDir, as));
    }
    log(`evidence: ${path.relative(REPO, outDir)}/${suite}*`);
  }

  // Stop the browser and the server (and everything registered since this suite began).
  await cleanupSince(localCleanups);
  removeTemp(tmp);

  const secs = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`=== suite ${suite} on VS Code ${vscode.version}: ${passed} passed, ${failed} failed${problem ? ` (${problem})` : ''} in ${secs} s ===`);
  return { passed, failed, crashed: !!problem };
}

// ---------------------------------------------------------------------------------
// Playwright e2e tests: test/e2e/<name>.e2e.mjs modules that click through the real
// workbench. Each runs in a normal window (no extensionTestsPath) on a fresh copy of the
// `main` fixture workspace, with the extension(s) under development loaded.
const E2E_DIR = path.join(REPO, 'test', 'e2e');
const E2E_RESULTS = path.join(REPO, 'test-results', 'e2e');
const E2E_STEP_TIMEOUT_MS = Number(process.env.MCPWB_E2E_STEP_TIMEOUT_MS || 60_000);
const E2E_ACTION_TIMEOUT_MS = Number(process.env.MCPWB_E2E_ACTION_TIMEOUT_MS || 30_000);

/** The modules to run: the given files or names (`explorer` = test/e2e/explorer.e2e.mjs), else all. */
function e2eModules(given) {
  if (!given.length) {
    const all = fs.existsSync(E2E_DIR)
      ? fs
          .readdirSync(E2E_DIR)
          .filter((n) => n.endsWith('.e2e.mjs'))
          .sort()
      : [];
    if (!all.length) throw new Error('no test/e2e/*.e2e.mjs modules found');
    return all.map((n) => path.join(E2E_DIR, n));
  }
  return given.map((g) => {
    const candidates = [path.resolve(g), path.join(E2E_DIR, g), path.join(E2E_DIR, `${g}.e2e.mjs`)];
    const found = candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
    if (!found) throw new Error(`e2e module ${g} not found (tried ${candidates.map((c) => path.relative(REPO, c)).join(', ')})`);
    return found;
  });
}

/** The first lines of an error: Playwright's call logs are long; the stack is noise here. */
function errorSummary(err, lines = 12) {
  const text = String(err?.message ?? err).replace(/\u001b\[[0-9;]*m/g, '');
  return text.split('\n').slice(0, lines).join('\n');
}

class StepFailed extends Error {}

/**
 * Writes every frame's URL and the start of its visible text: webviews are nested iframes
 * the screenshot cannot explain (blank, still loading, or showing an error).
 */
async function saveFrames(page, file) {
  const parts = [];
  for (const frame of page.frames()) {
    let depth = 0;
    for (let f = frame.parentFrame(); f; f = f.parentFrame()) depth++;
    const text = await frame
      .evaluate(() => document.body?.innerText ?? '(no body)')
      .catch((err) => `(not readable: ${String(err.message ?? err).split('\n')[0]})`);
    const indent = '  '.repeat(depth);
    parts.push(`${indent}${frame.url()}\n${indent}  ${text.slice(0, 1000).replace(/\n/g, `\n${indent}  `)}`);
  }
  try {
    fs.writeFileSync(file, parts.join('\n\n') + '\n');
    log(`frames: ${path.relative(REPO, file)}`);
  } catch (err) {
    log(`frames not saved: ${err.message}`);
  }
}

/**
 * Runs one e2e module: `export async function run({ page, screenshot, step, workspace, ... })`.
 * Counts steps: the launcher's own "open the workbench" step plus every step() of the module.
 * After the first failing step the module is stopped (later steps are neither run nor counted).
 */
async function runE2eModule(file, { vscode, extensionPaths, chromium }) {
  const started = Date.now();
  const name = path.basename(file).replace(/\.e2e\.mjs$|\.mjs$/, '');
  const host = '127.0.0.1';
  const mod = await import(pathToFileURL(file).href);
  if (typeof mod.run !== 'function') throw new Error(`${path.relative(REPO, file)} does not export run()`);
  const localCleanups = cleanups.length;
  const { tmp, dirs, serverLog } = prepareSandbox(`e2e-${name}`, 'main', vscode.version);
  // A module may declare keybindings: how a test runs a command hidden from the palette.
  // Written before the workbench starts (the web workbench does not pick up later edits).
  if (Array.isArray(mod.keybindings)) writeJson(path.join(dirs.userData, 'User', 'keybindings.json'), mod.keybindings);
  const target = workspaceTarget(dirs.workspace);
  const results = path.join(E2E_RESULTS, vscode.version);
  console.log(`\n=== e2e ${name} on VS Code ${vscode.version} (workspace ${target}) ===`);

  const server = await startServer({
    vscode,
    host,
    port: await freePort(host),
    userDataDir: dirs.userData,
    serverDataDir: dirs.serverData,
    extensionsDir: dirs.extensions,
    env: { MCPWB_E2E: name, ...sandboxEnv(dirs), ...mod.env },
    logFile: serverLog,
    extraArgs: installFixtureExtensions('e2e', dirs.extensions),
  });
  if (VERBOSE) server.onLine((line) => console.log(`[server] ${line}`));
  const { page, browserConsole } = await launchBrowser(chromium, dirs.browser);
  page.setDefaultTimeout(E2E_ACTION_TIMEOUT_MS);

  let passed = 0;
  let failure; // { title, message }
  let stepNo = 0;
  const step = async (title, fn, { timeout = E2E_STEP_TIMEOUT_MS } = {}) => {
    if (failure) throw new StepFailed(`not run after the failure of "${failure.title}"`);
    const n = ++stepNo;
    const t0 = Date.now();
    let timer;
    try {
      await Promise.race([
        Promise.resolve().then(fn),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`step timed out after ${timeout / 1000} s`)), timeout);
        }),
        server.exited.then((code) => {
          throw new Error(`the VS Code server exited (${code})`);
        }),
      ]);
    } catch (err) {
      if (interrupted) return new Promise(() => {}); // the signal handler cleans up and exits
      const secs = ((Date.now() - t0) / 1000).toFixed(1);
      failure = { title, message: errorSummary(err) };
      console.log(`  FAIL ${n}. ${title} (${secs} s)\n${failure.message.replace(/^/gm, '       ')}`);
      throw new StepFailed(`step "${title}" failed: ${failure.message.split('\n')[0]}`);
    } finally {
      clearTimeout(timer);
    }
    passed++;
    console.log(`  ok   ${n}. ${title} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  };
  const screenshot = async (shotName, options = {}) => {
    const file = path.join(results, `${shotName}.png`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await page.screenshot({ ...options, path: file });
    console.log(`       screenshot ${path.relative(REPO, file)}`);
    return file;
  };

  try {
    await step(
      'open the workbench with the extension loaded',
      async () => {
        const payload = extensionPaths.map((p) => ['extensionDevelopmentPath', server.remote(p)]);
        const url = server.url(target, payload);
        if (VERBOSE) log(`opening ${url}`);
        await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
        await page.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: 60_000 });
      },
      { timeout: 90_000 },
    );
    await mod.run({
      page,
      step,
      screenshot,
      workspace: dirs.workspace,
      workspaceFile: target,
      vscodeVersion: vscode.version,
      log: (...args) => console.log('      ', ...args),
    });
  } catch (err) {
    if (interrupted) return new Promise(() => {});
    if (!failure) {
      // Thrown outside any step (or a step's error swallowed and another thrown).
      failure = { title: '(outside a step)', message: errorSummary(err) };
      console.log(`  FAIL ${name}: ${failure.message.replace(/\n/g, '\n       ')}`);
    }
  }
  if (!failure && passed < 2) failure = { title: '(module)', message: 'run() ran no steps' };
  if (failure) failedNames.push(`e2e ${name} on VS Code ${vscode.version}: ${failure.title}: ${failure.message.split('\n')[0]}`);

  if (failure) {
    console.log(`\n[launcher] e2e ${name}: failed at "${failure.title}"`);
    const outDir = path.join(EVIDENCE, 'e2e', vscode.version);
    await saveFailureArtifacts({ outDir, name, shot: path.join(outDir, `${name}.failure.png`), page, tmp, dirs, server, serverLog, browserConsole });
    await saveFrames(page, path.join(outDir, `${name}.frames.txt`));
    log(`evidence: ${path.relative(REPO, outDir)}/${name}*`);
  }
  await cleanupSince(localCleanups);
  removeTemp(tmp);
  const failed = failure ? 1 : 0;
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `=== e2e ${name} on VS Code ${vscode.version}: ${passed} steps passed, ${failed} failed${failed ? " (the module's later steps did not run)" : ''} in ${secs} s ===`,
  );
  return { passed, failed };
}

/**
 * What to open for a workspace copy: its single top-level `*.code-workspace` file if it
 * has one (a multi-root workspace, e.g. test/fixtures/workspaces/main/main.code-workspace),
 * else the folder itself.
 */
function workspaceTarget(dir) {
  const files = fs.readdirSync(dir).filter((n) => n.endsWith('.code-workspace'));
  if (files.length > 1) throw new Error(`${dir} has several .code-workspace files: ${files.join(', ')}`);
  return files.length === 1 ? path.join(dir, files[0]) : dir;
}

/** Follows a file that another process appends to; calls onLine per complete line. */
function tailFile(file, onLine) {
  let pos = 0;
  let partial = '';
  const tailer = { lines: 0 };
  tailer.flush = () => {
    let fd;
    try {
      fd = fs.openSync(file, 'r');
    } catch {
      return;
    }
    try {
      const buf = Buffer.alloc(64 * 1024);
      for (;;) {
        const n = fs.readSync(fd, buf, 0, buf.length, pos);
        if (n <= 0) break;
        pos += n;
        const lines = (partial + buf.toString('utf8', 0, n)).split('\n');
        partial = lines.pop();
        for (const line of lines) {
          tailer.lines++;
          onLine(line);
        }
      }
    } finally {
      fs.closeSync(fd);
    }
  };
  const timer = setInterval(tailer.flush, 200);
  tailer.stop = () => {
    clearInterval(timer);
    tailer.flush();
    if (partial) onLine(partial);
    partial = '';
  };
  return tailer;
}

// ---------------------------------------------------------------------------------
async function keepOpen({ vscode, extensionPaths, folder, port, portChosen }) {
  const host = process.env.HOST || '127.0.0.1';
  // Before, a port already in use (another `npm start`, any dev server) passed the readiness
  // check, because whatever answered there counted, and the printed URL opened someone else's page.
  if (!(await portIsFree(port, host))) {
    if (portChosen) throw new Error(`port ${port} on ${host} is already in use: stop what uses it, or choose another port (PORT=<n> npm start)`);
    const fallback = await freePort(host);
    console.log(`[launcher] port ${port} is in use by another program; using ${fallback} instead (PORT=<n> chooses one)`);
    port = fallback;
  }
  // MCPWB_KEEP_OPEN_STATE: another place for it (the test of `npm start` keeps a developer's own state out of it).
  const state = process.env.MCPWB_KEEP_OPEN_STATE || path.join(REPO, '.vscode-test', `code-server-${vscode.version}`);
  const dirs = {
    userData: path.join(state, 'user-data'),
    serverData: path.join(state, 'server-data'),
    extensions: path.join(state, 'extensions'),
  };
  for (const d of Object.values(dirs)) fs.mkdirSync(d, { recursive: true });
  const userSettingsFile = path.join(dirs.userData, 'User', 'settings.json');
  if (!fs.existsSync(userSettingsFile)) writeJson(userSettingsFile, baseSettings('trusted', vscode.version));
  const server = await startServer({
    vscode,
    host,
    port,
    userDataDir: dirs.userData,
    serverDataDir: dirs.serverData,
    extensionsDir: dirs.extensions,
    env: { MCPWB_REPO: REPO, MCPWB_FIXTURES: path.join(REPO, 'out', 'test', 'fixtures'), MCPWB_WORKSPACE: folder },
    logFile: path.join(state, 'server.log'),
    connectionToken: crypto.randomBytes(16).toString('hex'),
  });
  const payload = extensionPaths.map((p) => ['extensionDevelopmentPath', server.remote(p)]);
  const target = folder.endsWith('.code-workspace') ? folder : workspaceTarget(folder);
  console.log(`\nOpen ${server.url(target, payload)}\n`);
  console.log(`(VS Code ${vscode.version} in the browser, with the extension from ${extensionPaths.join(', ')}; Ctrl-C to stop)`);
  const code = await server.exited;
  if (interrupted) return new Promise(() => {}); // the signal handler exits
  throw new Error(`VS Code server exited (${code}); see ${path.join(state, 'server.log')}`);
}

// ---------------------------------------------------------------------------------
async function main() {
  const { values, positionals } = parseArgs({
    options: {
      suite: { type: 'string', multiple: true },
      vsix: { type: 'string' },
      'extension-path': { type: 'string', multiple: true },
      'keep-open': { type: 'boolean' },
      folder: { type: 'string' },
      port: { type: 'string' },
      e2e: { type: 'boolean' },
      vscode: { type: 'string', multiple: true },
    },
    strict: true,
    allowPositionals: true,
  });
  if (positionals.length && !values.e2e) throw new Error(`unexpected argument ${positionals[0]} (module names are for --e2e)`);
  if (values.e2e && (values.suite?.length || values['keep-open'])) throw new Error('--e2e cannot be combined with --suite or --keep-open');

  const versions = selectVersions(values.vscode);

  let extensionPaths = (values['extension-path'] ?? []).map((p) => path.resolve(p));
  if (values.vsix) {
    const dest = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-vsix-'));
    // Removed at exit, not through `cleanups`: cleanupAll() runs after each VS Code version,
    // and the next version found the unzipped extension gone ("extension not found" on 1.139).
    process.on('exit', () => fs.rmSync(dest, { recursive: true, force: true }));
    const ext = unzipVsix(path.resolve(values.vsix), dest);
    log(`testing the packaged extension ${values.vsix} (unzipped to ${ext})`);
    extensionPaths = [ext, ...extensionPaths];
  }
  if (extensionPaths.length === 0) extensionPaths = [REPO];
  if (extensionPaths.length > 1) {
    log(
      `warning: the browser workbench loads only the last extensionDevelopmentPath (${extensionPaths[extensionPaths.length - 1]}); put test-only extensions in test/fixtures/extensions/ instead`,
    );
  }

  if (values['keep-open']) {
    const portChosen = Boolean(values.port || process.env.PORT);
    const port = Number(values.port || process.env.PORT || 3010);
    let folder = values.folder && path.resolve(values.folder);
    if (!folder) {
      folder = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-main-'));
      fs.cpSync(path.join(REPO, 'test', 'fixtures', 'workspaces', 'main'), folder, { recursive: true });
    }
    await keepOpen({ vscode: ensureVSCode(versions[0]), extensionPaths, folder, port, portChosen });
    return 0;
  }

  if (values.e2e) return runE2e(positionals, { versions, extensionPaths });

  let suites = values.suite;
  if (!suites?.length) {
    const integ = path.join(REPO, 'test', 'integration');
    suites = fs
      .readdirSync(integ, { withFileTypes: true })
      .filter((e) => e.isDirectory() && fs.existsSync(path.join(REPO, 'test', 'fixtures', 'workspaces', e.name)))
      .map((e) => e.name)
      .sort((a, b) => (a === 'main' ? -1 : b === 'main' ? 1 : a.localeCompare(b)));
  }
  for (const s of suites) {
    if (!fs.existsSync(path.join(REPO, 'test', 'fixtures', 'workspaces', s))) {
      throw new Error(`suite ${s}: test/fixtures/workspaces/${s}/ does not exist`);
    }
  }
  if (suites.length === 0) throw new Error('no integration suites found');

  const { chromium } = await import('playwright-core');
  const totals = [];
  for (const version of versions) {
    let passed = 0;
    let failed = 0;
    const crashed = [];
    let vscode;
    try {
      vscode = ensureVSCode(version);
    } catch (err) {
      console.error(`[launcher] VS Code ${version}: ${err.message}`);
      crashed.push('(install)');
    }
    for (const suite of vscode ? suites : []) {
      let r;
      try {
        r = await runSuite(suite, { vscode, extensionPaths, chromium });
      } catch (err) {
        if (interrupted) return new Promise(() => {}); // the signal handler exits
        console.error(`[launcher] suite ${suite} on VS Code ${version} crashed: ${err.stack || err}`);
        failedNames.push(`${suite} on VS Code ${version}: the launcher crashed: ${String(err.message || err).split('\n')[0]}`);
        await cleanupAll();
        r = { passed: 0, failed: 0, crashed: true };
      }
      passed += r.passed;
      failed += r.failed;
      if (r.crashed) crashed.push(suite);
    }
    await cleanupAll();
    if (crashed.length) console.log(`[launcher] on VS Code ${version}, suites that crashed or timed out: ${crashed.join(', ')}`);
    // A crashed suite counts at least one failure, so the summary line never reads green.
    if (crashed.length && failed === 0) failed = crashed.length;
    totals.push({ version, passed, failed });
  }
  return summarize('integration', totals);
}

/**
 * Prints one line per version, `<kind> (VS Code <version>): N passed, M failed`, then the
 * total as the last line, `<kind>: N passed, M failed`. Returns the exit code.
 */
function summarize(kind, totals) {
  // The VSIX stage's smoke run says so (MCPWB_TALLY_LABEL), not `integration`.
  kind = process.env.MCPWB_TALLY_LABEL || kind;
  console.log('');
  // A few failures keep their whole message (a CI log keeps only its tail, and a wait's message
  // says why it gave up); many are cut so the tail still names them all.
  const max = failedNames.length <= 3 ? 1000 : 240;
  const shown = failedNames.slice(0, 20).map((line) => (line.length > max ? `${line.slice(0, max - 1)}…` : line));
  for (const line of shown) console.log(`failed: ${line}`);
  if (failedNames.length > shown.length) console.log(`failed: …and ${failedNames.length - shown.length} more (above)`);
  for (const t of totals) console.log(`${kind} (VS Code ${t.version}): ${t.passed} passed, ${t.failed} failed`);
  const passed = totals.reduce((n, t) => n + t.passed, 0);
  const failed = totals.reduce((n, t) => n + t.failed, 0);
  console.log(`${kind}: ${passed} passed, ${failed} failed`);
  return failed > 0 ? 1 : 0;
}

async function runE2e(given, { versions, extensionPaths }) {
  const modules = e2eModules(given);
  if (!fs.existsSync(path.join(REPO, 'dist', 'extension.js')) || !fs.existsSync(path.join(REPO, 'out', 'test', 'fixtures', 'servers', 'stdioServer.js'))) {
    throw new Error('dist/extension.js or out/test/fixtures is missing: run `npm run build` first');
  }
  // Screenshots of this run only: stale ones would pass for the current UI.
  fs.rmSync(E2E_RESULTS, { recursive: true, force: true });
  const { chromium } = await import('playwright-core');
  const totals = [];
  for (const version of versions) {
    let passed = 0;
    let failed = 0;
    let vscode;
    try {
      vscode = ensureVSCode(version);
    } catch (err) {
      console.error(`[launcher] VS Code ${version}: ${err.message}`);
      failed++;
    }
    for (const file of vscode ? modules : []) {
      let r;
      try {
        r = await runE2eModule(file, { vscode, extensionPaths, chromium });
      } catch (err) {
        if (interrupted) return new Promise(() => {}); // the signal handler exits
        console.error(`[launcher] e2e ${path.basename(file)} on VS Code ${version} crashed: ${err.stack || err}`);
        failedNames.push(`e2e ${path.basename(file)} on VS Code ${version}: the launcher crashed: ${String(err.message || err).split('\n')[0]}`);
        await cleanupAll();
        r = { passed: 0, failed: 1 };
      }
      passed += r.passed;
      failed += r.failed;
    }
    await cleanupAll();
    totals.push({ version, passed, failed });
  }
  return summarize('e2e', totals);
}

main().then(
  (code) => process.exit(code),
  async (err) => {
    if (interrupted) return; // the signal handler cleans up and exits
    await cleanupAll();
    if (process.argv.includes('--keep-open')) {
      // `npm start`: no tests ran, so no test tally; the reason in one line is what helps.
      console.error(`[launcher] could not start VS Code: ${err.message || err}`);
      process.exit(1);
    }
    console.error(`[launcher] ${err.stack || err}`);
    console.log(`${process.env.MCPWB_TALLY_LABEL || (process.argv.includes('--e2e') ? 'e2e' : 'integration')}: 0 passed, 1 failed`);
    process.exit(1);
  },
);
