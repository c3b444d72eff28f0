/**
 * Saved MCP tests in a workspace that has none (this suite's): activation makes no test
 * controller, so the Testing view shows no "MCP Tests"; a test file written later makes it, and
 * its tests are found. (The main suite's workspace has test files: mcpTests.test.ts.)
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpTestsMadeBy, McpTestsTesting } from '../../../src/mcpTests/registerMcpTests';
import { activateApi, waitFor, writeText } from '../helpers';

const state = async () => (await vscode.commands.executeCommand<{ madeBy?: McpTestsMadeBy; searched: boolean }>('_mcpWorkbench.testing.mcpTestsState'))!;

suite('Saved MCP tests in a workspace without any', function () {
  this.timeout(60000);

  test('no test controller until a test file appears; then it is made and finds the file', async () => {
    await activateApi();
    await waitFor(async () => (await state()).searched, 'the search of the workspace for test files');
    assert.equal((await state()).madeBy, undefined, 'no controller for a workspace without test files');
    const file = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'added.mcptest.json');
    try {
      await writeText(file, JSON.stringify({ server: 'user-server', tests: [{ name: 'lists tools', steps: [{ list: 'tools' }] }] }, null, 2));
      await waitFor(async () => (await state()).madeBy !== undefined, 'the controller, made by the new file');
      assert.equal((await state()).madeBy, 'new file');
      const tests = (await vscode.commands.executeCommand<McpTestsTesting>('_mcpWorkbench.testing.mcpTests'))!;
      const files = await tests.discover();
      assert.deepEqual(
        files.map((f) => ({ file: f.file, error: f.error, tests: f.tests.map((t) => t.name) })),
        [{ file: 'added.mcptest.json', error: undefined, tests: ['lists tools'] }],
      );
    } finally {
      await vscode.workspace.fs.delete(file).then(undefined, () => undefined);
    }
  });
});
