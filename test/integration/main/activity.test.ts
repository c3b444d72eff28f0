/**
 * The Activity view's log inside the real extension: paired tool calls with duration and
 * sizes, protocol errors, cancellation, the ring bound from the setting, and "Re-run".
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import type { ActivityEntry, ActivityLog } from '../../../src/traffic/common/activityLog';
import type { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import { activateApi, running, setUserSetting, waitFor } from '../helpers';

suite('Activity', function () {
  this.timeout(60000);
  let api: McpWorkbenchApi;
  let c: McpServerConnection;
  let log: ActivityLog;

  suiteSetup(async () => {
    api = await activateApi();
    c = await running(api, 'fixture-stdio');
    log = (await vscode.commands.executeCommand<ActivityLog>('_mcpWorkbench.activityLog'))!;
    assert.ok(log, 'the activity log');
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  const toolCall = (predicate: (e: ActivityEntry) => boolean) =>
    log.entries().find((e) => e.serverId === c.definition.id && e.method === 'tools/call' && predicate(e));

  test('a tools/call becomes one entry with status, duration and sizes', async () => {
    await c.callTool('echo', { text: 'for the activity view' });
    const entry = await waitFor(() => toolCall((e) => e.rerun?.arguments?.text === 'for the activity view' && e.status.kind !== 'pending'), 'the entry');
    assert.deepEqual(entry.status, { kind: 'ok' });
    assert.equal(entry.direction, 'send');
    assert.equal(entry.serverLabel, c.definition.label);
    assert.ok(entry.endedAt! >= entry.startedAt);
    assert.ok(entry.requestSize > 50 && entry.responseSize! > 20, `sizes ${entry.requestSize}/${entry.responseSize}`);
    assert.match(JSON.stringify(entry.response), /echo: for the activity view/);
    // The initialize handshake and notifications were recorded too.
    assert.ok(log.entries().some((e) => e.serverId === c.definition.id && e.method === 'initialize' && e.status.kind === 'ok'));
    assert.ok(log.entries().some((e) => e.method === 'notifications/initialized' && e.kind === 'notification'));
  });

  test("an entry's tooltip is built when it is hovered, not with the item: a refresh sends every entry", async () => {
    const tree = api.testing.activityTree;
    await c.callTool('echo', { text: 'for the tooltip' });
    const entry = await waitFor(() => toolCall((e) => e.rerun?.arguments?.text === 'for the tooltip' && e.status.kind === 'ok'), 'the entry');
    const item = tree.getTreeItem(entry);
    // VS Code calls resolveTreeItem for the item hovered when its tooltip is unset.
    assert.equal(item.tooltip, undefined);
    assert.match(String(item.accessibilityInformation?.label), /^tools\/call, /);
    const tooltip = (tree.resolveTreeItem(item, entry).tooltip as vscode.MarkdownString).value;
    assert.match(tooltip, /^\*\*tools\/call\*\* #\d+/);
    assert.match(tooltip, /Status: ok/);
    assert.match(tooltip, /Duration: /);
  });

  test('an unknown tool gives an error entry with the JSON-RPC code', async () => {
    await assert.rejects(c.client!.callTool({ name: 'no-such-tool', arguments: {} }));
    const entry = await waitFor(() => toolCall((e) => e.rerun?.name === 'no-such-tool' && e.status.kind === 'error'), 'the error entry');
    assert.equal(entry.status.kind, 'error');
    if (entry.status.kind === 'error') {
      assert.equal(entry.status.code, -32602);
      assert.match(entry.status.message, /Unknown tool: no-such-tool/);
    }
  });

  test('an aborted call is marked cancelled', async () => {
    const controller = new AbortController();
    const call = c.callTool('slow', { steps: 50, delayMs: 100 }, { signal: controller.signal });
    await waitFor(() => toolCall((e) => e.rerun?.name === 'slow' && e.status.kind === 'pending'), 'the pending slow call');
    controller.abort();
    await assert.rejects(call);
    const entry = await waitFor(() => toolCall((e) => e.rerun?.name === 'slow' && e.status.kind === 'cancelled'), 'the cancelled entry');
    assert.ok(entry.endedAt !== undefined);
    assert.ok(log.entries().some((e) => e.method === 'notifications/cancelled' && e.direction === 'send'));
  });

  test('the ring keeps at most mcpWorkbench.activity.maxEntries entries', async () => {
    await setUserSetting('activity.maxEntries', 5);
    try {
      await waitFor(() => log.maxEntries === 5, 'the new bound');
      for (let i = 0; i < 8; i++) await c.callTool('echo', { text: `ring ${i}` });
      assert.ok(log.size <= 5, `size ${log.size}`);
      const newest = log.entries();
      assert.ok(newest.some((e) => e.rerun?.arguments?.text === 'ring 7'));
      assert.ok(!newest.some((e) => e.rerun?.arguments?.text === 'ring 0'));
    } finally {
      await setUserSetting('activity.maxEntries', undefined);
    }
    await waitFor(() => log.maxEntries === 1000, 'the default bound again');
  });

  test('showing an entry opens its request and response side by side', async () => {
    await c.callTool('add', { a: 2, b: 3 });
    const entry = await waitFor(() => toolCall((e) => e.rerun?.name === 'add' && e.status.kind === 'ok'), 'the add entry');
    await vscode.commands.executeCommand('mcpWorkbench.showActivityEntry', entry);
    const tab = await waitFor(() => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputTextDiff && input.original.scheme === 'mcp-activity' && input;
    }, 'the diff editor');
    const request = await vscode.workspace.openTextDocument(tab.original);
    const response = await vscode.workspace.openTextDocument(tab.modified);
    assert.equal(JSON.parse(request.getText()).params.name, 'add');
    assert.deepEqual(JSON.parse(response.getText()).result.structuredContent, { sum: 5 });
    assert.equal(request.languageId, 'json');
  });

  test('re-run calls the same tool with the same arguments and adds a new entry', async () => {
    await c.callTool('echo', { text: 'again' });
    const first = await waitFor(() => toolCall((e) => e.rerun?.arguments?.text === 'again' && e.status.kind === 'ok'), 'the first call');
    const rerun = await vscode.commands.executeCommand<ActivityEntry | undefined>('mcpWorkbench.rerunActivityEntry', first);
    assert.ok(rerun, 're-run returns the new entry');
    assert.ok(rerun.seq > first.seq);
    assert.deepEqual(rerun.rerun, first.rerun);
    await waitFor(() => rerun.status.kind === 'ok', 'the re-run to finish');
    assert.match(JSON.stringify(rerun.response), /echo: again/);
  });

  test('re-running a tool that is not read-only asks first, as Run Tool does; declined, nothing is sent', async () => {
    await c.callTool('fail', {});
    const first = await waitFor(() => toolCall((e) => e.rerun?.name === 'fail' && e.status.kind !== 'pending'), 'the first call');
    const calls = () => log.entries().filter((e) => e.serverId === c.definition.id && e.rerun?.name === 'fail').length;
    const before = calls();
    const asked: string[] = [];
    const declined = await vscode.commands.executeCommand<ActivityEntry | undefined>('mcpWorkbench.rerunActivityEntry', first, {
      confirm: async (tool: { name: string }) => (asked.push(tool.name), false),
    });
    assert.equal(declined, undefined);
    assert.deepEqual(asked, ['fail']);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(calls(), before, 'nothing was sent');
    const confirmed = await vscode.commands.executeCommand<ActivityEntry | undefined>('mcpWorkbench.rerunActivityEntry', first, { confirm: async () => true });
    assert.ok(confirmed && confirmed.seq > first.seq, 'confirmed: a new entry');
  });

  test('the filter command narrows the view without touching the log', async () => {
    const before = log.size;
    await vscode.commands.executeCommand('mcpWorkbench.filterActivity', 'tools/call');
    assert.ok(log.entries('tools/call').every((e) => e.method === 'tools/call'));
    await vscode.commands.executeCommand('mcpWorkbench.clearActivityFilter');
    assert.ok(log.size >= before);
  });
});
