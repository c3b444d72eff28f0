// End-to-end, through the real workbench UI as a user would: open the MCP view from the
// activity bar, wait for the fixture server to run, expand it and its Tools group, click
// the `echo` tool, fill in the Run Tool form, press Run and read the result in the panel.
// Run with `npm run test:e2e` (test/launch/runInCodeServer.mjs --e2e, which documents the
// run() contract). Workspace: a fresh copy of test/fixtures/workspaces/main, whose
// folder-a/.vscode/mcp.json defines `fixture-stdio` (test/fixtures/servers/stdioServer.ts).

import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { clickUntilTab, expectAttribute } from './workbench.mjs';
const EXTENSION_ID = 'mcp-workbench.mcp-workbench';

export async function run({ page, step, screenshot, workspace, log }) {
  const text = `hello from e2e ${Date.now().toString(36)}`;

  const servers = page.getByRole('tree', { name: /^Servers\b/ });
  // Server items are labelled "<name>, <state> (…)" (accessibilityInformation).
  const serverItem = servers.getByRole('treeitem', { name: /^fixture-stdio,/ });
  // Group items: "Tools <count>"; tool items: "<title> <name> · <badges>".
  const toolsGroup = servers.getByRole('treeitem', { name: /^Tools \d+$/ });
  const echoItem = servers.getByRole('treeitem', { name: /^Echo echo\b/ });
  // Webviews are nested iframes: iframe.webview (its src names the extension) → iframe#active-frame.
  const webview = page.frameLocator(`iframe.webview[src*="extensionId=${EXTENSION_ID}"]`).frameLocator('iframe#active-frame');
  const textField = webview.locator('.field[data-pointer="/text"]').getByRole('textbox');
  const runButton = webview.getByRole('button', { name: 'Run', exact: true });
  const result = webview.locator('#result .outcome');
  // Hover tooltips (activity bar, tree items) would cover parts of the screenshots.
  const restMouse = () => page.mouse.move(900, 850);

  await step('open the MCP view from the activity bar', async () => {
    await page.getByRole('tab', { name: /^MCP\b/ }).click();
    await servers.waitFor({ state: 'visible' });
    await serverItem.waitFor({ state: 'visible' });
  });

  await step('wait until fixture-stdio is running (description "stdio · 2025-11-25 · v1.0.0")', async () => {
    await serverItem.filter({ hasText: 'stdio · 2025-11-25 · v1.0.0' }).waitFor({ state: 'visible' });
    await restMouse();
    await screenshot('01-mcp-view');
  });

  await step('expand fixture-stdio, then its Tools group', async () => {
    await serverItem.click();
    await expectAttribute(serverItem, 'aria-expanded', 'true');
    await toolsGroup.click();
    await expectAttribute(toolsGroup, 'aria-expanded', 'true');
    await echoItem.waitFor({ state: 'visible' });
    await restMouse();
    await screenshot('02-tools');
  });

  await step('click the echo tool: the Run Tool panel opens with its form', async () => {
    await clickUntilTab(page, echoItem, /^Run Echo\b/, { ancestors: [serverItem, toolsGroup], log });
    // The h1 is "Echo" + <code>echo</code>: accessible name "Echoecho".
    await webview.getByRole('heading', { level: 1, name: /^Echo/ }).waitFor({ state: 'visible' });
    await textField.waitFor({ state: 'visible' });
    await runButton.waitFor({ state: 'visible' });
    await restMouse();
    await screenshot('03-form');
  });

  await step(`fill in "text", press Run: the panel shows "echo: ${text}"`, async () => {
    await textField.fill(text);
    await runButton.click();
    await result.getByRole('heading', { name: /^Result\b/ }).waitFor({ state: 'visible' });
    const shown = result.locator('pre.text').filter({ hasText: `echo: ${text}` });
    await shown.waitFor({ state: 'visible' });
    const exact = (await shown.textContent())?.trim();
    if (exact !== `echo: ${text}`) throw new Error(`result text is ${JSON.stringify(exact)}, expected ${JSON.stringify(`echo: ${text}`)}`);
    await runButton.and(webview.locator(':enabled')).waitFor(); // the panel considers the run over
  });

  await step('the call is over everywhere: progress toast closed, Activity lists tools/call as done', async () => {
    // The panel shows the result while VS Code's progress toast and the Activity view
    // catch up (a few hundred ms); wait for both so the screenshot shows the settled state.
    await page.locator('.notifications-toasts .notification-toast').filter({ hasText: 'MCP fixture-stdio: Echo' }).waitFor({ state: 'hidden' });
    // The Activity view starts collapsed (it would take half the sidebar): open it like a user.
    const header = page.locator('.pane-header', { hasText: 'Activity' }).first();
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
    const activity = page.getByRole('tree', { name: /^Activity\b/ });
    await activity
      .getByRole('treeitem', { name: /^tools\/call, fixture-stdio\b/ })
      .first()
      .waitFor({ state: 'visible' });
    await activity
      .getByRole('treeitem', { name: /^tools\/call, fixture-stdio\b(?!.*\bpending\b)/ })
      .first()
      .waitFor({ state: 'visible' });
    await restMouse();
    await screenshot('04-result');
  });

  await step("VS Code's extension host log has no deprecation or selector warning naming this extension's code", async () => {
    // Seen before: the code lenses' document selector without a scheme (every version), and in
    // 1.139.1 the warning for Node's `navigator`, read by zod while the SDK's schemas were built
    // in dist/deps.js (esbuild.mjs leaves it undefined). Here, unlike the integration suites, no
    // test code in the extension host reads it first (the warning is given once per process).
    const logs = path.join(workspace, '..', 'user-data', 'logs');
    const hostLogs = fs
      .readdirSync(logs)
      .flatMap((d) => ['remoteexthost.log', 'exthost.log'].map((n) => path.join(logs, d, 'exthost1', n)))
      .filter((f) => fs.existsSync(f));
    if (!hostLogs.length) throw new Error(`no extension host log under ${logs}`);
    const repoDist = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist') + path.sep;
    // One entry per timestamped line, with the lines under it (a stack).
    const entries = hostLogs.flatMap((f) => fs.readFileSync(f, 'utf8').split(/\n(?=\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} \[)/));
    const ours = entries.filter((e) => /deprecat|without scheme/i.test(e) && (e.includes(EXTENSION_ID) || e.includes(repoDist)));
    if (ours.length) throw new Error(`the extension host log warns about this extension:\n${ours.map((e) => e.slice(0, 600)).join('\n')}`);
    log(`extension host log: ${entries.length} entries, none warning about this extension`);
  });
}
