/**
 * Resources in the real editor: text and JSON documents on the mcp-workbench-resource: file system,
 * an image blob in the image preview, a template filled in with server completions, and
 * live updates through resources/subscribe (and unsubscribe when the editor closes).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import type { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import type { OpenResult } from '../../../src/resources/resourceCommands';
import type { TemplatePrompter, VariableRequest } from '../../../src/resources/templatePrompter';
import { activateApi, running, textOf, waitFor } from '../helpers';

/** 1x1 transparent PNG served by the fixture as `fixture://static/pixel.png`. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

suite('Resources', function () {
  this.timeout(60000);
  let api: McpWorkbenchApi;
  let c: McpServerConnection;

  suiteSetup(async () => {
    api = await activateApi();
    c = await running(api, 'fixture-stdio');
  });

  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  const open = (uri: string) => vscode.commands.executeCommand<OpenResult | undefined>('mcpWorkbench.openResource', { serverId: c.definition.id, uri });

  test('a text resource opens as a read-only plaintext document', async () => {
    const result = await open('fixture://static/hello');
    assert.ok(result);
    assert.equal(result.shownAs, 'text');
    assert.equal(result.uri.scheme, 'mcp-workbench-resource');
    const doc = vscode.window.activeTextEditor?.document;
    assert.ok(doc);
    assert.equal(doc.uri.toString(), result.uri.toString());
    assert.equal(doc.getText(), 'Hello from the fixture');
    assert.equal(doc.languageId, 'plaintext');
    assert.ok(doc.uri.path.endsWith('/hello.txt'));
    // The file system refuses writes.
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(result.uri, new Uint8Array([1]))));
  });

  test('a JSON resource gets the json language from its MIME type', async () => {
    const result = await open('fixture://static/data.json');
    const doc = vscode.window.activeTextEditor!.document;
    assert.equal(doc.uri.toString(), result!.uri.toString());
    assert.equal(doc.languageId, 'json');
    assert.deepEqual(JSON.parse(doc.getText()).items.length, 5);
  });

  test('an image blob opens in the image preview with the exact bytes', async () => {
    const result = await open('fixture://static/pixel.png');
    assert.ok(result);
    assert.equal(result.shownAs, 'image');
    assert.ok(result.uri.path.endsWith('/pixel.png'));
    const tab = await waitFor(() => {
      const t = vscode.window.tabGroups.activeTabGroup.activeTab;
      return t?.input instanceof vscode.TabInputCustom && t.input.uri.toString() === result.uri.toString() && t;
    }, 'the image preview tab');
    assert.equal((tab.input as vscode.TabInputCustom).viewType, 'imagePreview.previewEditor');
    const bytes = await vscode.workspace.fs.readFile(result.uri);
    assert.deepEqual(Buffer.from(bytes), Buffer.from(PNG_BASE64, 'base64'));
  });

  test('a missing resource is reported, nothing opens', async () => {
    const result = await open('fixture://static/missing');
    assert.equal(result, undefined);
    assert.equal(vscode.window.activeTextEditor, undefined);
  });

  test('a template is filled in with server completions and the expanded resource opens', async () => {
    const asked: VariableRequest[] = [];
    let suggestions: string[] = [];
    const prompter: TemplatePrompter = {
      async ask(request) {
        asked.push(request);
        assert.ok(request.suggest, 'the fixture advertises completions');
        suggestions = await request.suggest('item-');
        assert.deepEqual(await request.suggest('item-4'), ['item-4']);
        return suggestions[2];
      },
    };
    const result = await vscode.commands.executeCommand<OpenResult | undefined>(
      'mcpWorkbench.openResourceTemplate',
      { serverId: c.definition.id, uriTemplate: 'fixture://items/{id}' },
      { prompter },
    );
    assert.deepEqual(suggestions, ['item-1', 'item-2', 'item-3', 'item-4', 'item-5']);
    assert.equal(asked.length, 1);
    assert.equal(asked[0].variable.name, 'id');
    assert.equal(asked[0].totalSteps, 1);
    assert.ok(result);
    assert.equal(vscode.window.activeTextEditor!.document.getText(), 'Item item-3');

    // Preset values skip the prompt; values are pct-encoded per RFC 6570.
    await vscode.commands.executeCommand(
      'mcpWorkbench.openResourceTemplate',
      { serverId: c.definition.id, uriTemplate: 'fixture://items/{id}' },
      { values: { id: 'a b' } },
    );
    assert.equal(vscode.window.activeTextEditor!.document.getText(), 'Item a b');
  });

  test('an open resource follows notifications/resources/updated and unsubscribes when closed', async () => {
    const uri = 'fixture://dynamic/live';
    await c.callTool('addResource', { name: 'live', text: 'version 1' });
    const result = await open(uri);
    const doc = vscode.window.activeTextEditor!.document;
    assert.equal(doc.uri.toString(), result!.uri.toString());
    assert.equal(doc.getText(), 'version 1');
    await waitFor(async () => vscode.commands.executeCommand<boolean>('_mcpWorkbench.resourceSubscribed', c.definition.id, uri), 'the subscription');
    await waitFor(async () => textOf(await c.callTool('touchResource', { uri })) === `updated ${uri}`, 'the server to see the subscription');

    await c.callTool('addResource', { name: 'live', text: 'version 2' });
    assert.equal(textOf(await c.callTool('touchResource', { uri })), `updated ${uri}`);
    await waitFor(() => doc.getText() === 'version 2', `the document to show version 2 (now "${doc.getText()}")`);

    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await waitFor(async () => textOf(await c.callTool('touchResource', { uri })) === `not subscribed: ${uri}`, 'resources/unsubscribe after closing', 30000);
    assert.equal(await vscode.commands.executeCommand<boolean>('_mcpWorkbench.resourceSubscribed', c.definition.id, uri), false);
  });
});
