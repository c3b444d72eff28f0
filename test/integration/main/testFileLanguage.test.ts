/**
 * Saved tests (`*.mcptest.json`) in the MCP config language server inside a real VS Code: the
 * `server` name completes from the servers the extension has, a `callTool` name from the tools
 * fixture-stdio really listed, its argument names from their inputSchema, and a name no config
 * has is an error saying which ones it has. Edits stay in the unsaved document and are
 * reverted, so folder-a/mcp-tests/fixture.mcptest.json on disk (run by mcpTests.test.ts) never changes.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import { activateApi, editUnsaved, folderUri, running, waitFor } from '../helpers';

suite('MCP config language server: saved tests', function () {
  this.timeout(60000);
  let api: McpWorkbenchApi;
  let uri: vscode.Uri;
  let fixture: Awaited<ReturnType<typeof editUnsaved>>;

  const label = (i: vscode.CompletionItem) => (typeof i.label === 'string' ? i.label : i.label.label);

  suiteSetup(async () => {
    api = await activateApi();
    uri = vscode.Uri.joinPath(folderUri('folder-a'), 'mcp-tests', 'fixture.mcptest.json');
    // See language.test.ts: the web VS Code saves after a delay unless told not to, and this suite's edits must stay unsaved.
    assert.equal(
      vscode.workspace.getConfiguration('files').get('autoSave'),
      'off',
      'files.autoSave must be "off" (test/fixtures/workspaces/main.settings.json)',
    );
    fixture = await editUnsaved(uri, 'folder-a/mcp-tests/fixture.mcptest.json');
  });

  // Whatever saved it, the suites after this one get the fixture back; this suite fails instead of them.
  suiteTeardown(() => fixture?.restore());

  const replaceText = (text: string) => fixture.replaceText(text);
  const position = (marker: string, delta = 0) => fixture.position(marker, delta);

  async function labelsAt(at: vscode.Position): Promise<string[]> {
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, at);
    return list.items.map(label);
  }

  test('the server name completes from the servers the extension has', async () => {
    const names = [...new Set(api.servers().map((c) => c.definition.name))].sort();
    assert.ok(names.includes('fixture-stdio') && names.includes('user-server'), names.join(', '));
    // The first answer may come before the extension told the language server its servers.
    const offered = await waitFor(async () => {
      const found = await labelsAt(position('"fixture-stdio"', 1));
      return found.includes('fixture-stdio') && found;
    }, 'fixture-stdio among the completions of "server"');
    assert.deepEqual(offered.filter((n) => names.includes(n)).sort(), names, `offered: ${offered.join(', ')}`);
  });

  test("a callTool name completes from the tools fixture-stdio listed, its arguments from the tool's inputSchema", async () => {
    const server = await running(api, 'fixture-stdio');
    const tools = await waitFor(() => server.cached('tools'), "fixture-stdio's tool list");
    const offered = await waitFor(async () => {
      const found = await labelsAt(position('"add"', 1));
      return found.includes('echo') && found;
    }, 'the tools of fixture-stdio among the completions of a callTool name');
    assert.deepEqual(offered.filter((n) => tools.some((t) => t.name === n)).sort(), tools.map((t) => t.name).sort());
    await replaceText(`{
  "server": "fixture-stdio",
  "tests": [{ "name": "t", "steps": [{ "callTool": { "name": "add", "arguments": { "a": 1,  } } }] }]
}`);
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, position('"a": 1, ', 8));
    const b = list.items.find((i) => label(i) === 'b');
    assert.ok(b, list.items.map(label).join(', '));
    assert.equal(b.detail, 'number, required');
    assert.ok(!list.items.some((i) => label(i) === 'a'), 'an argument already given is not offered again');
  });

  test('a server name no config has is one error, naming the configured servers', async () => {
    await replaceText(`{
  "server": "no-such-server",
  "tests": [{ "name": "t", "steps": [{ "list": "tools" }] }]
}`);
    const diagnostic = await waitFor(
      () => vscode.languages.getDiagnostics(uri).find((d) => d.code === 'mcp.test-server-unknown'),
      () => `the unknown-server diagnostic (now: ${JSON.stringify(vscode.languages.getDiagnostics(uri).map((d) => d.message))})`,
    );
    assert.equal(diagnostic.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(diagnostic.range.start.line, 1);
    assert.match(diagnostic.message, /^No server "no-such-server" is configured in this workspace; configured: .*fixture-stdio/);
    // Said once: VS Code's schema validation of the file has nothing to say about a name.
    assert.deepEqual(
      vscode.languages
        .getDiagnostics(uri)
        .filter((d) => d.range.start.line === 1)
        .map((d) => d.message),
      [diagnostic.message],
    );
  });
});
