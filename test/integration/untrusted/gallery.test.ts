/**
 * In an untrusted workspace the gallery installs for the user only: the confirmation offers no
 * workspace target and says why.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RegistryFixture } from '../../fixtures/registry/registryServer';
import { activateApi, setUserSetting } from '../helpers';

suite('Server gallery in an untrusted workspace', function () {
  this.timeout(60000);
  let registry: RegistryFixture;
  const window = vscode.window as unknown as Record<string, unknown>;
  const original = vscode.window.showInformationMessage;
  const modals: { message: string; detail?: string; buttons: string[] }[] = [];

  suiteSetup(async () => {
    await activateApi();
    const { startRegistryFixture } = require(path.join(process.env.MCPWB_FIXTURES!, 'registry', 'registryServer.js'));
    registry = await startRegistryFixture();
    await setUserSetting('registry.url', registry.url);
    window.showInformationMessage = async (message: string, options?: vscode.MessageOptions, ...buttons: string[]) => {
      if (options?.modal) modals.push({ message, detail: options.detail, buttons });
      return undefined;
    };
  });

  suiteTeardown(async () => {
    window.showInformationMessage = original;
    await setUserSetting('registry.url', undefined);
    await registry?.close();
  });

  test('only "Install for User" is offered, and the confirmation says why', async () => {
    assert.equal(vscode.workspace.isTrusted, false);
    await vscode.commands.executeCommand('mcpWorkbench.browseServerRegistry', { name: 'io.github.example/fetch' });
    assert.equal(modals.length, 1);
    assert.deepEqual(modals[0].buttons, ['Install for User']);
    assert.match(modals[0].detail ?? '', /^Workspace config is not offered: this workspace is not trusted\.$/m);
    assert.match(modals[0].detail ?? '', /^Runs: uvx mcp-server-fetch==2025\.4\.7 --ignore-robots-txt$/m);
  });
});
