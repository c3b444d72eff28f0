// End-to-end, through the real workbench UI: run the fixture's task tool `longTask` (it runs
// only as a task, MCP 2025-11-25) from the Servers tree; the Run Tool panel shows the task's
// status line while it runs, then its result; the server's Tasks group in the tree lists the
// task as completed. Workspace: test/fixtures/workspaces/main (`fixture-stdio`, see
// explorer.e2e.mjs). Run with `node test/launch/runInCodeServer.mjs --e2e tasks`.

import { clickUntilTab, expectAttribute } from './workbench.mjs';
const EXTENSION_ID = 'mcp-workbench.mcp-workbench';

export async function run({ page, step, screenshot, log }) {
  const servers = page.getByRole('tree', { name: /^Servers\b/ });
  const serverItem = servers.getByRole('treeitem', { name: /^fixture-stdio,/ });
  const toolsGroup = servers.getByRole('treeitem', { name: /^Tools \d+$/ });
  const taskTool = servers.getByRole('treeitem', { name: /^Long task longTask\b/ });
  const tasksGroup = servers.getByRole('treeitem', { name: /^Tasks\b/ });
  const webview = page.frameLocator(`iframe.webview[src*="extensionId=${EXTENSION_ID}"]`).frameLocator('iframe#active-frame');
  const delayField = webview.locator('.field[data-pointer="/delayMs"]').getByRole('textbox');
  const runButton = webview.getByRole('button', { name: 'Run', exact: true });
  const taskStatus = webview.locator('#task-status');
  const result = webview.locator('#result .outcome');
  const restMouse = () => page.mouse.move(900, 850);

  await step('open the MCP view and wait for fixture-stdio to run', async () => {
    await page.getByRole('tab', { name: /^MCP\b/ }).click();
    await serverItem.filter({ hasText: 'stdio · 2025-11-25' }).waitFor({ state: 'visible' });
  });

  await step('expand fixture-stdio and its Tools group, click longTask: Run Tool opens', async () => {
    await serverItem.click();
    await expectAttribute(serverItem, 'aria-expanded', 'true');
    await toolsGroup.click();
    await expectAttribute(toolsGroup, 'aria-expanded', 'true');
    await clickUntilTab(page, taskTool, /^Run Long task\b/, { ancestors: [serverItem, toolsGroup], log });
    await delayField.waitFor({ state: 'visible' });
  });

  await step('press Run: the panel shows "Task working: step i of 5" while the task runs', async () => {
    await delayField.fill('700');
    await runButton.click();
    await taskStatus.filter({ hasText: /^Task working: step \d of 5$/ }).waitFor({ state: 'visible' });
    await restMouse();
    await screenshot('tasks-01-running');
  });

  await step('the Tasks group under the server says "1 running"; expanded, it lists the task as working', async () => {
    await tasksGroup.filter({ hasText: '1 running' }).waitFor({ state: 'visible' });
    if ((await tasksGroup.getAttribute('aria-expanded')) !== 'true') await tasksGroup.click();
    await expectAttribute(tasksGroup, 'aria-expanded', 'true');
    await servers.getByRole('treeitem', { name: /^longTask working\b/ }).waitFor({ state: 'visible' });
  });

  await step('when it is done the panel shows its result and the tree says completed', async () => {
    await result.locator('pre.text').filter({ hasText: 'task done after 5 steps' }).waitFor({ state: 'visible', timeout: 30000 });
    await taskStatus.waitFor({ state: 'hidden' });
    await servers.getByRole('treeitem', { name: /^longTask completed\b/ }).waitFor({ state: 'visible' });
    await restMouse();
    await screenshot('tasks-02-done');
  });
}
