/**
 * VS Code's user-level `mcp` setting, where VS Code 1.99 – 1.101 kept the user's MCP servers:
 * their servers show in our tree, saying where they come from; a workspace value of the setting
 * is never read. VS Code's own host is off in this suite (runInCodeServer.mjs,
 * builtinMcpSettings), so we run them; the `coexistence` suite checks they are left to VS Code
 * when its host is on. From 1.102 VS Code moves the setting into the profile's mcp.json and no
 * longer reads it (nor registers it), and neither do we.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import type { ServerNode } from '../../../src/servers/serverTreeNodes';
import { activateApi, running, waitFor } from '../helpers';

const fixtureServer = { command: 'node', args: ['${env:MCPWB_FIXTURES}/servers/stdioServer.js'] };

suite("VS Code's user-level mcp setting (before 1.102)", function () {
  this.timeout(60000);
  let api: McpWorkbenchApi;
  const readsSetting = () => Number(vscode.version.split('.')[1]) < 102 && vscode.version.startsWith('1.');
  const mcp = () => vscode.workspace.getConfiguration();

  suiteSetup(async function () {
    if (!readsSetting()) this.skip();
    api = await activateApi();
  });

  suiteTeardown(async () => {
    if (!readsSetting()) return;
    await mcp().update('mcp', undefined, vscode.ConfigurationTarget.Global);
    await mcp()
      .update('mcp', undefined, vscode.ConfigurationTarget.Workspace)
      .then(undefined, () => undefined);
    await waitFor(() => !api.server('settings-server') && !api.server('settings-renamed'), "the setting's servers to go with it");
  });

  test("without a user value nothing is read: not the example server of the setting's default", async () => {
    // VS Code 1.99 – 1.101's default value of `mcp` holds an example, "mcp-server-time".
    const example = mcp().inspect<{ servers?: Record<string, unknown> }>('mcp')?.defaultValue;
    assert.ok(example?.servers && Object.keys(example.servers).length > 0, `this VS Code's default has an example server: ${JSON.stringify(example)}`);
    assert.equal(mcp().inspect('mcp')?.globalValue, undefined);
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(
      api
        .servers()
        .filter((s) => s.definition.source.vscodeSetting)
        .map((s) => s.definition.name),
      [],
    );
  });

  test('its servers show "from VS Code user settings", run, and follow edits', async () => {
    // A workspace cannot add servers through VS Code's user-level setting (.vscode/mcp.json is
    // its place): we read the user value only. VS Code 1.100.3 itself refuses to write the
    // setting at workspace level, so there the check below does not run.
    let workspaceWritten = true;
    await mcp()
      .update('mcp', { servers: { 'workspace-setting-server': fixtureServer } }, vscode.ConfigurationTarget.Workspace)
      .then(undefined, () => (workspaceWritten = false));
    await mcp().update('mcp', { servers: { 'settings-server': fixtureServer } }, vscode.ConfigurationTarget.Global);
    const connection = await running(api, 'settings-server');
    assert.equal(connection.definition.source.vscodeSetting, true);
    const node = (await api.testing.serverTree.getChildren()).find(
      (n) => n.kind === 'server' && n.connection.definition.name === 'settings-server',
    ) as ServerNode;
    assert.ok(node, 'in the tree');
    assert.match(String(api.testing.serverTree.getTreeItem(node).description), /from VS Code user settings/);
    if (workspaceWritten) assert.equal(api.server('workspace-setting-server'), undefined, 'the workspace value is ignored');

    await mcp().update('mcp', { servers: { 'settings-renamed': fixtureServer } }, vscode.ConfigurationTarget.Global);
    await running(api, 'settings-renamed');
    await waitFor(() => !api.server('settings-server'), 'the old name to go');
  });
});
