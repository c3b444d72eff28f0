// End-to-end, through the real workbench: the Run Tool panel's results as a user works with them.
// 1. Run the fixture tool `add` twice with different arguments.
// 2. Raw shows the result exactly as received (`_meta`, `annotations`, `structuredContent`,
//    `isError` when sent); Rendered shows each item's annotations and `_meta` collapsed.
// 3. The history lists both runs; ticking both and "Compare selected" shows the changed
//    `structuredContent.sum`, with a text marker besides the theme colour; "Show" an earlier
//    run and "Use arguments" refills the form.
// 4. Save the form as a named preset (VS Code's input box), reset the form, apply the preset.
// 5. `mcpWorkbench.toolRunner.rerunLast` (hidden from the palette; the keybinding this module
//    declares runs it) re-runs the last call: a third history entry, and the diff
//    against the previous run appears in the panel while the focus stays where it was.
//    Typing the next arguments as a run ends goes on where the caret was (the page is drawn
//    anew with the outcome and the history).
// 6. "Save as Test" on the result writes the call into a new *.mcptest.json (VS Code's save
//    dialog, the simple one of the browser) and opens it.
// 7. In the Inspector (issue 29), the `add` call's params edited: "Reset to Recorded Params"
//    puts the recorded ones back; a Replay with arguments that break the inputSchema goes out
//    with a warning on the new exchange; a replay as `badOutput` is marked as breaking its
//    outputSchema, with the issue in the detail; the original shows its recorded params again;
//    "Errors only" lets go of a selected row it hides. A recording of an HTTP exchange with a long
//    header name and long values, imported: its header table keeps a fixed name column and
//    wraps the values within the pane.
// Screenshots: test-results/e2e/<version>/toolRunner-raw.png and toolRunner-diff.png (README).

import {
  clickUntilTab,
  expandServerTools,
  expectAttribute,
  expectText,
  expectValue,
  frameWhere,
  frameWith,
  pickInFileDialog,
  runCommand,
  waitForText,
} from './workbench.mjs';

/** Written to the user's keybindings.json by the launcher: the hidden command runs from a key. */
export const keybindings = [{ key: 'ctrl+shift+alt+y', command: 'mcpWorkbench.toolRunner.rerunLast', args: 'fixture-stdio' }];

export async function run({ page, step, screenshot, workspace, log }) {
  const servers = page.getByRole('tree', { name: /^Servers\b/ });
  const serverItem = servers.getByRole('treeitem', { name: /^fixture-stdio,/ });
  const toolsGroup = servers.getByRole('treeitem', { name: /^Tools \d+$/ });
  const addItem = servers.getByRole('treeitem', { name: /^Add numbers add\b/ });
  const restMouse = () => page.mouse.move(700, 880);
  const runner = () => frameWith(page, 'h1 code:text-is("add")');
  const field = (frame, name) => frame.locator(`.field[data-pointer="/${name}"]`).getByRole('textbox');

  async function runAdd(a, b, expectedSum) {
    const form = await runner();
    await field(form, 'a').fill(String(a));
    await field(form, 'b').fill(String(b));
    await form.getByRole('button', { name: 'Run', exact: true }).click();
    await waitForText(form.locator('#result .outcome pre.text').first(), (t) => t.trim() === String(expectedSum));
    await form.getByRole('button', { name: 'Run', exact: true }).and(form.locator(':enabled')).waitFor();
  }

  await step('open the Run Tool panel of `add` from the Servers tree', async () => {
    await expandServerTools(page, serverItem, toolsGroup);
    await clickUntilTab(page, addItem, /^Run Add numbers\b/, { ancestors: [serverItem, toolsGroup], log });
    await field(await runner(), 'a').waitFor({ state: 'visible' });
  });

  await step('run it twice with different arguments: 2 + 3, then 4 + 5', async () => {
    await runAdd(2, 3, 5);
    await runAdd(4, 5, 9);
  });

  await step('Raw shows the exact result JSON with _meta, annotations and structuredContent', async () => {
    const form = await runner();
    const rawButton = form.getByRole('button', { name: 'Raw', exact: true });
    await rawButton.click();
    await expectAttribute(form.locator('#view-raw'), 'aria-pressed', 'true');
    const raw = JSON.parse(await form.locator('#raw-result').textContent());
    const item = raw.content?.[0];
    if (item?.text !== '9' || item.annotations?.priority !== 0.5 || item.annotations?.audience?.[0] !== 'user')
      throw new Error(`raw content item ${JSON.stringify(item)}`);
    if (JSON.stringify(item._meta) !== JSON.stringify({ 'fixture/operands': [4, 5] })) throw new Error(`item _meta ${JSON.stringify(item._meta)}`);
    if (raw.structuredContent?.sum !== 9 || raw._meta?.['fixture/tool'] !== 'add') throw new Error(`raw result ${JSON.stringify(raw)}`);
    await restMouse();
    await screenshot('toolRunner-raw');
  });

  await step("Rendered shows the item's annotations and _meta collapsed, keyboard switches back", async () => {
    const form = await runner();
    // Arrow keys move within the Rendered | Raw group.
    await form.locator('#view-raw').focus();
    await form.locator('#view-raw').press('ArrowLeft');
    await expectAttribute(form.locator('#view-rendered'), 'aria-pressed', 'true');
    const annotations = form.locator('#result details.annotations').first();
    const meta = form.locator('#result details.meta').first();
    if ((await annotations.getAttribute('open')) !== null) throw new Error('annotations are expanded at first');
    await annotations.locator('summary').click();
    await waitForText(annotations.locator('pre'), (t) => t.includes('"priority": 0.5'));
    await meta.locator('summary').click();
    await waitForText(meta.locator('pre'), (t) => t.includes('fixture/operands'));
    await form.locator('#result details.result-meta summary').click();
    await waitForText(form.locator('#result details.result-meta pre'), (t) => t.includes('"fixture/tool": "add"'));
  });

  await step('the history lists both runs; comparing them shows structuredContent.sum changed 5 → 9', async () => {
    const form = await runner();
    await form.locator('#history > summary').click();
    const items = form.locator('#history .history-item');
    await waitFor(async () => (await items.count()) === 2, 'two history entries');
    await items.nth(0).getByRole('checkbox').check();
    await items.nth(1).getByRole('checkbox').check();
    await form.locator('#diff-selected:enabled').click();
    const change = form.locator('#diff .diff-change').filter({ has: form.locator('code.path', { hasText: /^structuredContent\.sum$/ }) });
    await change.waitFor({ state: 'visible' });
    await expectText(change.locator('.marker'), '~ changed');
    await expectText(change.locator('.before'), '5');
    await expectText(change.locator('.after'), '9');
    await form.locator('#diff .diff-change', { hasText: 'content[0].text' }).waitFor({ state: 'visible' });
    await form.locator('#diff').scrollIntoViewIfNeeded();
    await restMouse();
    await screenshot('toolRunner-diff');
  });

  await step('show the earlier run and refill the form with its arguments', async () => {
    const form = await runner();
    const older = form.locator('#history .history-item').nth(1);
    await older.getByRole('button', { name: /^Show the result of the run of/ }).click();
    await form.locator('#result h2', { hasText: /^Run of / }).waitFor({ state: 'visible' });
    await waitForText(form.locator('#result .outcome pre.text').first(), (t) => t.trim() === '5');
    await form.locator('#use-shown-arguments').click();
    await expectValue(field(form, 'a'), '2');
    await expectValue(field(form, 'b'), '3');
    await form.locator('#back-to-last').click();
    await waitForText(form.locator('#result .outcome pre.text').first(), (t) => t.trim() === '9');
  });

  await step('save the form as a preset, reset the form, apply the preset', async () => {
    const form = await runner();
    await field(form, 'a').fill('7');
    await field(form, 'b').fill('8');
    await form.locator('#save-preset').click();
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible' });
    await input.fill('seven and eight');
    await input.press('Enter');
    await form.locator('#preset-select option', { hasText: 'seven and eight' }).waitFor({ state: 'attached' });
    await form.getByRole('button', { name: 'Reset', exact: true }).click();
    await expectValue(field(form, 'a'), '');
    await form.locator('#preset-select').selectOption('seven and eight');
    await form.locator('#apply-preset').click();
    await expectValue(field(form, 'a'), '7');
    await expectValue(field(form, 'b'), '8');
  });

  await step('mcpWorkbench.toolRunner.rerunLast re-runs the last call and shows its diff, focus stays put', async () => {
    // A command hidden from the palette runs from a keybinding (see `keybindings` above).
    await serverItem.click(); // the focus is in the Servers tree, not in the panel
    const form = await runner();
    const items = form.locator('#history .history-item');
    await page.keyboard.press('Control+Shift+Alt+KeyY');
    await waitFor(async () => (await items.count()) === 3, 'a third history entry from the re-run');
    const diff = (await runner()).locator('#diff');
    await waitForText(diff, (t) => t.includes('Re-run of the last call') && t.includes('Same arguments: {"a":4,"b":5}'));
    await expectText(diff.locator('.diff-change', { hasText: 'fixture/call' }).locator('.marker'), '~ changed');
    const focused = await page.evaluate(() => !!document.activeElement?.closest('.monaco-list, .monaco-tree, [role="tree"]'));
    if (!focused) throw new Error('the re-run moved the focus away from the Servers tree');
    await restMouse();
    await screenshot('toolRunner-rerun-diff');
  });

  await step('typing the next arguments as a run ends: the page is drawn anew, the caret stays where it was, nothing typed is lost', async () => {
    const form = await runner();
    const a = field(form, 'a');
    const b = field(form, 'b');
    const items = form.locator('#history .history-item');
    await b.fill('1');
    await a.fill('1');
    // Ctrl+Enter runs the tool with the caret left at the end of `a`; the outcome, then the
    // history, each draw the page anew while the user goes on typing there.
    await a.press('End');
    await a.press('Control+Enter');
    await waitForText(form.locator('#result .outcome pre.text').first(), (t) => t.trim() === '2');
    await waitFor(async () => (await items.count()) === 4, 'the run in the history');
    await page.keyboard.type('0');
    await expectValue(a, '10');
    await expectValue(b, '1');
  });

  await step('Save as Test on the result: a new *.mcptest.json of the server opens with the call in it', async () => {
    const form = await runner();
    await form.locator('#save-as-test').click();
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible' });
    // With test files of fixture-stdio in the workspace a quick pick comes first: "New test file…" is its first item.
    if (await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'New test file…' }).count()) {
      await input.press('Enter');
      await waitFor(async () => (await input.inputValue()).endsWith('.mcptest.json'), 'the save dialog');
    }
    // The browser's save dialog is VS Code's simple one: a path in the quick input. The offered
    // tests/ folder may not exist yet, so the file goes beside it, in the workspace folder.
    const offered = await input.inputValue();
    if (!/[\\/]tests[\\/]fixture-stdio\.mcptest\.json$/.test(offered)) throw new Error(`offered ${offered}`);
    const chosen = offered.replace(/tests[\\/]fixture-stdio\.mcptest\.json$/, 'saved-e2e.mcptest.json');
    await input.fill(chosen);
    // Enter in the simple dialog may first complete the path from its list: OK accepts what is typed.
    await page.locator('.quick-input-widget').getByRole('button', { name: 'OK', exact: true }).click();
    try {
      await page.getByRole('tab', { name: /^saved-e2e\.mcptest\.json(?![.\w])/ }).waitFor({ state: 'visible' });
      await waitForText(
        page.locator('.editor-instance .view-lines').first(),
        (t) => t.includes('"fixture-stdio"') && t.includes('"callTool"') && t.includes('"sum"'),
      );
      await restMouse();
      await screenshot('toolRunner-save-as-test');
    } finally {
      const { rmSync } = await import('node:fs');
      rmSync(chosen, { force: true });
    }
  });

  let inspector;
  let original;
  await step("Inspector: an edit of the add call's params is a draft; Reset to Recorded Params puts the recorded ones back", async () => {
    await runCommand(page, 'MCP: Open Inspector');
    inspector = await frameWith(page, '.rows[role=tree]');
    const row = inspector.getByRole('treeitem', { name: /^tools\/call add, fixture-stdio, result\b/ }).first();
    await row.waitFor({ state: 'visible' });
    original = await row.getAttribute('data-seq');
    await row.locator(':scope > .line').click();
    const box = inspector.getByRole('textbox', { name: 'Params to replay (JSON)' });
    await box.waitFor({ state: 'visible' });
    const recorded = await box.inputValue();
    const reset = inspector.getByRole('button', { name: 'Reset to Recorded Params' });
    if (await reset.isVisible()) throw new Error('Reset is offered before any edit');
    await box.fill(JSON.stringify({ name: 'add', arguments: { a: 'one', b: 2 } }, null, 2));
    await reset.waitFor({ state: 'visible' });
    await reset.click();
    await expectValue(box, recorded);
    await reset.waitFor({ state: 'hidden' });
  });

  await step('Replay with arguments that break the inputSchema: sent, with a warning on the new exchange', async () => {
    const box = inspector.getByRole('textbox', { name: 'Params to replay (JSON)' });
    await box.fill(JSON.stringify({ name: 'add', arguments: { a: 'one', b: 2 } }, null, 2));
    await inspector.getByRole('button', { name: 'Replay', exact: true }).click();
    await inspector.locator(`.row[data-replay-of="${original}"][aria-selected=true]`).first().waitFor({ state: 'visible' });
    await inspector
      .locator('.action-status.warning')
      .filter({ hasText: "Sent, though the arguments break the tool's inputSchema: a must be number." })
      .waitFor({ state: 'visible' });
    // Back on the original: its recorded params again (the edit went out with the replay), nothing to reset.
    await inspector.getByRole('button', { name: 'Show the original' }).click();
    await inspector.locator(`.row[data-seq="${original}"][aria-selected=true]`).waitFor({ state: 'visible' });
    await waitFor(async () => JSON.parse(await box.inputValue()).arguments?.a !== 'one', 'the recorded params on the original');
    if (await inspector.getByRole('button', { name: 'Reset to Recorded Params' }).isVisible())
      throw new Error('Reset is offered on the original after the replay');
  });

  await step('a result whose structuredContent breaks the outputSchema is marked on its row, the issue in its detail', async () => {
    // Replayed as the read-only `badOutput`, which declares {count: integer} and returns {count: "seven"}.
    const box = inspector.getByRole('textbox', { name: 'Params to replay (JSON)' });
    await box.fill(JSON.stringify({ name: 'badOutput', arguments: {} }));
    await inspector.getByRole('button', { name: 'Replay', exact: true }).click();
    const replay = inspector.locator(`.row[data-replay-of="${original}"][aria-selected=true]`).filter({ hasText: 'badOutput' }).first();
    await replay.waitFor({ state: 'visible' });
    await replay.locator(':scope > .line .schema-badge').waitFor({ state: 'visible' });
    const label = await replay.getAttribute('aria-label');
    if (!/breaks its outputSchema/.test(label ?? '')) throw new Error(`the row reads ${JSON.stringify(label)}`);
    await inspector.locator('section.pane.response .schema-issues li', { hasText: 'count must be integer' }).waitFor({ state: 'visible' });
    await restMouse();
    await screenshot('toolRunner-inspector-output-schema');
  });

  await step('"Errors only" hiding the selected row lets go of it: the detail no longer shows it', async () => {
    const errorsOnly = inspector.getByRole('checkbox', { name: 'Errors only' });
    await errorsOnly.check();
    await inspector.locator('.detail .empty', { hasText: 'Select an exchange to see its request and response.' }).waitFor({ state: 'visible' });
    if (await inspector.locator('.rows .row[aria-selected=true]').count()) throw new Error('a row is still selected');
    await errorsOnly.uncheck();
  });

  await step('the HTTP header table is readable at the default width: a fixed name column, values wrapped within the pane', async () => {
    // Beside the workspace copy, in the sandbox the launcher removes.
    const { writeFileSync } = await import('node:fs');
    const { dirname, join } = await import('node:path');
    const file = join(dirname(workspace), `mcpwb-e2e-http-${Date.now().toString(36)}.jsonl`);
    const longName = 'x-a-rather-long-vendor-specific-response-header-name';
    writeFileSync(file, httpRecording(longName));
    await inspector.getByRole('button', { name: 'Import…' }).click();
    await pickInFileDialog(page, file);
    const imported = await frameWhere(page, '.source', async (f) =>
      /mcpwb-e2e-http-.*\(read-only\)$/.test((await f.locator('.source').first().textContent()) ?? ''),
    );
    await imported.locator('.rows .row > .line').first().click();
    const table = imported.locator('table.http-headers[aria-label="Response headers"]');
    await table.locator('th', { hasText: longName }).waitFor({ state: 'visible' });
    const m = await table.evaluate((t, name) => {
      const rows = [...t.rows];
      const long = rows.find((r) => r.cells[0].textContent === name);
      const body = t.closest('.detail-body');
      return {
        table: t.getBoundingClientRect().width,
        names: rows.map((r) => Math.round(r.cells[0].getBoundingClientRect().width)),
        value: long.cells[1].getBoundingClientRect().width,
        overflow: body.scrollWidth - body.clientWidth,
      };
    }, longName);
    log(`header table at the default width: ${JSON.stringify(m)}`);
    if (new Set(m.names).size !== 1 || m.names[0] > m.table * 0.45) throw new Error(`the name column is not fixed: ${JSON.stringify(m)}`);
    if (m.value < m.table * 0.5) throw new Error(`the values get less than half the table: ${JSON.stringify(m)}`);
    if (m.overflow > 1) throw new Error(`the detail scrolls sideways by ${m.overflow} px`);
    await table.scrollIntoViewIfNeeded();
    await restMouse();
    await screenshot('toolRunner-inspector-http-headers');
  });
}

/** A recording of one tools/call over HTTP whose response carries a long header name and long values. */
function httpRecording(longName) {
  const at = 1_800_000_000_000;
  const headers = [
    { name: 'content-type', value: 'text/event-stream' },
    { name: 'mcp-session-id', value: 'f3c1e0a4-5b7d-4e2a-9c1f-8d6b2a7e4f10-2b9d0c6e-7a14-4f3b-8e25-c0d1a9b8e7f6', mcp: true },
    { name: longName, value: 'mcp-session-id, mcp-protocol-version, x-request-id, x-trace-id, x-ratelimit-remaining, x-ratelimit-reset' },
    { name: 'set-cookie', value: `session=${'Zm9vYmFy'.repeat(12)}; Path=/; HttpOnly; Secure; SameSite=Strict` },
  ];
  const record = {
    seq: 1,
    serverId: 'wide-http',
    serverLabel: 'wide-http',
    method: 'tools/call',
    kind: 'request',
    id: 1,
    direction: 'send',
    startedAt: at,
    endedAt: at + 12,
    status: { kind: 'ok' },
    requestSize: 90,
    responseSize: 70,
    request: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } },
    response: { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'echo: hi' }] } },
    http: [
      {
        startedAt: at,
        method: 'POST',
        url: 'https://mcp.example.invalid/mcp',
        requestHeaders: [{ name: 'accept', value: 'application/json, text/event-stream' }],
        responseHeaders: headers,
        status: 200,
        statusText: 'OK',
        headersMs: 8,
        totalMs: 12,
        link: 'id',
      },
    ],
  };
  return [JSON.stringify({ format: 'mcp-workbench-recording', version: 1, exportedAt: at }), JSON.stringify(record)].join('\n') + '\n';
}

async function waitFor(check, what, timeout = 15_000) {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}
