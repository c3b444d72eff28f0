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
    const gaveUp = await waitFor(() => {
      const s = api.server('crash-start')?.state;
      return s?.kind === 'error' && s.message.includes('stays stopped') && s;
    }, 'crash-start to give up', 60000);
    assert.ok(gaveUp.kind === 'error');
    assert.equal(gaveUp.message, 'Server "crash-start" exited with code 3 during start: fault: crashing on start. It crashed 5 times in 3 minutes, so it stays stopped: check its log, then use Restart.');
    await new Promise((r) => setTimeout(r, 200));
    const shown = recorder.messages.filter((m) => m.startsWith('MCP crash-start:'));
    assert.deepEqual(shown, [
      'MCP crash-start: Server "crash-start" exited with code 3 during start: fault: crashing on start. Restarting in 1 s.',
      `MCP crash-start: ${gaveUp.message}`,
    ]);
  });

  test('what a crashed server started ends with it', async function () {
    if (process.platform === 'win32') this.skip();
    const pidFile = path.join(dir, 'child.pid');
    await setUserSetting('servers', { ...original, 'crash-children': fault({ FAULT_MODE: 'spawn-child-then-crash', FAULT_PID_FILE: pidFile, FAULT_DELAY_MS: '1000' }) });
    const child = Number(await waitFor(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8'), 'the grandchild'));
    await waitFor(() => api.server('crash-children')?.state.kind === 'error', 'the crash');
    await waitFor(() => !alive(child), 'the grandchild of the crashed server to be gone', 5000);
  });
});
