// `npm start` (scripts/start.mjs) against a taken port, as CONTRIBUTING.md promises: with no PORT
// chosen and 3010 taken it says so and serves on a free port; with PORT chosen and taken it fails
// with a message that says what to do. Before, start.mjs always passed `--port 3010`, so the
// launcher took 3010 as chosen and failed. This starts the real VS Code server (the cached
// 1.100.3 build the e2e tests use), so it is skipped, loudly, where that build is not installed.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

// out/test/unit/launch/start.test.js → the repository
const REPO = path.join(__dirname, '..', '..', '..', '..');
const VERSION = '1.100.3';
const installed = fs.existsSync(
  path.join(process.env.MCPWB_VSCODE_CACHE || path.join(os.homedir(), '.cache', 'mcp-workbench'), `vscode-${VERSION}`, '.installed'),
);

/** Holds 127.0.0.1:3010 for the test; if something else already holds it, that does as well. */
async function takePort3010(): Promise<net.Server | undefined> {
  const server = net.createServer((socket) => socket.destroy());
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(undefined) : reject(error)));
    server.listen(3010, '127.0.0.1', () => resolve(server));
  });
}

function startScript(env: Record<string, string>): { child: ChildProcess; output: () => string } {
  const state = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-start-test-'));
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    MCPWB_START_IN_BROWSER: '1',
    MCPWB_START_SKIP_BUILD: '1',
    MCPWB_VSCODE_VERSION: VERSION,
    MCPWB_KEEP_OPEN_STATE: state,
    ...env,
  };
  if (!('PORT' in env)) delete childEnv.PORT;
  // Its own process group, so the VS Code server it starts is stopped with it.
  const child = spawn(process.execPath, [path.join(REPO, 'scripts', 'start.mjs')], {
    cwd: REPO,
    env: childEnv,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (d) => (text += d));
  child.stderr!.on('data', (d) => (text += d));
  return { child, output: () => text };
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    // already gone
  }
  return exited;
}

/** Resolves with the first match of `pattern` in the output; rejects if the script exits first. */
function waitForOutput(run: ReturnType<typeof startScript>, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const m = pattern.exec(run.output());
      if (m) {
        cleanup();
        resolve(m);
      }
    };
    const exited = (code: number | null) => {
      cleanup();
      reject(new Error(`npm start exited (${code}) before printing ${pattern}:\n${run.output()}`));
    };
    const cleanup = () => {
      run.child.stdout!.off('data', check);
      run.child.off('exit', exited);
    };
    run.child.stdout!.on('data', check);
    run.child.once('exit', exited);
    check();
  });
}

describe('npm start with port 3010 taken', function () {
  // Starting the VS Code server takes seconds when idle and may take a minute on a loaded machine.
  this.timeout(180_000);
  let holder: net.Server | undefined;
  const runs: ChildProcess[] = [];

  before(async function () {
    if (!installed) {
      console.warn(`      (skipped: VS Code ${VERSION} is not installed; bash scripts/install-vscode.sh ${VERSION})`);
      this.skip();
    }
    holder = await takePort3010();
  });
  after(async () => {
    await Promise.all(runs.map(stop));
    holder?.close();
  });

  it('without PORT: says 3010 is in use, serves VS Code on a free port, and the printed URL answers', async () => {
    const run = startScript({});
    runs.push(run.child);
    const [, port] = await waitForOutput(run, /port 3010 is in use by another program; using (\d+) instead/);
    assert.notEqual(port, '3010');
    const [url] = await waitForOutput(run, /http:\/\/127\.0\.0\.1:\d+\/\S+/);
    assert.equal(new URL(url).port, port, `the URL is on the port it took: ${url}`);
    // As a browser does: the token in the URL is traded for a cookie and a redirect to the page.
    const first = await fetch(url, { redirect: 'manual' });
    const cookie = first.headers.get('set-cookie')?.split(';')[0];
    const location = first.headers.get('location');
    const page = first.status === 200 ? first : await fetch(new URL(location ?? '/', url), { headers: cookie ? { cookie } : {} });
    assert.equal(page.status, 200, `the VS Code page (first answer ${first.status}, cookie ${cookie ? 'set' : 'none'}): ${url}\n${run.output()}`);
    assert.match(await page.text(), /<html/i);
    await stop(run.child);
  });

  it('with PORT=3010 chosen: fails at once, saying the port is in use and how to choose another', async () => {
    const run = startScript({ PORT: '3010' });
    runs.push(run.child);
    const code = await new Promise<number | null>((resolve) => run.child.once('exit', resolve));
    assert.notEqual(code, 0);
    assert.match(run.output(), /port 3010 on 127\.0\.0\.1 is already in use: stop what uses it, or choose another port \(PORT=<n> npm start\)/);
  });
});
