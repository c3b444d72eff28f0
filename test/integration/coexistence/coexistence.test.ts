/**
 * Beside VS Code's own MCP host, switched on for this suite only (test/launch/runInCodeServer.mjs,
 * builtinMcpSettings), with no chat model: the servers of .vscode/mcp.json and .mcp.json run here
 * at first (VS Code's agent cannot use them); once the user leaves them to VS Code they stay
 * stopped here, ours keep running, and our lenses in those files step aside.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import type { ServerNode } from '../../../src/servers/serverTreeNodes';
import { activateApi, pidOf, running, waitFor } from '../helpers';

const REASON = "run by VS Code's own MCP support";
const CHOOSE = 'mcpWorkbench.chooseWorkspaceServersRunner';
const RUN_HERE = 'mcpWorkbench.runServerHere';

suite("Coexistence with VS Code's own MCP host", function () {
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

  // The first open (issue 28): this suite's profile has VS Code's MCP host on but no chat model
  // (no Copilot; the fake-model fixture extension is installed for `main` and e2e only), so
  // VS Code's agent cannot use the servers: we run them, with no question and no click.
  test('a fresh profile without a chat model: the workspace servers run here with no question, their tools visible', async () => {
    await running(api, 'shared-server');
    await running(api, 'root-server');
    const state = api.testing.coexistence();
    assert.equal(state.builtinHostActive, true, `VS Code ${vscode.version} with its MCP support on`);
    assert.deepEqual(await vscode.lm.selectChatModels(), [], 'no chat model in this profile');
    assert.equal(state.agentCanUse, false);
    assert.equal(state.runner, undefined, 'nothing chosen, nothing stored');
    assert.deepEqual(state.decision, { runner: 'workbench', ask: false });
    const root = await tree().getChildren();
    assert.ok(!root.some((n) => n.kind === 'runnerChoice'), 'no question in the Servers view');
    const shared = root.find((n) => n.kind === 'server' && n.connection.definition.name === 'shared-server')!;
    assert.equal(tree().getTreeItem(shared).collapsibleState, vscode.TreeItemCollapsibleState.Collapsed, 'expandable: it runs');
    const tools = (await tree().getChildren(shared)).find((n) => n.kind === 'group' && n.list === 'tools')!;
    assert.ok(tools, 'a Tools group');
    const names = (await tree().getChildren(tools)).map((n) => (n.kind === 'tool' ? n.toolName : ''));
    assert.ok(names.includes('echo'), names.join());
  });

  test('"VS Code runs them" leaves the servers of .vscode/mcp.json and .mcp.json to VS Code, with the reason and Run Here; the user-setting server runs', async () => {
    await vscode.commands.executeCommand(CHOOSE, 'vscode');
    await waitFor(() => heldBack('shared-server') && heldBack('root-server'), `both held back (now ${JSON.stringify(api.server('shared-server')?.state)})`);
    // Nothing starts them behind the tree's back a moment later either.
    await new Promise((r) => setTimeout(r, 1500));
    assert.ok(heldBack('shared-server') && heldBack('root-server'));
    assert.equal(api.server('user-server')!.state.kind, 'running');
    const item = await serverItem('shared-server');
    assert.match(String(item.description), /stopped: run by VS Code's own MCP support/);
    assert.match((item.tooltip as vscode.MarkdownString).value, /run by VS Code.s own MCP support/);
    assert.match(String(item.contextValue), /^server\.stopped\.stdio\.vscodeRuns$/, 'the context of the inline Run Here');
    assert.deepEqual(await ourLenses(), [], 'our lenses are hidden while VS Code runs them');
  });

  test('Run Here on one server VS Code runs starts it here and keeps it here; a choice for all replaces it', async () => {
    await vscode.commands.executeCommand(RUN_HERE, { serverId: api.server('shared-server')!.definition.id });
    await running(api, 'shared-server');
    assert.ok(heldBack('root-server'), 'the other one stays left to VS Code');
    assert.doesNotMatch(String((await serverItem('shared-server')).contextValue), /vscodeRuns/);
    await api.reload();
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(api.server('shared-server')!.state.kind, 'running', 'recorded for that server');
    await vscode.commands.executeCommand(CHOOSE, 'vscode');
    await waitFor(() => heldBack('shared-server') && heldBack('root-server'), 'both left to VS Code again');
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

  test('Start still runs a server VS Code runs (to inspect it), saying once that VS Code may run another copy, and the choice survives a reload', async () => {
    assert.equal(api.testing.coexistence().warnedAboutSecondCopy, false, 'no server VS Code runs was started here yet');
    await vscode.commands.executeCommand('mcpWorkbench.startServer', api.server('shared-server')!.definition.id);
    await running(api, 'shared-server');
    assert.equal(api.testing.coexistence().warnedAboutSecondCopy, true, 'the warning before a second copy (asked of src/coexistence by command)');
    await vscode.commands.executeCommand('mcpWorkbench.stopServer', api.server('shared-server')!.definition.id);
    await api.reload();
    assert.equal(api.testing.coexistence().runner, 'vscode');
    await waitFor(() => heldBack('shared-server'), 'stopped by the user, and still saying VS Code runs it');
  });

  test("follows VS Code's settings: with its host turned off, the workspace servers run here", async () => {
    // 1.101+: chat.mcp.access; 1.100: chat.mcp.enabled. A workspace value overrides the profile's.
    const minor = Number(/^1\.(\d+)/.exec(vscode.version)?.[1] ?? 0);
    const [section, key, off] = minor < 101 ? (['chat.mcp', 'enabled', false] as const) : (['chat.mcp', 'access', 'none'] as const);
    await vscode.workspace.getConfiguration(section).update(key, off, vscode.ConfigurationTarget.Workspace);
    try {
      await waitFor(() => !api.testing.coexistence().builtinHostActive, "VS Code's host seen as off");
      await running(api, 'shared-server');
      await running(api, 'root-server');
    } finally {
      await vscode.workspace.getConfiguration(section).update(key, undefined, vscode.ConfigurationTarget.Workspace);
    }
    await waitFor(() => api.testing.coexistence().builtinHostActive, "VS Code's host seen as on again");
    await waitFor(() => heldBack('shared-server') && heldBack('root-server'), 'both left to VS Code again');
  });
});
