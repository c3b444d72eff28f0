/**
 * GitHub Copilot's config places beside VS Code's own MCP host (on in this suite), with the
 * workspace's servers left to VS Code: VS Code's own host reads neither `.github/mcp.json` nor the
 * Copilot user file, so before 1.140 their servers run here all the same. From 1.140 VS Code's
 * Copilot agent host reads them, and they are left to it with their own reason (that branch runs
 * only on a VS Code we do not test yet; its rules are unit-tested in builtinHost.test.ts).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import type { ServerNode } from '../../../src/servers/serverTreeNodes';
import { activateApi, running, waitFor, writeText } from '../helpers';

const VSCODE_REASON = "run by VS Code's own MCP support";
const AGENT_HOST_REASON = "run by VS Code's Copilot agent host";

suite("GitHub Copilot's places beside VS Code's own MCP host", function () {
  this.timeout(90000);
  let api: McpWorkbenchApi;
  let copilotHome: string;
  let launcherCopilotHome: string | undefined;
  const server = () => path.join(process.env.MCPWB_FIXTURES!, 'servers', 'stdioServer.js');
  const githubDir = () => vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, '.github');
  const hasAgentHost = () => {
    const [major, minor] = vscode.version.split('.').map(Number);
    return major > 1 || minor >= 140;
  };
  const item = async (name: string) => {
    const node = (await api.testing.serverTree.getChildren()).find((n) => n.kind === 'server' && n.connection.definition.name === name) as ServerNode;
    return api.testing.serverTree.getTreeItem(node);
  };
  const stoppedFor = (name: string, reason: string) => {
    const state = api.server(name)?.state;
    return state?.kind === 'stopped' && state.reason === reason;
  };

  suiteSetup(async () => {
    api = await activateApi();
    await vscode.commands.executeCommand('mcpWorkbench.chooseWorkspaceServersRunner', 'vscode');
    copilotHome = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-copilot-home-'));
    launcherCopilotHome = process.env.COPILOT_HOME;
    process.env.COPILOT_HOME = copilotHome;
    const entry = (name: string) => ({ type: 'local', command: 'node', args: [server()], env: { FIXTURE_SERVER_NAME: name }, tools: ['*'] });
    fs.writeFileSync(path.join(copilotHome, 'mcp-config.json'), JSON.stringify({ mcpServers: { 'copilot-user': entry('copilot-user') } }, null, 2));
    await writeText(vscode.Uri.joinPath(githubDir(), 'mcp.json'), JSON.stringify({ mcpServers: { 'github-repo': entry('github-repo') } }, null, 2));
    await api.reload();
  });

  suiteTeardown(async () => {
    await vscode.workspace.fs.delete(githubDir(), { recursive: true }).then(undefined, () => undefined);
    if (launcherCopilotHome === undefined) delete process.env.COPILOT_HOME;
    else process.env.COPILOT_HOME = launcherCopilotHome;
    fs.rmSync(copilotHome, { recursive: true, force: true });
    await api.reload();
    await waitFor(() => !api.server('copilot-user') && !api.server('github-repo'), 'the servers of the removed files to go');
  });

  test('left to VS Code, the workspace files are held back; .github/mcp.json and the Copilot user file run here before 1.140', async () => {
    assert.equal(api.testing.coexistence().builtinHostActive, true);
    await waitFor(() => stoppedFor('shared-server', VSCODE_REASON), 'the .vscode/mcp.json server left to VS Code');
    if (hasAgentHost()) {
      // Not reached in the VS Code versions tested (1.100.3, 1.139.1).
      for (const name of ['copilot-user', 'github-repo']) {
        await waitFor(() => stoppedFor(name, AGENT_HOST_REASON), `${name} left to the agent host`);
        assert.match(String((await item(name)).contextValue), /\.vscodeRuns$/, 'with the inline Run Here');
      }
      return;
    }
    for (const name of ['copilot-user', 'github-repo']) {
      await running(api, name);
      const row = await item(name);
      assert.equal(row.contextValue, 'server.running.stdio');
      assert.doesNotMatch(String(row.description), /agent host/, 'no agent host to run a copy');
    }
    assert.match(String((await item('github-repo')).description), /from \.github\/mcp\.json/);
    assert.match(String((await item('copilot-user')).description), /from Copilot mcp-config\.json/);
  });
});
