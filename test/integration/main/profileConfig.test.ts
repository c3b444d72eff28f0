/**
 * The user profile's mcp.json (VS Code 1.102+ keeps the user's MCP servers there): its servers
 * show in our tree, saying where they come from, and follow edits. VS Code's own host is off in
 * this suite (test/launch/runInCodeServer.mjs, builtinMcpSettings), so we run them; the
 * `coexistence` suite checks they are left to VS Code when its host is on.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import type { ServerNode } from '../../../src/servers/serverTreeNodes';
import { activateApi, running, waitFor, writeText } from '../helpers';

suite("The user profile's mcp.json", function () {
  this.timeout(60000);
  let api: McpWorkbenchApi;
  const file = () => vscode.Uri.file(path.join(process.env.MCPWB_USER_PROFILE_DIR!, 'mcp.json'));

  suiteSetup(async () => {
    api = await activateApi();
  });

  suiteTeardown(async () => {
    await vscode.workspace.fs.delete(file()).then(undefined, () => undefined);
    await waitFor(() => !api.server('profile-server') && !api.server('profile-renamed'), 'the profile servers to go with their file');
  });

  test('its servers show with their source, run, and follow edits of the file', async () => {
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
    const connection = await running(api, 'profile-server');
    assert.equal(connection.definition.source.file, file().fsPath);
    const node = (await api.testing.serverTree.getChildren()).find(
      (n) => n.kind === 'server' && n.connection.definition.name === 'profile-server',
    ) as ServerNode;
    assert.ok(node, 'in the tree');
    assert.match(String(api.testing.serverTree.getTreeItem(node).description), /from VS Code user mcp\.json/);

    await writeText(
      file(),
      JSON.stringify(
        {
          servers: { 'profile-renamed': { command: 'node', args: ['${env:MCPWB_FIXTURES}/servers/stdioServer.js'] } },
        },
        null,
        2,
      ),
    );
    await running(api, 'profile-renamed');
    await waitFor(() => !api.server('profile-server'), 'the old name to go');
  });
});
