/**
 * Discovery of other apps' servers inside a real VS Code: a Claude Desktop config in a fixture
 * home (MCPWB_DISCOVERY_HOME, read by the extension for tests only) and a folder's
 * `.cursor/mcp.json` show up once `mcpWorkbench.discovery.enabled` is on, marked with their
 * source, and "Import into .vscode/mcp.json" copies one in the `servers` shape.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as jsonc from 'jsonc-parser';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import { DISCOVERY_HOME_ENV, userDiscoveryFiles } from '../../../src/config/common/discoverySources';
import type { ServerNode } from '../../../src/servers/serverTreeNodes';
import { activateApi, folderUri, moveFolderIn, running, setUserSetting, textOf, waitFor, writeText } from '../helpers';

suite("Discovery of other apps' servers", function () {
  this.timeout(90000);
  let api: McpWorkbenchApi;
  let home: string;
  let claudeFile: string;
  let mcpJson: vscode.Uri;
  let mcpJsonText: string;
  const cursorDir = () => vscode.Uri.joinPath(folderUri('folder-b'), '.cursor');
  const fixtureServer = () => path.join(process.env.MCPWB_FIXTURES!, 'servers', 'stdioServer.js');
  const config = () => vscode.workspace.getConfiguration('mcpWorkbench');
  const discovered = () => api.servers().filter((s) => s.definition.source.discovered);
  const treeItem = async (name: string) => {
    const tree = api.testing.serverTree;
    const node = (await tree.getChildren()).find((n) => n.kind === 'server' && n.connection.definition.name === name) as ServerNode;
    return tree.getTreeItem(node);
  };

  suiteSetup(async () => {
    api = await activateApi();
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-home-'));
    // Claude Desktop expands no variables: the path is written out, as a user would.
    claudeFile = userDiscoveryFiles({ platform: process.platform, home })[0].path;
    fs.mkdirSync(path.dirname(claudeFile), { recursive: true });
    fs.writeFileSync(
      claudeFile,
      JSON.stringify(
        {
          mcpServers: {
            'desktop-stdio': { command: 'node', args: [fixtureServer()], env: { FIXTURE_SERVER_NAME: 'from-claude-desktop', FIXTURE_TOKEN: 'tok-123' } },
          },
        },
        null,
        2,
      ),
    );
    mcpJson = vscode.Uri.joinPath(folderUri('folder-a'), '.vscode', 'mcp.json');
    mcpJsonText = new TextDecoder().decode(await vscode.workspace.fs.readFile(mcpJson));
    process.env[DISCOVERY_HOME_ENV] = home;
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await writeText(mcpJson, mcpJsonText);
    await vscode.workspace.fs.delete(cursorDir(), { recursive: true }).then(undefined, () => undefined);
    await setUserSetting('discovery.enabled', undefined);
    delete process.env[DISCOVERY_HOME_ENV];
    await waitFor(() => discovered().length === 0 && !api.server('desktop-stdio'), 'discovered servers to go away');
    fs.rmSync(home, { recursive: true, force: true });
  });

  test("off by default: other apps' servers are not shown", async () => {
    assert.equal(config().get('discovery.enabled'), false);
    await api.reload();
    assert.deepEqual(discovered(), []);
  });

  test('Discovery on: a Claude Desktop server appears, runs from the home directory, marked with its source', async () => {
    await setUserSetting('discovery.enabled', true);
    const c = await running(api, 'desktop-stdio');
    if (c.state.kind !== 'running') throw new Error('not running');
    assert.equal(c.state.serverInfo.name, 'from-claude-desktop');
    assert.deepEqual(c.definition.source, {
      scope: 'user',
      label: 'Claude Desktop',
      file: claudeFile,
      folder: undefined,
      discovered: 'claudeDesktop',
      line: 2,
    });
    assert.equal(fs.realpathSync(textOf(await c.callTool('cwd', {}))), fs.realpathSync(home));
    const item = await treeItem('desktop-stdio');
    assert.equal(item.contextValue, 'server.running.stdio.discovered');
    assert.match(String(item.description), /· from Claude Desktop$/);
    const tooltip = (item.tooltip as vscode.MarkdownString).value;
    assert.match(tooltip, /Config: Claude Desktop, line 3/);
    assert.ok(tooltip.includes(claudeFile), tooltip);
    // The workspace's own servers keep their context value.
    assert.equal((await treeItem('fixture-stdio')).contextValue, 'server.running.stdio');
  });

  test("Discovery follows file changes: a folder's .cursor/mcp.json is a workspace source", async () => {
    await writeText(
      vscode.Uri.joinPath(cursorDir(), 'mcp.json'),
      JSON.stringify({
        mcpServers: {
          'cursor-stdio': { command: 'node', args: ['${env:MCPWB_FIXTURES}/servers/stdioServer.js'], env: { FIXTURE_SERVER_NAME: 'from-cursor' } },
        },
      }),
    );
    const c = await running(api, 'cursor-stdio');
    assert.equal(c.definition.source.label, 'Cursor (workspace)');
    assert.equal(c.definition.source.scope, 'workspace');
    assert.equal(c.definition.source.folder, 'folder-b');
    assert.equal(fs.realpathSync(textOf(await c.callTool('cwd', {}))), fs.realpathSync(folderUri('folder-b').fsPath));
    assert.match(String((await treeItem('cursor-stdio')).description), /from Cursor \(workspace\)/);
    // A user-level file outside the workspace is watched too.
    fs.writeFileSync(
      claudeFile,
      JSON.stringify(
        {
          mcpServers: {
            'desktop-stdio': { command: 'node', args: [fixtureServer()], env: { FIXTURE_SERVER_NAME: 'from-claude-desktop', FIXTURE_TOKEN: 'tok-123' } },
            'desktop-remote': { url: 'http://127.0.0.1:9/mcp', disabled: true },
          },
        },
        null,
        2,
      ),
    );
    const remote = await waitFor(() => api.server('desktop-remote'), 'the server added to the Claude Desktop config');
    assert.equal(remote.definition.launch.type, 'http');
  });

  test('Discovery sees a .cursor folder moved in whole, its mcp.json with it (as a checkout or an unzip makes it)', async () => {
    // A file that arrives inside a new folder fires no event of its own in VS Code's watcher: only
    // the folder does, and the read it triggers finds the file. Writing the two at once missed
    // the file 2 times in 25 under load; a move never fires the file's event at all. Deleting the
    // folder fired none for its file either: the server stayed.
    await vscode.workspace.fs.delete(cursorDir(), { recursive: true });
    await waitFor(() => !api.server('cursor-stdio'), "the removed .cursor folder's server to go");
    moveFolderIn(cursorDir(), 'mcp.json', JSON.stringify({ mcpServers: { 'cursor-moved': { url: 'http://127.0.0.1:9/mcp', disabled: true } } }));
    const moved = await waitFor(() => api.server('cursor-moved'), 'the server of the .cursor folder moved in');
    assert.equal(moved.definition.source.label, 'Cursor (workspace)');
  });

  test('Discovery import: copies the entry into .vscode/mcp.json in the servers shape, secrets into inputs', async () => {
    const source = await running(api, 'desktop-stdio');
    await vscode.commands.executeCommand('mcpWorkbench.importServer', { serverId: source.definition.id, folder: 'folder-a' });
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(mcpJson));
    const written = jsonc.parse(text) as { servers: Record<string, unknown>; inputs: { id: string; password?: boolean }[] };
    assert.deepEqual(written.servers['desktop-stdio'], {
      type: 'stdio',
      command: 'node',
      args: [fixtureServer()],
      env: { FIXTURE_SERVER_NAME: 'from-claude-desktop', FIXTURE_TOKEN: '${input:desktop-stdio-FIXTURE_TOKEN}' },
    });
    assert.ok(written.servers['fixture-stdio'], 'the existing server stays');
    assert.ok(text.includes('// VS Code format.'), 'comments are kept');
    assert.deepEqual(
      written.inputs.map((i) => [i.id, i.password]),
      [['desktop-stdio-FIXTURE_TOKEN', true]],
    );
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), mcpJson.toString());
    // The imported server replaces the discovered copy and gets the secret without asking.
    const imported = await waitFor(() => {
      const c = api.servers().find((s) => s.definition.name === 'desktop-stdio' && s.definition.source.label === '.vscode/mcp.json');
      return c?.state.kind === 'running' && !api.servers().some((s) => s.definition.name === 'desktop-stdio' && s.definition.source.discovered) && c;
    }, 'the imported server to run in place of the discovered one');
    assert.equal(textOf(await imported.callTool('env', { name: 'FIXTURE_TOKEN' })), 'tok-123');
    assert.equal(imported.definition.label, 'desktop-stdio');
  });

  test('Discovery import: our own keys (disabled) go to .vscode/mcp-workbench.json, where VS Code does not flag them', async () => {
    const beside = vscode.Uri.joinPath(folderUri('folder-a'), '.vscode', 'mcp-workbench.json');
    try {
      const source = await waitFor(() => api.server('desktop-remote'), 'the disabled remote server');
      await vscode.commands.executeCommand('mcpWorkbench.importServer', { serverId: source.definition.id, folder: 'folder-a' });
      const written = jsonc.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(mcpJson))) as { servers: Record<string, unknown> };
      assert.deepEqual(written.servers['desktop-remote'], { type: 'http', url: 'http://127.0.0.1:9/mcp' });
      assert.deepEqual(JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(beside))), { servers: { 'desktop-remote': { disabled: true } } });
      const imported = await waitFor(
        () => api.servers().find((s) => s.definition.name === 'desktop-remote' && s.definition.source.label === '.vscode/mcp.json'),
        'the imported server',
      );
      assert.equal(imported.definition.disabled, true);
    } finally {
      await vscode.workspace.fs.delete(beside).then(undefined, () => undefined);
    }
  });
});
