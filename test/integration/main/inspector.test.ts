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
import type { ActivityLog } from '../../../src/traffic/common/activityLog';
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

  test("live rows: the fail tool's isError result is an error row; Open in Inspector on its Activity entry", async () => {
    await c.callTool('fail', {});
    const entry = await waitFor(
      () => log.entries().find((e) => e.serverId === c.definition.id && e.rerun?.name === 'fail' && e.status.kind !== 'pending'),
      'the fail entry',
    );
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
    // Other servers of the window keep talking (liveness pings, list refreshes) while the export
    // runs: its count lies between the log's size before and after, never exactly one of them.
    const before = log.size;
    const written = await vscode.commands.executeCommand<vscode.Uri>('mcpWorkbench.exportRecording', file);
    const after = log.size;
    assert.equal(written?.fsPath, file.fsPath);
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
    const exchanges = text.trimEnd().split('\n').length - 1;
    assert.ok(exchanges >= before && exchanges <= after, `a header and one line per exchange: ${exchanges} lines, the log had ${before}…${after}`);
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

  /** The newest finished call of a tool, recorded by the log. */
  const newestCall = (name: string, after = 0) =>
    waitFor(
      () => log.entries().find((e) => e.serverId === c.definition.id && e.rerun?.name === name && e.seq > after && e.status.kind !== 'pending'),
      `the ${name} entry`,
    );

  test('Replay of a tool that is not read-only asks as Run Tool does: declined sends nothing, confirmed is a new row marked as a replay', async () => {
    await vscode.commands.executeCommand('mcpWorkbench.resetToolApprovals');
    await c.callTool('fail', {});
    const entry = await newestCall('fail');
    const panel = await vscode.commands.executeCommand<InspectorPanel>('mcpWorkbench.openActivityEntryInInspector', entry.seq);
    const asked: string[] = [];
    let answer = false;
    const original = panel.actions.confirm;
    panel.actions.confirm = async (tool) => {
      asked.push(tool.name);
      return answer;
    };
    try {
      const calls = () => log.entries().filter((e) => e.rerun?.name === 'fail').length;
      const before = calls();
      const declined = await panel.act('replay', entry.seq, JSON.stringify({ name: 'fail', arguments: {} }));
      assert.deepEqual(asked, ['fail']);
      assert.deepEqual(
        declined.map((s) => [s.kind, s.text]),
        [['info', 'Not sent: the run was not confirmed.']],
      );
      assert.equal(calls(), before, 'nothing was sent');
      answer = true;
      const sent = await panel.act('replay', entry.seq, JSON.stringify({ name: 'fail', arguments: {} }));
      assert.deepEqual(asked, ['fail', 'fail']);
      const newSeq = sent.find((s) => s.newSeq !== undefined)?.newSeq;
      assert.ok(newSeq && newSeq > entry.seq, JSON.stringify(sent));
      const row = await waitFor(() => flat(panel.rows).find((r) => r.seq === newSeq && r.status !== 'pending'), 'the replay row');
      assert.equal(row.replayOf, entry.seq);
      assert.equal(row.status, 'toolError');
      assert.equal(panel.detail(newSeq).replayOf, entry.seq);
    } finally {
      panel.actions.confirm = original;
    }
  });

  test('Replay of a read-only tool sends the edited arguments, bad params are refused in one line', async () => {
    await c.callTool('echo', { text: 'before replay' });
    const entry = await newestCall('echo');
    const panel = await vscode.commands.executeCommand<InspectorPanel>('mcpWorkbench.openActivityEntryInInspector', entry.seq);
    const sent = await panel.act('replay', entry.seq, JSON.stringify({ name: 'echo', arguments: { text: 'after replay' } }));
    const newSeq = sent.find((s) => s.newSeq !== undefined)?.newSeq;
    assert.ok(newSeq, JSON.stringify(sent));
    await waitFor(() => flat(panel.rows).find((r) => r.seq === newSeq && r.status === 'result'), 'the replayed echo');
    assert.match(JSON.stringify(panel.detail(newSeq).response), /echo: after replay/);
    const broken = await panel.act('replay', entry.seq, '{"name": "echo", ');
    assert.equal(broken.length, 1);
    assert.match(broken[0].text, /^Not valid JSON \(line 1, column \d+\)/);
    assert.equal(broken[0].kind, 'error');
  });

  test('Copy as Inspector CLI Command: the stdio target, env names only, the tool and its arguments', async () => {
    await c.callTool('echo', { text: "it's 42" });
    const entry = await newestCall('echo');
    const panel = await vscode.commands.executeCommand<InspectorPanel>('mcpWorkbench.openActivityEntryInInspector', entry.seq);
    const shown = await panel.act('copyCli', entry.seq, JSON.stringify({ name: 'echo', arguments: { text: "it's 42" } }));
    assert.equal(shown[0]?.kind, 'info', JSON.stringify(shown));
    const command = await vscode.env.clipboard.readText();
    assert.match(command, /^npx @modelcontextprotocol\/inspector --cli node \S*stdioServer\.js /);
    assert.match(command, / -e "FIXTURE_PAGE_SIZE=\$FIXTURE_PAGE_SIZE" /);
    assert.ok(!command.includes('stdio-in-folder-a'), `an env value reached the clipboard: ${command}`);
    assert.match(command, / --method tools\/call --tool-name echo --tool-arg 'text=it'\\''s 42'$/);
  });

  test('Copy as Inspector CLI Command copies the recorded params: edits in the box are a draft for Replay (issue 29)', async () => {
    await c.callTool('echo', { text: 'as recorded' });
    const entry = await newestCall('echo');
    const panel = await vscode.commands.executeCommand<InspectorPanel>('mcpWorkbench.openActivityEntryInInspector', entry.seq);
    // What the page sends when the box holds an edit (or broken JSON): the command is the recorded call's all the same.
    for (const draft of [JSON.stringify({ name: 'echo', arguments: { text: 'an unsent edit' } }), '{ "name": ']) {
      const shown = await panel.act('copyCli', entry.seq, draft);
      assert.equal(shown[0]?.kind, 'info', JSON.stringify(shown));
      const command = await vscode.env.clipboard.readText();
      assert.match(command, / --method tools\/call --tool-name echo --tool-arg 'text=as recorded'$/);
    }
  });

  test('outputSchema: a result whose structuredContent breaks it is marked on its row and listed in its detail; a good one is not', async () => {
    await c.callTool('badOutput', {});
    const bad = await newestCall('badOutput');
    await c.callTool('add', { a: 2, b: 3 });
    const good = await newestCall('add');
    const panel = await vscode.commands.executeCommand<InspectorPanel>('mcpWorkbench.openActivityEntryInInspector', bad.seq);
    const row = await waitFor(() => flat(panel.rows).find((r) => r.seq === bad.seq && r.status === 'result'), 'the badOutput row');
    assert.equal(row.outputIssue, 'count must be integer');
    assert.deepEqual(panel.detail(bad.seq).outputIssues, ['count must be integer']);
    const fine = await waitFor(() => flat(panel.rows).find((r) => r.seq === good.seq && r.status === 'result'), 'the add row');
    assert.equal(fine.outputIssue, undefined);
    assert.equal(panel.detail(good.seq).outputIssues, undefined);
  });

  test("Replay with arguments that break the tool's inputSchema is sent, with a warning on the new exchange", async () => {
    await c.callTool('add', { a: 1, b: 2 });
    const entry = await newestCall('add');
    const panel = await vscode.commands.executeCommand<InspectorPanel>('mcpWorkbench.openActivityEntryInInspector', entry.seq);
    const shown = await panel.act('replay', entry.seq, JSON.stringify({ name: 'add', arguments: { a: 'one', b: 2 } }));
    const newSeq = shown.find((s) => s.newSeq !== undefined)?.newSeq;
    assert.ok(newSeq, JSON.stringify(shown));
    const warning = shown.find((s) => s.kind === 'warning');
    assert.equal(warning?.seq, newSeq, JSON.stringify(shown));
    assert.equal(warning?.text, "Sent, though the arguments break the tool's inputSchema: a must be number.");
    await waitFor(() => flat(panel.rows).find((r) => r.seq === newSeq && r.status !== 'pending'), 'the replayed add');
    assert.match(JSON.stringify(panel.detail(newSeq).request), /"a":"one"/);
    // Arguments that keep to the schema: no warning.
    const fine = await panel.act('replay', entry.seq, JSON.stringify({ name: 'add', arguments: { a: 5, b: 6 } }));
    assert.deepEqual(
      fine.map((s) => s.kind),
      ['info'],
    );
  });

  test('Replay while the server is stopped says so, and its Start action starts it', async () => {
    const entry = await newestCall('echo');
    const panel = await vscode.commands.executeCommand<InspectorPanel>('mcpWorkbench.openActivityEntryInInspector', entry.seq);
    await vscode.commands.executeCommand('mcpWorkbench.stopServer', { serverId: c.definition.id });
    await waitFor(() => api.server('fixture-stdio')?.state.kind === 'stopped', 'fixture-stdio stopped');
    try {
      const shown = await panel.act('replay', entry.seq, JSON.stringify({ name: 'echo', arguments: { text: 'x' } }));
      assert.deepEqual(
        shown.map((s) => s.kind),
        ['notRunning'],
      );
      assert.match(shown[0].text, /^MCP server "fixture-stdio" is not running, so the request cannot be replayed\.$/);
      const started: string[] = [];
      await panel.actions.startServer(log.find(entry.seq)!, (s) => started.push(s.text));
      assert.match(started[0] ?? '', /is running: Replay sends the request now/);
    } finally {
      c = await running(api, 'fixture-stdio');
    }
  });
});
