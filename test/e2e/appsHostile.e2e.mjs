// End-to-end: an MCP App must not be able to speak for its host (issue 26). The hostile fixture
// app (test/fixtures/servers/apps/hostileApp.browser.ts, server hostileAppServer.ts) is shown in
// Run Tool's result area; it asks to run its destructive `wipe` tool (a real approval bar waits),
// then posts, through its sandbox proxy frame and straight to the page, a Run Tool `outcome` with
// HTML of its own and an `appApproval` that would replace the bar with harmless-looking text (its
// app id guessed the way the old counter + time ids allowed). The page must show neither: the
// result stays the tool's, the bar stays the host's, and the user's answer goes to `wipe`. An
// Enter pressed as the bar appears (focus lands on it) answers nothing.
import fs from 'node:fs';
import path from 'node:path';
import { clickUntilTab } from './workbench.mjs';
import { expand, expectText, waitForApp } from './apps.e2e.mjs';

const EXTENSION_ID = 'mcp-workbench.mcp-workbench';

export async function run({ page, step, screenshot, workspace, log }) {
  const servers = page.getByRole('tree', { name: /^Servers\b/ });
  const serverItem = servers.getByRole('treeitem', { name: /^fixture-hostile,/ });
  const runToolWebview = page.frameLocator(`iframe.webview[src*="extensionId=${EXTENSION_ID}"]:visible`).frameLocator('iframe#active-frame');
  let app;

  await step('add the hostile Apps fixture server to folder-a/.vscode/mcp.json', async () => {
    const file = path.join(workspace, 'folder-a', '.vscode', 'mcp.json');
    const text = fs.readFileSync(file, 'utf8');
    const entry = JSON.stringify({ type: 'stdio', command: 'node', args: ['${env:MCPWB_FIXTURES}/servers/apps/hostileAppServer.js'] });
    fs.writeFileSync(file, text.replace(/"servers":\s*\{/, `"servers": {\n    "fixture-hostile": ${entry},`));
  });

  await step('open the MCP view: fixture-hostile runs, its tools are listed', async () => {
    await page.getByRole('tab', { name: /^MCP\b/ }).click();
    await serverItem.filter({ hasText: /stdio · 20\d\d-/ }).waitFor({ state: 'visible', timeout: 60_000 });
    await expand(serverItem);
    await expand(servers.getByRole('treeitem', { name: /^Tools 3$/ }));
    await servers.getByRole('treeitem', { name: /^Hostile hostile\b.*\bapp\b/ }).waitFor({ state: 'visible' });
  });

  await step("run hostile from Run Tool: the app appears and asks to run wipe; the host's bar asks the user", async () => {
    await clickUntilTab(page, servers.getByRole('treeitem', { name: /^Hostile hostile\b/ }), /^Run Hostile\b/, {
      ancestors: [serverItem, servers.getByRole('treeitem', { name: /^Tools 3$/ })],
      log,
    });
    await runToolWebview.getByRole('button', { name: 'Run', exact: true }).click();
    await runToolWebview
      .locator('#result .outcome')
      .getByRole('heading', { name: /^Result\b/ })
      .waitFor({ state: 'visible' });
    app = await waitForApp(page);
    await expectText(app.locator('#wipe'), 'asked');
    await runToolWebview
      .locator('.app-approval')
      .filter({ hasText: /The app wants to run "Wipe" on server "fixture-hostile"/ })
      .waitFor({ state: 'visible' });
    // A key the user meant for the app, pressed as the bar appears (the app chooses when): it
    // must answer nothing. Had it approved, wipe would run and the last step would fail.
    await page.keyboard.press('Enter');
  });

  await step(
    'the app posts a forged outcome and a forged approval bar: the page shows neither',
    async () => {
      await app.locator('#forge').click();
      // "done" comes after a real round trip through the page (the app's `ping`), so the page has
      // taken every message the app posted before it. Guessing ids takes the app a few seconds.
      await expectText(app.locator('#status'), 'done', 45_000);
      log(`hostile app: ${(await app.locator('#log').textContent()).trim().replace(/\n/g, ' | ')}`);
      await page.mouse.move(900, 850);
      await screenshot('apps-hostile-01-after-forgeries');
      const problems = [];
      const forged = await runToolWebview.locator('#forged-outcome, #forged-link').count();
      if (forged) problems.push(`the page shows the app's HTML (${forged} forged element(s))`);
      const result = (await runToolWebview.locator('#result').textContent()) ?? '';
      if (/Forged by the app/.test(result)) problems.push(`the result area shows the app's outcome: ${JSON.stringify(result.slice(0, 200))}`);
      if (!/The hostile app is shown below\./.test(result)) problems.push(`the tool's own result is gone: ${JSON.stringify(result.slice(0, 200))}`);
      const bars = await runToolWebview.locator('.app-approval').allTextContents();
      if (bars.length !== 1 || !/The app wants to run "Wipe" on server "fixture-hostile"/.test(bars[0]) || /Harmless Lookup/.test(bars[0])) {
        problems.push(`the approval bar is not the host's: ${JSON.stringify(bars)}`);
      }
      const wipe = (await app.locator('#wipe').textContent())?.trim();
      if (wipe !== 'asked') problems.push(`wipe no longer waits for the user (an Enter meant for the app answered the bar?): ${JSON.stringify(wipe)}`);
      if (problems.length) throw new Error(problems.join('; '));
    },
    { timeout: 90_000 },
  );

  await step("Don't Run on the host's bar refuses wipe: the answer went to the call the app really made", async () => {
    await runToolWebview.locator('.app-approval').getByRole('button', { name: 'Don’t Run' }).click();
    await expectText(app.locator('#wipe'), /^wipe refused: .*declined/);
    await runToolWebview.locator('.app-approval').waitFor({ state: 'detached' });
  });
}
