/**
 * Mode 2 of docs/coexistence.md: MCP Workbench runs the servers of .vscode/mcp.json and .mcp.json
 * and VS Code's agent reaches them through our loopback endpoint, each server running once.
 * Runs after coexistence.test.ts (files run in name order). On 1.100.3 VS Code has neither the
 * provider API nor `chat.mcp.autostart`: the tests check that choosing us still just runs them.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { McpWorkbenchApi } from '../../../src/api';
import { activateApi, pidOf, running, textOf, waitFor } from '../helpers';

const CHOOSE = 'mcpWorkbench.chooseWorkspaceServersRunner';
/** How VS Code names a server of an extension's provider: `<extension id>/<label>`. */
const VSCODE_DEFINITION_ID = 'mcp-workbench.mcp-workbench/shared-server (MCP Workbench)';

/** Pids of live processes started with FIXTURE_SERVER_NAME=<name> (the fixture config sets one per server). */
function fixtureProcesses(name: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`FIXTURE_SERVER_NAME=${name}`)) pids.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}

suite("Mode 2: MCP Workbench runs the workspace servers, VS Code's agent reaches them through it", function () {
  this.timeout(120000);
  let api: McpWorkbenchApi;
  // Stable since 1.101; 1.100 has the function too, behind an API proposal extensions may not use.
  const hasProviderApi = Number(/^1\.(\d+)/.exec(vscode.version)?.[1] ?? 0) >= 101;
  const autostart = () => vscode.workspace.getConfiguration('chat.mcp');
  const clients: Client[] = [];

  suiteSetup(async () => {
    api = await activateApi();
    await running(api, 'user-server');
  });
  suiteTeardown(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });

  test('"Run them here, no copies in chat" writes chat.mcp.autostart "never" to the workspace settings as part of the choice; "Run them here" alone does not', async () => {
    try {
      await vscode.commands.executeCommand(CHOOSE, 'vscode');
      if (autostart().inspect('autostart')?.defaultValue === undefined) {
        // 1.100: no such setting, so nothing is written.
        await vscode.commands.executeCommand(CHOOSE, 'workbench', { autostartNever: true });
        await running(api, 'shared-server');
        assert.equal(autostart().inspect('autostart')?.workspaceValue, undefined);
        return;
      }
      // The suite's profile says "never" already; this workspace says otherwise.
      await autostart().update('autostart', 'newAndOutdated', vscode.ConfigurationTarget.Workspace);
      await vscode.commands.executeCommand(CHOOSE, 'workbench');
      await running(api, 'shared-server');
      assert.equal(autostart().inspect('autostart')?.workspaceValue, 'newAndOutdated', 'not written without being chosen');
      await vscode.commands.executeCommand(CHOOSE, 'vscode');
      await vscode.commands.executeCommand(CHOOSE, 'workbench', { autostartNever: true });
      assert.equal(autostart().inspect('autostart')?.workspaceValue, 'never', 'written with the choice');
    } finally {
      if (autostart().inspect('autostart')?.defaultValue !== undefined) await autostart().update('autostart', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  test('without the stable provider API (1.100) nothing is offered to VS Code and the servers just run here', async function () {
    if (hasProviderApi) this.skip();
    assert.equal(api.testing.agentServers(), undefined);
    await vscode.commands.executeCommand(CHOOSE, 'workbench');
    await running(api, 'shared-server');
    await running(api, 'root-server');
  });

  test('gives VS Code one HTTP definition per running workspace server, at a loopback endpoint that wants the secret', async function () {
    if (!hasProviderApi) this.skip();
    await vscode.commands.executeCommand(CHOOSE, 'workbench');
    await running(api, 'shared-server');
    await running(api, 'root-server');
    const agent = api.testing.agentServers()!;
    const definitions = await waitFor(async () => {
      const found = await agent.definitions();
      return found.length === 2 && found;
    }, 'two definitions');
    assert.deepEqual(
      definitions.map((d) => d.label).sort(),
      ['root-server (MCP Workbench)', 'shared-server (MCP Workbench)'],
      'not user-server: VS Code never had it',
    );
    for (const d of definitions) {
      assert.match(d.uri, /^http:\/\/127\.0\.0\.1:\d+\/mcp\/[A-Za-z0-9_-]{22}$/);
      assert.match(d.headers.Authorization, /^Bearer [A-Za-z0-9_-]{43}$/);
      const refused = await fetch(d.uri, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      });
      assert.equal(refused.status, 401, 'no secret, no answer');
    }
  });

  test('a real SDK client at that URL lists and calls the tools of the one server process', async function () {
    if (!hasProviderApi) this.skip();
    const shared = (await api.testing.agentServers()!.definitions()).find((d) => d.label === 'shared-server (MCP Workbench)')!;
    const client = new Client({ name: 'like-vscode', version: '0' }, { versionNegotiation: { mode: 'legacy' } });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(shared.uri), { requestInit: { headers: shared.headers } }));
    const { tools } = await client.listTools();
    assert.ok(
      tools.some((t) => t.name === 'echo'),
      tools.map((t) => t.name).join(),
    );
    assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { text: 'via the endpoint' } })), 'echo: via the endpoint');
    const pid = pidOf(api.server('shared-server')!);
    assert.deepEqual(fixtureProcesses('from-vscode-mcp-json'), [pid], 'one process of shared-server: ours');
  });

  test("VS Code's own host starts our definition, and a tool call through vscode.lm reaches our process", async function () {
    if (!hasProviderApi) this.skip();
    // What the user does once with chat.mcp.autostart "never": start it in VS Code's server list.
    const mcpEchoTools = () => vscode.lm.tools.filter((t) => t.tags.includes('mcp') && t.name.endsWith('_echo'));
    assert.deepEqual(mcpEchoTools(), [], 'VS Code runs no MCP server yet (chat.mcp.autostart "never")');
    // VS Code takes a provider's changed definitions into its server list only 500 ms after the
    // last change (1.139: McpService runs updateCollectedServers on a 500 ms RunOnceScheduler that
    // each change re-arms), and workbench.mcp.startServer silently does nothing for an id it does
    // not list yet. Ours changed moments ago (the running servers came up in the tests above), so
    // the start is asked again until VS Code's tool shows; for a server it already started, a
    // start does nothing. A user clicks Start in VS Code's list, which shows only listed servers.
    // VS Code names the tool after the server's serverInfo name (`mcp_from-vscode…_echo`).
    const [echo, ...more] = await waitFor(async () => {
      if (!mcpEchoTools().length) await vscode.commands.executeCommand('workbench.mcp.startServer', VSCODE_DEFINITION_ID, { waitForLiveTools: true });
      return mcpEchoTools().length > 0 && mcpEchoTools();
    }, "VS Code's tool for the echo tool of our shared-server");
    assert.deepEqual(more, [], 'one server started in VS Code: ours');
    const result = await vscode.lm.invokeTool(echo.name, { input: { text: "from VS Code's agent" }, toolInvocationToken: undefined });
    const text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
    assert.match(text, /echo: from VS Code's agent/);
    assert.deepEqual(fixtureProcesses('from-vscode-mcp-json'), [pidOf(api.server('shared-server')!)], 'still one process');
  });

  test("a tool the server adds later reaches VS Code's agent without a restart (tools/list_changed on VS Code's GET stream)", async function () {
    if (!hasProviderApi) this.skip();
    const added = () => vscode.lm.tools.filter((t) => t.tags.includes('mcp') && t.name.endsWith('_addedLater'));
    assert.deepEqual(added(), []);
    // The server adds it on its own (called through our connection, not through VS Code).
    await api.server('shared-server')!.callTool('addTool', { name: 'addedLater' });
    await waitFor(() => added().length === 1, "VS Code's tool for addedLater", 20000);
    assert.deepEqual(fixtureProcesses('from-vscode-mcp-json'), [pidOf(api.server('shared-server')!)], 'still one process');
  });

  // Why MCP Workbench does not mark in its tree the servers VS Code runs (docs/coexistence.md):
  // the only stable signal, vscode.lm.tools, lists a server's tools from VS Code's cache after
  // the server stopped (McpServer's CachedPrimitive), names them after serverInfo (ours mirrors
  // it) cut to 18 characters with collision suffixes, and tags them only "mcp".
  test('vscode.lm.tools cannot tell whether VS Code runs a server: a stopped one keeps its tools there', async function () {
    if (!hasProviderApi) this.skip();
    const echoTools = () => vscode.lm.tools.filter((t) => t.tags.includes('mcp') && t.name.endsWith('_echo'));
    const [echo] = echoTools();
    assert.ok(echo, 'VS Code runs our definition (previous test)');
    assert.deepEqual(echo.tags, ['mcp'], 'no server id, no source: only "mcp"');
    assert.match(echo.name, /^mcp_[a-z0-9_.-]{1,13}_echo$/, 'mcp_ + the serverInfo name, cut');
    const agent = api.testing.agentServers()!;
    const sessions = agent.sessionCount();
    assert.ok(sessions >= 1, `VS Code holds a session with our endpoint (${sessions})`);
    await vscode.commands.executeCommand('workbench.mcp.stopServer', VSCODE_DEFINITION_ID);
    // VS Code ends its session (HTTP DELETE) when it stops the server.
    await waitFor(() => agent.sessionCount() < sessions, 'VS Code to close its session');
    await new Promise((r) => setTimeout(r, 1000));
    assert.deepEqual(
      echoTools().map((t) => t.name),
      [echo.name],
      'still listed once VS Code stopped it',
    );
    await vscode.commands.executeCommand('workbench.mcp.startServer', VSCODE_DEFINITION_ID, { waitForLiveTools: true });
  });

  test('our approval applies to a call from the agent of a tool not marked read-only; declined, it never reaches the server', async function () {
    if (!hasProviderApi) this.skip();
    const agent = api.testing.agentServers()!;
    const asked: { tool: string; server: string; asker?: string }[] = [];
    const original = agent.confirm;
    agent.confirm = async (tool, server, _args, asker) => {
      asked.push({ tool: tool.name, server, asker });
      return false;
    };
    try {
      const shared = (await agent.definitions()).find((d) => d.label === 'shared-server (MCP Workbench)')!;
      const client = new Client({ name: 'like-vscode', version: '0' }, { versionNegotiation: { mode: 'legacy' } });
      clients.push(client);
      await client.connect(new StreamableHTTPClientTransport(new URL(shared.uri), { requestInit: { headers: shared.headers } }));
      const result = await client.callTool({ name: 'addTool', arguments: { name: 'declinedByUser' } });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /declined to run this tool in MCP Workbench/);
      assert.equal(asked.length, 1);
      assert.equal(asked[0].tool, 'addTool');
      assert.equal(asked[0].server, 'shared-server');
      assert.match(asked[0].asker ?? '', /VS Code's agent/);
      assert.ok(!(await api.server('shared-server')!.refresh('tools')).some((t) => t.name === 'declinedByUser'));
    } finally {
      agent.confirm = original;
    }
  });

  test('"VS Code runs them" again: the definitions go and the endpoint closes', async function () {
    if (!hasProviderApi) this.skip();
    const agent = api.testing.agentServers()!;
    const before = (await agent.definitions())[0];
    await vscode.commands.executeCommand(CHOOSE, 'vscode');
    await waitFor(async () => (await agent.definitions()).length === 0 && true, 'no definitions');
    await assert.rejects(fetch(before.uri, { method: 'POST', headers: before.headers, body: '{}' }), 'the endpoint is closed');
  });
});
