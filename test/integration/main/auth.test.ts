/**
 * OAuth sign-in to a protected server inside the real VS Code. The fixture authorization
 * server runs in this extension host on loopback and approves at once. The user's browser is
 * the one part a test cannot drive, so a stand-in follows the authorization URL with fetch and
 * hands the redirect to the extension's real URI handler, as VS Code's callback page does with
 * the redirect to `asExternalUri(<scheme>://mcp-workbench.mcp-workbench/oauth/callback)`.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import type { ProtectedFixture } from '../../fixtures/servers/protectedServer';
import { activateApi, callbackToHandlerUri, folderUri, textOf, waitFor, writeText } from '../helpers';

suite('OAuth sign-in', function () {
  this.timeout(120000);
  let api: McpWorkbenchApi;
  let fixture: ProtectedFixture;
  let original: Uint8Array;
  const configFile = () => vscode.Uri.joinPath(folderUri('folder-b'), '.mcp.json');
  const server = () => api.server('protected')!;

  suiteSetup(async () => {
    api = await activateApi();
    const deliver = await vscode.commands.executeCommand<(uri: vscode.Uri) => void>('_mcpWorkbench.testing.oauthBrowser', async (url: string) => {
      const response = await fetch(url, { redirect: 'manual' });
      const location = response.headers.get('location');
      if (!location) throw new Error(`the authorization endpoint answered ${response.status} without a redirect: ${await response.text()} (url ${url})`);
      deliver(callbackToHandlerUri(location));
      return true;
    });
    const load = require(path.join(process.env.MCPWB_FIXTURES!, 'servers', 'protectedServer.js'));
    fixture = await load.startProtectedFixture({ accessTokenTtlSeconds: 3600 });
    original = await vscode.workspace.fs.readFile(configFile());
    const config = JSON.parse(new TextDecoder().decode(original));
    config.mcpServers.protected = { type: 'http', url: fixture.url };
    await writeText(configFile(), JSON.stringify(config));
    await waitFor(() => api.server('protected'), 'the protected server to be configured');
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('_mcpWorkbench.testing.oauthBrowser', undefined);
    await vscode.workspace.fs.writeFile(configFile(), original);
    await waitFor(() => !api.server('protected'), 'the protected server to be removed');
    await fixture.close();
  });

  test('an automatic start meets a 401 and waits for sign-in instead of failing', async () => {
    const state = await waitFor(() => api.server('protected')?.state.kind === 'needsAuth' && server().state, 'needsAuth');
    assert.equal(state.kind, 'needsAuth');
    assert.equal(fixture.stats.authorizationRequests.length, 0, 'no browser was opened by an automatic start');
  });

  test('Sign In goes through the browser and the URI handler, then the server runs with a bearer token', async () => {
    await vscode.commands.executeCommand('mcpWorkbench.signIn', server().definition.id);
    await waitFor(() => server().state.kind === 'running', `the server to run (now ${JSON.stringify(server().state)})`, 60000);
    assert.equal(fixture.stats.authorizationRequests.length, 1);
    assert.ok(fixture.stats.authorizationRequests[0].resource, 'the resource parameter was sent');
    assert.equal(textOf(await server().callTool('echo', { text: 'authorized' })), 'echo: authorized');
    assert.ok(fixture.stats.bearerTokens.length > 0 && fixture.stats.bearerTokens.every((t) => t.startsWith('Bearer ')));
  });

  test('an expired access token is refreshed without asking the user', async () => {
    const before = fixture.stats.tokenRequests.filter((t) => t.grantType === 'refresh_token').length;
    fixture.expireAccessTokens();
    assert.equal(textOf(await server().callTool('echo', { text: 'after expiry' })), 'echo: after expiry');
    assert.equal(fixture.stats.tokenRequests.filter((t) => t.grantType === 'refresh_token').length, before + 1);
    assert.equal(fixture.stats.authorizationRequests.length, 1, 'no second browser sign-in');
  });

  test('a lost session (404) is re-initialised transparently', async () => {
    const sessions = fixture.stats.sessionsCreated;
    fixture.dropSessions();
    assert.equal(textOf(await server().callTool('echo', { text: 'new session' })), 'echo: new session');
    assert.equal(fixture.stats.sessionsCreated, sessions + 1);
  });

  test('Sign Out forgets the tokens: the next start needs sign-in again', async () => {
    await vscode.commands.executeCommand('mcpWorkbench.signOut', server().definition.id);
    await vscode.commands.executeCommand('mcpWorkbench.startServer', server().definition.id);
    await waitFor(() => server().state.kind === 'needsAuth', 'needsAuth after sign-out');
  });
});
