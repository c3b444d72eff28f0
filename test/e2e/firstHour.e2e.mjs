// End-to-end, in the browser workbench, what a new user meets in the first hour:
// 1. A config entry with a misspelt key ("comand") is listed in the Servers tree as a broken
//    server with its reason, instead of vanishing.
// 2. Run Prompt from the palette: each argument step stays open while the user types (the
//    browser build used to read the clipboard up front, which took the focus and closed the
//    quick pick), and the result opens rendered by the Markdown preview, not as source.
// Run with `node test/launch/runInCodeServer.mjs --e2e firstHour`. Screenshots:
// test-results/e2e/<version>/firstHour-*.png.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { pickCommand } from './workbench.mjs';

export async function run({ page, step, screenshot, workspace }) {
  const servers = page.getByRole('tree', { name: /^Servers\b/ });
  const quickInput = page.locator('.quick-input-widget');
  const restMouse = () => page.mouse.move(900, 850);

  await step('a server entry with "comand" is listed as broken, with "did you mean" as its description', async () => {
    const dir = path.join(workspace, 'folder-b', '.vscode');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'mcp.json'), JSON.stringify({ servers: { 'typo-server': { comand: 'node', args: ['server.js'] } } }, null, 2));
    await page.getByRole('tab', { name: /^MCP\b/ }).click();
    await servers.waitFor({ state: 'visible' });
    const broken = servers.getByRole('treeitem', { name: /^typo-server,/ });
    await broken.filter({ hasText: 'did you mean "command"?' }).waitFor({ state: 'visible', timeout: 30_000 });
    await restMouse();
    await screenshot('01-broken-server');
  });

  await step('MCP: Run Prompt… lists the prompts; pick "Greeting"', async () => {
    await servers
      .getByRole('treeitem', { name: /^fixture-stdio,/ })
      .filter({ hasText: 'stdio · 2025-11-25' })
      .waitFor({ state: 'visible', timeout: 30_000 });
    await pickCommand(page, 'MCP: Run Prompt…');
    await quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'Greeting' }).first().waitFor({ state: 'visible' });
    await page.keyboard.type('Greeting');
    await page.keyboard.press('Enter');
  });

  await step('the "name" step stays open while nothing is typed, offers the clipboard as a choice, and takes the typed value', async () => {
    const title = quickInput.locator('.quick-input-title', { hasText: 'Greeting' });
    await title.waitFor({ state: 'visible' });
    await quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'Use clipboard' }).waitFor({ state: 'visible' });
    // The old eager clipboard read closed the step by itself a moment after it opened.
    await page.waitForTimeout(1500);
    if (!(await quickInput.isVisible())) throw new Error('the argument step closed by itself');
    await screenshot('02-argument-step');
    await page.keyboard.type('Ada');
    await quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'use this value' }).waitFor({ state: 'visible' });
    await page.keyboard.press('Enter');
    // "style" (optional): leave it empty.
    await quickInput.locator('.quick-input-list .monaco-list-row', { hasText: '(leave empty)' }).waitFor({ state: 'visible' });
    await page.keyboard.press('Enter');
  });

  await step('the prompt opens rendered (Markdown preview), with the Send to Chat action in its title', async () => {
    await page.getByRole('tab', { name: /^Preview greet\.md\b/ }).waitFor({ state: 'visible', timeout: 20_000 });
    const preview = page.frameLocator('iframe.webview').frameLocator('iframe#active-frame');
    await preview.locator('h2', { hasText: 'User' }).first().waitFor({ state: 'visible' });
    await preview.getByText('Hi Ada! Say hello casually.').waitFor({ state: 'visible' });
    const source = await preview.locator('body').innerText();
    if (source.includes('## ')) throw new Error('the preview shows markdown source');
    await page.locator('.editor-actions [aria-label*="Send Prompt to Chat"]').first().waitFor({ state: 'visible' });
    await restMouse();
    await screenshot('03-prompt-rendered');
  });
}
