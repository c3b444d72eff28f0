/**
 * The Activity view over a large log (issue 29), in the real extension and workbench: with
 * `mcpWorkbench.activity.maxEntries` raised to 10,000 and a flood of notifications, the view
 * lists the newest LISTED_MAX exchanges and one "N older exchanges" node, so each refresh VS Code
 * asks for sends the same at most 1,001 items whatever the log holds (it sent all 10,000 before,
 * and with 50,000 the view stopped following). What VS Code asked for is read where it reaches
 * the provider (its getChildren, wrapped). The call times with the view hidden and visible are
 * printed for docs/performance.md, not judged (the machine is shared).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import type { ActivityEntry, ActivityLog } from '../../../src/traffic/common/activityLog';
import { LISTED_MAX, isOlderExchanges as isOlder, type ActivityNode, type ActivityTreeProvider } from '../../../src/activity/activityTreeProvider';
import { activateApi, addFloodServer, running, waitFor } from '../helpers';

const COUNT = 3000;

suite('Activity over a large log', function () {
  this.timeout(180000);
  let api: McpWorkbenchApi;
  let log: ActivityLog;
  let tree: ActivityTreeProvider;
  let removeFloodServer: (() => Promise<void>) | undefined;
  /** What each of VS Code's requests for the top level got (items), since `asked.length = 0`. */
  const asked: number[] = [];
  let unwrap: (() => void) | undefined;
  /** The top level as the provider lists it, not counted as VS Code's. */
  let listTop: () => ActivityNode[];

  suiteSetup(async () => {
    api = await activateApi();
    log = (await vscode.commands.executeCommand<ActivityLog>('_mcpWorkbench.activityLog'))!;
    tree = api.testing.activityTree;
    removeFloodServer = await addFloodServer(api, 'activity-flood', 10000);
    const getChildren = tree.getChildren.bind(tree);
    listTop = () => getChildren();
    tree.getChildren = (element?: ActivityNode) => {
      const children = getChildren(element);
      if (!element) asked.push(children.length);
      return children;
    };
    unwrap = () => delete (tree as { getChildren?: unknown }).getChildren;
  });

  suiteTeardown(async () => {
    unwrap?.();
    tree.filter = undefined;
    await removeFloodServer?.();
    // The view hidden again: later tests' traffic does not refresh it.
    await vscode.commands.executeCommand('workbench.view.explorer');
  });

  test(`a flood of ${COUNT} notifications into a log of 10,000: each refresh of the visible view lists at most ${LISTED_MAX} exchanges and the older ones' node`, async () => {
    const c = await running(api, 'activity-flood');
    // The view hidden: VS Code asks for nothing, the log fills.
    await vscode.commands.executeCommand('workbench.view.explorer');
    let started = Date.now();
    await c.callTool('flood', { count: COUNT });
    const hiddenMs = Date.now() - started;
    await c.callTool('flood', { count: COUNT });
    assert.ok(log.topLevel().length > LISTED_MAX + COUNT, `the log holds ${log.topLevel().length} top-level exchanges`);

    await vscode.commands.executeCommand('mcpWorkbench.activity.focus');
    await waitFor(() => asked.length > 0, 'VS Code to ask for the view');
    asked.length = 0;
    started = Date.now();
    await c.callTool('flood', { count: COUNT });
    const visibleMs = Date.now() - started;
    // The call's answer changes the log once more: VS Code asks again after it.
    const before = asked.length;
    await waitFor(() => asked.length > before, 'VS Code to ask for the view after the flood', 30000);
    console.log(
      `[activity flood] ${COUNT} notifications into a log of ${log.size}: call ${hiddenMs} ms with the view hidden, ${visibleMs} ms with it visible; ` +
        `VS Code asked for the top level ${asked.length} times, ${Math.max(...asked)} items at most`,
    );
    assert.ok(
      asked.every((n) => n <= LISTED_MAX + 1),
      `VS Code was sent ${JSON.stringify(asked)} items per refresh`,
    );

    // What the view lists: the newest LISTED_MAX, newest first, then the node of the rest.
    const top = log.topLevel();
    const listed = listTop();
    assert.equal(listed.length, LISTED_MAX + 1);
    assert.deepEqual(listed.slice(0, LISTED_MAX), top.slice(0, LISTED_MAX));
    const older = listed[LISTED_MAX];
    assert.ok(isOlder(older), 'the last node is the older exchanges');
    assert.deepEqual(tree.getChildren(older), top.slice(LISTED_MAX), 'the older exchanges, under it, newest first');
    const item = tree.getTreeItem(older);
    assert.equal(item.label, `${(top.length - LISTED_MAX).toLocaleString(vscode.env.language)} older exchanges`);
    assert.equal(item.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    assert.equal(item.id, 'activity-older');
    assert.match(String(item.tooltip), /The Inspector lists them all/);
    assert.equal(item.command, undefined, 'a click expands it');
    // Reveal finds an entry through its parent: the node for the older ones, none for the listed.
    assert.equal(tree.getParent(top[LISTED_MAX] as ActivityEntry), older);
    assert.equal(tree.getParent(top[0]), undefined);
    // Its inline action opens the Inspector, which lists every exchange (VS Code passes the node).
    const menus = (
      vscode.extensions.getExtension('mcp-workbench.mcp-workbench')!.packageJSON as {
        contributes: { menus: Record<string, { command: string; when?: string; group?: string }[]> };
      }
    ).contributes.menus['view/item/context'];
    const inline = menus.find((m) => m.group === 'inline' && m.when === `view == mcpWorkbench.activity && viewItem == ${item.contextValue}`);
    assert.equal(inline?.command, 'mcpWorkbench.openInspector');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand(inline.command, older);
    await waitFor(() => vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.label.startsWith('MCP Inspector'))), 'the Inspector tab');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');

    // VS Code asks for an expanded node's children after the top level: exchanges that arrive in
    // between must not put one exchange both at the top and under the node (VS Code 1.100 rejects
    // an id listed twice), so the node holds what the last listing left out. The view hidden,
    // so that VS Code's own listing does not come in between this one and the node's.
    await vscode.commands.executeCommand('workbench.view.explorer');
    await waitFor(async () => {
      const before = asked.length;
      await new Promise((resolve) => setTimeout(resolve, 500));
      return asked.length === before;
    }, 'VS Code to stop asking for the hidden view');
    const shown = listTop();
    await c.callTool('flood', { count: 5 });
    const atTop = new Set(shown.slice(0, LISTED_MAX).map((e) => (e as ActivityEntry).seq));
    const under = tree.getChildren(shown[LISTED_MAX]);
    assert.deepEqual(
      under.filter((e) => atTop.has((e as ActivityEntry).seq)).map((e) => (e as ActivityEntry).seq),
      [],
      'exchanges both at the top and under the older ones',
    );

    // A filter lists its newest matches the same way; few matches, no node.
    tree.filter = 'notifications/message';
    const matching = listTop();
    assert.equal(matching.length, LISTED_MAX + 1);
    assert.ok(matching.slice(0, LISTED_MAX).every((e) => !isOlder(e) && (e as ActivityEntry).method === 'notifications/message'));
    tree.filter = 'tools/call activity-flood';
    const calls = listTop();
    assert.ok(calls.length >= 3 && calls.length < LISTED_MAX && !calls.some(isOlder), `${calls.length} tools/call entries`);
    tree.filter = undefined;
  });
});
