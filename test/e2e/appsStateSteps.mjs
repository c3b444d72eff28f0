// End-to-end steps, run at the end of apps.e2e.mjs (one VS Code start for both): an app keeps its
// state when it moves to its own editor tab and back (issue 32).
// The state fixture app (test/fixtures/servers/apps/stateAppServer.ts) has a slider and a value
// fetched with the app-only `lookup` tool (not read-only, idempotent: the host asks first). A
// move builds a new frame (a frame cannot outlive its webview); before the old one goes, the
// host sends `ui/resource-teardown`, where the app saves its state in its storage, which the new
// frame shares (same origin for the app session). The new frame restores it and repeats the
// fetch, which the user allowed once before the move: not asked again. An app that asks for the
// same tool again is offered "Allow for This App Session" first. The app's ui/message shows
// beside it as text with "Ask @mcp in Chat", which puts it into the chat input, unsent.
import fs from 'node:fs';
import path from 'node:path';
import { clickUntilTab } from './workbench.mjs';
import { expand, expectText, waitForApp } from './apps.e2e.mjs';

const EXTENSION_ID = 'mcp-workbench.mcp-workbench';

export async function runStateSteps({ page, step, screenshot, workspace, log }) {
  const servers = page.getByRole('tree', { name: /^Servers\b/ });
  const serverItem = servers.getByRole('treeitem', { name: /^fixture-state,/ });
  const visibleWebview = () => page.frameLocator(`iframe.webview[src*="extensionId=${EXTENSION_ID}"]:visible`).frameLocator('iframe#active-frame');
  const restMouse = () => page.mouse.move(900, 850);
  const setLevel = (frame, value) =>
    frame.evaluate((v) => {
      const input = document.getElementById('level');
      input.value = String(v);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }, value);
  /** The app in the given display mode, started (restored or not) and done with its fetch. */
  const settledApp = (mode) =>
    waitForApp(page, async (frame) => {
      const [m, status, fetched] = await Promise.all(['#mode', '#status', '#fetched'].map((id) => frame.locator(id).textContent({ timeout: 500 })));
      return m === mode && status === 'ready' && fetched !== 'fetching…';
    });
  /** No approval is on screen in the visible webview (none appeared while the app started). */
  const expectNoApproval = async (where) => {
    const n = await visibleWebview().locator('.app-approval').count();
    if (n) throw new Error(`${where}: the host asked again (${(await visibleWebview().locator('.app-approval').textContent())?.trim()})`);
  };
  let app;

  await step('add the state Apps fixture server to folder-a/.vscode/mcp.json', async () => {
    const file = path.join(workspace, 'folder-a', '.vscode', 'mcp.json');
    const text = fs.readFileSync(file, 'utf8');
    const entry = JSON.stringify({ type: 'stdio', command: 'node', args: ['${env:MCPWB_FIXTURES}/servers/apps/stateAppServer.js'] });
    fs.writeFileSync(file, text.replace(/"servers":\s*\{/, `"servers": {\n    "fixture-state": ${entry},`));
  });

  await step('run state from Run Tool: the app starts with nothing restored', async () => {
    // After apps.e2e.mjs the MCP view is open already: a click on its tab would close the side bar.
    if (!(await servers.isVisible())) await page.getByRole('tab', { name: /^MCP\b/ }).click();
    await serverItem.filter({ hasText: /stdio · 20\d\d-/ }).waitFor({ state: 'visible', timeout: 60_000 });
    await expand(serverItem);
    await expand(servers.getByRole('treeitem', { name: /^Tools 2$/ }));
    await clickUntilTab(page, servers.getByRole('treeitem', { name: /^State state\b/ }), /^Run State\b/, {
      ancestors: [serverItem, servers.getByRole('treeitem', { name: /^Tools 2$/ })],
      log,
    });
    await visibleWebview().getByRole('button', { name: 'Run', exact: true }).click();
    app = await settledApp('inline');
    await expectText(app.locator('#restored'), 'no');
    await expectText(app.locator('#level-value'), '0');
  });

  await step('set the level to 7 and Fetch: asked once beside the app (Run Tool first), Run Tool: the value shows', async () => {
    await setLevel(app, 7);
    await expectText(app.locator('#level-value'), '7');
    await app.locator('#fetch').click();
    const approval = visibleWebview().locator('.app-approval');
    await approval.filter({ hasText: /The app wants to run "Lookup" on server "fixture-state"/ }).waitFor({ state: 'visible' });
    const first = (await approval.locator('.app-approval-buttons button').first().textContent())?.trim();
    if (first !== 'Run Tool') throw new Error(`the first question offers ${JSON.stringify(first)} first, expected Run Tool`);
    await approval.getByRole('button', { name: 'Run Tool', exact: true }).click();
    await expectText(app.locator('#fetched'), 'apples-fact');
  });

  await step('pop out into its own tab: the level (7) and the fetched value are there, the fetch was not asked again', async () => {
    await visibleWebview().locator('#app-pop-out').click();
    await page.getByRole('tab', { name: /^App: State\b/ }).waitFor({ state: 'visible' });
    app = await settledApp('fullscreen');
    const seen = {
      restored: await app.locator('#restored').textContent(),
      level: await app.locator('#level-value').textContent(),
      fetched: await app.locator('#fetched').textContent(),
    };
    log(`in the tab: ${JSON.stringify(seen)}`);
    await expectNoApproval('after the pop-out');
    if (seen.restored !== 'yes' || seen.level !== '7' || seen.fetched !== 'apples-fact')
      throw new Error(`the app's state was not kept: ${JSON.stringify(seen)}`);
    await restMouse();
    await screenshot('apps-state-01-popped-out');
  });

  await step('set the level to 3 in the tab, back to Run Tool: level 3 and the value are there, not asked again', async () => {
    await setLevel(app, 3);
    await expectText(app.locator('#level-value'), '3');
    await visibleWebview().locator('#app-pop-in').click();
    await page.getByRole('tab', { name: /^App: State\b/ }).waitFor({ state: 'hidden' });
    app = await settledApp('inline');
    const seen = {
      restored: await app.locator('#restored').textContent(),
      level: await app.locator('#level-value').textContent(),
      fetched: await app.locator('#fetched').textContent(),
    };
    log(`back inline: ${JSON.stringify(seen)}`);
    await expectNoApproval('after the pop-in');
    if (seen.level !== '3' || seen.fetched !== 'apples-fact') throw new Error(`the app's state was not kept: ${JSON.stringify(seen)}`);
  });

  await step('Fetch again: asked a second time, "Allow for This App Session" comes first; after it, no more questions', async () => {
    await app.locator('#fetch').click();
    const approval = visibleWebview().locator('.app-approval');
    await approval.filter({ hasText: /asked for this tool 2 times in this app session/ }).waitFor({ state: 'visible' });
    const first = approval.locator('.app-approval-buttons button').first();
    await expectText(first, 'Allow for This App Session');
    if (!/\bprimary\b/.test((await first.getAttribute('class')) ?? '')) throw new Error('"Allow for This App Session" is not the primary button');
    await restMouse();
    await screenshot('apps-state-02-asked-again');
    await first.click();
    await expectText(app.locator('#fetched'), 'apples-fact');
    await app.locator('#fetch').click();
    await expectText(app.locator('#fetched'), 'fetching…', 5_000).catch(() => undefined);
    await expectText(app.locator('#fetched'), 'apples-fact');
    await expectNoApproval('after Allow for This App Session');
  });

  await step('"Tell chat" (ui/message): the message shows beside the app as text, with Ask @mcp in Chat (or: this VS Code has no chat)', async () => {
    await app.locator('#tell-chat').click();
    const notice = visibleWebview().locator('.app-notice');
    const text = (await expectText(notice, /chat/, 15_000)).trim();
    log(`beside the app: ${text}`);
    const appSaw = (await expectText(app.locator('#message'), /^message (delivered|not delivered)$/)).trim();
    // The quoted text is the app's, shown as text: the <b> stays literal.
    if (!text.includes('"Level 3 <b>please</b>"')) throw new Error(`the line does not quote the app's message as text: ${text}`);
    if ((await notice.locator('b').count()) !== 0) throw new Error("the app's markup became HTML");
    await restMouse();
    await screenshot('apps-state-03-message');
    if (/no chat/.test(text)) {
      if (appSaw !== 'message not delivered') throw new Error(`the app was told ${appSaw}`);
      return;
    }
    if (appSaw !== 'message delivered') throw new Error(`the app was told ${appSaw}`);
    await notice.getByRole('button', { name: 'Ask @mcp in Chat' }).click();
    await expectText(notice, /is in the chat input \(@mcp\): review it and press Enter to send it\./);
    const input = page.locator('.interactive-input-part .monaco-editor .view-lines').first();
    const shown = await input
      .waitFor({ state: 'visible', timeout: 10_000 })
      .then(() => true)
      .catch(() => false);
    if (!shown) {
      // VS Code in code-server may have the chat commands without a chat view (no chat agent is installed).
      log('this build opened no chat view (workbench.action.chat.open ran without one)');
      return;
    }
    // Monaco draws spaces as no-break spaces.
    await expectText(input, /@mcp\sLevel\s3\s<b>please<\/b>/);
    await restMouse();
    await screenshot('apps-state-04-chat-input');
  });
}
