/**
 * One hostile config file must not take the others down: a `.vscode/mcp.json` nested 8,000
 * levels deep (deep enough to overflow a recursive parser's stack) becomes a diagnostic, while
 * the user's servers and the workspace's `.mcp.json` keep loading and following edits, and the
 * config language server keeps answering.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import { activateApi, running, waitFor, writeText } from '../helpers';

const DEPTH = 8000;

suite('A config file nested 8,000 levels deep', function () {
  this.timeout(90000);
  let api: McpWorkbenchApi;
  const folder = () => vscode.workspace.workspaceFolders![0].uri;
  const deepFile = () => vscode.Uri.joinPath(folder(), '.vscode', 'mcp.json');
  const otherFile = () => vscode.Uri.joinPath(folder(), '.mcp.json');
  let original: Uint8Array;

  suiteSetup(async () => {
    api = await activateApi();
    original = await vscode.workspace.fs.readFile(otherFile());
    await running(api, 'user-server');
    await running(api, 'workspace-server');
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(deepFile()).then(undefined, () => undefined);
    await vscode.workspace.fs.writeFile(otherFile(), original);
  });

  test('becomes a diagnostic; the other sources still load and follow edits', async () => {
    await writeText(deepFile(), `{"servers": {"deep": ${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}}}`);
    // An edit of another source after the deep file appeared must still be applied.
    await writeText(
      otherFile(),
      JSON.stringify({
        mcpServers: {
          'workspace-server': { command: 'node', args: ['${env:MCPWB_FIXTURES}/servers/stdioServer.js'] },
          'added-after': { command: 'node', args: ['${env:MCPWB_FIXTURES}/servers/stdioServer.js'] },
        },
      }),
    );
    await running(api, 'added-after');
    await running(api, 'user-server');
    await running(api, 'workspace-server');
    const diagnostics = await waitFor(
      () => {
        const found = vscode.languages.getDiagnostics(deepFile());
        return found.some((d) => /nested/i.test(d.message)) && found;
      },
      `a diagnostic on the deep file (now ${JSON.stringify(vscode.languages.getDiagnostics(deepFile()).map((d) => d.message))})`,
    );
    assert.ok(diagnostics.some((d) => d.severity === vscode.DiagnosticSeverity.Error));
  });

  test('the config language server answers for the deep file and keeps working', async () => {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(deepFile()));
    await waitFor(
      () => vscode.languages.getDiagnostics(deepFile()).some((d) => d.source === 'MCP' && /nested/i.test(d.message)),
      "the language server's diagnostic",
    );
    // Afterwards it still serves other files: an unknown variable in .mcp.json is reported.
    const doc = await vscode.workspace.openTextDocument(otherFile());
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((e) =>
      e.replace(
        new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)),
        JSON.stringify({ mcpServers: { late: { command: 'node', args: ['${nosuchvariable}'] } } }, null, 2),
      ),
    );
    await waitFor(
      () => vscode.languages.getDiagnostics(otherFile()).some((d) => /nosuchvariable/.test(d.message)),
      `a diagnostic from the language server on .mcp.json (now ${JSON.stringify(vscode.languages.getDiagnostics(otherFile()).map((d) => d.message))})`,
    );
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });
});
