/**
 * Saved MCP tests in a workspace that has none (this suite's): activation makes no test
 * controller, so the Testing view shows no "MCP Tests"; a test file made later makes it, and its
 * tests are found. (The main suite's workspace has test files: mcpTests.test.ts.)
 *
 * The files made by VS Code itself go into `made-in-vscode/`, a folder the disk watcher is told
 * to ignore (coexistence.settings.json, files.watcherExclude): only VS Code's file operation
 * events can report them, as for a file the watcher misses in a folder made at the same moment.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpTestsMadeBy, McpTestsTesting } from '../../../src/mcpTests/registerMcpTests';
import { activateApi, waitFor, writeText } from '../helpers';

const state = async () => (await vscode.commands.executeCommand<{ madeBy?: McpTestsMadeBy; searched: boolean }>('_mcpWorkbench.testing.mcpTestsState'))!;
const testFile = (name: string) => JSON.stringify({ server: 'user-server', tests: [{ name, steps: [{ list: 'tools' }] }] }, null, 2);

suite('Saved MCP tests in a workspace without any', function () {
  this.timeout(60000);

  test('no test controller until a test file appears; made by VS Code or written to disk, renamed, deleted, the view follows', async () => {
    await activateApi();
    await waitFor(async () => (await state()).searched, 'the search of the workspace for test files');
    assert.equal((await state()).madeBy, undefined, 'no controller for a workspace without test files');
    const root = vscode.workspace.workspaceFolders![0].uri;
    const folder = vscode.Uri.joinPath(root, 'made-in-vscode');
    const made = vscode.Uri.joinPath(folder, 'added.mcptest.json');
    const renamed = vscode.Uri.joinPath(folder, 'renamed.mcptest.json');
    const written = vscode.Uri.joinPath(root, 'written.mcptest.json');
    const listed = async () => {
      const tests = (await vscode.commands.executeCommand<McpTestsTesting>('_mcpWorkbench.testing.mcpTests'))!;
      return (await tests.discover()).map((f) => `${f.file}: ${f.error ?? f.tests.map((t) => t.name).join(', ')}`).sort();
    };
    const listedAs = async (expected: string[], what: string) => {
      let seen: string[] = [];
      await waitFor(
        async () => JSON.stringify((seen = await listed())) === JSON.stringify(expected),
        () => `${what}: the Testing view lists ${JSON.stringify(seen)}, not ${JSON.stringify(expected)}`,
      );
    };
    try {
      // As the Explorer's New File does: a WorkspaceEdit, in a new folder.
      const create = new vscode.WorkspaceEdit();
      create.createFile(made, { contents: new TextEncoder().encode(testFile('lists tools')) });
      assert.ok(await vscode.workspace.applyEdit(create), 'the WorkspaceEdit that makes the test file');
      await waitFor(async () => (await state()).madeBy !== undefined, 'the controller, made by the new file');
      assert.equal((await state()).madeBy, 'made in VS Code');
      assert.deepEqual(await listed(), ['made-in-vscode/added.mcptest.json: lists tools']);

      // Written to disk by something else (a terminal, git): the watcher reports it.
      await writeText(written, testFile('written'));
      await listedAs(['made-in-vscode/added.mcptest.json: lists tools', 'written.mcptest.json: written'], 'a file written to disk');

      const rename = new vscode.WorkspaceEdit();
      rename.renameFile(made, renamed);
      assert.ok(await vscode.workspace.applyEdit(rename), 'the WorkspaceEdit that renames the test file');
      await listedAs(['made-in-vscode/renamed.mcptest.json: lists tools', 'written.mcptest.json: written'], 'a file renamed by VS Code');

      const remove = new vscode.WorkspaceEdit();
      remove.deleteFile(renamed);
      assert.ok(await vscode.workspace.applyEdit(remove), 'the WorkspaceEdit that deletes the test file');
      await listedAs(['written.mcptest.json: written'], 'a file deleted by VS Code');
    } finally {
      for (const uri of [written, folder]) await vscode.workspace.fs.delete(uri, { recursive: true }).then(undefined, () => undefined);
    }
  });
});
