/**
 * GitHub Copilot's config places inside a real VS Code: a folder's `.github/mcp.json` and the
 * Copilot user file in COPILOT_HOME (set here, in the extension host's own environment, to a
 * temp folder) are config sources. Their servers show in the Servers view with where they come
 * from, run (VS Code's own host is off in this suite, and before 1.140 nothing in VS Code reads
 * these files) and list their tools; bad JSON gets a diagnostic. Add Server writes `.mcp.json`.
 * Every file is made here and removed afterwards.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as jsonc from 'jsonc-parser';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import type { GroupNode, ServerNode, ToolNode } from '../../../src/servers/serverTreeNodes';
import { activateApi, folderUri, moveFolderIn, running, waitFor, writeText } from '../helpers';

suite("GitHub Copilot's config places", function () {
  this.timeout(90000);
  let api: McpWorkbenchApi;
  let copilotHome: string;
  let launcherCopilotHome: string | undefined;
  const fixtureServer = () => path.join(process.env.MCPWB_FIXTURES!, 'servers', 'stdioServer.js');
  const githubDir = () => vscode.Uri.joinPath(folderUri('folder-a'), '.github');
  const githubFile = () => vscode.Uri.joinPath(githubDir(), 'mcp.json');
  const movedGithubDir = () => vscode.Uri.joinPath(folderUri('folder-b'), '.github');
  const rootMcpJson = () => vscode.Uri.joinPath(folderUri('folder-a'), '.mcp.json');
  const userFile = () => path.join(copilotHome, 'mcp-config.json');
  const tree = () => api.testing.serverTree;
  const serverNode = async (name: string) =>
    (await tree().getChildren()).find((n) => n.kind === 'server' && n.connection.definition.name === name) as ServerNode | undefined;
  /** The tool names the Servers view shows under the server's Tools group. */
  const toolsInTree = async (name: string) => {
    const node = await serverNode(name);
    if (!node) return [];
    const groups = (await tree().getChildren(node)) as GroupNode[];
    const tools = groups.find((g) => tree().getTreeItem(g).label === 'Tools');
    return tools ? ((await tree().getChildren(tools)) as ToolNode[]).map((t) => t.tool.name) : [];
  };

  suiteSetup(async () => {
    api = await activateApi();
    copilotHome = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-copilot-home-'));
    launcherCopilotHome = process.env.COPILOT_HOME;
    process.env.COPILOT_HOME = copilotHome;
    process.env.MCPWB_COPILOT_NAME = 'from-github-mcp-json';
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(githubDir(), { recursive: true }).then(undefined, () => undefined);
    await vscode.workspace.fs.delete(movedGithubDir(), { recursive: true }).then(undefined, () => undefined);
    await vscode.workspace.fs.delete(rootMcpJson()).then(undefined, () => undefined);
    if (launcherCopilotHome === undefined) delete process.env.COPILOT_HOME;
    else process.env.COPILOT_HOME = launcherCopilotHome;
    delete process.env.MCPWB_COPILOT_NAME;
    fs.rmSync(copilotHome, { recursive: true, force: true });
    await api.reload();
    await waitFor(
      () => !['copilot-user', 'copilot-user-2', 'github-repo', 'added-root', 'github-moved'].some((n) => api.server(n)),
      'the servers of the removed files to go',
    );
  });

  test('a server of .github/mcp.json and one of the COPILOT_HOME mcp-config.json show, run, say where they come from and list their tools', async () => {
    // Copilot's own spellings: "local", `tools`, and ${VAR} in env (the Copilot CLI expands it).
    fs.writeFileSync(
      userFile(),
      JSON.stringify(
        {
          mcpServers: {
            'copilot-user': { type: 'local', command: 'node', args: [fixtureServer()], env: { FIXTURE_SERVER_NAME: 'from-copilot-home' }, tools: ['*'] },
          },
        },
        null,
        2,
      ),
    );
    await writeText(
      githubFile(),
      JSON.stringify(
        {
          mcpServers: {
            'github-repo': { type: 'local', command: 'node', args: [fixtureServer()], env: { FIXTURE_SERVER_NAME: '${MCPWB_COPILOT_NAME}' }, tools: ['*'] },
          },
        },
        null,
        2,
      ),
    );
    // COPILOT_HOME changed after activation: a reload reads (and watches) the file where it says now.
    await api.reload();

    const user = await running(api, 'copilot-user');
    if (user.state.kind !== 'running') throw new Error('not running');
    assert.equal(user.state.serverInfo.name, 'from-copilot-home');
    assert.equal(user.definition.source.file, userFile(), 'read from COPILOT_HOME, not ~/.copilot');
    assert.equal(user.definition.source.scope, 'user');
    assert.equal(user.definition.source.label, 'Copilot mcp-config.json');

    const repo = await running(api, 'github-repo');
    if (repo.state.kind !== 'running') throw new Error('not running');
    assert.equal(repo.state.serverInfo.name, 'from-github-mcp-json', '${VAR} in env is read from the environment');
    assert.equal(repo.definition.source.file, githubFile().fsPath);
    assert.equal(repo.definition.source.scope, 'workspace');
    assert.equal(repo.definition.source.folder, 'folder-a');

    const userItem = tree().getTreeItem((await serverNode('copilot-user'))!);
    assert.match(String(userItem.description), /· from Copilot mcp-config\.json$/);
    assert.equal(userItem.contextValue, 'server.running.stdio');
    const repoItem = tree().getTreeItem((await serverNode('github-repo'))!);
    assert.match(String(repoItem.description), /· from \.github\/mcp\.json$/);
    // Before 1.140 no agent host reads these files: nothing says a copy may run elsewhere.
    assert.doesNotMatch(String(repoItem.description), /agent host/);

    for (const name of ['copilot-user', 'github-repo']) {
      const tools = await waitFor(async () => {
        const t = await toolsInTree(name);
        return t.includes('echo') && t;
      }, `the tools of ${name} in the Servers view`);
      assert.ok(tools.length > 1, `${name}: ${tools.join(', ')}`);
    }
  });

  test('the COPILOT_HOME file is watched: a server added to it appears', async () => {
    const text = JSON.parse(fs.readFileSync(userFile(), 'utf8')) as { mcpServers: Record<string, unknown> };
    text.mcpServers['copilot-user-2'] = { command: 'node', args: [fixtureServer()], tools: ['*'] };
    fs.writeFileSync(userFile(), JSON.stringify(text, null, 2));
    await running(api, 'copilot-user-2');
  });

  test('a .github folder moved into a workspace folder (a checkout, an unzip) brings its server: the new folder is watched, not only the file', async () => {
    // VS Code's watcher fires no event for a file that arrives inside a new folder, only for the folder.
    moveFolderIn(
      movedGithubDir(),
      'mcp.json',
      JSON.stringify({ mcpServers: { 'github-moved': { type: 'local', command: 'node', args: [fixtureServer()], tools: ['*'] } } }),
    );
    const moved = await running(api, 'github-moved');
    assert.equal(moved.definition.source.folder, 'folder-b');
    assert.equal(moved.definition.source.file, vscode.Uri.joinPath(movedGithubDir(), 'mcp.json').fsPath);
  });

  test('bad JSON in .github/mcp.json gets a diagnostic, not silence', async () => {
    // No startable entry in it: a server that does not speak MCP would hold the next reload for its handshake timeout.
    await writeText(githubFile(), '{ "mcpServers": { oops } }');
    const diagnostics = await waitFor(() => {
      const d = vscode.languages.getDiagnostics(githubFile());
      return d.length > 0 && d;
    }, 'a diagnostic on .github/mcp.json');
    assert.ok(
      diagnostics.some((d) => d.severity === vscode.DiagnosticSeverity.Error && d.source === 'MCP Workbench'),
      diagnostics.map((d) => d.message).join(' | '),
    );
  });

  test('Add Server writes the portable .mcp.json at the folder root, in its mcpServers shape', async () => {
    await vscode.commands.executeCommand('mcpWorkbench.addServer', {
      kind: 'command',
      value: `node ${fixtureServer()}`,
      name: 'added-root',
      folder: 'folder-a',
      target: 'mcpJson',
    });
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(rootMcpJson()));
    const written = jsonc.parse(text) as { mcpServers?: Record<string, unknown>; servers?: unknown };
    assert.deepEqual(written.mcpServers?.['added-root'], { type: 'stdio', command: 'node', args: [fixtureServer()] });
    assert.equal(written.servers, undefined);
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), rootMcpJson().toString());
    const c = await running(api, 'added-root');
    assert.equal(c.definition.source.label, '.mcp.json');
    assert.equal(c.definition.source.folder, 'folder-a');
  });
});
