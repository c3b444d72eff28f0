/**
 * Beside VS Code's own MCP host, switched on for this suite only (test/launch/runInCodeServer.mjs,
 * builtinMcpSettings): the servers of .vscode/mcp.json and .mcp.json are left to VS Code until the
 * user chooses otherwise, ours keep running, and our lenses in those files step aside.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import type { ServerNode } from '../../../src/servers/serverTreeNodes';
import { activateApi, pidOf, running, waitFor } from '../helpers';

const REASON = "run by VS Code's own MCP support";
const CHOOSE = 'mcpWorkbench.chooseWorkspaceServersRunner';

suite('Coexistence with VS Code\'s own MCP host', function () {
  this.timeout(90000);
  let api: McpWorkbenchApi;
  const tree = () => api.testing.serverTree;
  const serverItem = async (name: string) => {
    const node = (await tree().getChildren()).find((n) => n.kind === 'server' && n.connection.definition.name === name) as ServerNode;
    return tree().getTreeItem(node);
  };
  const configUri = () => vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, '.vscode', 'mcp.json');
  /** Our lenses (VS Code 1.139 adds its own to the same file, with workbench.mcp.* commands). */
  const ourLenses = async () => {
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', configUri());
    return lenses.filter((l) => l.command?.command.startsWith('mcpWorkbench.'));
  };
  const heldBack = (name: string) => {
    const state = api.server(name)?.state;
    return state?.kind === 'stopped' && state.reason === REASON;
  };

  suiteSetup(async () => {
    api = await activateApi();
    await running(api, 'user-server');
    await vscode.window.showTextDocument(configUri(), { preview: false });
  });

  test('detects VS Code\'s own host and asks once who runs the workspace servers', async () => {
    const state = api.testing.coexistence();
    assert.equal(state.builtinHostActive, true, `VS Code ${vscode.version} with its MCP support on`);
    assert.equal(state.runner, undefined, 'nothing chosen yet');
    await waitFor(() => api.testing.coexistence().asked, 'the one-time question');
  });

  test('leaves the servers of .vscode/mcp.json and .mcp.json to VS Code, with the reason, and runs the user-setting server', async () => {
    await waitFor(() => heldBack('shared-server') && heldBack('root-server'), `both held back (now ${JSON.stringify(api.server('shared-server')?.state)})`);
    // Nothing starts them behind the tree's back a moment later either.
    await new Promise((r) => setTimeout(r, 1500));
    assert.ok(heldBack('shared-server') && heldBack('root-server'));
    assert.equal(api.server('user-server')!.state.kind, 'running');
    const item = await serverItem('shared-server');
    assert.match(String(item.description), /stopped: run by VS Code's own MCP support/);
    assert.match((item.tooltip as vscode.MarkdownString).value, /run by VS Code.s own MCP support/);
    assert.deepEqual(await ourLenses(), [], 'our lenses are hidden while VS Code runs them');
  });

  test('"MCP Workbench runs them" starts them here and shows our lenses; "VS Code runs them" stops them again', async () => {
    const userPid = pidOf(api.server('user-server')!);
    assert.ok(userPid);
    await vscode.commands.executeCommand(CHOOSE, 'workbench');
    assert.equal(api.testing.coexistence().runner, 'workbench');
    await running(api, 'shared-server');
    await running(api, 'root-server');
    const lenses = await waitFor(async () => {
      const found = await ourLenses();
      return found.some((l) => l.command!.command === 'mcpWorkbench.stopServer') && found;
    }, 'our lenses with Stop');
    assert.ok(lenses.some((l) => l.command!.command === 'mcpWorkbench.showOutput'));

    await vscode.commands.executeCommand(CHOOSE, 'vscode');
    await waitFor(() => heldBack('shared-server') && heldBack('root-server'), 'both stopped and held back again');
    await waitFor(async () => (await ourLenses()).length === 0 && true, 'our lenses hidden again');
    assert.equal(pidOf(api.server('user-server')!), userPid, 'the user-setting server is left alone');
  });

  test('Start still runs a server VS Code runs (to inspect it), and the choice survives a reload', async () => {
    await vscode.commands.executeCommand('mcpWorkbench.startServer', api.server('shared-server')!.definition.id);
    await running(api, 'shared-server');
    await vscode.commands.executeCommand('mcpWorkbench.stopServer', api.server('shared-server')!.definition.id);
    await api.reload();
    assert.equal(api.testing.coexistence().runner, 'vscode');
    await waitFor(() => heldBack('shared-server'), 'stopped by the user, and still saying VS Code runs it');
  });

  test('follows VS Code\'s settings: with its host turned off, the workspace servers run here', async () => {
    // 1.101+: chat.mcp.access; 1.100: chat.mcp.enabled. A workspace value overrides the profile's.
    const minor = Number(/^1\.(\d+)/.exec(vscode.version)?.[1] ?? 0);
    const [section, key, off] = minor < 101 ? ['chat.mcp', 'enabled', false] as const : ['chat.mcp', 'access', 'none'] as const;
    await vscode.workspace.getConfiguration(section).update(key, off, vscode.ConfigurationTarget.Workspace);
    try {
      await waitFor(() => !api.testing.coexistence().builtinHostActive, 'VS Code\'s host seen as off');
      await running(api, 'shared-server');
      await running(api, 'root-server');
    } finally {
      await vscode.workspace.getConfiguration(section).update(key, undefined, vscode.ConfigurationTarget.Workspace);
    }
    await waitFor(() => api.testing.coexistence().builtinHostActive, 'VS Code\'s host seen as on again');
    await waitFor(() => heldBack('shared-server') && heldBack('root-server'), 'both left to VS Code again');
  });
});
