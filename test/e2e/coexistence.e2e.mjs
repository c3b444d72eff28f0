// End-to-end, as a user meets it: VS Code's own MCP support is on and reads the same
// .vscode/mcp.json. MCP Workbench asks once who runs those servers; "VS Code" leaves
// them to VS Code, listed stopped with the reason. Screenshots in test-results/e2e/<version>/.
// The e2e profile turns VS Code's host off (runInCodeServer.mjs, builtinMcpSettings); a
// workspace setting turns it on here, with chat.mcp.autostart "never" kept from the profile so
// VS Code does not start servers itself.
// Run: node test/launch/runInCodeServer.mjs --e2e coexistence --vscode 1.139.1

import * as fs from 'node:fs';
import * as path from 'node:path';
import { pickCommand } from './workbench.mjs';

export async function run({ page, step, screenshot, workspace, vscodeVersion }) {
  const servers = page.getByRole('tree', { name: /^Servers\b/ });
  const restMouse = () => page.mouse.move(900, 850);
  const [, minor] = vscodeVersion.split('.').map(Number);
  const hostOn = minor >= 101 ? { 'chat.mcp.access': 'all' } : { 'chat.mcp.enabled': true };

  await step('with VS Code\'s own MCP support on, MCP Workbench asks once who runs the servers of .vscode/mcp.json', async () => {
    await page.getByRole('tab', { name: /^MCP\b/ }).click();
    await servers.waitFor({ state: 'visible' });
    await servers.getByRole('treeitem', { name: /^fixture-stdio,/ }).filter({ hasText: 'stdio · 2025-11-25' }).waitFor({ state: 'visible', timeout: 30_000 });
    // The workspace's folder settings (a multi-root workspace keeps them in its .code-workspace file).
    const file = fs.readdirSync(workspace).find((n) => n.endsWith('.code-workspace'));
    const workspaceFile = path.join(workspace, file);
    const text = fs.readFileSync(workspaceFile, 'utf8');
    if (!text.includes('"settings": {}')) throw new Error(`unexpected ${workspaceFile}: ${text}`);
    fs.writeFileSync(workspaceFile, text.replace('"settings": {}', `"settings": ${JSON.stringify(hostOn)}`));
    // Detected: the workspace servers are held back at once (the default until the user answers).
    await servers.getByRole('treeitem', { name: /^fixture-stdio,/ }).filter({ hasText: 'stopped: run by' }).waitFor({ state: 'visible', timeout: 30_000 });
    // The question is a notification with buttons; in this headless window VS Code tucks its toast
    // away at once, so it is read where the user finds it then: the notification center.
    await pickCommand(page, 'Notifications: Show Notifications');
    const question = page.locator('.notifications-center .notification-list-item', { hasText: 'Who should run their servers?' });
    await question.waitFor({ state: 'visible', timeout: 30_000 });
    await question.getByRole('button', { name: 'VS Code', exact: true }).waitFor({ state: 'visible' });
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
    await restMouse();
    await screenshot('coexistence-01-question');
  });

  await step('"VS Code": the server is listed stopped, "run by VS Code\'s own MCP support"', async () => {
    await page.locator('.notifications-center .notification-list-item', { hasText: 'Who should run their servers?' }).getByRole('button', { name: 'VS Code', exact: true }).click();
    const item = servers.getByRole('treeitem', { name: /^fixture-stdio,/ });
    await item.filter({ hasText: "run by VS Code's own MCP support" }).waitFor({ state: 'visible', timeout: 30_000 });
    // Its tooltip says the whole of it (the description is cut in a narrow side bar).
    await item.hover();
    await page.locator('.monaco-hover', { hasText: "run by VS Code's own MCP support" }).waitFor({ state: 'visible', timeout: 10_000 });
    await screenshot('coexistence-02-run-by-vscode');
  });
}
