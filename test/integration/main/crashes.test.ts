/**
 * Servers that crash, in a real extension host: the fault fixture (faultServer.ts) from the user
 * setting. A server that crashes on every start is retried with backoff (1 s, 2 s, 4 s, 8 s) and
 * the user reads two notifications, not one per try; what a crashed server started ends with it.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import { alive } from '../../shared/processAlive';
import { activateApi, recordNotifications, setUserSetting, waitFor } from '../helpers';

suite('Servers that crash', function () {
  this.timeout(90000);
  let api: McpWorkbenchApi;
  let recorder: ReturnType<typeof recordNotifications>;
  let dir: string;
  const cfg = () => vscode.workspace.getConfiguration('mcpWorkbench');
  let original: Record<string, unknown> | undefined;
  const fault = (env: Record<string, string>) => ({ command: 'node', args: ['${env:MCPWB_FIXTURES}/servers/faultServer.js'], env, protocolEra: 'legacy' });

  suiteSetup(async () => {
    api = await activateApi();
    recorder = recordNotifications();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-crashes-'));
    original = cfg().inspect<Record<string, unknown>>('servers')?.globalValue;
  });

  suiteTeardown(async () => {
    recorder?.dispose();
    await setUserSetting('servers', original);
    await waitFor(() => !api.servers().some((s) => s.definition.name.startsWith('crash-')), 'the crashing servers to go');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a server that crashes on every start is retried, then stays down, with two notifications', async () => {
    await setUserSetting('servers', { ...original, 'crash-start': fault({ FAULT_MODE: 'crash-on-start' }) });
    const gaveUp = await waitFor(
      () => {
        const s = api.server('crash-start')?.state;
        return s?.kind === 'error' && s.message.includes('stays stopped') && s;
      },
      'crash-start to give up',
      60000,
    );
    assert.ok(gaveUp.kind === 'error');
    assert.equal(
      gaveUp.message,
      'Server "crash-start" exited with code 3 during start: fault: crashing on start. It crashed 5 times in 3 minutes, so it stays stopped: check its log, then use Restart.',
    );
    await new Promise((r) => setTimeout(r, 200));
    // One notification for the restarts, counting down with the tree, closed when they gave up;
    // then the failure.
    const restarts = recorder.progress.filter((p) => p.title === 'MCP crash-start');
    assert.equal(restarts.length, 1, 'one notification for all the restarts');
    assert.deepEqual(restarts[0].reports.slice(0, 3), [
      'Server "crash-start" exited with code 3 during start: fault: crashing on start. Restarting in 1 s.',
      'Restarting…',
      'Server "crash-start" exited with code 3 during start: fault: crashing on start. Restarting in 2 s.',
    ]);
    assert.ok(restarts[0].closed, 'the restart notification closed when the restarts gave up');
    assert.deepEqual(
      recorder.messages.filter((m) => m.startsWith('MCP crash-start:')),
      [`MCP crash-start: ${gaveUp.message}`],
    );
  });

  test('a server that crashes once and comes back: its restart notification closes by itself', async () => {
    await setUserSetting('servers', { ...original, 'crash-once': fault({ FAULT_MODE: 'crash-on-call' }) });
    const c = await waitFor(() => api.server('crash-once')?.state.kind === 'running' && api.server('crash-once'), 'crash-once to run');
    await assert.rejects(c!.callTool('work', {}));
    const notice = await waitFor(() => recorder.progress.find((p) => p.title === 'MCP crash-once'), 'the restart notification');
    assert.equal(notice.reports[0], 'Server "crash-once" exited with code 3: fault: crashing in tools/call. Restarting in 1 s.');
    await waitFor(() => api.server('crash-once')?.state.kind === 'running', 'crash-once to run again', 30000);
    await waitFor(() => notice.closed, 'the restart notification to close once the server runs again', 5000);
    assert.deepEqual(
      recorder.messages.filter((m) => m.startsWith('MCP crash-once:')),
      [],
      'no failure left on screen',
    );
  });

  test('what a crashed server started ends with it', async function () {
    if (process.platform === 'win32') this.skip();
    const pidFile = path.join(dir, 'child.pid');
    await setUserSetting('servers', {
      ...original,
      'crash-children': fault({ FAULT_MODE: 'spawn-child-then-crash', FAULT_PID_FILE: pidFile, FAULT_DELAY_MS: '1000' }),
    });
    const child = Number(await waitFor(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8'), 'the grandchild'));
    await waitFor(() => api.server('crash-children')?.state.kind === 'error', 'the crash');
    await waitFor(() => !alive(child), 'the grandchild of the crashed server to be gone', 5000);
  });
});
