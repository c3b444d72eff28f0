/**
 * Beside VS Code's own MCP host: the servers of the user profile's mcp.json are VS Code's own
 * config. From 1.102 VS Code reads that file, so we show them but leave them to it (whatever the
 * workspace chose); an older VS Code does not read it, so we run them.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import { activateApi, running, waitFor, writeText } from '../helpers';

const REASON = "run by VS Code's own MCP support";

suite("The user profile's mcp.json beside VS Code's own MCP host", function () {
  this.timeout(60000);
  let api: McpWorkbenchApi;
  const file = () => vscode.Uri.file(path.join(process.env.MCPWB_USER_PROFILE_DIR!, 'mcp.json'));
  const readsProfile = () => {
    const [major, minor] = vscode.version.split('.').map(Number);
    return major > 1 || minor >= 102;
  };

  suiteSetup(async () => {
    api = await activateApi();
    await writeText(
      file(),
      JSON.stringify(
        {
          servers: { 'profile-server': { command: 'node', args: ['${env:MCPWB_FIXTURES}/servers/stdioServer.js'] } },
        },
        null,
        2,
      ),
    );
  });

  suiteTeardown(async () => {
    await vscode.workspace.fs.delete(file()).then(undefined, () => undefined);
    await waitFor(() => !api.server('profile-server'), 'the profile server to go with its file');
  });

  test('VS Code 1.102+: shown, left to VS Code with the reason; before: run by us', async () => {
    assert.equal(api.testing.coexistence().builtinHostActive, true);
    if (readsProfile()) {
      await waitFor(
        () => {
          const state = api.server('profile-server')?.state;
          return state?.kind === 'stopped' && state.reason === REASON;
        },
        `held back (now ${JSON.stringify(api.server('profile-server')?.state)})`,
      );
      // Nothing starts it a moment later either.
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(api.server('profile-server')!.state.kind, 'stopped');
    } else {
      await running(api, 'profile-server');
    }
  });

  test('VS Code 1.99 – 1.101: the servers of its user-level mcp setting are left to it, with the reason', async function () {
    if (readsProfile()) this.skip();
    const setting = () => vscode.workspace.getConfiguration();
    await setting().update(
      'mcp',
      { servers: { 'settings-server': { command: 'node', args: ['${env:MCPWB_FIXTURES}/servers/stdioServer.js'] } } },
      vscode.ConfigurationTarget.Global,
    );
    try {
      await waitFor(
        () => {
          const state = api.server('settings-server')?.state;
          return state?.kind === 'stopped' && state.reason === REASON;
        },
        `held back (now ${JSON.stringify(api.server('settings-server')?.state)})`,
      );
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(api.server('settings-server')!.state.kind, 'stopped');
    } finally {
      await setting().update('mcp', undefined, vscode.ConfigurationTarget.Global);
      await waitFor(() => !api.server('settings-server'), 'the server to go with the setting');
    }
  });
});
