/**
 * The first failures a new user meets, against real processes and HTTP listeners: each one is
 * one line saying what happened and what to do; the details (the PATH searched, the output)
 * are in the state's detail (tooltip) and the server log, once.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import type { Launch } from '../../../src/config/common/launchDefinition';
import { MemoryOAuthStore, WorkbenchOAuthProvider, followAuthorizationHeadlessly } from '../../../src/mcp/auth/oauthProvider';
import { definition, recordingHost, RecordingLog, stdioLaunch } from './testHost';

describe('failure messages', function () {
  this.timeout(20000);
  const open: McpServerConnection[] = [];
  const cleanup: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.dispose()));
    for (const f of cleanup.splice(0)) await f();
  });

  async function fail(launch: Launch, withAuth = false): Promise<{ message: string; detail?: string; log: string }> {
    const log = new RecordingLog();
    // The extension's real OAuth client, with a "browser" that is never opened (mayPrompt false).
    const auth = {
      provider: (_d: unknown, l: { url: string }) =>
        new WorkbenchOAuthProvider({
          keyPrefix: l.url,
          store: new MemoryOAuthStore(),
          redirectUrl: 'http://127.0.0.1:1/cb',
          authorize: (u, r) => followAuthorizationHeadlessly(u, r),
        }),
      mayPrompt: () => false,
    };
    const c = new McpServerConnection(definition(launch), withAuth ? { ...recordingHost(), auth } : recordingHost(), log);
    open.push(c);
    await c.start();
    const s = c.state;
    assert.equal(s.kind, 'error', JSON.stringify(s));
    if (s.kind !== 'error') throw new Error('unreachable');
    return { message: s.message, detail: s.detail, log: log.text('error') };
  }

  /** The shape every one of them has: one line, short, and no PATH or JSON dump in it. */
  function assertOneLine(message: string): void {
    assert.ok(!message.includes('\n'), `one line: ${message}`);
    assert.ok(message.length <= 160, `short (${message.length}): ${message}`);
    assert.ok(!/PATH:|Searched:|\{"/.test(message), `no dump: ${message}`);
  }

  async function listen(handler: http.RequestListener): Promise<string> {
    const server = http.createServer(handler);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanup.push(() => new Promise<void>((r) => server.close(() => r())));
    return `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
  }

  it('a command not on PATH: what to install in the line, the directories searched once in the details and the log', async () => {
    const f = await fail({ type: 'stdio', command: 'uvx', args: ['mcp-server-x'], env: { PATH: '/nowhere:/also/not' }, cwd: undefined });
    assert.equal(f.message, '"uvx" not found on PATH. Install uv or set "command" to its full path.');
    assert.equal(f.detail, 'command: uvx\nPATH searched (2 directories):\n  /nowhere\n  /also/not');
    assert.equal(f.log.split('/also/not').length - 1, 1, 'the log names each directory once');
    const other = await fail({ type: 'stdio', command: 'my-own-server', args: [], env: { PATH: '/nowhere' }, cwd: undefined });
    assert.equal(other.message, '"my-own-server" not found on PATH. Install my-own-server or set "command" to its full path.');
  });

  it('a command that exists but cannot be spawned', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-fail-'));
    cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const script = path.join(dir, 'server');
    fs.writeFileSync(script, '#!/nonexistent/interpreter\n', { mode: 0o755 });
    const f = await fail({ type: 'stdio', command: script, args: [], env: {}, cwd: undefined });
    assertOneLine(f.message);
    assert.equal(f.message, `"${script}" could not be started (ENOENT): it, or the interpreter on its "#!" line, does not exist.`);
    assert.match(f.detail!, /spawn .* ENOENT/);
  });

  it('a process that exits during start: its last words in the line, its output in the details', async () => {
    const f = await fail(stdioLaunch({ FIXTURE_EXIT_ON_START: '3' }));
    assertOneLine(f.message);
    assert.match(f.message, /^Server "fixture" exited with code 3 during start: fixture: exiting as asked\.$/);
    assert.match(f.detail!, /fixture stdio server ready\nfixture: exiting as asked/);
  });

  it("a server with a syntax error: the SyntaxError line, not Node's version banner; a call says the same", async () => {
    // Issue 29: the line quoted "Node.js v20.20.2" (the last stderr line). A real `node` on a broken file.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-fail-'));
    cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const script = path.join(dir, 'server.js');
    fs.writeFileSync(script, 'const x = {\n  broken: (;\n};\n');
    const log = new RecordingLog();
    const c = new McpServerConnection(definition({ type: 'stdio', command: process.execPath, args: [script], env: {}, cwd: dir }), recordingHost(), log);
    open.push(c);
    await c.start();
    const s = c.state;
    assert.equal(s.kind, 'error', JSON.stringify(s));
    if (s.kind !== 'error') return;
    assertOneLine(s.message);
    assert.match(s.message, /^Server "fixture" exited with code 1 during start: SyntaxError: Unexpected token '?;'?\.$/);
    assert.doesNotMatch(s.message, /Node\.js v/);
    // The whole tail stays in the details and the log: where it broke, the stack, the banner.
    assert.ok(s.detail?.includes(`${script}:2`), s.detail);
    assert.match(s.detail!, /Node\.js v\d/);
    assert.match(log.text('error'), /SyntaxError/);
    // Run Tool's run against the failed server fails with that same line (it said "not running (error)").
    await assert.rejects(c.callTool('echo', { text: 'x' }), (error: Error) => error.message === s.message);
  });

  it('a server that throws while starting: its Error line', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-fail-'));
    cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const script = path.join(dir, 'server.js');
    fs.writeFileSync(script, 'require("./missing-helper");\n');
    const f = await fail({ type: 'stdio', command: process.execPath, args: [script], env: {}, cwd: dir });
    assertOneLine(f.message);
    assert.match(f.message, /^Server "fixture" exited with code 1 during start: Error: Cannot find module '\.\/missing-helper'\.$/);
  });

  it('an HTTP server that is not there', async () => {
    const f = await fail({ type: 'http', url: 'http://127.0.0.1:9/mcp', headers: {} });
    assertOneLine(f.message);
    assert.match(f.message, /^Cannot reach http:\/\/127\.0\.0\.1:9\/mcp: .*"url"/);
  });

  it('an HTTP server that answers 401 and offers no sign-in: what to put in "headers"', async () => {
    const url = await listen((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"error":"unauthorized"}');
    });
    for (const withAuth of [false, true]) {
      const f = await fail({ type: 'http', url, headers: {} }, withAuth);
      assertOneLine(f.message);
      assert.equal(
        f.message,
        `${url} requires authorization (HTTP 401). Add the credentials it expects to "headers", e.g. "Authorization": "Bearer \${input:token}".`,
      );
      assert.ok(f.detail, 'what the server said is in the details');
    }
    const sent = await fail({ type: 'http', url, headers: { Authorization: 'Bearer wrong' } }, true);
    assert.equal(sent.message, `${url} refused the credentials in "headers" (HTTP 401). Check the token it expects.`);
  });

  it('a server that never answers initialize names the timeout and its setting in one line', async () => {
    const log = new RecordingLog();
    const c = new McpServerConnection(definition(stdioLaunch({ FIXTURE_HANG_INITIALIZE: '1' }), { timeouts: { connect: 0.5 } }), recordingHost(), log);
    open.push(c);
    await c.start();
    assert.equal(c.state.kind, 'error');
    if (c.state.kind === 'error') assert.ok(!c.state.message.includes('\n'));
  });
});
