#!/usr/bin/env node
// Runs the integration suites inside a real VS Code (1.100.3, the build that ships in
// the npm package code-server), offline: VS Code's own server + headless Chromium.
// See shared/notes/testing-in-real-vscode.md for the recipe.
//
//   node test/launch/runInCodeServer.mjs [--suite NAME]... [--vsix FILE]
//        [--extension-path DIR]... [--keep-open [--folder DIR] [--port N]]
//
// --suite NAME         run test/integration/NAME (compiled in out/) against a fresh copy
//                      of test/fixtures/workspaces/NAME (opened as its single top-level
//                      *.code-workspace file if it has one, else as a folder); repeatable.
//                      Default: every test/integration/<dir> that has a
//                      test/fixtures/workspaces/<dir>; `main` first.
// --vsix FILE          test the packaged extension: unzip FILE and load its extension/
// --extension-path DIR load DIR as development extension instead of the repo root
//                      (repeatable, e.g. for a test-only fixture extension)
// --keep-open          run no tests: start VS Code, print the URL, wait for Ctrl-C
//   --folder DIR       the folder (or .code-workspace file) to open (default: a copy of
//                      the `main` workspace)
//   --port N           the port (default: env PORT, else 3010); host: env HOST or 127.0.0.1
//
// Environment: MCPWB_SUITE_TIMEOUT_MS (default 600000 per suite), MCPWB_VSCODE_CACHE
// (see scripts/install-vscode.sh), MCPWB_KEEP_TMP=1 keeps the temp folders,
// MCPWB_VERBOSE=1 echoes every browser console and server line.
//
// The VS Code server and the extension host it spawns get MCPWB_SUITE,
// MCPWB_RESULT_FILE, MCPWB_OUTPUT_FILE, MCPWB_REPO, MCPWB_FIXTURES and MCPWB_WORKSPACE
// (the temp copy of the workspace folder) in their env. The suite's result comes from
// MCPWB_RESULT_FILE, not from the extension host's exit code: in this browser-based
// VS Code the extension host exits with 0 even when run() rejects.
// On failure: test-results/<suite>.png (screenshot), <suite>-logs/ (VS Code's log files),
// <suite>.browser-console.log and <suite>.server.log; the temp folder is kept.
// Last line printed: `integration: N passed, M failed`; exit code 0 only if all passed.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const VSCODE_VERSION = '1.100.3';
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
const SUITE_TIMEOUT_MS = Number(process.env.MCPWB_SUITE_TIMEOUT_MS || 10 * 60 * 1000);
const VERBOSE = !!process.env.MCPWB_VERBOSE;
const EXIT_LINE = /Extension Host Process exited with code: (-?\d+|null)/;

// ---------------------------------------------------------------------------------
// Cleanup: everything started registers here, so Ctrl-C and failures kill it all.
const cleanups = [];
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
function ensureVSCode() {
  const cacheRoot = process.env.MCPWB_VSCODE_CACHE || path.join(os.homedir(), '.cache', 'mcp-workbench');
  const dir = path.join(cacheRoot, `vscode-${VSCODE_VERSION}`);
  const vscodeDir = path.join(dir, 'node_modules', 'code-server', 'lib', 'vscode');
  if (fs.existsSync(path.join(dir, '.installed'))) return vscodeDir;
  log(`VS Code ${VSCODE_VERSION} not installed yet; running scripts/install-vscode.sh`);
  const res = spawnSync('bash', [path.join(REPO, 'scripts', 'install-vscode.sh')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  if (res.status !== 0) throw new Error(`scripts/install-vscode.sh failed (exit ${res.status})`);
  const printed = res.stdout.trim().split('\n').pop();
  return printed || vscodeDir;
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
async function startServer({ vscodeDir, host, port, userDataDir, serverDataDir, extensionsDir, env, logFile }) {
  const args = [
    path.join(vscodeDir, 'out', 'server-main.js'),
    '--host', host,
    '--port', String(port),
    '--without-connection-token',
    '--accept-server-license-terms',
    '--user-data-dir', userDataDir,
    '--server-data-dir', serverDataDir,
    '--extensions-dir', extensionsDir,
  ];
  const childEnv = { ...process.env, ...env };
  // Variables of a surrounding VS Code (integrated terminal) would confuse this one.
  for (const key of Object.keys(childEnv)) {
    if (key.startsWith('VSCODE_') || key === 'ELECTRON_RUN_AS_NODE') delete childEnv[key];
  }
  const child = spawn(process.execPath, args, {
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
    if (payload) url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    return url;
  };
  server.remote = (absPath) => `vscode-remote://${host}:${port}${absPath}`;
  return server;
}

function baseSettings(trusted) {
  return {
    'security.workspace.trust.enabled': trusted === 'untrusted',
    ...(trusted === 'untrusted' ? { 'security.workspace.trust.startupPrompt': 'never' } : {}),
    'workbench.startupEditor': 'none',
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
async function runSuite(suite, { vscodeDir, extensionPaths, chromium }) {
  const started = Date.now();
  const host = '127.0.0.1';
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `mcpwb-${suite}-`));
  const dirs = {
    workspace: path.join(tmp, 'workspace'),
    userData: path.join(tmp, 'user-data'),
    serverData: path.join(tmp, 'server-data'),
    extensions: path.join(tmp, 'extensions'),
    browser: path.join(tmp, 'chromium'),
  };
  for (const d of Object.values(dirs)) fs.mkdirSync(d, { recursive: true });
  // On Ctrl-C the temp folder goes too (the suite's own end handles the other cases).
  const localCleanups = cleanups.length;
  cleanups.push(() => interrupted && !process.env.MCPWB_KEEP_TMP && fs.rmSync(tmp, { recursive: true, force: true }));
  const resultFile = path.join(tmp, 'result.json');
  const serverLog = path.join(tmp, 'server.log');
  const outputFile = path.join(tmp, 'output.log');
  const testsIndex = path.join(REPO, 'out', 'test', 'integration', 'index.js');
  if (!fs.existsSync(testsIndex)) throw new Error(`${testsIndex} is missing: run \`npm run build\` first`);

  fs.cpSync(path.join(REPO, 'test', 'fixtures', 'workspaces', suite), dirs.workspace, { recursive: true });

  const settings = baseSettings(suite === 'untrusted' ? 'untrusted' : 'trusted');
  const extraSettings = path.join(REPO, 'test', 'fixtures', 'workspaces', `${suite}.settings.json`);
  const userSettings = { ...settings, ...(fs.existsSync(extraSettings) ? readJson(extraSettings) : {}) };
  writeJson(path.join(dirs.userData, 'User', 'settings.json'), userSettings);
  writeJson(path.join(dirs.serverData, 'data', 'Machine', 'settings.json'), settings);

  const port = await freePort(host);
  const env = {
    MCPWB_SUITE: suite,
    MCPWB_RESULT_FILE: resultFile,
    MCPWB_OUTPUT_FILE: outputFile,
    MCPWB_REPO: REPO,
    MCPWB_FIXTURES: path.join(REPO, 'out', 'test', 'fixtures'),
    MCPWB_WORKSPACE: dirs.workspace,
  };

  console.log(`\n=== suite ${suite} (workspace ${workspaceTarget(dirs.workspace)}) ===`);
  const server = await startServer({
    vscodeDir,
    host,
    port,
    userDataDir: dirs.userData,
    serverDataDir: dirs.serverData,
    extensionsDir: dirs.extensions,
    env,
    logFile: serverLog,
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

  const context = await chromium.launchPersistentContext(dirs.browser, {
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
  const page = context.pages()[0] ?? (await context.newPage());
  const browserConsole = [];
  page.on('console', (msg) => {
    const text = `[${msg.type()}] ${msg.text()}`;
    browserConsole.push(text);
    if (browserConsole.length > 5000) browserConsole.shift();
    if (VERBOSE) console.log(`[browser] ${text}`);
  });
  page.on('pageerror', (err) => browserConsole.push(`[pageerror] ${err.stack || err}`));

  const payload = [
    ...extensionPaths.map((p) => ['extensionDevelopmentPath', server.remote(p)]),
    ['extensionTestsPath', server.remote(testsIndex)],
  ];
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
    sleep(SUITE_TIMEOUT_MS).then(() => ({ kind: 'timeout' })),
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

  let problem;
  if (outcome.kind === 'timeout') problem = `timed out after ${SUITE_TIMEOUT_MS / 1000} s`;
  else if (outcome.kind === 'server-died') problem = `VS Code server exited (${outcome.code}) before the tests finished`;
  else if (!result) problem = `extension host exited with code ${outcome.code} without writing a result`;
  else if (outcome.kind === 'exited' && outcome.code !== 0 && result.failed === 0) {
    problem = `extension host exited with code ${outcome.code}`;
  }

  const passed = result?.passed ?? 0;
  const failed = result?.failed ?? 0;
  const ok = !problem && failed === 0 && passed + (result?.pending ?? 0) > 0;
  if (!problem && !ok && failed === 0) problem = 'no tests ran';

  if (result) {
    for (const t of result.tests) {
      if (!printedTestOutput) console.log(`  ${t.state === 'passed' ? 'ok  ' : t.state === 'failed' ? 'FAIL' : 'skip'} ${t.title}`);
    }
    for (const f of result.failures) {
      // The reporter's output above already has the stacks; repeat them only if it is missing.
      if (printedTestOutput) console.log(`  FAILED: ${f.title}: ${f.error.split('\n')[0]}`);
      else console.log(`\n  FAILED: ${f.title}\n${f.error.replace(/^/gm, '    ')}`);
    }
  }

  if (!ok) {
    if (problem) console.log(`\n[launcher] suite ${suite}: ${problem}`);
    fs.mkdirSync(path.join(REPO, 'test-results'), { recursive: true });
    const shot = path.join(REPO, 'test-results', `${suite}.png`);
    try {
      await page.screenshot({ path: shot, timeout: 10_000 });
      log(`screenshot: ${path.relative(REPO, shot)}`);
    } catch (err) {
      log(`screenshot failed: ${err.message}`);
    }
    // The server writes its logs under <user-data-dir>/logs/<timestamp>/: remoteagent.log,
    // exthost1/remoteexthost.log, and exthost1/<extension id>/<channel>.log for each
    // extension's LogOutputChannel (ours included).
    const logFiles = [dirs.userData, dirs.serverData].flatMap((d) => findFiles(path.join(d, 'logs'), /\.log$/));
    for (const file of logFiles) {
      const rel = path.relative(tmp, file);
      if (/remoteexthost\.log$|remoteagent\.log$/.test(file) || rel.includes('mcp-workbench')) {
        const text = fs.readFileSync(file, 'utf8').trim();
        if (text) console.log(`\n--- tail of ${rel} ---\n${tail(text, 60)}`);
      }
    }
    const savedLogs = path.join(REPO, 'test-results', `${suite}-logs`);
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
    const errors = browserConsole.filter((l) => /^\[(error|pageerror)\]/.test(l) && !noise.test(l));
    if (errors.length) console.log(`\n--- browser console errors (last 20) ---\n${errors.slice(-20).join('\n')}`);
    fs.writeFileSync(path.join(REPO, 'test-results', `${suite}.browser-console.log`), browserConsole.join('\n') + '\n');
    fs.copyFileSync(serverLog, path.join(REPO, 'test-results', `${suite}.server.log`));
  }

  // Stop the browser and the server (and everything registered since this suite began).
  while (cleanups.length > localCleanups) {
    try {
      await cleanups.pop()();
    } catch {
      // best effort
    }
  }
  if (ok && !process.env.MCPWB_KEEP_TMP) fs.rmSync(tmp, { recursive: true, force: true });
  else log(`kept temp folder ${tmp}`);

  const secs = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`=== suite ${suite}: ${passed} passed, ${failed} failed${problem ? ` (${problem})` : ''} in ${secs} s ===`);
  return { passed, failed, crashed: !!problem };
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
async function keepOpen({ vscodeDir, extensionPaths, folder, port }) {
  const host = process.env.HOST || '127.0.0.1';
  const state = path.join(REPO, '.vscode-test', 'code-server');
  const dirs = {
    userData: path.join(state, 'user-data'),
    serverData: path.join(state, 'server-data'),
    extensions: path.join(state, 'extensions'),
  };
  for (const d of Object.values(dirs)) fs.mkdirSync(d, { recursive: true });
  const userSettingsFile = path.join(dirs.userData, 'User', 'settings.json');
  if (!fs.existsSync(userSettingsFile)) writeJson(userSettingsFile, baseSettings('trusted'));
  const server = await startServer({
    vscodeDir,
    host,
    port,
    userDataDir: dirs.userData,
    serverDataDir: dirs.serverData,
    extensionsDir: dirs.extensions,
    env: { MCPWB_REPO: REPO, MCPWB_FIXTURES: path.join(REPO, 'out', 'test', 'fixtures'), MCPWB_WORKSPACE: folder },
    logFile: path.join(state, 'server.log'),
  });
  const payload = extensionPaths.map((p) => ['extensionDevelopmentPath', server.remote(p)]);
  const target = folder.endsWith('.code-workspace') ? folder : workspaceTarget(folder);
  console.log(`\nOpen ${server.url(target, payload)}\n`);
  console.log(`(VS Code ${VSCODE_VERSION} in the browser, with the extension from ${extensionPaths.join(', ')}; Ctrl-C to stop)`);
  const code = await server.exited;
  if (interrupted) return new Promise(() => {}); // the signal handler exits
  throw new Error(`VS Code server exited (${code}); see ${path.join(state, 'server.log')}`);
}

// ---------------------------------------------------------------------------------
async function main() {
  const { values } = parseArgs({
    options: {
      suite: { type: 'string', multiple: true },
      vsix: { type: 'string' },
      'extension-path': { type: 'string', multiple: true },
      'keep-open': { type: 'boolean' },
      folder: { type: 'string' },
      port: { type: 'string' },
    },
    strict: true,
  });

  const vscodeDir = ensureVSCode();

  let extensionPaths = (values['extension-path'] ?? []).map((p) => path.resolve(p));
  if (values.vsix) {
    const dest = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-vsix-'));
    cleanups.push(() => fs.rmSync(dest, { recursive: true, force: true }));
    const ext = unzipVsix(path.resolve(values.vsix), dest);
    log(`testing the packaged extension ${values.vsix} (unzipped to ${ext})`);
    extensionPaths = [ext, ...extensionPaths];
  }
  if (extensionPaths.length === 0) extensionPaths = [REPO];

  if (values['keep-open']) {
    const port = Number(values.port || process.env.PORT || 3010);
    let folder = values.folder && path.resolve(values.folder);
    if (!folder) {
      folder = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-main-'));
      fs.cpSync(path.join(REPO, 'test', 'fixtures', 'workspaces', 'main'), folder, { recursive: true });
    }
    await keepOpen({ vscodeDir, extensionPaths, folder, port });
    return 0;
  }

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
  let passed = 0;
  let failed = 0;
  let crashed = [];
  for (const suite of suites) {
    let r;
    try {
      r = await runSuite(suite, { vscodeDir, extensionPaths, chromium });
    } catch (err) {
      if (interrupted) return new Promise(() => {}); // the signal handler exits
      console.error(`[launcher] suite ${suite} crashed: ${err.stack || err}`);
      await cleanupAll();
      r = { passed: 0, failed: 0, crashed: true };
    }
    passed += r.passed;
    failed += r.failed;
    if (r.crashed) crashed.push(suite);
  }
  await cleanupAll();
  if (crashed.length) console.log(`[launcher] suites that crashed or timed out: ${crashed.join(', ')}`);
  // A crashed suite counts at least one failure, so the summary line never reads green.
  if (crashed.length && failed === 0) failed = crashed.length;
  console.log(`integration: ${passed} passed, ${failed} failed`);
  return failed > 0 || crashed.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  async (err) => {
    if (interrupted) return; // the signal handler cleans up and exits
    console.error(`[launcher] ${err.stack || err}`);
    await cleanupAll();
    console.log('integration: 0 passed, 1 failed');
    process.exit(1);
  },
);
