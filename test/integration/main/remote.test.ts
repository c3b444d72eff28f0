/**
 * Remote servers from the extension: Streamable HTTP, and the fallback to legacy HTTP+SSE.
 * The fixture HTTP servers run in this extension host process on loopback.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import type { HttpFixture } from '../../fixtures/servers/httpServer';
import { activateApi, folderUri, running, textOf, waitFor, writeText } from '../helpers';

suite('Remote MCP servers', function () {
  this.timeout(60000);
  let api: McpWorkbenchApi;
  const fixtures: HttpFixture[] = [];
  let original: Uint8Array;
  const configFile = () => vscode.Uri.joinPath(folderUri('folder-b'), '.mcp.json');

  suiteSetup(async () => {
    api = await activateApi();
    original = await vscode.workspace.fs.readFile(configFile());
  });
  // Other suites use the same workspace: put the config file back as it was.
  suiteTeardown(async () => {
    await vscode.workspace.fs.writeFile(configFile(), original);
    await waitFor(() => !api.servers().some((s) => s.definition.name.startsWith('remote-')), 'remote servers to stop');
    await Promise.all(fixtures.map((f) => f.close()));
  });

  test('http servers connect with Streamable HTTP or fall back to SSE, and DELETE their session on stop', async () => {
    const load = (name: string) => require(path.join(process.env.MCPWB_FIXTURES!, 'servers', name));
    const http: HttpFixture = await load('httpServer.js').startHttpFixture();
    const sse: HttpFixture = await load('sseServer.js').startSseFixture();
    fixtures.push(http, sse);
    await writeText(
      configFile(),
      JSON.stringify({
        mcpServers: {
          'remote-http': { type: 'http', url: http.url, headers: { 'X-From': 'workbench' } },
          'remote-legacy': { url: sse.url },
          'remote-sse': { type: 'sse', url: sse.url },
        },
      }),
    );
    const streamable = await running(api, 'remote-http');
    const legacy = await running(api, 'remote-legacy');
    const direct = await running(api, 'remote-sse');
    assert.equal(streamable.state.kind === 'running' && streamable.state.transport, 'http');
    assert.equal(legacy.state.kind === 'running' && legacy.state.transport, 'sse');
    assert.equal(direct.state.kind === 'running' && direct.state.transport, 'sse');
    assert.equal(textOf(await streamable.callTool('echo', { text: 'over http' })), 'echo: over http');
    assert.equal(textOf(await legacy.callTool('echo', { text: 'over sse' })), 'echo: over sse');
    const roots = JSON.parse(textOf(await streamable.callTool('roots', {})));
    assert.ok(roots.roots.some((r: { name: string }) => r.name === 'folder-a'));
    await vscode.commands.executeCommand('mcpWorkbench.stopServer', streamable.definition.id);
    await waitFor(() => http.stats.sessionsDeleted === 1, 'the session DELETE');
  });
});
