/**
 * A machine-to-machine server configured in `.vscode/mcp.json` inside the real VS Code: the
 * client-credentials grant with its secret in a password input. The fixture authorization
 * server runs in this extension host on loopback. No browser is involved, so nothing is stubbed
 * but the input box (a test cannot type into it).
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import type { ProtectedFixture } from '../../fixtures/servers/protectedServer';
import { activateApi, folderUri, recordOutputChannels, running, textOf, waitFor, writeText } from '../helpers';

const MACHINE = { clientId: 'itest-reporting-job', clientSecret: 'cc-SECRET-8642' };

suite('OAuth client credentials from mcp.json', function () {
  this.timeout(120000);
  let api: McpWorkbenchApi;
  let fixture: ProtectedFixture;
  let channels: ReturnType<typeof recordOutputChannels>;
  const window = vscode.window as unknown as Record<string, unknown>;
  const originalInputBox = vscode.window.showInputBox;
  const prompted: string[] = [];
  const configFile = () => vscode.Uri.joinPath(folderUri('folder-b'), '.vscode', 'mcp.json');

  suiteSetup(async () => {
    api = await activateApi();
    channels = recordOutputChannels();
    window.showInputBox = async (options?: vscode.InputBoxOptions) => {
      prompted.push(`${options?.title ?? ''} ${options?.prompt ?? ''}`);
      return MACHINE.clientSecret;
    };
    process.env.MCPWB_ITEST_CC_SECRET = MACHINE.clientSecret;
    const load = require(path.join(process.env.MCPWB_FIXTURES!, 'servers', 'protectedServer.js'));
    fixture = await load.startProtectedFixture({ clientCredentials: MACHINE });
    await writeText(
      configFile(),
      JSON.stringify({
        inputs: [{ id: 'cc-secret', type: 'promptString', password: true, description: 'Client secret of the reporting job' }],
        servers: {
          m2m: { type: 'http', url: fixture.url, oauth: { grantType: 'client_credentials', clientId: MACHINE.clientId, clientSecret: '${input:cc-secret}' } },
          // The same secret, taken from the environment by a workspace file: refused.
          'm2m-from-env': {
            type: 'http',
            url: fixture.url,
            oauth: { grantType: 'client_credentials', clientId: MACHINE.clientId, clientSecret: '${env:MCPWB_ITEST_CC_SECRET}' },
          },
        },
      }),
    );
  });

  suiteTeardown(async () => {
    channels?.dispose();
    window.showInputBox = originalInputBox;
    delete process.env.MCPWB_ITEST_CC_SECRET;
    await vscode.workspace.fs.delete(configFile()).then(undefined, () => undefined);
    await waitFor(() => !api.servers().some((s) => s.definition.name.startsWith('m2m')), 'the m2m servers to go');
    await vscode.commands.executeCommand('mcpWorkbench.clearStoredInputs');
    await fixture?.close();
  });

  test('starts by itself with a client_credentials token: no sign-in, no browser, no registration', async () => {
    const c = await running(api, 'm2m');
    assert.equal(textOf(await c.callTool('echo', { text: 'machine' })), 'echo: machine');
    assert.ok(prompted.length >= 1, 'the password input was asked for');
    assert.ok(fixture.stats.tokenRequests.some((t) => t.grantType === 'client_credentials'));
    assert.equal(fixture.stats.authorizationRequests.length, 0, 'no browser authorization');
    assert.equal(fixture.stats.registrations, 0, 'no dynamic registration');
    assert.ok(fixture.stats.bearerTokens.length > 0 && fixture.stats.bearerTokens.every((t) => t.startsWith('Bearer fixture-at-')));
  });

  test('a workspace entry that takes the secret from the environment does not start, and says why', async () => {
    const state = await waitFor(() => {
      const s = api.server('m2m-from-env')?.state;
      return s && s.kind === 'error' ? s : undefined;
    }, 'm2m-from-env to fail');
    assert.match(state.kind === 'error' ? state.message : '', /"oauth.clientSecret" may not read \$\{env:…\}/);
  });

  test('the secret and the token are in no output channel', () => {
    const text = channels.text();
    assert.ok(!text.includes(MACHINE.clientSecret), 'the client secret was logged');
    for (const token of fixture.stats.issuedTokens) assert.ok(!text.includes(token), 'an access token was logged');
  });
});
