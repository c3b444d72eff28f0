/**
 * The Inspector in the bottom panel (a webview view) and its Console, in the real extension:
 * the view resolves and shows the live rows, the Console gets a real fixture server's stderr
 * and log notifications with their levels (recorded even while the panel is closed, and a
 * restart never reveals the panel), and a replay of the slow tool in flight can be cancelled.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import type { ActivityLog } from '../../../src/traffic/common/activityLog';
import type { InspectorController } from '../../../src/inspector/inspectorController';
import type { InspectorPanel } from '../../../src/inspector/inspectorPanel';
import type { InspectorRow } from '../../../src/inspector/common/inspectorRows';
import type { ConsoleLine } from '../../../src/inspector/common/consoleLog';
import type { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import { activateApi, running, waitFor } from '../helpers';

const flat = (rows: readonly InspectorRow[]): InspectorRow[] => rows.flatMap((r) => [r, ...flat(r.children)]);
const shownLines = (c: InspectorController): ConsoleLine[] => c.consoleShown.flatMap((m) => (m.type === 'consoleLines' ? m.lines : []));
/**
 * The lines shown for `serverId`, picked as the page's Console tab picks. A page that loads after
 * the view is shown asks for the server it had picked before; the test's pick is made again
 * until it holds.
 */
const linesOf = (c: InspectorController, serverId: string): ConsoleLine[] => {
  if (c.consoleWatching !== serverId) c.watchConsole(serverId);
  return shownLines(c);
};
/** How long the Inspector editor tab may take to open and select a row on a loaded machine (about 7 s idle). */
const TAB_LOADS_WITHIN_MS = 40_000;
const viewState = async () => (await vscode.commands.executeCommand<{ controller?: InspectorController; visible: boolean }>('_mcpWorkbench.inspectorView'))!;

suite('Inspector in the panel, Console, cancel', function () {
  this.timeout(60000);
  let api: McpWorkbenchApi;
  let c: McpServerConnection;
  let log: ActivityLog;

  suiteSetup(async () => {
    api = await activateApi();
    c = await running(api, 'fixture-stdio');
    log = (await vscode.commands.executeCommand<ActivityLog>('_mcpWorkbench.activityLog'))!;
  });

  /** Calls the fixture's echo with `stamp` and returns its recorded exchange once answered. */
  const echoEntry = async (stamp: string) => {
    await c.callTool('echo', { text: stamp });
    return waitFor(
      () => log.entries().find((e) => e.rerun?.name === 'echo' && JSON.stringify(e.request).includes(stamp) && e.status.kind === 'ok'),
      'the echo entry',
    );
  };
  const inspectorTabs = () =>
    vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => t.input instanceof vscode.TabInputWebview && /mcpWorkbench\.inspector/.test(t.input.viewType));

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('MCP: Open Inspector in Panel resolves the bottom panel view, which shows the live rows', async () => {
    const view = await vscode.commands.executeCommand<InspectorController>('mcpWorkbench.openInspectorInPanel');
    assert.ok(view, 'the view resolved');
    assert.equal((await viewState()).visible, true);
    const stamp = `panel ${Date.now()}`;
    await c.callTool('echo', { text: stamp });
    const row = await waitFor(
      () => flat(view.rows).find((r) => r.name === 'echo' && r.status === 'result' && JSON.stringify(view.detail(r.seq).request).includes(stamp)),
      'the echo row in the panel view',
    );
    assert.equal(row.serverLabel, 'fixture-stdio');
    assert.match(JSON.stringify(view.detail(row.seq).response), new RegExp(`echo: ${stamp}`));
  });

  test("Console: the server's stderr line and its log notification reach the page with their levels, as text", async () => {
    const view = await vscode.commands.executeCommand<InspectorController>('mcpWorkbench.openInspectorInPanel');
    view.watchConsole(c.definition.id);
    const stamp = Date.now().toString(36);
    await c.callTool('stderr', { text: `stderr probe <b>${stamp}</b>` });
    await c.callTool('log', { level: 'critical', message: `log probe ${stamp}` });
    await c.callTool('log', { level: 'notice', message: `notice probe ${stamp}` });
    const lines = await waitFor(() => {
      const shown = linesOf(view, c.definition.id);
      return shown.some((l) => l.text.includes(`notice probe ${stamp}`)) && shown;
    }, 'the console lines');
    const of = (text: string) => lines.find((l) => l.text.includes(text));
    assert.equal(of(`stderr probe <b>${stamp}</b>`)?.level, 'stderr', 'stderr is its own kind, its markup kept as text');
    assert.equal(of(`log probe ${stamp}`)?.level, 'critical', "the MCP level as sent, not the channel's nearest");
    assert.equal(of(`log probe ${stamp}`)?.text, `[fixture] log probe ${stamp}`);
    assert.equal(of(`notice probe ${stamp}`)?.level, 'notice');
  });

  test('a restart with the panel closed records the console and neither reveals the panel nor takes the focus', async () => {
    const view = await vscode.commands.executeCommand<InspectorController>('mcpWorkbench.openInspectorInPanel');
    const doc = await vscode.workspace.openTextDocument({ content: 'typing here' });
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await waitFor(async () => !(await viewState()).visible, 'the panel closed');
    const before = Date.now();
    await vscode.commands.executeCommand('mcpWorkbench.restartServer', c.definition.id);
    c = await running(api, 'fixture-stdio');
    await new Promise((r) => setTimeout(r, 500));
    assert.equal((await viewState()).visible, false, 'the restart did not reveal the panel');
    assert.equal(vscode.window.activeTextEditor?.document, doc, 'the editor kept the focus');
    const shown = await vscode.commands.executeCommand<InspectorController>('mcpWorkbench.openInspectorInPanel');
    assert.equal(shown, view, 'the same view, shown again');
    shown.watchConsole(c.definition.id);
    await waitFor(
      () => linesOf(shown, c.definition.id).find((l) => l.text === 'fixture stdio server ready' && l.at >= before),
      'the ready line written while the panel was closed',
    );
  });

  test('Cancel a replay of the slow tool: notifications/cancelled goes out, the row says cancelled', async () => {
    await c.callTool('slow', { steps: 1, delayMs: 1 });
    const entry = await waitFor(
      () => log.entries().find((e) => e.serverId === c.definition.id && e.rerun?.name === 'slow' && e.status.kind === 'ok'),
      'the slow entry',
    );
    const panel = await vscode.commands.executeCommand<InspectorPanel>('mcpWorkbench.openActivityEntryInInspector', entry.seq);
    const original = panel.actions.confirm;
    panel.actions.confirm = async () => true; // slow is not read-only: Run Tool's dialog would ask
    try {
      const started = Date.now();
      const replay = panel.act('replay', entry.seq, JSON.stringify({ name: 'slow', arguments: { steps: 100, delayMs: 100 } }));
      const sent = await waitFor(
        () => log.entries().find((e) => e.rerun?.name === 'slow' && e.seq > entry.seq && e.status.kind === 'pending' && panel.detail(e.seq).cancellable),
        'the replay in flight, cancellable',
      );
      assert.equal(panel.cancelReplay(sent.seq), true);
      const statuses = await replay;
      assert.ok(Date.now() - started < 8000, 'the call did not run its 10 s');
      assert.ok(
        statuses.some((s) => s.seq === sent.seq && s.text === 'Cancelled: the server was sent notifications/cancelled.'),
        JSON.stringify(statuses),
      );
      const row = await waitFor(() => flat(panel.rows).find((r) => r.seq === sent.seq && r.status !== 'pending'), 'the replay row settled');
      assert.equal(row.status, 'cancelled');
      assert.equal(row.statusText, 'Cancelled in the Inspector');
      assert.equal(row.replayOf, entry.seq);
      const cancelled = log.entries().find((e) => e.method === 'notifications/cancelled' && e.direction === 'send' && e.seq > sent.seq);
      assert.deepEqual((cancelled?.request as { params?: unknown } | undefined)?.params, { requestId: sent.id, reason: 'Cancelled in the Inspector' });
      assert.equal(panel.detail(sent.seq).cancellable, undefined, 'no Cancel once it ended');
      assert.equal(panel.cancelReplay(sent.seq), false);
    } finally {
      panel.actions.confirm = original;
    }
  });
  test("Console, All servers: two servers' lines in one list, each with its server; Export saves them, labelled", async () => {
    const view = await vscode.commands.executeCommand<InspectorController>('mcpWorkbench.openInspectorInPanel');
    const other = await running(api, 'claude-format');
    view.watchConsole('*');
    const stamp = Date.now().toString(36);
    await c.callTool('stderr', { text: `all-servers one ${stamp}` });
    await other.callTool('stderr', { text: `all-servers two ${stamp}` });
    const lines = await waitFor(() => {
      const shown = linesOf(view, '*').filter((l) => l.text.includes(stamp));
      return shown.length === 2 && shown;
    }, "both servers' lines in the all-servers console");
    assert.deepEqual(
      lines.map((l) => [l.server, l.text]),
      [
        ['fixture-stdio', `all-servers one ${stamp}`],
        ['claude-format', `all-servers two ${stamp}`],
      ],
    );
    const target = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, `console-${stamp}.log`);
    try {
      const saved = await vscode.commands.executeCommand<vscode.Uri>('mcpWorkbench.exportConsole', target);
      assert.equal(saved?.toString(), target.toString());
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(target));
      assert.match(text, new RegExp(`^\\S+Z \\[fixture-stdio\\] stderr all-servers one ${stamp}$`, 'm'));
      assert.match(text, new RegExp(`^\\S+Z \\[claude-format\\] stderr all-servers two ${stamp}$`, 'm'));
      // One server's export has no labels.
      await vscode.commands.executeCommand('mcpWorkbench.exportConsole', target, other.definition.id);
      const own = new TextDecoder().decode(await vscode.workspace.fs.readFile(target));
      assert.match(own, new RegExp(`^\\S+Z stderr all-servers two ${stamp}$`, 'm'));
      assert.doesNotMatch(own, new RegExp(`all-servers one ${stamp}`));
    } finally {
      await vscode.workspace.fs.delete(target).then(undefined, () => undefined);
    }
  });

  test('Open in Inspector with the panel in sight selects the exchange there and opens no editor tab; without it, the editor tab', async function () {
    // The fallback to the editor tab alone may take ~20 s on a loaded machine (below).
    this.timeout(90000);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // Closed and opened again first: after that, 1.100 sometimes keeps the page it reported
    // hidden, which then never says `ready` again; the host must bring it up to date itself.
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await waitFor(async () => !(await viewState()).visible, 'the panel closed');
    const view = await vscode.commands.executeCommand<InspectorController>('mcpWorkbench.openInspectorInPanel');
    const stamp = `open here ${Date.now()}`;
    const entry = await echoEntry(stamp);
    const opened = await vscode.commands.executeCommand<InspectorController>('mcpWorkbench.openActivityEntryInInspector', entry.seq);
    assert.equal(opened, view, "the panel view's Inspector, not a new one");
    // The page itself selected the row (it asks for the detail of what it selects). Or, when
    // VS Code 1.100 did not deliver the posts to the page it reports visible (seen under a full
    // run's load, CI of stop 47), or took them and never answered, and the page loaded anew never
    // said `ready` either (ciS), the controller gave up on the panel (`givenUp`) and the exchange
    // was shown in the editor tab instead: only then. The wait allows for the controller's own
    // give-up time and the tab's load on a loaded machine.
    let now: Awaited<ReturnType<typeof viewState>> | undefined;
    let shownInTab = false;
    const givenUp = view.givenUp;
    await waitFor(
      async () => {
        now = await viewState();
        if (view.selected === entry.seq) return true;
        if (view.givenUp === givenUp || inspectorTabs().length === 0) return false;
        const tab = await vscode.commands.executeCommand<InspectorPanel>('mcpWorkbench.openInspector');
        shownInTab = tab.selected === entry.seq;
        return shownInTab;
      },
      () =>
        `the row selected in the panel (selected: ${view.selected}, wanted ${entry.seq}; page loaded: ${view.pageLoaded}; ` +
        `view visible: ${now?.visible}, its controller ${now?.controller === view ? 'this one' : now?.controller ? 'another' : 'none'}; row messages sent: ${JSON.stringify(view.sent)}; heard from the page: ${JSON.stringify(view.heard)}; posts not delivered: ${view.lostPosts}; pages loaded anew: ${view.reloads}; given up: ${view.givenUp - givenUp})`,
      view.selectGivesUpWithinMs + TAB_LOADS_WITHIN_MS,
    );
    if (shownInTab)
      console.log(
        `      (the panel's page did not answer: ${view.lostPosts} post(s) not delivered, ${view.reloads} page(s) loaded anew; the exchange was shown in the editor tab)`,
      );
    // No tab unless the controller gave up first: a reloaded page that answers after the
    // controller's wait selects the row in the panel too (ciV, 1.100.3 under a full run's load).
    else if (view.givenUp === givenUp) assert.equal(inspectorTabs().length, 0, 'no Inspector editor tab was opened');
    else console.log(`      (the panel's page answered after the controller gave up: the exchange is in the tab and in the panel)`);
    // With the panel closed, the editor tab opens as before.
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await waitFor(async () => !(await viewState()).visible, 'the panel closed');
    const tab = await vscode.commands.executeCommand<InspectorPanel>('mcpWorkbench.openActivityEntryInInspector', entry.seq);
    assert.notEqual(tab, view);
    await waitFor(() => inspectorTabs().length === 1, 'the Inspector editor tab');
    await waitFor(() => tab.selected === entry.seq, 'the row selected in the editor tab');
    tab.dispose();
  });

  test('Open in Inspector with a panel page that no longer answers loads the page anew and selects the exchange there', async () => {
    const view = await vscode.commands.executeCommand<InspectorController>('mcpWorkbench.openInspectorInPanel');
    await waitFor(() => view.pageLoaded, 'the page loaded');
    const stamp = `silent page ${Date.now()}`;
    const entry = await echoEntry(stamp);
    const reloads = view.reloads;
    view.silencePageForTests();
    assert.equal(await vscode.commands.executeCommand('mcpWorkbench.openActivityEntryInInspector', entry.seq), view);
    await waitFor(
      () => view.selected === entry.seq,
      () => `the row selected in the page loaded anew (selected: ${view.selected}, wanted ${entry.seq}; pages loaded anew: ${view.reloads - reloads})`,
    );
    assert.equal(view.reloads, reloads + 1, 'the page was loaded anew once');
  });

  test('Open in Inspector with a panel page that does not answer even loaded anew: the exchange is shown in the editor tab; the next reaches the panel again', async function () {
    // The tab comes after the controller gives up (three sends, a reload and its wait) and loads.
    this.timeout(120000);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const view = await vscode.commands.executeCommand<InspectorController>('mcpWorkbench.openInspectorInPanel');
    await waitFor(() => view.pageLoaded, 'the page loaded');
    const stamp = `lost page ${Date.now()}`;
    const entry = await echoEntry(stamp);
    const reloads = view.reloads;
    const givenUp = view.givenUp;
    view.silencePageForTests(true);
    assert.equal(await vscode.commands.executeCommand('mcpWorkbench.openActivityEntryInInspector', entry.seq), view);
    await waitFor(
      () => inspectorTabs().length === 1,
      'the Inspector editor tab, once the page loaded anew said nothing',
      view.selectGivesUpWithinMs + TAB_LOADS_WITHIN_MS,
    );
    assert.equal(view.givenUp, givenUp + 1, 'the controller gave up on the panel once');
    const tab = await vscode.commands.executeCommand<InspectorPanel>('mcpWorkbench.openInspector');
    await waitFor(() => tab.selected === entry.seq, 'the exchange selected in the editor tab');
    assert.equal(view.reloads, reloads + 1, 'the panel page was loaded anew once before');
    assert.notEqual(view.selected, entry.seq);
    tab.dispose();
    // The panel's page, silent once more only for that reload, answers the next request.
    assert.equal(await vscode.commands.executeCommand('mcpWorkbench.openActivityEntryInInspector', entry.seq), view);
    await waitFor(() => view.selected === entry.seq, 'the exchange selected in the panel, its page loaded anew', 30000);
    assert.equal(inspectorTabs().length, 0, 'no editor tab this time');
  });
});
