import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  commandName,
  DebugLaunchError,
  detectRuntime,
  entryPointCode,
  isHttpUrl,
  parseShebang,
  planDebugLaunch,
  waitForUrl,
} from '../../../src/debug/common/debugLaunch';
import type { StdioLaunch } from '../../../src/config/common/launchDefinition';

const PORT = 9231;
const FLAG = `--inspect-brk=127.0.0.1:${PORT}`;
const LISTEN = ['-m', 'debugpy', '--listen', `127.0.0.1:${PORT}`, '--wait-for-client'];
const launch = (command: string, args: string[] = [], env: Record<string, string | null> = {}): StdioLaunch => ({
  type: 'stdio',
  command,
  args,
  env,
  cwd: '/proj',
});
const plan = (l: StdioLaunch, extra: Partial<Parameters<typeof planDebugLaunch>[1]> = {}) => planDebugLaunch(l, { port: PORT, name: 'srv', ...extra });

describe('debugLaunch', () => {
  describe('runtime detection', () => {
    it('names commands without folder and Windows extension', () => {
      assert.equal(commandName('/usr/bin/node'), 'node');
      assert.equal(commandName('C:\\nodejs\\NPX.CMD'), 'npx');
      assert.equal(commandName('python3.12'), 'python3.12');
    });
    it('tells Node-family and Python commands apart', () => {
      for (const c of ['node', 'tsx', 'ts-node', 'bun', 'npm', 'npx', 'server.mjs']) assert.equal(detectRuntime(launch(c)), 'node', c);
      for (const c of ['python', 'python3', 'python3.11', 'py', 'uv', 'uvx', 'server.py']) assert.equal(detectRuntime(launch(c)), 'python', c);
      assert.equal(detectRuntime(launch('my-server')), undefined);
    });
    it('reads shebangs', () => {
      assert.deepEqual(parseShebang('#!/usr/bin/env node'), { interpreter: 'node', args: [] });
      assert.deepEqual(parseShebang('#!/usr/bin/env -S node --enable-source-maps'), { interpreter: 'node', args: ['--enable-source-maps'] });
      assert.deepEqual(parseShebang('#!/usr/local/bin/python3 -u'), { interpreter: 'python3', args: ['-u'] });
      assert.equal(parseShebang('console.log(1)'), undefined);
      assert.equal(
        detectRuntime(launch('./bin/srv'), () => '#!/usr/bin/env node'),
        'node',
      );
      assert.equal(
        detectRuntime(launch('./bin/srv'), () => '#!/usr/bin/python3'),
        'python',
      );
    });
    it('asks for "runtime" when it cannot tell', () => {
      assert.throws(
        () => plan(launch('my-server')),
        (e: Error) => e instanceof DebugLaunchError && /"runtime"/.test(e.message),
      );
    });
  });

  describe('Node family', () => {
    it('node: the flag goes first, stale inspector flags go away', () => {
      const p = plan(launch('node', ['--inspect=9229', '--enable-source-maps', 'dist/index.js', '--port', '1']));
      assert.equal(p.runtime, 'node');
      assert.equal(p.method, 'flag');
      assert.deepEqual(p.launch.args, [FLAG, '--enable-source-maps', 'dist/index.js', '--port', '1']);
      assert.equal(p.launch.command, 'node');
    });
    it('tsx and bun take the flag before the script', () => {
      assert.deepEqual(plan(launch('tsx', ['src/index.ts'])).launch.args, [FLAG, 'src/index.ts']);
      assert.deepEqual(plan(launch('bun', ['run', 'src/index.ts'])).launch.args, [FLAG, 'run', 'src/index.ts']);
    });
    it('npx tsx: the flag goes after tsx, npx options stay', () => {
      assert.deepEqual(plan(launch('npx', ['-y', 'tsx', 'src/index.ts', 'x'])).launch.args, ['-y', 'tsx', FLAG, 'src/index.ts', 'x']);
      assert.deepEqual(plan(launch('npx', ['--package', 'tsx@4', 'tsx@4', 'a.ts'])).launch.args, ['--package', 'tsx@4', 'tsx@4', FLAG, 'a.ts']);
    });
    it('ts-node gets NODE_OPTIONS, keeping other options', () => {
      const p = plan(launch('ts-node', ['src/index.ts'], { NODE_OPTIONS: '--max-old-space-size=100 --inspect=1' }));
      assert.equal(p.method, 'NODE_OPTIONS');
      assert.deepEqual(p.launch.args, ['src/index.ts']);
      assert.equal(p.launch.env.NODE_OPTIONS, `--max-old-space-size=100 ${FLAG}`);
    });
    it('npm run: node-options reach the script, not npm itself', () => {
      const p = plan(launch('npm', ['run', 'start']));
      assert.equal(p.method, 'npm node-options');
      assert.deepEqual(p.launch.args, ['run', 'start']);
      assert.equal(p.launch.env.npm_config_node_options, FLAG);
      assert.equal(p.launch.env.NODE_OPTIONS, undefined);
    });
    it('a shebang script runs under its interpreter with the flag', () => {
      const p = plan(launch('./bin/server', ['--stdio']), { readFirstLine: () => '#!/usr/bin/env -S node --no-warnings' });
      assert.equal(p.launch.command, 'node');
      assert.deepEqual(p.launch.args, [FLAG, '--no-warnings', './bin/server', '--stdio']);
    });
    it('a .js path runs under node', () => {
      assert.deepEqual(plan(launch('/x/server.js')).launch, { ...launch('node', [FLAG, '/x/server.js']) });
    });
    it('the attach configuration: pwa-node on the port, continueOnAttach, sourceMaps/outFiles passed', () => {
      const p = plan(launch('node', ['a.js']), { sourceMaps: false, outFiles: ['/proj/dist/**/*.js'] });
      assert.deepEqual(p.attach, {
        type: 'pwa-node',
        request: 'attach',
        name: 'srv',
        address: '127.0.0.1',
        port: PORT,
        continueOnAttach: true,
        sourceMaps: false,
        outFiles: ['/proj/dist/**/*.js'],
        cwd: '/proj',
        skipFiles: ['<node_internals>/**'],
      });
      assert.equal(plan(launch('node', ['a.js'])).attach.sourceMaps, true);
    });
    it('does not touch the original launch', () => {
      const l = launch('ts-node', ['a.ts'], { A: '1' });
      plan(l);
      assert.deepEqual(l, launch('ts-node', ['a.ts'], { A: '1' }));
    });
  });

  describe('Python (debugpy)', () => {
    it('python file: interpreter options stay before debugpy', () => {
      const p = plan(launch('python3', ['-u', '-X', 'dev', 'server.py', '--flag']));
      assert.equal(p.runtime, 'python');
      assert.deepEqual(p.launch.args, ['-u', '-X', 'dev', ...LISTEN, 'server.py', '--flag']);
    });
    it('python -m module', () => {
      assert.deepEqual(plan(launch('python', ['-u', '-m', 'my_server', '--x'])).launch.args, ['-u', ...LISTEN, '-m', 'my_server', '--x']);
    });
    it('uv run script.py and uv run python …: debugpy added with --with', () => {
      assert.deepEqual(plan(launch('uv', ['run', '--directory', 'd', 'server.py'])).launch.args, [
        'run',
        '--with',
        'debugpy',
        '--directory',
        'd',
        'python',
        ...LISTEN,
        'server.py',
      ]);
      assert.deepEqual(plan(launch('uv', ['--quiet', 'run', 'python', '-m', 'srv'])).launch.args, [
        '--quiet',
        'run',
        '--with',
        'debugpy',
        'python',
        ...LISTEN,
        '-m',
        'srv',
      ]);
    });
    it('uv run <console script>: runs the entry point under debugpy -c', () => {
      const p = plan(launch('uv', ['run', 'my-server', '--port', '1']));
      assert.deepEqual(p.launch.args, ['run', '--with', 'debugpy', 'python', ...LISTEN, '-c', entryPointCode('my-server'), '--port', '1']);
    });
    it('uvx pkg@version: --from keeps the version, the script is the bare name', () => {
      const p = plan(launch('uvx', ['mcp-server-time@1.2', '--local-timezone', 'UTC']));
      assert.deepEqual(p.launch.args, [
        '--with',
        'debugpy',
        '--from',
        'mcp-server-time@1.2',
        'python',
        ...LISTEN,
        '-c',
        entryPointCode('mcp-server-time'),
        '--local-timezone',
        'UTC',
      ]);
      const q = plan(launch('uvx', ['--from', 'git+https://x/y', 'srv']));
      assert.deepEqual(q.launch.args, ['--with', 'debugpy', '--from', 'git+https://x/y', 'python', ...LISTEN, '-c', entryPointCode('srv')]);
    });
    it('entry point code looks the script up in console_scripts', () => {
      const code = entryPointCode('my-server');
      assert.match(code, /entry_points\(group="console_scripts"\)/);
      assert.match(code, /e\.name == "my-server"/);
    });
    it('the attach configuration: debugpy connect on the port', () => {
      assert.deepEqual(plan(launch('python', ['s.py'])).attach, {
        type: 'debugpy',
        request: 'attach',
        name: 'srv',
        connect: { host: '127.0.0.1', port: PORT },
        justMyCode: true,
        pathMappings: [{ localRoot: '/proj', remoteRoot: '/proj' }],
      });
    });
    it('forced runtime and errors', () => {
      assert.deepEqual(plan(launch('./srv.py'), { runtime: 'python' }).launch.args, [...LISTEN, './srv.py']);
      assert.throws(() => plan(launch('uv', ['sync'])), /uv run/);
      assert.throws(() => plan(launch('python', ['-m', 'debugpy', 'x.py'])), /already runs debugpy/);
      assert.throws(() => plan(launch('my-bin'), { runtime: 'python' }), /debugpy/);
    });
  });

  describe('HTTP servers: waiting for the URL', () => {
    it('tells http(s) URLs from the rest', () => {
      assert.ok(isHttpUrl('http://127.0.0.1:3000/mcp'));
      assert.ok(isHttpUrl('https://example.com/mcp'));
      for (const v of ['ftp://x/y', '127.0.0.1:3000', '', 3, undefined]) assert.ok(!isHttpUrl(v), String(v));
    });

    it('any HTTP status means the server answers; refused connections are retried', async () => {
      let calls = 0;
      const status = await waitForUrl('http://127.0.0.1:1/mcp', {
        timeoutMs: 5000,
        intervalMs: 1,
        fetch: async (_url, init) => {
          assert.equal(init.method, 'GET');
          if (++calls < 3) throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
          return { status: 400 };
        },
      });
      assert.equal(status, 400);
      assert.equal(calls, 3);
    });

    it('times out with the URL, the timeout and the last error', async () => {
      let clock = 0;
      await assert.rejects(
        waitForUrl('http://127.0.0.1:4567/mcp', {
          timeoutMs: 1500,
          now: () => clock,
          sleep: async (ms) => {
            clock += Math.max(ms, 1);
          },
          fetch: async () => {
            clock += 100;
            throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
          },
        }),
        (e: Error) =>
          e instanceof DebugLaunchError &&
          e.message.includes('http://127.0.0.1:4567/mcp') &&
          e.message.includes('1.5 s') &&
          e.message.includes('ECONNREFUSED') &&
          e.message.includes('"urlTimeout"'),
      );
    });

    it('stops early with the abort reason (the process exited)', async () => {
      let calls = 0;
      await assert.rejects(
        waitForUrl('http://127.0.0.1:4567/mcp', {
          timeoutMs: 60000,
          intervalMs: 1,
          abort: () => (calls >= 2 ? 'the server process exited (code 1)' : undefined),
          fetch: async () => {
            calls++;
            throw new TypeError('fetch failed');
          },
        }),
        /Stopped waiting for http:\/\/127\.0\.0\.1:4567\/mcp to answer: the server process exited \(code 1\)/,
      );
      assert.equal(calls, 2);
    });

    it('against a real server: waits until it listens, and does not hang on a streamed answer', async () => {
      // Reserve a port, start listening only later; the server answers GET with a never-ending stream.
      const server = http.createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(': open\n\n');
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const { port } = server.address() as AddressInfo;
      await new Promise<void>((r) => server.close(() => r()));
      setTimeout(() => server.listen(port, '127.0.0.1'), 300);
      try {
        const started = Date.now();
        assert.equal(await waitForUrl(`http://127.0.0.1:${port}/mcp`, { timeoutMs: 10000, intervalMs: 50 }), 200);
        assert.ok(Date.now() - started >= 250, 'it waited for the server to listen');
      } finally {
        server.closeAllConnections();
        await new Promise<void>((r) => server.close(() => r()));
      }
    });
  });
});
