/**
 * The server gallery in the real VS Code: `mcpWorkbench.registry.url` (user settings) points at
 * the fixture registry (test/fixtures/registry), servers are installed through
 * `mcpWorkbench.browseServerRegistry` with a preselected name (the picker is skipped; a test
 * cannot type into it), and the written config is read back. The remote entry points at the
 * real fixture MCP server, so an installed server is also started, its token asked for.
 * The user's answers to the modal, the quick pick and the input box are given by replacing
 * those window functions (the extension and the tests share one `vscode` API object).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as jsonc from 'jsonc-parser';
import type { McpWorkbenchApi } from '../../../src/api';
import type { HttpFixture } from '../../fixtures/servers/httpServer';
import type { RegistryFixture } from '../../fixtures/registry/registryServer';
import { activateApi, folderUri, recordNotifications, running, setUserSetting, waitFor } from '../helpers';
import { fakeLoginShell } from '../../shared/fakeLoginShell';

type Window = Record<string, unknown>;

suite('Server gallery: install from the MCP registry and from links', function () {
  this.timeout(90000);
  let api: McpWorkbenchApi;
  let registry: RegistryFixture;
  let mcp: HttpFixture;
  let notifications: ReturnType<typeof recordNotifications>;
  const window = vscode.window as unknown as Window;
  const originals = Object.fromEntries(
    ['showInformationMessage', 'showWarningMessage', 'showQuickPick', 'showWorkspaceFolderPick', 'showInputBox'].map((k) => [k, window[k]]),
  );
  const config = () => vscode.workspace.getConfiguration('mcpWorkbench');
  const before: Record<string, unknown> = {};
  const configFile = () => vscode.Uri.joinPath(folderUri('folder-b'), '.vscode', 'mcp.json');
  /** What the user answers to the next modal (a button label), and what the modals showed. */
  let modalAnswer: string | undefined;
  const modals: { message: string; detail: string; buttons: string[] }[] = [];
  let quickPickAnswer: (items: vscode.QuickPickItem[]) => vscode.QuickPickItem | undefined = () => undefined;
  const quickPicks: vscode.QuickPickItem[][] = [];

  suiteSetup(async () => {
    api = await activateApi();
    notifications = recordNotifications();
    const load = (file: string) => require(path.join(process.env.MCPWB_FIXTURES!, file));
    mcp = await load('servers/httpServer.js').startHttpFixture();
    registry = await load('registry/registryServer.js').startRegistryFixture({ remoteUrls: { 'com.example/issues': mcp.url } });
    for (const key of ['registry.url', 'autoStart', 'servers', 'inputs', 'useLoginShellPath']) before[key] = config().inspect(key)?.globalValue;
    // Installed servers are started by the test when it wants them (npx would try to download).
    await setUserSetting('autoStart', false);
    await setUserSetting('registry.url', registry.url);
    const modal =
      (kind: string) =>
      (message: string, ...rest: unknown[]) => {
        const options = rest[0] as vscode.MessageOptions | undefined;
        if (!options || typeof options !== 'object' || !options.modal)
          return (originals[kind] as (...a: unknown[]) => unknown).call(vscode.window, message, ...rest);
        modals.push({ message, detail: options.detail ?? '', buttons: rest.slice(1) as string[] });
        return Promise.resolve(modalAnswer);
      };
    window.showInformationMessage = modal('showInformationMessage');
    window.showWarningMessage = modal('showWarningMessage');
    window.showQuickPick = async (items: vscode.QuickPickItem[] | Thenable<vscode.QuickPickItem[]>) => {
      const list = await items;
      quickPicks.push(list);
      return quickPickAnswer(list);
    };
    window.showWorkspaceFolderPick = async () => vscode.workspace.workspaceFolders?.find((f) => f.name === 'folder-b');
    window.showInputBox = async () => 'tracker-token-0815';
  });

  suiteTeardown(async () => {
    // Installs open what they wrote (mcp.json, the user settings.json): leave the editors as the next suite expects them.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    Object.assign(window, originals);
    notifications?.dispose();
    for (const [key, value] of Object.entries(before)) await setUserSetting(key, value);
    await vscode.workspace.fs.delete(configFile()).then(undefined, () => undefined);
    await registry?.close();
    await mcp?.close();
  });

  test("an npm server with a secret env var goes into the workspace's .vscode/mcp.json, the secret as a password input", async () => {
    modalAnswer = 'Install in Workspace';
    const result = await vscode.commands.executeCommand<{ name: string } | undefined>('mcpWorkbench.browseServerRegistry', {
      name: 'io.github.example/weather',
    });
    assert.equal(result?.name, 'weather');
    const question = modals.at(-1)!;
    assert.equal(question.message, 'Install MCP server "Weather" from the MCP registry?');
    assert.deepEqual(question.buttons, ['Install for User', 'Install in Workspace']);
    assert.match(question.detail, /^Runs: npx -y @example\/weather-mcp@1\.4\.2$/m);
    assert.match(question.detail, /^Asks on first start for weather-WEATHER_API_KEY \(OpenWeatherMap API key\), kept in secret storage$/m);
    assert.match(question.detail, /^Optional, not set: --log-level/m);
    assert.ok(registry.requests.includes('GET /v0.1/servers/io.github.example%2Fweather/versions/latest'), registry.requests.join('\n'));

    const written = jsonc.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(configFile())));
    assert.deepEqual(written.servers.weather, {
      type: 'stdio',
      command: 'npx',
      args: ['-y', '@example/weather-mcp@1.4.2'],
      env: { WEATHER_API_KEY: '${input:weather-WEATHER_API_KEY}', WEATHER_UNITS: 'metric' },
    });
    assert.deepEqual(written.inputs, [{ id: 'weather-WEATHER_API_KEY', type: 'promptString', description: 'OpenWeatherMap API key', password: true }]);
    // The config reload picks it up as a server of that file, waiting for its input.
    const server = await waitFor(
      () => api.servers().find((c) => c.definition.name === 'weather' && c.definition.source.file === configFile().fsPath),
      'the installed server in the registry',
    );
    assert.deepEqual(server.definition.missingInputs, ['weather-WEATHER_API_KEY']);
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, configFile().fsPath);
  });

  test('a remote with a bearer-token header goes into user settings; on start the token is asked for, kept secret, and the server runs', async () => {
    modalAnswer = 'Install for User';
    const result = await vscode.commands.executeCommand<{ name: string } | undefined>('mcpWorkbench.browseServerRegistry', { name: 'com.example/issues' });
    assert.equal(result?.name, 'issues');
    assert.match(modals.at(-1)!.detail, new RegExp(`^Connects to \\(http\\): ${mcp.url.replace(/[.]/g, '\\.')}$`, 'm'));
    assert.deepEqual(config().inspect<Record<string, unknown>>('servers')?.globalValue?.issues, {
      type: 'http',
      url: mcp.url,
      headers: { Authorization: 'Bearer ${input:issues-token}' },
    });
    assert.deepEqual(config().inspect<unknown[]>('inputs')?.globalValue, [
      { id: 'issues-token', type: 'promptString', description: 'Example Tracker API token', password: true },
    ]);

    const server = await waitFor(() => api.server('issues'), 'the installed remote in the registry');
    await vscode.commands.executeCommand('mcpWorkbench.startServer', server.definition.id);
    const connection = await running(api, 'issues');
    assert.equal(connection.definition.launch.type === 'http' && connection.definition.launch.headers.Authorization, 'Bearer tracker-token-0815');
    assert.ok(connection.definition.secrets.includes('tracker-token-0815'), 'the token is redacted like every secret');
    assert.ok(!JSON.stringify(config().inspect('servers')?.globalValue).includes('tracker-token-0815'), 'the token is not written to settings');
    await vscode.commands.executeCommand('mcpWorkbench.stopServer', connection.definition.id);
  });

  test("a runtime installed since the login shell's PATH was kept is found: the shell is asked again before saying it is missing", async () => {
    // A login shell of our own whose PATH comes from a file; `$SHELL` is read when the shell is
    // asked (src/mcp/process/loginShellPath.ts). No uvx on this machine's own PATH.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-login-shell-'));
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin);
    const { shell, setPath } = fakeLoginShell(dir, `/mcpwb-nothing-here:${process.env.PATH}`);
    const savedShell = process.env.SHELL;
    const uvxMissing = /^uvx was not found on PATH/m;
    const askToInstallFetch = async () => {
      modalAnswer = undefined; // cancelled: only the question is looked at
      await vscode.commands.executeCommand('mcpWorkbench.browseServerRegistry', { name: 'io.github.example/fetch' });
      const question = modals.at(-1)!;
      assert.equal(question.message, 'Install MCP server "Fetch" from the MCP registry?');
      return question.detail;
    };
    try {
      process.env.SHELL = shell;
      await setUserSetting('useLoginShellPath', true);
      // The shell's PATH lacks uvx: it is kept (in globalState, for this shell), and the question says uvx is missing.
      assert.match(await askToInstallFetch(), uvxMissing);
      // uvx installed since, somewhere only the login shell's PATH has; a new session (the setting off and on).
      fs.writeFileSync(path.join(bin, 'uvx'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
      setPath(`${bin}:${process.env.PATH}`);
      await setUserSetting('useLoginShellPath', false);
      await setUserSetting('useLoginShellPath', true);
      const detail = await askToInstallFetch();
      assert.doesNotMatch(detail, uvxMissing);
      assert.match(detail, /^Runs: uvx mcp-server-fetch==2025\.4\.7 /m);
    } finally {
      process.env.SHELL = savedShell;
      await setUserSetting('useLoginShellPath', before.useLoginShellPath);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a server with several packages and a remote: the local package this machine can run, or the remote', async () => {
    modalAnswer = 'Install for User';
    quickPickAnswer = (items) => items.find((i) => i.label.includes('Connect to the remote server'));
    const result = await vscode.commands.executeCommand<{ name: string } | undefined>('mcpWorkbench.browseServerRegistry', {
      name: 'io.github.example/filesystem',
    });
    const offered = quickPicks.at(-1)!;
    assert.equal(offered.length, 2, JSON.stringify(offered));
    assert.match(offered[0].label, /Run it on this machine with (npx|docker)/);
    assert.equal(result?.name, 'filesystem');
    assert.deepEqual(config().inspect<Record<string, unknown>>('servers')?.globalValue?.filesystem, { type: 'sse', url: 'https://files.example.com/sse' });
    assert.match(
      modals.at(-1)!.detail,
      /^Not used: mcpb package https:\/\/github\.com\/example\/filesystem-mcp\/releases\/download\/v2\.0\.0\/filesystem\.mcpb \(MCP bundles/m,
    );
  });

  test("an install link through the URI handler: the confirmation shows what runs, and the link cannot take another input's value", async () => {
    modalAnswer = 'Install for User';
    const link = {
      name: 'memory',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-memory'],
      env: { TRACKER: '${input:issues-token}' },
      envFile: '${userHome}/.aws/credentials',
      inputs: [{ id: 'issues-token', type: 'promptString', password: true }],
    };
    const count = modals.length;
    api.testing.handleUri(vscode.Uri.parse(`vscode://mcp-workbench.mcp-workbench/install?${encodeURIComponent(JSON.stringify(link))}`));
    await waitFor(() => config().inspect<Record<string, unknown>>('servers')?.globalValue?.memory, 'the linked server in user settings');
    const question = modals[count];
    assert.equal(question.message, 'Install MCP server "memory" from a link?');
    assert.match(question.detail, /^Runs: npx -y @modelcontextprotocol\/server-memory$/m);
    assert.match(question.detail, /^Not written \(not taken from links\): envFile$/m);
    // issues-token is the other server's stored token: the link's input is renamed, and asks anew.
    assert.deepEqual(config().inspect<Record<string, unknown>>('servers')?.globalValue?.memory, {
      type: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-memory'],
      env: { TRACKER: '${input:issues-token-2}' },
    });
    assert.deepEqual(
      config()
        .inspect<{ id: string }[]>('inputs')
        ?.globalValue?.map((i) => i.id),
      ['issues-token', 'issues-token-2'],
    );
  });

  test('offline: one line saying the registry could not be reached and what to do', async () => {
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
    await new Promise((r) => probe.close(r));
    await setUserSetting('registry.url', url);
    try {
      const result = await vscode.commands.executeCommand('mcpWorkbench.browseServerRegistry', { name: 'io.github.example/weather' });
      assert.equal(result, undefined);
      const line = await waitFor(() => notifications.messages.find((m) => m.startsWith('Could not reach the MCP registry')), 'the error');
      assert.match(
        line,
        new RegExp(
          `^Could not reach the MCP registry at ${url.replace(/[.]/g, '\\.')}: connect ECONNREFUSED [0-9.:]+\\. Check your network or mcpWorkbench\\.registry\\.url\\.$`,
        ),
      );
    } finally {
      await setUserSetting('registry.url', registry.url);
    }
  });
});
