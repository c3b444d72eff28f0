/**
 * Second copies of a server's launch under this process: the matching rules on a made-up
 * process table, and the real process table with a real fixture server started by a connection
 * (ours) and the same command line spawned beside it (standing in for VS Code's own MCP host,
 * which spawns from the extension host process: the one part not made by VS Code here).
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { processTable, secondCopies, type ProcessInfo } from '../../../src/mcp/process/secondCopies';
import { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import { definition, recordingHost, RecordingLog, STDIO_FIXTURE, stdioLaunch } from './testHost';

describe('second copies of a launch', () => {
  const launch = { command: 'node', args: ['/srv/server.js', '--port', '0'] };
  const row = (pid: number, ppid: number, ...argv: string[]): ProcessInfo => ({ pid, ppid, argv });

  it('finds the same command line below the host that is not ours, by file name and exact arguments', () => {
    const table = [
      row(100, 1, 'code'),
      row(200, 100, '/usr/bin/node', '/srv/server.js', '--port', '0'), // ours
      row(201, 200, 'node', '/srv/server.js', '--port', '0'), // a child of ours: not a copy
      row(300, 100, 'node', '/srv/server.js', '--port', '0'), // VS Code's
      row(301, 300, 'node', '/srv/server.js', '--port', '0'), // part of VS Code's copy
      row(400, 100, 'node', '/srv/server.js', '--port', '1'), // other arguments
      row(500, 1, 'node', '/srv/server.js', '--port', '0'), // not below the host
      row(600, 100, 'sh', '-c', 'x'),
      row(601, 600, 'C:\\node\\NODE.EXE', '/srv/server.js', '--port', '0'), // deeper, another spelling of node
    ];
    assert.deepEqual(secondCopies(table, 100, [200], launch), [300, 601]);
    assert.deepEqual(secondCopies(table, 100, [200, 300, 600], launch), []);
    // Another configured server with the same command line in another folder is not a copy.
    const elsewhere = [row(100, 1, 'code'), { ...row(700, 100, 'node', '/srv/server.js', '--port', '0'), cwd: '/b' }];
    assert.deepEqual(secondCopies(elsewhere, 100, [], { ...launch, cwd: '/a' }), []);
    assert.deepEqual(secondCopies(elsewhere, 100, [], { ...launch, cwd: '/b' }), [700]);
    // … or with other variables of its entry's env.
    const other = [row(100, 1, 'code'), { ...row(800, 100, 'node', '/srv/server.js', '--port', '0'), env: { NAME: 'a', PATH: '/bin' } }];
    assert.deepEqual(secondCopies(other, 100, [], { ...launch, env: { NAME: 'b' } }), []);
    assert.deepEqual(secondCopies(other, 100, [], { ...launch, env: { NAME: 'a', GONE: null } }), [800]);
  });

  describe('in the real process table', function () {
    this.timeout(30000);
    let copy: ChildProcess | undefined;
    let c: McpServerConnection | undefined;
    afterEach(async () => {
      copy?.kill();
      await c?.dispose();
    });

    it('one process per server while only we run it; the copy started beside it is found, and only it', async () => {
      const marker = `second-copy-${process.pid}-${Date.now()}`;
      c = new McpServerConnection(
        definition(stdioLaunch({}, { args: [STDIO_FIXTURE, marker] }), { protocolEra: 'legacy' }),
        recordingHost(),
        new RecordingLog(),
      );
      await c.start();
      const ours = (c.client?.transport as { pid?: number } | undefined)?.pid;
      assert.ok(ours);
      const mine = { command: 'node', args: [STDIO_FIXTURE, marker] };
      const running = (await processTable()).filter((p) => p.argv.includes(marker));
      assert.deepEqual(
        running.map((p) => p.pid),
        [ours],
        'exactly one process of the server',
      );
      assert.deepEqual(secondCopies(await processTable(), process.pid, [ours], mine), []);

      copy = spawn('node', [STDIO_FIXTURE, marker], { stdio: 'pipe' });
      await new Promise((resolve) => copy!.once('spawn', resolve));
      assert.deepEqual(secondCopies(await processTable(), process.pid, [ours], mine), [copy.pid]);
    });
  });

  it('processTable(below) gives only the processes below that pid (the watch reads no others)', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => child.once('spawn', resolve));
      const below = await processTable(process.pid);
      assert.ok(
        below.some((p) => p.pid === child.pid),
        'the child is listed',
      );
      assert.ok(!below.some((p) => p.pid === process.pid || p.pid === 1), 'nothing above it is listed');
      assert.ok(
        (await processTable()).some((p) => p.pid === 1),
        'without `below` every process is listed',
      );
    } finally {
      child.kill();
    }
  });
});
