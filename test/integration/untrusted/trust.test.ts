/**
 * Workspace trust: in an untrusted workspace, servers the workspace defines do not start
 * and say why; servers from user settings still start.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateApi, running, waitFor } from '../helpers';

suite('Untrusted workspace', function () {
  this.timeout(60000);

  test('the workspace is untrusted and the extension still activates', async () => {
    assert.equal(vscode.workspace.isTrusted, false);
    await activateApi();
  });

  test('workspace servers stay stopped with the reason; user servers run', async () => {
    const api = await activateApi();
    await running(api, 'user-server');
    const ws = await waitFor(() => api.server('workspace-server'), 'the workspace server to be listed');
    assert.equal(ws.state.kind, 'stopped');
    assert.match(ws.state.kind === 'stopped' ? (ws.state.reason ?? '') : '', /not trusted/);
  });

  test('starting a workspace server by command does not start it', async () => {
    const api = await activateApi();
    const ws = api.server('workspace-server')!;
    // The command shows a warning with "Manage Workspace Trust"; nobody answers it here.
    void vscode.commands.executeCommand('mcpWorkbench.startServer', ws.definition.id);
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(ws.state.kind, 'stopped');
  });
});
