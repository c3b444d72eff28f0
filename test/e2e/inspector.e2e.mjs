// End-to-end, through the real workbench UI: run the fixture's `echo` tool from Run Tool, open
// "MCP: Open Inspector" from the command palette, find the tools/call row naming `echo` with its
// latency, select it and read the request and the response side by side; then run a call that
// ends with a result carrying `isError: true`, tick "Errors only" and see that row alone, in the
// theme's error colour. Workspace: test/fixtures/workspaces/main (`fixture-stdio`, see
// explorer.e2e.mjs). Run with `node test/launch/runInCodeServer.mjs --e2e inspector`.
//
// Why not the fixture's `fail` tool: it is marked destructive, so Run Tool asks in a modal
// dialog, and VS Code refuses modal dialogs in a workbench started for tests
// (--enable-smoke-test-driver; see gallery.e2e.mjs). The read-only `longTask` with `fail: true`
// ends with the same kind of result (`isError: true`, "failed after 1 steps", through tasks/result,
// which the Inspector nests under the call); test/integration/main/inspector.test.ts runs `fail`.
//
// Then the detail's actions on the echo call: its params edited (broken JSON first: an inline
// error, Replay waits), Replay (a new row marked as a replay, selected, with the new result),
// find in the JSON (Ctrl+F, Enter, Shift+Enter, Escape), Copy as Inspector CLI Command, and
// Open in Run Tool (the echo form, already open, now holds the replayed text).
//
// Then Export… and Import… through VS Code's file dialogs: the imported recording shows the same
// rows, the replay still marked ↻ and linked to its original. Then the Inspector in the bottom
// panel (MCP: Open Inspector in Panel): its rows, the Console tab with fixture-stdio's stderr and
// the log messages of the `log` tool run from Run Tool, filtered by level and words, the tabs by
// keyboard, and the tab and filters kept when the panel is hidden and shown again. Also a row's
// context menu (Save as Test on a tools/call row only) and, last, the saved tests in VS Code's
// Testing view (one VS Code start for both: each module is one).

import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { clickUntilTab, closeContextMenu, expectAttribute, frameWhere, frameWith, pickInFileDialog, runCommand, typeInField } from './workbench.mjs';
import { describeTasks, traceMainThreadTasks } from './mainThreadTasks.mjs';
const EXTENSION_ID = 'mcp-workbench.mcp-workbench';

export async function run({ page, step, screenshot, workspace, log }) {
  // Markup in server data must stay text (the panel uses textContent only).
  const text = `inspect <b>me</b> ${Date.now().toString(36)}`;
  const servers = page.getByRole('tree', { name: /^Servers\b/ });
  const serverItem = servers.getByRole('treeitem', { name: /^fixture-stdio,/ });
  const toolsGroup = servers.getByRole('treeitem', { name: /^Tools \d+$/ });
  const echoItem = servers.getByRole('treeitem', { name: /^Echo echo\b/ });
  const taskTool = servers.getByRole('treeitem', { name: /^Long task longTask\b/ });
  const runTool = page.frameLocator(`iframe.webview[src*="extensionId=${EXTENSION_ID}"]`).frameLocator('iframe#active-frame');
  const restMouse = () => page.mouse.move(900, 850);
  let inspector;

  await step('open the MCP view, wait for fixture-stdio, expand its tools', async () => {
    await page.getByRole('tab', { name: /^MCP\b/ }).click();
    await serverItem.filter({ hasText: 'stdio · 2025-11-25' }).waitFor({ state: 'visible', timeout: 30_000 });
    await serverItem.click();
    await expectAttribute(serverItem, 'aria-expanded', 'true');
    await toolsGroup.click();
    await expectAttribute(toolsGroup, 'aria-expanded', 'true');
  });

  await step(`run echo with ${JSON.stringify(text)} from Run Tool`, async () => {
    await clickUntilTab(page, echoItem, /^Run Echo\b/, { ancestors: [serverItem, toolsGroup], log });
    await runTool.locator('.field[data-pointer="/text"]').getByRole('textbox').fill(text);
    await runTool.getByRole('button', { name: 'Run', exact: true }).click();
    await runTool
      .locator('#result .outcome pre.text')
      .filter({ hasText: `echo: ${text}` })
      .waitFor({ state: 'visible' });
  });

  await step('MCP: Open Inspector: the tools/call row names echo, with its time and latency', async () => {
    await runCommand(page, 'MCP: Open Inspector');
    await page.getByRole('tab', { name: /^MCP Inspector\b/ }).waitFor({ state: 'visible' });
    inspector = await frameWith(page, '.rows[role=tree]');
    const row = inspector.getByRole('treeitem', { name: /^tools\/call echo, fixture-stdio, result, (?:\d+ ms|\d+\.\d\d s)$/ });
    await row.first().waitFor({ state: 'visible' });
    const line = row.first().locator(':scope > .line');
    const time = await line.locator('.time').textContent();
    if (!/^\d\d:\d\d:\d\d\.\d{3}$/.test(time ?? '')) throw new Error(`time column shows ${JSON.stringify(time)}`);
    const latency = await line.locator('.latency').textContent();
    if (!/^(?:\d+ ms|\d+\.\d\d s)$/.test(latency ?? '')) throw new Error(`latency column shows ${JSON.stringify(latency)}`);
  });

  await step('select the row: request and response side by side, as JSON', async () => {
    await inspector
      .getByRole('treeitem', { name: /^tools\/call echo, fixture-stdio\b/ })
      .first()
      .locator(':scope > .line')
      .click();
    const request = inspector.locator('section.pane.request');
    const response = inspector.locator('section.pane.response');
    await request.locator('.json-tree').filter({ hasText: '"echo"' }).waitFor({ state: 'visible' });
    await request
      .locator('.json-tree')
      .filter({ hasText: JSON.stringify(text) })
      .waitFor({ state: 'visible' });
    await response
      .locator('.json-tree')
      .filter({ hasText: JSON.stringify(`echo: ${text}`) })
      .waitFor({ state: 'visible' });
    const markup = await inspector.locator('.detail b, .rows b').count();
    if (markup) throw new Error('server text became markup in the Inspector');
    const [a, b] = [await request.boundingBox(), await response.boundingBox()];
    if (!a || !b || !(b.x > a.x + a.width - 1)) throw new Error(`the panes are not side by side: ${JSON.stringify({ a, b })}`);
    await restMouse();
    await screenshot('inspector-01-detail');
  });

  // Save as Test from a row (issue 31): VS Code's webview/context menu, from the row's
  // data-vscode-context. What the command writes is checked in test/integration/main/saveAsTest.test.ts.
  const saveAsTest = page.getByRole('menuitem', { name: /^Save as Test/ });
  await step("the tools/call row's context menu offers Save as Test", async () => {
    const row = inspector.getByRole('treeitem', { name: /^tools\/call echo, fixture-stdio, result\b/ }).first();
    await row.locator(':scope > .line').click({ button: 'right' });
    await saveAsTest.first().waitFor({ state: 'visible', timeout: 10_000 });
    await screenshot('inspector-save-as-test-menu');
    await closeContextMenu(page);
    await saveAsTest.first().waitFor({ state: 'hidden' });
  });

  await step("a tools/list row's context menu has no Save as Test", async () => {
    const row = inspector.getByRole('treeitem', { name: /^tools\/list, fixture-stdio\b/ }).first();
    await row.waitFor({ state: 'visible' });
    await row.locator(':scope > .line').click({ button: 'right' });
    // The menu opens with VS Code's own items (Copy, Paste…); give it the time the first one took.
    // Its items only: the title bar's menu is made of menuitems too, and counting before this
    // menu opened would pass whatever it offers (and the Escape then missed it).
    await page.locator('.context-view').getByRole('menuitem').first().waitFor({ state: 'visible', timeout: 10_000 });
    const offered = await saveAsTest.count();
    await closeContextMenu(page);
    if (offered) throw new Error('a tools/list row offers Save as Test');
  });

  await step('run longTask with fail: its result says isError: true', async () => {
    // The Servers tree is still in the side bar (the MCP view stayed open).
    await taskTool.waitFor({ state: 'visible' });
    await clickUntilTab(page, taskTool, /^Run Long task\b/, { ancestors: [serverItem, toolsGroup], log });
    // Two webviews of the extension are open now (the Inspector stays loaded): find Run Tool's.
    const form = await frameWith(page, '.field[data-pointer="/steps"]');
    await form.locator('.field[data-pointer="/steps"]').getByRole('textbox').fill('1');
    await form.locator('.field[data-pointer="/delayMs"]').getByRole('textbox').fill('50');
    await form.locator('.field[data-pointer="/fail"] select').selectOption('true'); // optional boolean: (not set) / true / false
    await form.getByRole('button', { name: 'Run', exact: true }).click();
    await form.locator('#result .outcome').filter({ hasText: 'failed after 1 steps' }).waitFor({ state: 'visible', timeout: 30_000 });
  });

  await step('back in the Inspector, "Errors only" keeps just the tool error, shown in the error colour', async () => {
    await page.getByRole('tab', { name: /^MCP Inspector\b/ }).click();
    inspector = await frameWith(page, '.rows[role=tree]');
    await inspector.getByRole('checkbox', { name: 'Errors only' }).check();
    const errorRow = inspector.locator('.row[data-status=toolError]').first();
    await errorRow.waitFor({ state: 'visible' });
    const shown = await inspector.locator('.rows .row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status')));
    if (!shown.length || shown.some((s) => s !== 'toolError' && s !== 'rpcError')) throw new Error(`errors only shows ${JSON.stringify(shown)}`);
    const colours = await errorRow.locator(':scope > .line .status').evaluate((el) => {
      const probe = document.createElement('span');
      probe.style.color = 'var(--vscode-errorForeground)';
      document.body.append(probe);
      const expected = getComputedStyle(probe).color;
      probe.remove();
      return { actual: getComputedStyle(el).color, expected };
    });
    if (colours.actual !== colours.expected) throw new Error(`the error row's status is ${colours.actual}, the theme's error colour is ${colours.expected}`);
    const echoRows = await inspector.getByRole('treeitem', { name: /^tools\/call echo\b/ }).count();
    if (echoRows !== 0) throw new Error('errors only still lists the echo call');
    // The task's call is the error row; its tasks/result (nested under it) carries the isError result.
    const label = await errorRow.getAttribute('aria-label');
    if (!/^tools\/call longTask, fixture-stdio, tool error/.test(label ?? '')) throw new Error(`the error row is ${JSON.stringify(label)}`);
    // The list is flat (virtualized): the nested row is the next one, a level down.
    await inspector.locator('.row[aria-level="2"][data-status=toolError] > .line').first().click();
    await inspector.locator('section.pane.response .json-tree').filter({ hasText: '"isError"' }).waitFor({ state: 'visible' });
    await restMouse();
    await screenshot('inspector-02-errors-only');
  });

  await step('clicking the echo call in the Activity view opens it in the Inspector, selected', async () => {
    await inspector.getByRole('checkbox', { name: 'Errors only' }).uncheck();
    const header = page.locator('.pane-header', { hasText: 'Activity' }).first();
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
    const activity = page.getByRole('tree', { name: /^Activity\b/ });
    const echoEntry = activity.getByRole('treeitem', { name: /^tools\/call, fixture-stdio · echo · / }).first();
    // The view is short and pings keep arriving: filter it to tool calls, as a user would.
    await header.hover();
    await page.getByRole('button', { name: 'Filter Activity…' }).click();
    await page.locator('.quick-input-widget input').fill('tools/call');
    await page.keyboard.press('Enter');
    await echoEntry.waitFor({ state: 'visible' });
    // The longTask row is selected now; the click must move the selection to the echo call.
    await echoEntry.click();
    await page
      .getByRole('tab', { name: /^MCP Inspector\b/ })
      .and(page.locator('.active'))
      .waitFor({ state: 'visible' });
    const selected = inspector.locator('.row[aria-selected=true]');
    await selected
      .getByRole('treeitem')
      .or(selected)
      .filter({ has: inspector.locator(':scope > .line .name', { hasText: /^echo$/ }) })
      .first()
      .waitFor({ state: 'visible' });
    await inspector
      .locator('section.pane.response .json-tree')
      .filter({ hasText: JSON.stringify(`echo: ${text}`) })
      .waitFor({ state: 'visible' });
    await restMouse();
    await screenshot('inspector-03-from-activity');
  });

  const replayed = `replayed <i>it</i> ${Date.now().toString(36)}`;
  let originalSeq;
  await step("edit the echo call's params: broken JSON says where, and Replay waits", async () => {
    const selected = inspector.locator('.row[aria-selected=true]').first();
    originalSeq = await selected.getAttribute('data-seq');
    const box = inspector.getByRole('textbox', { name: 'Params to replay (JSON)' });
    await box.waitFor({ state: 'visible' });
    const shown = JSON.parse(await box.inputValue());
    if (shown.name !== 'echo' || shown.arguments?.text !== text) throw new Error(`the params box shows ${JSON.stringify(shown)}`);
    await box.fill('{ "name": "echo", "arguments": { "text": } }');
    await inspector
      .locator('.params-error')
      .filter({ hasText: /^Not valid JSON \(line 1, column \d+\)/ })
      .waitFor({ state: 'visible' });
    if (!(await inspector.getByRole('button', { name: 'Replay', exact: true }).isDisabled())) throw new Error('Replay is enabled with broken JSON');
    await box.fill(JSON.stringify({ name: 'echo', arguments: { text: replayed } }, null, 2));
    await inspector.locator('.params-error').waitFor({ state: 'hidden' });
  });

  await step('Replay: a new row, marked as a replay of the call, with the new result', async () => {
    await inspector.getByRole('button', { name: 'Replay', exact: true }).click();
    const replayRow = inspector.locator(`.row[data-replay-of="${originalSeq}"]`);
    await replayRow.first().waitFor({ state: 'visible' });
    // Pending first, then its result arrives.
    await replayRow
      .and(inspector.getByRole('treeitem', { name: /^tools\/call echo, fixture-stdio, result, (?:\d+ ms|\d+\.\d\d s), replay$/ }))
      .first()
      .waitFor({ state: 'visible' });
    if ((await replayRow.first().getAttribute('aria-selected')) !== 'true') throw new Error('the replay row is not selected');
    await inspector
      .locator('section.pane.response .json-tree')
      .filter({ hasText: JSON.stringify(`echo: ${replayed}`) })
      .waitFor({ state: 'visible' });
    await inspector
      .locator('.replay-of')
      .filter({ hasText: /^↻ Replay of the exchange at \d\d:\d\d:\d\d\.\d{3}\./ })
      .waitFor({ state: 'visible' });
    if (await inspector.locator('.detail i, .rows i').count()) throw new Error('server text became markup in the Inspector');
    // The original is still listed, unchanged.
    await inspector.locator(`.row[data-seq="${originalSeq}"]:not([data-replay-of])`).waitFor({ state: 'visible' });
    // Unfold the result's content (folded past three levels) for the picture.
    await inspector.locator('section.pane.response details.json-fold:not([open]) > summary').first().click();
    await inspector
      .locator('section.pane.response .json-string')
      .filter({ hasText: JSON.stringify(`echo: ${replayed}`) })
      .waitFor({ state: 'visible' });
    await restMouse();
    await screenshot('inspector-04-replay');
  });

  await step('find in the detail: Ctrl+F, matches highlighted, Enter goes to the next', async () => {
    await inspector.locator('.params-editor').click();
    await page.keyboard.press('Control+f');
    const find = inspector.getByRole('searchbox', { name: 'Find in request and response' });
    await expectFocused(find);
    await page.keyboard.type('echo');
    const count = inspector.locator('.find-count');
    await count.filter({ hasText: /^1 of [2-9]\d*$/ }).waitFor({ state: 'visible' });
    const total = Number((await count.textContent()).split(' of ')[1]);
    const marks = await inspector.locator('.panes mark.find-match').count();
    if (marks !== total) throw new Error(`${marks} highlights for ${total} matches`);
    await page.keyboard.press('Enter');
    await count.filter({ hasText: `2 of ${total}` }).waitFor({ state: 'visible' });
    await page.keyboard.press('Shift+Enter');
    await count.filter({ hasText: `1 of ${total}` }).waitFor({ state: 'visible' });
    if ((await inspector.locator('.panes mark.find-match.current').count()) !== 1) throw new Error('not exactly one current match');
    await page.keyboard.press('Escape');
    await count.filter({ hasText: /^$/ }).waitFor({ state: 'attached' });
    if (await inspector.locator('.panes mark.find-match').count()) throw new Error('Escape left highlights');
  });

  await step('Copy as Inspector CLI Command says it copied', async () => {
    await inspector.getByRole('button', { name: 'Copy as Inspector CLI Command' }).click();
    await inspector
      .locator('.action-status')
      .filter({ hasText: /^Copied/ })
      .waitFor({ state: 'visible' });
  });

  await step('Open in Run Tool: the echo form, filled with the arguments from the Inspector', async () => {
    await inspector.getByRole('button', { name: 'Open in Run Tool' }).click();
    await page
      .getByRole('tab', { name: /^Run Echo\b/ })
      .and(page.locator('.active'))
      .waitFor({ state: 'visible' });
    const form = await frameWith(page, '.field[data-pointer="/text"]');
    const field = form.locator('.field[data-pointer="/text"]').getByRole('textbox');
    const deadline = Date.now() + 10_000;
    let value;
    while ((value = await field.inputValue().catch(() => undefined)) !== replayed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    if (value !== replayed) throw new Error(`the Run Tool form holds ${JSON.stringify(value)}`);
    await form.locator('#status').filter({ hasText: 'Filled with the arguments from the Inspector.' }).waitFor({ state: 'visible' });
    await restMouse();
    await screenshot('inspector-05-open-in-run-tool');
  });

  // Beside the workspace copy, in the sandbox the launcher removes (a /tmp path outlived every run).
  const recording = path.join(path.dirname(workspace), `mcpwb-e2e-recording-${Date.now().toString(36)}.jsonl`);
  let liveRows;
  await step('Export… saves the recording: the live rows at that moment', async () => {
    await page.getByRole('tab', { name: /^MCP Inspector$/ }).click();
    inspector = await frameWhere(page, '.rows[role=tree]', (f) => f.locator('.source:empty').count());
    liveRows = await rowsOf(inspector);
    await inspector.getByRole('button', { name: 'Export…' }).click();
    await pickInFileDialog(page, recording);
    const deadline = Date.now() + 10_000;
    while (!fs.existsSync(recording)) {
      if (Date.now() > deadline) throw new Error(`Export… wrote no ${recording}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const lines = fs.readFileSync(recording, 'utf8').trimEnd().split('\n');
    if (!lines.some((l) => l.includes(`"replayOf":${originalSeq}`))) throw new Error('the exported replay has no replayOf mark');
  });

  await step('Import… opens it read-only: the same rows, the replay still marked ↻ with its link', async () => {
    await inspector.getByRole('button', { name: 'Import…' }).click();
    await pickInFileDialog(page, recording);
    await page.getByRole('tab', { name: /^MCP Inspector: mcpwb-e2e-recording-.*\(read-only\)/ }).waitFor({ state: 'visible' });
    const imported = await frameWhere(page, '.source', async (f) => /\(read-only\)$/.test((await f.locator('.source').textContent()) ?? ''));
    await imported.locator('.rows .row').first().waitFor({ state: 'visible' });
    const rows = await rowsOf(imported);
    if (rows.length < 5) throw new Error(`the import shows ${rows.length} rows`);
    // Exchanges still pending when exported (a ping in flight) have ended in the live panel since.
    const differ = rows.filter((r) => !/, pending\b/.test(r.label) && liveRows.find((l) => l.seq === r.seq)?.label !== r.label);
    if (differ.length) throw new Error(`imported rows differ from the live ones: ${JSON.stringify(differ.slice(0, 3))}`);
    const replayRow = imported.locator(`.row[data-replay-of="${originalSeq}"]`).first();
    await replayRow.locator(':scope > .line .replay-badge').waitFor({ state: 'visible' });
    await replayRow.locator(':scope > .line').click();
    await imported
      .locator('.replay-of')
      .filter({ hasText: /^↻ Replay of the exchange at / })
      .waitFor({ state: 'visible' });
    await imported.getByRole('button', { name: 'Show the original' }).click();
    await imported.locator(`.row[data-seq="${originalSeq}"][aria-selected=true]`).waitFor({ state: 'visible' });
    if (await imported.getByRole('tab', { name: 'Console' }).isVisible()) throw new Error('a recording offers a Console');
    await restMouse();
    await screenshot('inspector-06-import');
  });

  // Issue 29: "a 100k-message recording scrolls and filters without a frame over 50 ms". What the
  // page measures (long tasks, frame gaps) is logged, bounded only generously (2 s), since on this
  // shared machine a task's wall time includes waiting for a core: before the list was
  // virtualized, a keystroke in the filter of 20,000 rows took 2.3–4.2 s in headless Chromium and
  // 100,000 rows crashed it. Each task's CPU time (a trace's) is bounded at twice the 50 ms.
  const big = path.join(path.dirname(workspace), `mcpwb-e2e-big-${Date.now().toString(36)}.jsonl`);
  await step(
    'a 100,000-message recording: import, scroll and filter; the longest frames measured in the page',
    async () => {
      let imported, loadMs;
      // What the recording costs the heap of the renderer that draws the page (the workbench's
      // too: every garbage collection there walks it), after a full collection each time.
      const heap = await page.context().newCDPSession(page);
      const heapMb = async () => {
        await heap.send('HeapProfiler.collectGarbage');
        return (await heap.send('Runtime.getHeapUsage')).usedSize / 1e6;
      };
      const heapBefore = await heapMb();
      ({ inspector, imported, loadMs } = await importBigRecording(page, big));
      await page.waitForTimeout(1000);
      const recordingMb = (await heapMb()) - heapBefore;
      await heap.detach();
      log(`the 100,000-row recording takes ${recordingMb.toFixed(1)} MB of the page's heap`);
      // Its rows' repeated strings are shared (RowTree): 21.7 MB in both versions, 31.7 MB while
      // each row kept the copies the structured clone made.
      if (recordingMb > 26) throw new Error(`the 100,000-row recording takes ${recordingMb.toFixed(1)} MB of the page's heap (bound 26 MB)`);
      const shown = await imported.locator('.rows').evaluate((el) => el.getBoundingClientRect().height);
      if (shown < 100_000 * 10) throw new Error(`the list is ${shown}px high: not every one of the 100,000 rows is laid out`);
      await watchPageFrames(imported);
      const phase = async (name, act) => {
        await imported.evaluate(() => Object.assign(window.__frames, { longTasks: [], maxGap: 0 }));
        await act();
        await page.waitForTimeout(300);
        const { longTasks, maxGap } = await imported.evaluate(() => window.__frames);
        return { name, longest: Math.max(0, ...longTasks.map((t) => t.ms)), longTasks, maxGap };
      };
      const pane = imported.locator('.list-pane');
      const box = await pane.boundingBox();
      const results = [];
      // The CPU time of each renderer main-thread task over the three phases, from a trace: what
      // the page's work costs whatever the machine's load (mainThreadTasks.mjs).
      const tasks = await traceMainThreadTasks(page);
      results.push(
        await phase('wheel scroll', async () => {
          await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
          for (let i = 0; i < 30; i++) {
            await page.mouse.wheel(0, 600);
            await page.waitForTimeout(30);
          }
        }),
      );
      // A fast scroll leaves the row elements where they were in the page (moving them cost most
      // of each frame); assistive tech must still read the rows in screen order: the page's own
      // order, or the list's aria-owns when the page is not in it.
      const order = await imported.locator('.rows').evaluate((list) => {
        const rows = [...list.querySelectorAll(':scope > .row')];
        const onScreen = [...rows].sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top)).map((r) => r.id);
        const owns = list.getAttribute('aria-owns');
        return { onScreen, read: owns ? owns.split(' ') : rows.map((r) => r.id), owns: !!owns, ids: rows.every((r) => /^row-\d+$/.test(r.id)) };
      });
      if (!order.ids || JSON.stringify(order.read) !== JSON.stringify(order.onScreen))
        throw new Error(
          `after the wheel scroll the rows read ${JSON.stringify(order.read.slice(0, 8))}… but show ${JSON.stringify(order.onScreen.slice(0, 8))}…`,
        );
      log(`after the wheel scroll: ${order.onScreen.length} rows drawn, read in screen order ${order.owns ? 'through aria-owns' : 'from the page'}`);
      results.push(
        await phase('scrollbar jumps', async () => {
          for (const at of [0.9, 0.1, 0.5, 0.75, 0.25, 1, 0]) {
            await pane.evaluate((el, f) => (el.scrollTop = f * el.scrollHeight), at);
            await page.waitForTimeout(50);
          }
        }),
      );
      results.push(await phase('type a filter', () => typeAndEraseFilter(imported)));
      await imported.evaluate(() => (window.__frames.stop = true));
      const { count, longest, busiest, hardest } = await tasks.stop();
      log(
        `renderer main-thread tasks over the three phases: ${count}; the longest ${describeTasks(longest.slice(0, 3))}; the most CPU ${describeTasks(busiest.slice(0, 3))}; the most work (CPU less GC) ${describeTasks(hardest.slice(0, 3))}`,
      );
      log(
        // The machine's load beside the numbers: on this shared two-core machine it moves them more than most changes do.
        `100,000-row recording (load average ${os.loadavg()[0].toFixed(1)}): shown ${(loadMs / 1000).toFixed(1)} s after the file was picked; ${results.map((r) => `${r.name}: ${r.longTasks.length ? `tasks over 50 ms ${r.longTasks.map((t) => `${t.ms} ms (${t.whose})`).join(', ')}` : 'no task over 50 ms'}, longest frame gap ${r.maxGap} ms`).join('; ')}`,
      );
      await restMouse();
      await screenshot('inspector-06-big');
      // The later steps look for an Inspector's frame among all: this one goes.
      await page.getByRole('tab', { name: /^MCP Inspector: mcpwb-e2e-big-.*\(read-only\)/ }).click();
      await runCommand(page, 'View: Close Editor');
      await page.getByRole('tab', { name: /^MCP Inspector: mcpwb-e2e-big-/ }).waitFor({ state: 'hidden' });
      const worst = results.find((r) => r.longest > 2_000);
      if (worst) throw new Error(`${worst.name}: a task of ${worst.longest} ms in the page (bound 2,000 ms; see the log for every number)`);
      // The work of a task, whatever the machine's load: no task of the renderer that draws the page
      // spends over 100 ms of CPU (a task's wall time also counts waiting for a core, so it is
      // logged above, not asserted). The goal is 50 ms. Most runs stay under 35 ms, but under load
      // a task's CPU time grows too: up to 41 ms of work in a stress run at load 5.3, and one full
      // run on 1.139.1 (load 5.5) had a 55 ms task while the filter was typed. So 50 would fail
      // now and then: the bound is twice the goal, a guard against the page doing real work again.
      // The log splits each task's CPU time into work and the garbage collector's pauses.
      if (busiest[0] && busiest[0].cpuMs > 100)
        throw new Error(`a renderer task spent ${Math.round(busiest[0].cpuMs)} ms of CPU (bound 100 ms): ${describeTasks(busiest.slice(0, 3))}`);
    },
    { timeout: 420_000 },
  );
  fs.rmSync(big, { force: true });

  const logTool = servers.getByRole('treeitem', { name: /^Emit log message log\b/ });
  const stamp = Date.now().toString(36);
  // The extension asks servers for info and above (mcpWorkbench.serverLogLevel), so no debug message.
  await step('run the log tool twice from Run Tool: a warning and an info message', async () => {
    for (const [level, message] of [
      ['warning', `disk almost full ${stamp}`],
      ['info', `cache miss ${stamp}`],
    ]) {
      await clickUntilTab(page, logTool, /^Run Emit log message\b/, { ancestors: [serverItem, toolsGroup], log });
      const form = await frameWith(page, '.field[data-pointer="/level"]');
      await form.locator('.field[data-pointer="/level"] select').selectOption(level);
      await typeInField(page, form.locator('.field[data-pointer="/message"]').getByRole('textbox'), message, log);
      await form.getByRole('button', { name: 'Run', exact: true }).click();
      await form
        .locator('#result .outcome')
        .filter({ hasText: `logged at ${level}` })
        .waitFor({ state: 'visible' });
    }
  });

  let panel;
  await step('MCP: Open Inspector in Panel: the Inspector in the bottom panel, with the rows; a log message sits under its tools/call', async () => {
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, 'MCP: Open Inspector in Panel');
    await page
      .locator('.part.panel')
      .filter({ hasText: /Inspector/i })
      .waitFor({ state: 'visible' });
    panel = await frameWith(page, '.rows[role=tree]');
    const inPanel = await panel.evaluate(() => window.innerHeight);
    const { height } = page.viewportSize();
    if (inPanel > height * 0.6) throw new Error(`the Inspector view is ${inPanel}px high: not in the bottom panel`);
    const logCall = panel.getByRole('treeitem', { name: /^tools\/call log, fixture-stdio, result\b/ }).first();
    await logCall.waitFor({ state: 'visible' });
    // The log message the server sent while answering sits under that call, one level down.
    const nested = panel.locator('.row[role=treeitem][aria-level="2"][aria-label^="notifications/message,"]').first();
    await nested.waitFor({ state: 'visible' });
    await expectAttribute(logCall, 'aria-level', '1');
    // The list is flat (virtualized): its parent is the nearest row above it one level up.
    const parentLabel = await nested.evaluate((el) => {
      const rows = [...el.parentElement.querySelectorAll('.row')];
      return rows
        .slice(0, rows.indexOf(el))
        .reverse()
        .find((r) => r.getAttribute('aria-level') === '1')
        ?.getAttribute('aria-label');
    });
    if (!/^tools\/call log, fixture-stdio, result\b/.test(parentLabel ?? '')) throw new Error(`the log message sits under ${JSON.stringify(parentLabel)}`);
    await panel
      .getByRole('treeitem', { name: /^tools\/call echo, fixture-stdio, result, (?:\d+ ms|\d+\.\d\d s), replay$/ })
      .first()
      .waitFor({ state: 'visible' });
    await restMouse();
    await screenshot('inspector-07-panel');
  });

  await step("the Console tab: fixture-stdio's stderr and both log messages, levelled", async () => {
    const consoleTab = panel.getByRole('tab', { name: 'Console' });
    await consoleTab.click();
    await expectAttribute(consoleTab, 'aria-selected', 'true');
    const picker = panel.getByRole('combobox', { name: 'Server' }).and(panel.locator('.console select'));
    await picker.selectOption({ label: 'fixture-stdio' });
    const lines = panel.getByRole('log', { name: 'Console lines of fixture-stdio' });
    // Seen once in CI (1.100.3): the warning line shown, the info line not within 30 s. Should it
    // happen again, the error says what the Console held, for the picker and for each line.
    const expectLine = async (level, text) => {
      try {
        await lines.locator(`.console-line[data-level=${level}]`).filter({ hasText: text }).waitFor({ state: 'visible' });
      } catch (error) {
        const picked = await panel
          .locator('.console select')
          .first()
          .evaluate((s) => [...s.options].map((o) => `${o.selected ? '*' : ''}${o.value}=${o.textContent}`));
        const held = await panel
          .locator('.console-line')
          .evaluateAll((ls) => ls.map((l) => `${l.getAttribute('data-level')}: ${l.querySelector('.text')?.textContent}`));
        throw new Error(
          `no ${level} line "${text}" in the Console; picker ${JSON.stringify(picked)}; lines (last 20) ${JSON.stringify(held.slice(-20))}\n${error.message}`,
          { cause: error },
        );
      }
    };
    await expectLine('warning', `[fixture] disk almost full ${stamp}`);
    await expectLine('info', `[fixture] cache miss ${stamp}`);
    await lines.locator('.console-line[data-level=stderr]').filter({ hasText: 'fixture stdio server ready' }).first().waitFor({ state: 'visible' });
    await restMouse();
    await screenshot('inspector-08-console');
  });

  await step('filter the Console by level: warning and above, without stderr', async () => {
    await panel.getByRole('combobox', { name: 'Minimum log level' }).selectOption('warning');
    await panel.getByRole('checkbox', { name: 'stderr' }).uncheck();
    const lines = panel.locator('.console-lines');
    await lines.locator('.console-line[data-level=info]').first().waitFor({ state: 'detached' });
    await lines
      .locator('.console-line[data-level=warning]')
      .filter({ hasText: `disk almost full ${stamp}` })
      .waitFor({ state: 'visible' });
    const levels = await lines.locator('.console-line').evaluateAll((ls) => ls.map((l) => l.getAttribute('data-level')));
    const allowed = ['warning', 'error', 'critical', 'alert', 'emergency'];
    if (!levels.length || levels.some((l) => !allowed.includes(l))) throw new Error(`warning and above shows ${JSON.stringify(levels)}`);
    await panel.getByRole('searchbox', { name: 'Console filter text' }).fill(`almost ${stamp}`);
    await panel
      .locator('.console-count')
      .filter({ hasText: /^1 of \d+ lines/ })
      .waitFor({ state: 'visible' });
    await restMouse();
    await screenshot('inspector-09-console-level');
  });

  await step('keyboard: arrow keys move between the tabs; hiding and showing the panel keeps the tab and filters', async () => {
    await panel.getByRole('tab', { name: 'Console' }).focus();
    await page.keyboard.press('ArrowLeft');
    await expectAttribute(panel.getByRole('tab', { name: 'Exchanges' }), 'aria-selected', 'true');
    await page.keyboard.press('ArrowRight');
    await expectAttribute(panel.getByRole('tab', { name: 'Console' }), 'aria-selected', 'true');
    await runCommand(page, 'View: Hide Panel');
    await page.locator('.part.panel').waitFor({ state: 'hidden' });
    await runCommand(page, 'MCP: Open Inspector in Panel');
    panel = await frameWith(page, '.console-lines');
    await expectAttribute(panel.getByRole('tab', { name: 'Console' }), 'aria-selected', 'true');
    const level = await panel.getByRole('combobox', { name: 'Minimum log level' }).inputValue();
    const search = await panel.getByRole('searchbox', { name: 'Console filter text' }).inputValue();
    if (level !== 'warning' || search !== `almost ${stamp}`) throw new Error(`after hiding: level ${level}, search ${JSON.stringify(search)}`);
    await panel
      .locator('.console-line[data-level=warning]')
      .filter({ hasText: `disk almost full ${stamp}` })
      .waitFor({ state: 'visible' });
  });

  await step("Console, All servers: every server's lines in one list, each with its server", async () => {
    await panel.getByRole('combobox', { name: 'Minimum log level' }).selectOption('');
    await panel.getByRole('checkbox', { name: 'stderr' }).check();
    await panel.getByRole('searchbox', { name: 'Console filter text' }).fill('');
    await panel.getByRole('combobox', { name: 'Server' }).and(panel.locator('.console select')).selectOption({ label: 'All servers' });
    const lines = panel.getByRole('log', { name: 'Console lines of All servers' });
    await lines
      .locator('.console-line')
      .filter({ has: panel.locator('.server', { hasText: /^fixture-stdio$/ }) })
      .filter({ hasText: `disk almost full ${stamp}` })
      .waitFor({ state: 'visible' });
    const servers = new Set(await lines.locator('.console-line .server').allTextContents());
    if (servers.size < 2) throw new Error(`All servers shows lines of ${JSON.stringify([...servers])} only`);
    await restMouse();
    await screenshot('inspector-10-console-all');
  });

  // A Streamable HTTP server (the fixture, run in this process) added to folder-a: its tools/list
  // exchange shows the HTTP exchange that carried it, Mcp-* headers highlighted.
  const require = createRequire(import.meta.url);
  const { startHttpFixture } = require(path.join(process.env.MCPWB_FIXTURES ?? path.resolve('out/test/fixtures'), 'servers', 'httpServer.js'));
  const http = await startHttpFixture({ verbose: false });
  try {
    await step('add a Streamable HTTP server; its tools/list row shows the HTTP exchange: status, timing, Mcp-Session-Id highlighted', async () => {
      const file = path.join(workspace, 'folder-a', '.vscode', 'mcp.json');
      const text = fs.readFileSync(file, 'utf8');
      fs.writeFileSync(
        file,
        text.replace(
          /"servers":\s*\{/,
          `"servers": {\n    "fixture-http": ${JSON.stringify({ type: 'http', url: http.url, headers: { 'X-Team-Token': 'e2e-secret-header-1234' } })},`,
        ),
      );
      // The editor tab (the bottom panel's view is short): the panel hidden, the tab opened again.
      await runCommand(page, 'View: Hide Panel');
      await runCommand(page, 'MCP: Open Inspector');
      inspector = await frameWhere(page, '.rows[role=tree]', (f) => f.evaluate(() => window.innerHeight > 450));
      const row = inspector.getByRole('treeitem', { name: /^tools\/list, fixture-http, result\b/ }).first();
      await row.waitFor({ state: 'visible', timeout: 30_000 });
      await row.locator(':scope > .line').click();
      const section = inspector.locator('section.http');
      await section
        .locator('.http-line')
        .filter({ hasText: /^POST http:\/\/127\.0\.0\.1:\d+\/mcp$/ })
        .first()
        .waitFor({ state: 'visible' });
      await section
        .locator('tr.mcp th')
        .filter({ hasText: /^mcp-session-id$/ })
        .first()
        .waitFor({ state: 'visible' });
      await section
        .locator('tr.redacted')
        .filter({ hasText: /^x-team-token\s*«redacted»$/ })
        .first()
        .waitFor({ state: 'visible' });
      if (await inspector.locator('body').filter({ hasText: 'e2e-secret-header-1234' }).count()) throw new Error('the secret header value reached the page');
      await section.scrollIntoViewIfNeeded();
      await restMouse();
      await screenshot('inspector-06-http');
    });
  } finally {
    await http.close();
  }

  await readingTheList({ page, step, screenshot, log, text, stamp });

  // The saved tests in VS Code's Testing view (issue 31's picture): fixture.mcptest.json run from
  // its row, one test passing and one failing on purpose.
  await step('the Testing view: fixture.mcptest.json run from its row, its tests passed and failed', async () => {
    await runCommand(page, 'Testing: Focus on Test Explorer View');
    const tests = page.locator('.test-explorer .monaco-list');
    const file = tests.getByRole('treeitem', { name: /fixture\.mcptest\.json/ }).first();
    await file.waitFor({ state: 'visible', timeout: 30_000 });
    await file.hover();
    await file.getByRole('button', { name: /^Run Test/ }).click();
    // The file's row shows the worse of its tests (the wrong sum fails on purpose); open it to see each.
    await file.locator('.codicon-testing-failed-icon').waitFor({ state: 'visible', timeout: 60_000 });
    await file.locator('.monaco-tl-twistie').click();
    await expectAttribute(file, 'aria-expanded', 'true');
    await tests
      .getByRole('treeitem', { name: /add sums/ })
      .locator('.codicon-testing-passed-icon')
      .waitFor({ state: 'visible' });
    await tests
      .getByRole('treeitem', { name: /a wrong sum/ })
      .locator('.codicon-testing-failed-icon')
      .waitFor({ state: 'visible' });
    await screenshot('mcpTests-01-testing-view');
  });
}

/**
 * Writes a recording of `calls` tools/call exchanges, each with `notes` log notifications nested
 * under it: calls × (1 + notes) records, as the Inspector exports them.
 */
/**
 * Writes the 100,000-message recording (test/shared/bigRecording.ts, the rows the bench scrolls
 * too) to `file`, imports it with the open Inspector tab's Import…, and resolves once the
 * read-only page shows its first row: that tab's frame, the imported page's frame, and the time
 * from the file picked to then. Reading 36 MB, building 100,000 rows and sending them to the page
 * (21 MB of JSON through the remote workbench's connection) takes a while on a loaded machine:
 * callers log it, never judge it. Also test/perf/scrollStress.e2e.mjs.
 */
export async function importBigRecording(page, file) {
  const { bigRecording } = createRequire(import.meta.url)(fileURLToPath(new URL('../../out/test/shared/bigRecording.js', import.meta.url)));
  fs.writeFileSync(file, bigRecording(20_000, 4));
  await page.getByRole('tab', { name: /^MCP Inspector$/ }).click();
  const inspector = await frameWhere(page, '.rows[role=tree]', (f) => f.locator('.source:empty').count());
  await inspector.getByRole('button', { name: 'Import…' }).click();
  await pickInFileDialog(page, file);
  const pickedAt = Date.now();
  const name = path.basename(file, '.jsonl').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await page.getByRole('tab', { name: new RegExp(`^MCP Inspector: ${name}.*\\(read-only\\)`) }).waitFor({ state: 'visible', timeout: 120_000 });
  const imported = await frameWhere(
    page,
    '.source',
    async (f) => new RegExp(`^${name}.*\\(read-only\\)$`).test((await f.locator('.source').textContent()) ?? ''),
    240_000,
  );
  await imported.locator('.rows .row').first().waitFor({ state: 'visible', timeout: 60_000 });
  return { inspector, imported, loadMs: Date.now() - pickedAt };
}

/**
 * Starts counting, in `frame` itself, its long tasks (over 50 ms: `{ ms, whose }`) and the longest
 * gap between animation frames, into `window.__frames` (`{ longTasks, maxGap }`; set `stop` to end
 * the frame count). Wall times: on a shared machine they include waiting for a core.
 */
export async function watchPageFrames(frame) {
  await frame.evaluate(() => {
    const seen = (window.__frames = { longTasks: [], maxGap: 0 });
    // Whose task it was: in 1.139.1 the webview shares a renderer (and its event loop) with the
    // workbench, so a long task may be the workbench's ('cross-origin-ancestor', …), not the page's ('self').
    const whose = (e) =>
      [e.name, ...(e.attribution ?? []).map((a) => [a.containerType, a.containerName].filter(Boolean).join(' ')).filter((a) => a && a !== 'window')].join(', ');
    new PerformanceObserver((list) => list.getEntries().forEach((e) => seen.longTasks.push({ ms: Math.round(e.duration), whose: whose(e) }))).observe({
      type: 'longtask',
    });
    let last = performance.now();
    const tick = (now) => {
      seen.maxGap = Math.max(seen.maxGap, Math.round(now - last));
      last = now;
      if (!seen.stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

/** Types `tool42` into the filter of a big recording's page (`importBigRecording`), waits for its call to show, and erases it, as a user types. */
export async function typeAndEraseFilter(imported) {
  const filter = imported.getByRole('searchbox', { name: 'Filter text' });
  await filter.click();
  await filter.pressSequentially('tool42', { delay: 80 });
  await imported.locator('.row[aria-label^="tools/call tool42,"]').first().waitFor({ state: 'visible' });
  for (let i = 0; i < 6; i++) await filter.press('Backspace', { delay: 80 });
}

/** Every row of an Inspector page: its seq and what a screen reader reads. */
function rowsOf(frame) {
  return frame.locator('.rows .row').evaluateAll((rows) => rows.map((r) => ({ seq: r.getAttribute('data-seq'), label: r.getAttribute('aria-label') })));
}

async function expectFocused(locator, timeout = 5_000) {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    if (await locator.evaluate((el) => el === el.ownerDocument.activeElement).catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${locator} did not get the focus`);
}

/**
 * Issue 29, reading the list: a call's nested rows counted on its row and collapsible (by click
 * and by Left/Right), a log message's text in the name column, tooltips on cut text, the filter
 * finding words in params and results, Hide pings, the list/detail split dragged and moved by
 * keyboard, all of it kept when the page reloads; Replay scrolling to its new row (in the short
 * bottom panel, scrolled away from the top); 24-hour times in Run Tool's history. Needs what
 * `run` did before: the echo call with `text`, the log tool's warning `disk almost full <stamp>`,
 * the Inspector's editor tab open. Exported for a module of these steps alone while developing.
 */
export async function readingTheList({ page, step, screenshot, log, text, stamp }) {
  const restMouse = () => page.mouse.move(900, 850);
  const editorTab = () => frameWhere(page, '.rows[role=tree]', (f) => f.evaluate(() => window.innerHeight > 450));
  let inspector = await editorTab();
  const warning = `warning: disk almost full ${stamp}`;
  const nameIs = (frame, value) => frame.locator(':scope > .line .name', { hasText: value });
  const logMessage = (frame) => frame.locator('.row[aria-level="2"]').filter({ has: nameIs(frame, warning) });
  let callSeq;
  const logCall = (frame) => frame.locator(`.row[data-seq="${callSeq}"]`);

  await step("a call counts what is nested under it; the log message's text is in the name column; cut text has tooltips", async () => {
    const message = logMessage(inspector).first();
    await message.waitFor({ state: 'visible', timeout: 30_000 });
    const name = message.locator(':scope > .line .name');
    if ((await name.getAttribute('title')) !== warning) throw new Error(`the message's tooltip is ${JSON.stringify(await name.getAttribute('title'))}`);
    // The list is flat (virtualized) and in screen order: the call is the nearest row above one level up.
    callSeq = await message.evaluate((el) => {
      const rows = [...el.parentElement.querySelectorAll('.row')];
      return rows
        .slice(0, rows.indexOf(el))
        .reverse()
        .find((r) => r.getAttribute('aria-level') === '1')
        ?.getAttribute('data-seq');
    });
    const call = logCall(inspector);
    const label = await call.getAttribute('aria-label');
    if (!/^tools\/call log, fixture-stdio, result, (?:\d+ ms|\d+\.\d\d s)$/.test(label ?? '')) throw new Error(`the call reads ${JSON.stringify(label)}`);
    await expectAttribute(call, 'aria-description', '1 log');
    await expectAttribute(call, 'aria-expanded', 'true');
    const line = call.locator(':scope > .line');
    const summary = await line.locator('.name .group-summary').textContent();
    if (summary !== ' · 1 log') throw new Error(`the call's summary is ${JSON.stringify(summary)}`);
    const titles = await line.evaluate((el) => ['.server', '.method', '.name'].map((s) => el.querySelector(s)?.getAttribute('title')));
    if (JSON.stringify(titles) !== JSON.stringify(['fixture-stdio', 'tools/call', 'log · 1 log'])) throw new Error(`tooltips ${JSON.stringify(titles)}`);
    await restMouse();
    await screenshot('inspector-11-groups');
  });

  await step('collapse and expand the call: its ▾, then Left and Right as in a tree', async () => {
    const call = logCall(inspector);
    await call.locator(':scope > .line .twisty').click();
    await expectAttribute(call, 'aria-expanded', 'false');
    await logMessage(inspector).first().waitFor({ state: 'detached' });
    await call.locator(':scope > .line .server').click();
    await expectFocused(call);
    await page.keyboard.press('ArrowRight');
    await expectAttribute(call, 'aria-expanded', 'true');
    await logMessage(inspector).first().waitFor({ state: 'visible' });
    await page.keyboard.press('ArrowRight');
    await expectAttribute(logMessage(inspector).first(), 'aria-selected', 'true');
    await page.keyboard.press('ArrowLeft');
    await expectAttribute(call, 'aria-selected', 'true');
    await page.keyboard.press('ArrowLeft');
    await expectAttribute(call, 'aria-expanded', 'false');
    await logMessage(inspector).first().waitFor({ state: 'detached' });
  });

  const word = text.split(' ').pop();
  await step(`the filter finds words in params and results: ${JSON.stringify(word)} is only in the echo call's arguments`, async () => {
    const filter = inspector.getByRole('searchbox', { name: 'Filter text' });
    await filter.fill(word);
    await inspector
      .getByRole('treeitem', { name: /^tools\/call echo, fixture-stdio, result\b/ })
      .first()
      .waitFor({ state: 'visible' });
    const labels = await inspector.locator('.rows .row[aria-level="1"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label')));
    if (labels.some((l) => !l.startsWith('tools/call echo, '))) throw new Error(`the filter shows ${JSON.stringify(labels)}`);
    await restMouse();
    await screenshot('inspector-12-search-payloads');
    await filter.fill('');
  });

  await step('Hide pings leaves the pings out (the client pings each server every 30 s)', async () => {
    const pings = inspector.locator('.rows .row[aria-label^="ping, "]');
    await pings.first().waitFor({ state: 'attached', timeout: 45_000 });
    await inspector.getByRole('checkbox', { name: 'Hide pings' }).check();
    await pings.first().waitFor({ state: 'detached' });
    await inspector.locator('.rows .row').first().waitFor({ state: 'visible' });
  });

  await step('the split between list and detail: dragged, then moved by keyboard', async () => {
    const handle = inspector.getByRole('separator', { name: 'Resize the exchange list and the detail' });
    const pane = inspector.locator('.list-pane');
    const before = (await pane.boundingBox()).width;
    const box = await handle.boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x - 150, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    const dragged = (await pane.boundingBox()).width;
    if (Math.abs(before - 150 - dragged) > 30) throw new Error(`dragging the handle 150 px left took the list from ${before} to ${dragged} px`);
    await handle.focus();
    await page.keyboard.press('End');
    await expectAttribute(handle, 'aria-valuenow', '80');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expectAttribute(handle, 'aria-valuenow', '70');
    const split = (await inspector.locator('.split').boundingBox()).width;
    const share = (await pane.boundingBox()).width / split;
    if (Math.abs(share - 0.7) > 0.03) throw new Error(`the list takes ${share.toFixed(2)} of the width at 70 %`);
  });

  await step('reloading the page keeps the split, Hide pings and the collapsed call', async () => {
    // A mark in the page as it is: the page found after the reload must be a new one.
    await inspector.evaluate(() => (window.__beforeReload = true));
    await runCommand(page, 'Developer: Reload Webviews');
    inspector = await frameWhere(page, '.rows[role=tree] .row', (f) => f.evaluate(() => window.innerHeight > 450 && !window.__beforeReload), 30_000);
    await expectAttribute(inspector.getByRole('separator', { name: 'Resize the exchange list and the detail' }), 'aria-valuenow', '70');
    if (!(await inspector.getByRole('checkbox', { name: 'Hide pings' }).isChecked())) throw new Error('Hide pings is not kept');
    await expectAttribute(logCall(inspector), 'aria-expanded', 'false');
    await restMouse();
    await screenshot('inspector-13-split');
    await inspector.getByRole('checkbox', { name: 'Hide pings' }).uncheck();
  });

  await step('Replay in the short bottom panel, its list scrolled down: the new row is scrolled to and selected', async () => {
    // The editor tab closed: the panel's page is then the one Inspector page.
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, 'MCP: Open Inspector in Panel');
    const { height } = page.viewportSize();
    const panel = await frameWhere(page, '.rows[role=tree] .row', (f) => f.evaluate((h) => window.innerHeight < h * 0.6, height));
    // The panel's page may still be on its Console tab (as `run` left it).
    await panel.getByRole('tab', { name: 'Exchanges' }).click();
    const original = panel.getByRole('treeitem', { name: /^tools\/call echo, fixture-stdio, result, (?:\d+ ms|\d+\.\d\d s)$/ }).first();
    await original.locator(':scope > .line').click();
    const seq = await original.getAttribute('data-seq');
    await panel.getByRole('textbox', { name: 'Params to replay (JSON)' }).waitFor({ state: 'visible' });
    const pane = panel.locator('.list-pane');
    const overflows = await pane.evaluate((el) => {
      el.scrollTop = el.scrollHeight;
      return el.scrollHeight > el.clientHeight * 1.5;
    });
    if (!overflows) throw new Error('the list in the panel does not scroll: nothing to scroll back to');
    await panel.getByRole('button', { name: 'Replay', exact: true }).click();
    const replay = panel.locator(`.row[data-replay-of="${seq}"][aria-selected=true]`).last();
    await replay.waitFor({ state: 'attached' });
    const deadline = Date.now() + 10_000;
    for (;;) {
      const [row, view] = [await replay.boundingBox(), await pane.boundingBox()];
      if (row && view && row.y >= view.y - 1 && row.y + row.height <= view.y + view.height + 1) break;
      if (Date.now() > deadline) throw new Error(`the replay's row is out of sight: ${JSON.stringify({ row, view })}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    await restMouse();
    await screenshot('inspector-14-replay-scrolled');
    await runCommand(page, 'View: Hide Panel');
  });

  await step("Run Tool's history shows 24-hour times", async () => {
    const servers = page.getByRole('tree', { name: /^Servers\b/ });
    const serverItem = servers.getByRole('treeitem', { name: /^fixture-stdio,/ });
    const toolsGroup = servers.getByRole('treeitem', { name: /^Tools \d+$/ });
    const echoItem = servers.getByRole('treeitem', { name: /^Echo echo\b/ });
    await clickUntilTab(page, echoItem, /^Run Echo\b/, { ancestors: [serverItem, toolsGroup], log });
    const form = await frameWith(page, '#history');
    await form.locator('#history > summary').click();
    const times = form.locator('#history .history-item .time');
    await times.first().waitFor({ state: 'visible' });
    const shown = await times.allTextContents();
    // A call from an earlier day shows its date before the time (a run that crosses midnight made one).
    if (!shown.every((t) => /^(\S+ )?\d\d:\d\d:\d\d$/.test(t))) throw new Error(`Run Tool's history shows ${JSON.stringify(shown)}`);
  });
}
