// End-to-end, through the real workbench UI: an Inspector row's context menu. A tools/call row
// (the fixture's `echo`, run from Run Tool) offers "Save as Test" (VS Code's webview/context menu,
// from the row's data-vscode-context); a tools/list row does not. What the command writes is
// checked in test/integration/main/saveAsTest.test.ts; this checks that the menu is there. Then the
// saved tests in VS Code's Testing view: fixture.mcptest.json run from its row (one passes, one fails
// on purpose), for the screenshot of issue 31's closing note.
// Workspace: test/fixtures/workspaces/main. Run with
// `node test/launch/runInCodeServer.mjs --e2e inspectorSaveAsTest`.
import { clickUntilTab, expectAttribute, frameWith, runCommand } from './workbench.mjs';
const EXTENSION_ID = 'mcp-workbench.mcp-workbench';

export async function run({ page, step, screenshot, log }) {
  const servers = page.getByRole('tree', { name: /^Servers\b/ });
  const serverItem = servers.getByRole('treeitem', { name: /^fixture-stdio,/ });
  const toolsGroup = servers.getByRole('treeitem', { name: /^Tools \d+$/ });
  const echoItem = servers.getByRole('treeitem', { name: /^Echo echo\b/ });
  const runTool = page.frameLocator(`iframe.webview[src*="extensionId=${EXTENSION_ID}"]`).frameLocator('iframe#active-frame');
  const saveAsTest = page.getByRole('menuitem', { name: /^Save as Test/ });
  let inspector;

  await step('run echo from Run Tool', async () => {
    await page.getByRole('tab', { name: /^MCP\b/ }).click();
    await serverItem.filter({ hasText: 'stdio · 2025-11-25' }).waitFor({ state: 'visible', timeout: 30_000 });
    await serverItem.click();
    await expectAttribute(serverItem, 'aria-expanded', 'true');
    await toolsGroup.click();
    await expectAttribute(toolsGroup, 'aria-expanded', 'true');
    await clickUntilTab(page, echoItem, /^Run Echo\b/, { ancestors: [serverItem, toolsGroup], log });
    await runTool.locator('.field[data-pointer="/text"]').getByRole('textbox').fill('saved from a row');
    await runTool.getByRole('button', { name: 'Run', exact: true }).click();
    await runTool.locator('#result .outcome pre.text').filter({ hasText: 'echo: saved from a row' }).waitFor({ state: 'visible' });
  });

  await step("MCP: Open Inspector; the tools/call row's context menu offers Save as Test", async () => {
    await runCommand(page, 'MCP: Open Inspector');
    await page.getByRole('tab', { name: /^MCP Inspector\b/ }).waitFor({ state: 'visible' });
    inspector = await frameWith(page, '.rows[role=tree]');
    const row = inspector.getByRole('treeitem', { name: /^tools\/call echo, fixture-stdio, result\b/ }).first();
    await row.waitFor({ state: 'visible' });
    await row.locator(':scope > .line').click({ button: 'right' });
    await saveAsTest.first().waitFor({ state: 'visible', timeout: 10_000 });
    await screenshot('inspector-save-as-test-menu');
    await page.keyboard.press('Escape');
    await saveAsTest.first().waitFor({ state: 'hidden' });
  });

  await step("a tools/list row's context menu has no Save as Test", async () => {
    const row = inspector.getByRole('treeitem', { name: /^tools\/list, fixture-stdio\b/ }).first();
    await row.waitFor({ state: 'visible' });
    await row.locator(':scope > .line').click({ button: 'right' });
    // The menu opens with VS Code's own items (Copy, Paste…); give it the time the first one took.
    await page.getByRole('menuitem').first().waitFor({ state: 'visible', timeout: 10_000 });
    const offered = await saveAsTest.count();
    await page.keyboard.press('Escape');
    if (offered) throw new Error('a tools/list row offers Save as Test');
  });

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
