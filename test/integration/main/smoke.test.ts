import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

const EXTENSION_ID = 'mcp-workbench.mcp-workbench';

suite('smoke', () => {
  test('runs inside a real VS Code 1.x', () => {
    assert.match(vscode.version, /^1\./);
  });

  test('the extension is installed and activates', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} not found`);
    await ext.activate();
    assert.equal(ext.isActive, true);
  });
});

suite('launcher environment', () => {
  test('reaches the extension host', () => {
    assert.equal(process.env.MCPWB_SUITE, 'main');
    // MCPWB_WORKSPACE is the temp copy of test/fixtures/workspaces/main; every folder of
    // the (multi-root) workspace lies inside it.
    const root = process.env.MCPWB_WORKSPACE;
    assert.ok(root, 'MCPWB_WORKSPACE is set');
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.ok(folders.length > 0, 'a workspace folder is open');
    for (const folder of folders) {
      assert.ok(folder.uri.fsPath.startsWith(root), `${folder.uri.fsPath} is inside ${root}`);
    }
    assert.ok(process.env.MCPWB_REPO, 'MCPWB_REPO is set');
    assert.ok(process.env.MCPWB_FIXTURES, 'MCPWB_FIXTURES is set');
  });
});
