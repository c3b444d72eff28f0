/**
 * The Inspector under a flood (issue 29), in the real extension: one tools/call whose server (the
 * stdio fixture with its `flood` tool) sends 2,000 notifications/message while the Inspector tab
 * is open. What goes to the page is read where it leaves the extension (the tab's webview
 * postMessage, wrapped: VS Code's side of it is the one thing not observed otherwise), and the
 * page's copy of the rows is rebuilt from those messages as the page does (RowTree). The page
 * must end with the same rows as the host's, every notification sent to it once, in a bounded
 * number of messages. The numbers (call time with the panel closed and open, messages, bytes)
 * are printed for docs/performance.md; they are not judged (the machine is shared).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import type { ActivityLog } from '../../../src/traffic/common/activityLog';
import type { InspectorPanel } from '../../../src/inspector/inspectorPanel';
import type { InspectorRow } from '../../../src/inspector/common/inspectorRows';
import { buildRows } from '../../../src/inspector/common/rowsModel';
import { RowTree, type RowsDelta } from '../../../src/inspector/common/rowsDelta';
import { factsOf } from '../../../src/traffic/common/exchangeFacts';
import { activateApi, addFloodServer, running, waitFor } from '../helpers';

const COUNT = 2000;
const flat = (rows: readonly InspectorRow[]): InspectorRow[] => rows.flatMap((r) => [r, ...flat(r.children)]);
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

suite('Inspector under a flood', function () {
  this.timeout(180000);
  let api: McpWorkbenchApi;
  let log: ActivityLog;
  let removeFloodServer: (() => Promise<void>) | undefined;

  suiteSetup(async () => {
    api = await activateApi();
    log = (await vscode.commands.executeCommand<ActivityLog>('_mcpWorkbench.activityLog'))!;
    // Room for the whole flood: at the default 1,000 entries the finished call is evicted by
    // the next message of any server, and its notifications move to the top level (a change the
    // page is sent again, which is not what this test is about).
    removeFloodServer = await addFloodServer(api, 'inspector-flood', 5000);
  });

  suiteTeardown(async () => {
    await removeFloodServer?.();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test(`one call with ${COUNT} notifications: the page gets each row once, in a bounded number of messages, and ends with the host's rows`, async () => {
    const c = await running(api, 'inspector-flood');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // The same flood with no Inspector open first, for the numbers.
    const closedStart = Date.now();
    await c.callTool('flood', { count: COUNT });
    const closedMs = Date.now() - closedStart;

    const panel = await vscode.commands.executeCommand<InspectorPanel>('mcpWorkbench.openInspector');
    await waitFor(() => panel.pageLoaded && panel.rows.length > 0, 'the Inspector page to load');
    const webview = (panel as unknown as { panel: vscode.WebviewPanel }).panel.webview;
    const posted: { type: string; json: string }[] = [];
    const postMessage = webview.postMessage.bind(webview);
    // What the page holds when counting starts: what the host last sent.
    const page = new RowTree();
    page.reset(clone(panel.rows));
    webview.postMessage = (message: unknown) => {
      const json = JSON.stringify(message);
      const type = (message as { type: string }).type;
      if (type === 'rows' || type === 'rowsDelta') posted.push({ type, json });
      return postMessage(message);
    };
    try {
      const newest = Math.max(0, ...log.entries().map((e) => e.seq));
      const openStart = Date.now();
      await c.callTool('flood', { count: COUNT });
      const openMs = Date.now() - openStart;
      const call = await waitFor(
        () => flat(panel.rows).find((r) => r.seq > newest && r.serverId === c.definition.id && r.name === 'flood' && r.status === 'result'),
        'the finished flood call in the panel',
      );
      // Whatever else the window's servers send meanwhile (pings) comes in further batches: wait for a quiet moment.
      await waitFor(async () => {
        const before = posted.length;
        await new Promise((r) => setTimeout(r, 500));
        return posted.length === before;
      }, 'the panel to go quiet');

      for (const p of posted) {
        const message = JSON.parse(p.json) as { rows: InspectorRow[] } | RowsDelta;
        if (p.type === 'rows') page.reset((message as { rows: InspectorRow[] }).rows);
        else page.apply(message as RowsDelta);
      }
      assert.deepEqual(page.rows, clone(panel.rows), "the page's rows, rebuilt from what was posted, are the host's");
      const shownCall = page.find(call.seq);
      // The call as the log has it now (other servers of the window may have spoken since: only the call is compared).
      const fromLog = flat(buildRows(log.entries(), factsOf)).find((r) => r.seq === call.seq);
      assert.deepEqual(shownCall, clone(fromLog), "the page's call row and its notifications are the log's");
      assert.equal(shownCall?.children.length, COUNT, 'every notification under its call');
      assert.deepEqual(
        shownCall.children.map((r) => r.method),
        Array(COUNT).fill('notifications/message'),
      );

      // Each notification row reached the page once (the old panel sent every row every 200 ms).
      const times = new Map<number, number>();
      for (const p of posted) {
        const message = JSON.parse(p.json) as { rows: InspectorRow[] };
        const rows = p.type === 'rows' ? flat(message.rows) : message.rows;
        for (const r of rows) times.set(r.seq, (times.get(r.seq) ?? 0) + 1);
      }
      const resent = shownCall.children.filter((r) => (times.get(r.seq) ?? 0) > 1);
      const bytes = posted.reduce((sum, p) => sum + Buffer.byteLength(p.json), 0);
      const oneSnapshot = Buffer.byteLength(JSON.stringify(panel.rows));
      console.log(
        `[inspector flood] ${COUNT} notifications: call ${closedMs} ms with the panel closed, ${openMs} ms with it open; ` +
          `${posted.length} row messages (${posted.filter((p) => p.type === 'rows').length} with every row), ${(bytes / 1024).toFixed(0)} KB posted ` +
          `(every row once: ${(oneSnapshot / 1024).toFixed(0)} KB); ${resent.length} notification rows sent more than once`,
      );
      assert.equal(resent.length, 0, `${resent.length} of ${COUNT} notification rows were sent to the page more than once`);
      // Bounded: at most one message per 50 ms batch while the call ran, and a few after it
      // (its last rows, the window's pings). Generous: the batch interval only grows under load.
      const bound = Math.ceil(openMs / 50) + 10;
      assert.ok(posted.length <= bound, `${posted.length} row messages for a ${openMs} ms call (at most ${bound})`);
      // Every row once, plus the places of new rows: well under two copies of all rows.
      assert.ok(bytes < 2 * oneSnapshot, `${bytes} bytes posted; all rows at once are ${oneSnapshot}`);
    } finally {
      webview.postMessage = postMessage;
    }
  });
});
