/**
 * In an untrusted workspace, the workspace's values of the model and approval settings are
 * ignored (package.json `capabilities.untrustedWorkspaces.restrictedConfigurations`): the
 * fixture's `.vscode/settings.json` names another model and a 1 s approval timeout.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ApprovalService } from '../../../src/approval/approvalService';
import { activateApi } from '../helpers';

suite('Untrusted workspace settings', function () {
  this.timeout(60000);

  test('the workspace cannot choose the model or the approval timeout', async () => {
    await activateApi();
    const settings = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, '.vscode', 'settings.json');
    assert.match(new TextDecoder().decode(await vscode.workspace.fs.readFile(settings)), /attacker-model/, 'the workspace tries');
    const cfg = vscode.workspace.getConfiguration('mcpWorkbench');
    // VS Code 1.100 leaves a restricted setting's workspace value out of inspect() as well.
    assert.equal(cfg.inspect('models.openaiCompatible.model')?.workspaceValue, undefined);
    assert.equal(cfg.get('models.openaiCompatible.model'), 'user-model');
    assert.equal(cfg.get('approval.timeoutSeconds'), 600);
    const service = (await vscode.commands.executeCommand<ApprovalService>('mcpWorkbench.showRequests'))!;
    const models = await service.models.models();
    assert.ok(
      models.some((m) => m.id === 'openai:user-model'),
      JSON.stringify(models.map((m) => m.id)),
    );
    assert.ok(!models.some((m) => m.id.includes('attacker')), JSON.stringify(models.map((m) => m.id)));
  });
});
