// End-to-end, through the real workbench: the dev loop as a server author uses it.
// 1. A server entry in folder-b's mcp.json with `dev.watch`: a fixture server whose one tool
//    answers with a workspace file's text as it was when the process started (its "code").
// 2. Run that tool in the Run Tool panel: "Hello from version 1".
// 3. Open the file in the editor beside the panel (Quick Open, Ctrl+Enter), change it, save with Ctrl+S: the server restarts
//    (the tree says which file changed), the panel re-runs its last call by itself and shows the
//    diff "Hello from version 1" → "Hello from version 2", and the editor keeps the focus.
// 4. MCP: Debug Server on it: the debug toolbar shows; Shift+F5 gives the normal launch back.
// Screenshots: test-results/e2e/<version>/devLoop-before.png, devLoop-diff.png (README) and
// devLoop-debugging.png (the walkthrough's "Debug a server").

import * as fs from 'node:fs';
import * as path from 'node:path';
import { childRow, clickUntilTab, expectAttribute, expectText, frameWith, pickCommand, waitForText } from './workbench.mjs';

const SERVER = 'my-dev-server';

export async function run({ page, step, screenshot, workspace }) {
  const servers = page.getByRole('tree', { name: /^Servers\b/ });
  const serverItem = servers.getByRole('treeitem', { name: new RegExp(`^${SERVER},`) });
  const runner = () => frameWith(page, 'h1 code:text-is("startupText")');
  const restMouse = () => page.mouse.move(700, 880);
  const replyFile = path.join(workspace, 'folder-b', 'dev-server', 'reply.txt');

  await step('a server entry with dev.watch appears in the Servers tree', async () => {
    fs.mkdirSync(path.dirname(replyFile), { recursive: true });
    fs.writeFileSync(replyFile, 'Hello from version 1\n');
    const dir = path.join(workspace, 'folder-b', '.vscode');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'mcp.json'),
      JSON.stringify(
        {
          servers: {
            [SERVER]: {
              type: 'stdio',
              command: 'node',
              args: ['${env:MCPWB_FIXTURES}/servers/stdioServer.js'],
              cwd: '${workspaceFolder}/dev-server',
              env: { FIXTURE_STARTUP_FILE: '${workspaceFolder}/dev-server/reply.txt' },
              dev: { watch: '**/*.txt' },
            },
          },
        },
        null,
        2,
      ),
    );
    await page.getByRole('tab', { name: 'MCP', exact: true }).click();
    await serverItem.filter({ hasText: 'stdio · 2025-11-25' }).waitFor({ state: 'visible', timeout: 30_000 });
  });

  await step('run `startupText` in the Run Tool panel: "Hello from version 1"', async () => {
    await serverItem.click();
    await expectAttribute(serverItem, 'aria-expanded', 'true');
    // The fixture workspace's own servers are listed too, in the order they answered: take
    // the Tools group under ours.
    // Rows are looked up again before each click: a server answering late shifts the rows.
    const ours = () => childRow(servers, serverItem, /^Tools \d+$/);
    await (await ours()).click();
    await expectAttribute(await ours(), 'aria-expanded', 'true');
    const toolItem = { click: async () => (await childRow(servers, await ours(), /^Text read at start startupText\b/)).click() };
    await clickUntilTab(page, toolItem, /^Run Text read at start\b/);
    const form = await runner();
    await form.getByRole('button', { name: 'Run', exact: true }).click();
    await waitForText(form.locator('#result .outcome pre.text').first(), (t) => t.trim() === 'Hello from version 1');
    await restMouse();
    await screenshot('devLoop-before');
  });

  await step('edit reply.txt in the editor and save: the server restarts, the panel re-runs and shows the diff, the editor keeps the focus', async () => {
    await page.keyboard.press('Control+P');
    const quickInput = page.locator('.quick-input-widget');
    await quickInput.waitFor({ state: 'visible' });
    await page.keyboard.type('reply.txt');
    await quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'reply.txt' }).first().waitFor({ state: 'visible' });
    // Ctrl+Enter opens it to the side: the Run Tool panel stays in view, as a user works.
    await page.keyboard.press('Control+Enter');
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await editor.waitFor({ state: 'visible' });
    await page.getByRole('tab', { name: /^reply\.txt\b/ }).waitFor({ state: 'visible' });
    await editor.locator('.view-lines').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Hello from version 2');
    await page.keyboard.press('Control+S');
    // The restart shows in the tree with the file that caused it (briefly: it may be over
    // before we look, so the log and the re-run below are what must hold).
    const form = await runner();
    const diff = form.locator('#diff');
    await waitForText(diff, (t) => t.includes('Re-run of the last call'), 30_000);
    const change = diff.locator('.diff-change', { hasText: 'content[0].text' });
    await change.waitFor({ state: 'visible' });
    await expectText(change.locator('.marker'), '~ changed');
    await expectText(change.locator('.before'), '"Hello from version 1"');
    await expectText(change.locator('.after'), '"Hello from version 2"');
    await waitForText(form.locator('#result .outcome pre.text').first(), (t) => t.trim() === 'Hello from version 2');
    // The editor tab is still the active one: the re-run did not bring the panel to the front.
    await expectAttribute(page.getByRole('tab', { name: /^reply\.txt\b/ }), 'aria-selected', 'true');
    const inEditor = await page.evaluate(() => !!document.activeElement?.closest('.monaco-editor'));
    if (!inEditor) throw new Error('the restart or re-run moved the focus out of the editor');
    await serverItem.filter({ hasText: 'stdio · 2025-11-25' }).waitFor({ state: 'visible' });
  });

  await step('the Run Tool panel shows the diff of the two runs', async () => {
    const form = await runner();
    await form.locator('#diff').scrollIntoViewIfNeeded();
    await restMouse();
    await screenshot('devLoop-diff');
  });

  await debugStep({ page, step, screenshot, servers });
}

/** The walkthrough's "Debug a server" picture: the same server under the debugger, then stopped again. */
async function debugStep({ page, step, screenshot, servers }) {
  await step('MCP: Debug Server starts it under the JavaScript debugger; stopping gives the normal launch back', async () => {
    const quickInput = page.locator('.quick-input-widget');
    await pickCommand(page, 'MCP: Debug Server');
    await quickInput.locator('.quick-input-list .monaco-list-row', { hasText: SERVER }).first().waitFor({ state: 'visible' });
    await page.keyboard.type(SERVER);
    await page.keyboard.press('Enter');
    const toolbar = page.locator('.debug-toolbar');
    await toolbar.waitFor({ state: 'visible', timeout: 45_000 });
    // VS Code may open its Run and Debug view on the first session (debug.openDebug): the
    // call stack then lists the server's process.
    await page.mouse.move(700, 880);
    await screenshot('devLoop-debugging');
    await page.keyboard.press('Shift+F5');
    await toolbar.waitFor({ state: 'hidden', timeout: 30_000 });
    // Back to the MCP view if the debug view took the side bar (a click on the active view's
    // icon would hide the side bar instead). 'MCP' exactly: the panel has an "MCP Inspector" tab.
    if (!(await servers.isVisible())) await page.getByRole('tab', { name: 'MCP', exact: true }).click();
    await servers
      .getByRole('treeitem', { name: new RegExp(`^${SERVER},`) })
      .filter({ hasText: 'stdio · 2025-11-25' })
      .waitFor({ state: 'visible', timeout: 30_000 });
  });
}
