/**
 * Secrets never reach what a user or a log can see. One secret of every kind is planted: a
 * password input, a value from `envFile`, one from `${env:…}`, a header, URL query values and
 * userinfo, and an OAuth access token. The servers then echo them back (tool results, stderr,
 * log notifications, connect errors), and every output channel, the Activity records, the
 * Servers tree, the notifications and "Copy Server JSON" are searched for them.
 */
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import type { ActivityLog } from '../../../src/traffic/common/activityLog';
import type { ServerNode } from '../../../src/servers/serverTreeNodes';
import type { InspectorPanel } from '../../../src/inspector/inspectorPanel';
import type { HttpFixture } from '../../fixtures/servers/httpServer';
import type { ProtectedFixture } from '../../fixtures/servers/protectedServer';
import { activateApi, callbackToHandlerUri, folderUri, recordNotifications, recordOutputChannels, running, textOf, waitFor, writeText } from '../helpers';

const SECRETS = {
  input: 'pw-SECRET-4711',
  env: 'env-SECRET-5678',
  envFile: 'envfile-SECRET-9012',
  header: 'header-SECRET-7890',
  query: 'query-SECRET-3456',
  down: 'down-SECRET-2468',
  userinfo: 'userinfo-SECRET-1357',
};

suite('Secrets stay out of logs, state, Activity and the clipboard', function () {
  this.timeout(120000);
  let api: McpWorkbenchApi;
  let http: HttpFixture;
  let oauth: ProtectedFixture;
  let channels: ReturnType<typeof recordOutputChannels>;
  let notifications: ReturnType<typeof recordNotifications>;
  const window = vscode.window as unknown as Record<string, unknown>;
  const originalInputBox = vscode.window.showInputBox;
  const prompted: string[] = [];
  const configFile = () => vscode.Uri.joinPath(folderUri('folder-b'), '.vscode', 'mcp.json');
  const envFile = () => vscode.Uri.joinPath(folderUri('folder-b'), 'secret.env');
  let token = '';
  const planted = () => [...Object.values(SECRETS), token].filter(Boolean);

  suiteSetup(async () => {
    api = await activateApi();
    channels = recordOutputChannels();
    notifications = recordNotifications();
    // The user types the password when asked (a test cannot type into the real input box).
    window.showInputBox = async (options?: vscode.InputBoxOptions) => {
      prompted.push(options?.title ?? '');
      return SECRETS.input;
    };
    process.env.MCPWB_ITEST_SECRET = SECRETS.env;
    const load = (name: string) => require(path.join(process.env.MCPWB_FIXTURES!, 'servers', name));
    http = await load('httpServer.js').startHttpFixture();
    oauth = await load('protectedServer.js').startProtectedFixture({ accessTokenTtlSeconds: 3600 });
    const deliver = await vscode.commands.executeCommand<(uri: vscode.Uri) => void>('_mcpWorkbench.testing.oauthBrowser', async (url: string) => {
      const response = await fetch(url, { redirect: 'manual' });
      deliver(callbackToHandlerUri(response.headers.get('location')!));
      return true;
    });
    await writeText(envFile(), `# planted\nFROM_ENVFILE=${SECRETS.envFile}\n`);
    const fixture = '${env:MCPWB_FIXTURES}/servers/stdioServer.js';
    await writeText(
      configFile(),
      JSON.stringify({
        inputs: [{ id: 'pw', type: 'promptString', password: true, description: 'Password' }],
        servers: {
          'secret-stdio': {
            command: 'node',
            args: [fixture],
            envFile: '${workspaceFolder}/secret.env',
            env: { FROM_INPUT: '${input:pw}', FROM_ENV: '${env:MCPWB_ITEST_SECRET}' },
          },
          'secret-http': { type: 'http', url: `${http.url}?api_key=${SECRETS.query}&pw=\${input:pw}`, headers: { 'X-Custom-Auth': SECRETS.header } },
          'secret-down': { type: 'http', url: `http://alice:${SECRETS.userinfo}@127.0.0.1:9/mcp?sig=${SECRETS.down}&pw=\${input:pw}` },
          'secret-oauth': { type: 'http', url: oauth.url },
        },
      }),
    );
  });

  suiteTeardown(async () => {
    channels?.dispose();
    notifications?.dispose();
    window.showInputBox = originalInputBox;
    delete process.env.MCPWB_ITEST_SECRET;
    await vscode.commands.executeCommand('_mcpWorkbench.testing.oauthBrowser', undefined);
    await vscode.workspace.fs.delete(configFile()).then(undefined, () => undefined);
    await vscode.workspace.fs.delete(envFile()).then(undefined, () => undefined);
    await waitFor(() => !api.servers().some((s) => s.definition.name.startsWith('secret-')), 'the secret servers to go');
    await vscode.commands.executeCommand('mcpWorkbench.clearStoredInputs');
    await http?.close();
    await oauth?.close();
  });

  test('the servers start with every kind of secret (the password was asked once)', async () => {
    const stdio = await running(api, 'secret-stdio');
    await running(api, 'secret-http');
    await waitFor(() => api.server('secret-down')?.state.kind === 'error', 'secret-down to fail to connect');
    assert.ok(prompted.length >= 1, 'the password input was asked for');
    assert.equal(textOf(await stdio.callTool('env', { name: 'FROM_INPUT' })), SECRETS.input);
    assert.equal(textOf(await stdio.callTool('env', { name: 'FROM_ENV' })), SECRETS.env);
    assert.equal(textOf(await stdio.callTool('env', { name: 'FROM_ENVFILE' })), SECRETS.envFile);
    await vscode.commands.executeCommand('mcpWorkbench.signIn', api.server('secret-oauth')!.definition.id);
    await waitFor(() => api.server('secret-oauth')?.state.kind === 'running', 'the OAuth server to run after sign-in', 60000);
    token = oauth.stats.issuedTokens.at(-1)!;
    assert.ok(token);
  });

  test('servers that echo the secrets back: stderr, log notifications, tool results', async () => {
    const all = planted().join(' ');
    for (const name of ['secret-stdio', 'secret-http', 'secret-oauth']) {
      const c = await running(api, name);
      assert.match(textOf(await c.callTool('echo', { text: all })), /echo:/);
      await c.callTool('log', { level: 'error', message: `leaked: ${all}` });
    }
    await (await running(api, 'secret-stdio')).callTool('stderr', { text: `stderr: ${all}` });
    // Let the log notifications and stderr lines arrive.
    await new Promise((r) => setTimeout(r, 500));
  });

  // Case-insensitive: the tree lowercases state messages, which must not let a secret through.
  const assertClean = (what: string, text: string) => {
    for (const secret of planted()) assert.ok(!text.toLowerCase().includes(secret.toLowerCase()), `${what} shows the secret ${secret}:\n${text}`);
  };

  test('no output channel shows a secret (server logs, stderr, traces)', () => {
    const text = channels.text();
    assert.ok(/secret-stdio/.test(text) || text.length > 0, 'something was logged');
    assertClean('the output', text);
  });

  test('no Activity record shows a secret', async () => {
    const log = (await vscode.commands.executeCommand<ActivityLog>('_mcpWorkbench.activityLog'))!;
    const ours = log.entries().filter((e) => e.serverLabel.startsWith('secret-'));
    assert.ok(ours.length > 5, `activity of the secret servers (${ours.length})`);
    assertClean('the Activity view', JSON.stringify(ours.map(({ request, response, status }) => ({ request, response, status }))));
  });

  test('an exported Inspector recording holds no secret', async () => {
    const file = vscode.Uri.file(path.join(os.tmpdir(), `mcpwb-secrets-recording-${Date.now()}.jsonl`));
    await vscode.commands.executeCommand('mcpWorkbench.exportRecording', file);
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
    await vscode.workspace.fs.delete(file);
    assert.ok((text.match(/"serverLabel":"secret-/g) ?? []).length > 5, "the secret servers' traffic was exported");
    assertClean('the exported recording', text);
  });

  test('an exported console (all servers) holds no secret', async () => {
    const file = vscode.Uri.file(path.join(os.tmpdir(), `mcpwb-secrets-console-${Date.now()}.log`));
    await vscode.commands.executeCommand('mcpWorkbench.exportConsole', file);
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
    await vscode.workspace.fs.delete(file);
    assert.match(text, /\[secret-stdio\] stderr stderr: /, "the secret server's stderr line was exported");
    assert.match(text, /\[secret-http\] error .*leaked: /, 'a log message of the secret HTTP server was exported');
    assertClean('the exported console', text);
  });

  test('"Copy as Inspector CLI Command" copies no literal secret (env, headers, URL, arguments)', async () => {
    const log = (await vscode.commands.executeCommand<ActivityLog>('_mcpWorkbench.activityLog'))!;
    for (const name of ['secret-stdio', 'secret-http']) {
      const call = log.entries().find((e) => e.serverLabel === name && e.method === 'tools/call' && e.rerun?.name === 'echo');
      assert.ok(call, `the echo call of ${name}`);
      const panel = await vscode.commands.executeCommand<InspectorPanel>('mcpWorkbench.openActivityEntryInInspector', call.seq);
      // What the page sends (the redacted params it shows), and params a user typed the secrets into.
      const shown = (call.request as { params: unknown }).params;
      for (const params of [shown, { name: 'echo', arguments: { text: planted().join(' ') } }]) {
        await vscode.env.clipboard.writeText('');
        const status = await panel.act('copyCli', call.seq, JSON.stringify(params));
        assert.equal(status[0]?.kind, 'info', JSON.stringify(status));
        const copied = await vscode.env.clipboard.readText();
        assert.match(copied, /^npx @modelcontextprotocol\/inspector --cli /);
        assertClean('the copied Inspector CLI command', copied);
      }
    }
  });

  test('the failure state, its notification and the Servers tree show no secret', async () => {
    const down = api.server('secret-down')!;
    const tree = api.testing.serverTree;
    const nodes = (await tree.getChildren()).filter((n): n is ServerNode => n.kind === 'server' && n.connection.definition.name.startsWith('secret-'));
    assert.equal(nodes.length, 4);
    const items = nodes.map((n) => tree.getTreeItem(n));
    assertClean(
      'the Servers tree',
      JSON.stringify(items.map((i) => [i.label, i.description, (i.tooltip as vscode.MarkdownString).value, i.accessibilityInformation])),
    );
    await waitFor(
      () => notifications.messages.some((m) => m.includes('secret-down')),
      `the failure notification (seen ${JSON.stringify(notifications.messages)})`,
    );
    assertClean('the notifications', notifications.messages.join('\n'));
    assert.equal(down.state.kind, 'error');
  });

  test('"Copy Server JSON" copies no literal secret', async () => {
    for (const name of ['secret-stdio', 'secret-http', 'secret-down', 'secret-oauth']) {
      await vscode.env.clipboard.writeText('');
      await vscode.commands.executeCommand('mcpWorkbench.copyServerJson', { serverId: api.server(name)!.definition.id });
      const copied = await vscode.env.clipboard.readText();
      assert.ok(copied.includes(name), copied);
      assertClean('the copied JSON', copied);
    }
  });
});
