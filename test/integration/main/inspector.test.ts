/**
 * The Inspector panel inside the real extension: fed live by the activity log, a tool result
 * with `isError: true` is an error row, "Open in Inspector" selects an Activity entry's row,
 * and an exported recording imports read-only with the same rows.
 */
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import type { ActivityLog } from '../../../src/activity/common/activityLog';
import type { InspectorPanel } from '../../../src/inspector/inspectorPanel';
import type { InspectorRow } from '../../../src/inspector/common/inspectorRows';
import type { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import { activateApi, running, waitFor } from '../helpers';

const flat = (rows: readonly InspectorRow[]): InspectorRow[] => rows.flatMap((r) => [r, ...flat(r.children)]);

suite('Inspector', function () {
  this.timeout(60000);
  let api: McpWorkbenchApi;
  let c: McpServerConnection;
  let log: ActivityLog;

  suiteSetup(async () => {
    api = await activateApi();
    c = await running(api, 'fixture-stdio');
    log = (await vscode.commands.executeCommand<ActivityLog>('_mcpWorkbench.activityLog'))!;
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('live rows: the fail tool\'s isError result is an error row; Open in Inspector on its Activity entry', async () => {
    await c.callTool('fail', {});
    const entry = await waitFor(() => log.entries().find((e) => e.serverId === c.definition.id && e.rerun?.name === 'fail' && e.status.kind !== 'pending'), 'the fail entry');
    const panel = await vscode.commands.executeCommand<InspectorPanel>('mcpWorkbench.openActivityEntryInInspector', entry.seq);
    const row = await waitFor(() => flat(panel.rows).find((r) => r.seq === entry.seq), 'the row of the fail call');
    assert.equal(row.method, 'tools/call');
    assert.equal(row.name, 'fail');
    assert.equal(row.status, 'toolError');
    assert.equal(row.statusText, 'fixture failure');
    assert.ok(row.latencyMs !== undefined && row.latencyMs >= 0);
    // A later call reaches the open panel without reopening it.
    await c.callTool('echo', { text: 'after the panel opened' });
    await waitFor(() => flat(panel.rows).some((r) => r.name === 'echo' && r.status === 'result' && r.seq > entry.seq), 'the live echo row');
    const detail = panel.detail(entry.seq);
    assert.match(JSON.stringify(detail.request), /"name":"fail"/);
    assert.match(JSON.stringify(detail.response), /"isError":true/);
  });

  test('export writes JSON Lines; importing it shows the same rows read-only', async () => {
    const file = vscode.Uri.file(path.join(os.tmpdir(), `mcpwb-recording-${Date.now()}.jsonl`));
    const written = await vscode.commands.executeCommand<vscode.Uri>('mcpWorkbench.exportRecording', file);
    assert.equal(written?.fsPath, file.fsPath);
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
    assert.equal(text.trimEnd().split('\n').length, log.size + 1, 'a header and one line per exchange');
    const imported = await vscode.commands.executeCommand<InspectorPanel>('mcpWorkbench.importRecording', file);
    // Rows are built when the page says it is ready.
    const rows = await waitFor(() => imported.rows.length > 0 && flat(imported.rows), 'the imported rows');
    assert.equal(rows.length, text.trimEnd().split('\n').length - 1, 'a row per exported exchange');
    const fail = rows.find((r) => r.name === 'fail');
    assert.equal(fail?.status, 'toolError', 'the isError result is still an error after the round trip');
    const livePanel = await vscode.commands.executeCommand<InspectorPanel>('mcpWorkbench.openInspector');
    const live = flat(livePanel.rows).find((r) => r.seq === fail!.seq);
    assert.deepEqual({ ...fail, children: [] }, { ...live, children: [] });
    await vscode.workspace.fs.delete(file);
  });
});
