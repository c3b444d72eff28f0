/**
 * Discovery in an untrusted workspace: a folder's `.cursor/mcp.json` is workspace config, so its
 * servers are listed but do not start.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateApi, running, setUserSetting, waitFor, writeText } from '../helpers';

suite('Discovery in an untrusted workspace', function () {
  this.timeout(60000);
  const cursorDir = () => vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, '.cursor');

  suiteTeardown(async () => {
    await vscode.workspace.fs.delete(cursorDir(), { recursive: true }).then(undefined, () => undefined);
    await setUserSetting('discovery.enabled', undefined);
  });

  test('Discovery: servers of .cursor/mcp.json stay stopped with the reason; user servers still run', async () => {
    const api = await activateApi();
    await writeText(
      vscode.Uri.joinPath(cursorDir(), 'mcp.json'),
      JSON.stringify({
        mcpServers: { 'cursor-untrusted': { command: 'node', args: ['${env:MCPWB_FIXTURES}/servers/stdioServer.js'] } },
      }),
    );
    await setUserSetting('discovery.enabled', true);
    const c = await waitFor(() => api.server('cursor-untrusted'), 'the Cursor workspace server to be listed');
    assert.equal(c.definition.source.label, 'Cursor (workspace)');
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(c.state.kind, 'stopped');
    assert.match(c.state.kind === 'stopped' ? (c.state.reason ?? '') : '', /not trusted/);
    await running(api, 'user-server');
  });
});
