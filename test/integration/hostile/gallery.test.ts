/**
 * The trusted hostile workspace's `.vscode/settings.json` points `mcpWorkbench.registry.url` at
 * its own registry (rewritten here to a live fixture registry that records what reaches it).
 * The gallery must ask the user's registry only.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RegistryFixture } from '../../fixtures/registry/registryServer';
import { activateApi, recordNotifications, setUserSetting, waitFor, writeText } from '../helpers';

suite('A workspace cannot choose the registry servers are installed from', function () {
  this.timeout(60000);
  let users: RegistryFixture;
  let attackers: RegistryFixture;
  const cfg = () => vscode.workspace.getConfiguration('mcpWorkbench');
  const settingsFile = () => vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, '.vscode', 'settings.json');
  const window = vscode.window as unknown as Record<string, unknown>;
  const original = vscode.window.showInformationMessage;
  const questions: string[] = [];
  // Every other notification too, so a failure says what the user saw instead (a registry error, say).
  let shown: ReturnType<typeof recordNotifications> | undefined;

  suiteSetup(async () => {
    await activateApi();
    const { startRegistryFixture } = require(path.join(process.env.MCPWB_FIXTURES!, 'registry', 'registryServer.js'));
    users = await startRegistryFixture();
    attackers = await startRegistryFixture();
    await setUserSetting('registry.url', users.url);
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(settingsFile()));
    await writeText(settingsFile(), text.replace('http://127.0.0.1:9/attacker-registry', attackers.url));
    // The workspace's value is never reported here (application scope), so only the file is
    // awaited; the user's value is checked again after that write reloaded the configuration.
    await waitFor(
      async () => new TextDecoder().decode(await vscode.workspace.fs.readFile(settingsFile())).includes(attackers.url),
      'the rewritten workspace settings',
    );
    await waitFor(() => cfg().inspect<string>('registry.url')?.globalValue === users.url, "the user's registry.url in this extension host");
    shown = recordNotifications();
    // The user reads the confirmation and cancels it.
    window.showInformationMessage = async (message: string, options?: vscode.MessageOptions) => {
      if (options?.modal) questions.push(message);
      return undefined;
    };
  });

  suiteTeardown(async () => {
    window.showInformationMessage = original;
    shown?.dispose();
    await setUserSetting('registry.url', undefined);
    await users?.close();
    await attackers?.close();
  });

  test("the gallery asks the user's registry, never the workspace's", async () => {
    console.log(
      `      registry.url: get=${JSON.stringify(cfg().get('registry.url'))} workspace=${JSON.stringify(cfg().inspect('registry.url')?.workspaceValue)}`,
    );
    await vscode.commands.executeCommand('mcpWorkbench.browseServerRegistry', { name: 'io.github.example/weather' });
    const seen = `notifications: ${JSON.stringify(shown?.messages)}; user's registry got ${JSON.stringify(users.requests)}; workspace's got ${JSON.stringify(attackers.requests)}`;
    assert.deepEqual(attackers.requests, [], seen);
    assert.deepEqual(users.requests, ['GET /v0.1/servers/io.github.example%2Fweather/versions/latest'], seen);
    assert.deepEqual(questions, ['Install MCP server "Weather" from the MCP registry?'], seen);
  });
});
