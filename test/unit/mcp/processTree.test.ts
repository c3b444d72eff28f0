/**
 * A server still running when the extension host is ended by a signal ends with it, even one
 * that never reads its stdin. A VS Code server ends its extension hosts with SIGTERM, which by
 * default kills a Node process without its 'exit' handlers; a debuggee paused under
 * `--inspect-brk`, in a process group of its own, then outlived VS Code (found by npm test's
 * leftover check). Real processes: a stand-in for the extension host spawns such a debuggee the
 * way OwnedStdioTransport does and registers it.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { alive } from '../../shared/processAlive';
import { waitFor } from './testHost';

const PROCESS_TREE = path.join(__dirname, '..', '..', '..', 'src', 'mcp', 'process', 'processTree.js');

describe('servers end with the extension host', function () {
  this.timeout(30000);
  if (process.platform === 'win32') return;
  const started: number[] = [];
  afterEach(() => {
    for (const pid of started.splice(0)) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // gone, as it should be
      }
    }
  });

  for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
    it(`a paused debuggee ends when the host is ended by ${signal}, and the host still dies of it`, async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-tree-'));
      const hostScript = path.join(dir, 'host.js');
      fs.writeFileSync(
        hostScript,
        `
        const { spawn } = require('node:child_process');
        const { endWithThisProcess } = require(${JSON.stringify(PROCESS_TREE)});
        const debuggee = spawn(process.execPath, ['--inspect-brk=127.0.0.1:0', '-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
        endWithThisProcess(debuggee.pid, true);
        process.stdout.write(debuggee.pid + '\\n');
        setInterval(() => {}, 1000);
      `,
      );
      try {
        const host = spawn(process.execPath, [hostScript], { stdio: ['ignore', 'pipe', 'inherit'] });
        const exited = new Promise<NodeJS.Signals | null>((resolve) => host.once('exit', (_code, s) => resolve(s)));
        let out = '';
        host.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        const debuggee = Number(await waitFor(() => out.includes('\n') && out.trim(), 'the debuggee pid', 15000));
        started.push(debuggee);
        assert.ok(alive(debuggee), 'the debuggee runs (paused)');
        host.kill(signal);
        assert.equal(await exited, signal, 'the host died of the signal, as without the hook');
        await waitFor(() => !alive(debuggee), 'the debuggee to be gone', 10000);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
