/**
 * Per-server tool lists in the config file: `includeTools` / `excludeTools` (ours, Gemini CLI's
 * spelling) and GitHub Copilot's `tools` keep tools out of chat: the @mcp handler neither lists
 * nor offers them, and the Servers view marks them with the key that hides them. Editing the
 * lists applies without a restart. The config file is made here and removed afterwards.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import { createChatHandler, type ChatDeps } from '../../../src/chat/chatHandler';
import type { GroupNode, ServerNode, ToolNode } from '../../../src/servers/serverTreeNodes';
import { activateApi, folderUri, pidOf, running, waitFor, writeText } from '../helpers';
import { fakeModel } from '../fakeChat';

const configFile = () => vscode.Uri.joinPath(folderUri('folder-b'), '.vscode', 'mcp.json');
/** The new place of our keys for VS Code's mcp.json (VS Code's schema flags them in mcp.json itself). */
const besideFile = () => vscode.Uri.joinPath(folderUri('folder-b'), '.vscode', 'mcp-workbench.json');

suite('Tool lists in config (includeTools / excludeTools / tools)', function () {
  this.timeout(90000);
  let api: McpWorkbenchApi;
  const fixtureServer = () => path.join(process.env.MCPWB_FIXTURES!, 'servers', 'stdioServer.js');
  const entry = (lists: object) => ({ type: 'stdio', command: 'node', args: [fixtureServer()], ...lists });
  const deps = (): ChatDeps => ({
    registry: { all: () => api.servers(), find: (key: string) => api.server(key) },
    isToolDisabled: () => false,
    maxTools: () => 1000,
    confirm: async () => false,
    prompter: { pickPrompt: async () => undefined, ask: async () => undefined },
    pickResource: async () => undefined,
  });
  /** The chat tool names a plain request offers to the model. */
  const offered = async () => {
    const { model, calls } = fakeModel(() => []);
    const stream = {
      markdown: () => undefined,
      progress: () => undefined,
      reference: () => undefined,
      button: () => undefined,
    } as unknown as vscode.ChatResponseStream;
    const request = { prompt: 'echo', model, references: [], toolReferences: [], toolInvocationToken: undefined } as unknown as vscode.ChatRequest;
    await createChatHandler(deps())(request, { history: [] } as unknown as vscode.ChatContext, stream, new vscode.CancellationTokenSource().token);
    return (calls[0]?.options.tools ?? []).map((t) => t.name);
  };
  /** The Servers view's tool items of a server, by tool name. */
  const toolItems = async (name: string) => {
    const tree = api.testing.serverTree;
    const server = (await tree.getChildren()).find((n) => n.kind === 'server' && n.connection.definition.name === name) as ServerNode;
    const tools = ((await tree.getChildren(server)) as GroupNode[]).find((g) => tree.getTreeItem(g).label === 'Tools')!;
    return new Map(((await tree.getChildren(tools)) as ToolNode[]).map((t) => [t.tool.name, tree.getTreeItem(t)]));
  };

  suiteSetup(async () => {
    api = await activateApi();
  });

  suiteTeardown(async () => {
    await vscode.workspace.fs.delete(besideFile()).then(undefined, () => undefined);
    await vscode.workspace.fs.delete(configFile()).then(undefined, () => undefined);
    await waitFor(() => !api.server('lists-ours') && !api.server('lists-copilot'), 'the servers to go');
  });

  test('tools the lists leave out are not offered to chat and are marked in the Servers view', async () => {
    await writeText(
      configFile(),
      JSON.stringify({
        servers: { 'lists-ours': entry({ includeTools: ['echo', 'fail'], excludeTools: ['fail'] }), 'lists-copilot': entry({ tools: ['slow'] }) },
      }),
    );
    await running(api, 'lists-ours');
    await running(api, 'lists-copilot');
    const names = await waitFor(async () => {
      const n = await offered();
      return n.includes('lists-ours_echo') && n.includes('lists-copilot_slow') && n;
    }, 'the tools of both servers in chat');
    assert.deepEqual(
      names.filter((n) => n.startsWith('lists-')).sort(),
      ['lists-copilot_slow', 'lists-ours_echo'],
      'only what includeTools (minus excludeTools) and Copilot\'s "tools" let through',
    );

    const items = await toolItems('lists-ours');
    assert.equal(items.get('echo')?.contextValue, 'tool');
    assert.equal(items.get('fail')?.contextValue, 'tool.hiddenByConfig');
    assert.match(String(items.get('fail')?.description), /not in chat \(excludeTools\)/);
    assert.match(String(items.get('slow')?.description), /not in chat \(includeTools\)/);
  });

  test('editing the lists applies without a restart', async () => {
    const pid = pidOf(api.server('lists-ours')!);
    await writeText(
      configFile(),
      JSON.stringify({ servers: { 'lists-ours': entry({ excludeTools: ['echo'] }), 'lists-copilot': entry({ tools: ['slow'] }) } }),
    );
    const names = await waitFor(async () => {
      const n = await offered();
      return n.includes('lists-ours_fail') && !n.includes('lists-ours_echo') && n;
    }, 'the new lists to apply');
    assert.ok(names.includes('lists-ours_slow'));
    assert.equal(pidOf(api.server('lists-ours')!), pid, 'the server was not restarted');
  });

  test('lists in .vscode/mcp-workbench.json beside mcp.json apply too, deny lists of both places adding up', async () => {
    const pid = pidOf(api.server('lists-ours')!);
    await writeText(besideFile(), JSON.stringify({ servers: { 'lists-ours': { excludeTools: ['slow'] } } }));
    const names = await waitFor(async () => {
      const n = await offered();
      return n.includes('lists-ours_fail') && !n.includes('lists-ours_slow') && n;
    }, "the file beside's list to apply");
    assert.ok(!names.includes('lists-ours_echo'), "mcp.json's excludeTools still hides echo");
    assert.equal(pidOf(api.server('lists-ours')!), pid, 'the server was not restarted');
    const items = await toolItems('lists-ours');
    assert.match(String(items.get('slow')?.description), /not in chat \(excludeTools\)/);
  });
});
