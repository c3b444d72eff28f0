// End-to-end MCP Apps (SEP-1865) in the real workbench: the fixture Apps server
// (test/fixtures/servers/appsServer.ts) is added to folder-a's mcp.json; its `counter` tool is
// run from the tree, the counter app appears in Run Tool's result area (a sandbox proxy frame
// served by the local sandbox server, the app in a frame inside it on its own origin), its button calls
// the app-only `increment` tool after the approval dialog, the call shows in Activity, a fetch
// to an undeclared origin is blocked by the CSP while the declared one is allowed, switching
// the colour theme recolours the app, pop-out into its own tab and back keep the count, and
// the app's sampling request goes through the MCP Requests panel.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { clickUntilTab, expectAttribute, frameWith, pickCommand, runCommand } from './workbench.mjs';

const EXTENSION_ID = 'mcp-workbench.mcp-workbench';
const FAKE_MODEL = 'vscode-lm:mcpwb-fake/mcpwb-fake-echo';

/** A tiny origin the app may (or may not) fetch; counts the requests it got. */
async function origin(name) {
  const server = http.createServer((req, res) => {
    server.hits++;
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Access-Control-Allow-Origin': '*' }).end(`hello-${name}`);
  });
  server.hits = 0;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.url = `http://127.0.0.1:${server.address().port}`;
  return server;
}

/** The frame of the app (inside the sandbox proxy, from the app's own origin) shown now, if any. */
export function appFrames(page) {
  return page.frames().filter((f) => /^http:\/\/127\.0\.0\.1:\d+\/app\/[a-f0-9]{48}$/.test(f.url()) && f.parentFrame()?.url().includes('/proxy/'));
}

export async function waitForApp(page, predicate = async () => true, timeout = 30_000) {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    for (const frame of appFrames(page)) {
      if (frame.isDetached()) continue;
      const ready = await frame
        .locator('#status')
        .textContent({ timeout: 500 })
        .catch(() => undefined);
      if (ready && ready !== 'starting…' && (await predicate(frame).catch(() => false))) return frame;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(
    `no app frame matched within ${timeout / 1000} s (frames: ${page
      .frames()
      .map((f) => f.url())
      .join(', ')})`,
  );
}

export async function expectText(locator, expected, timeout = 15_000) {
  const deadline = Date.now() + timeout;
  let seen;
  while (Date.now() < deadline) {
    seen = await locator.textContent({ timeout: 1000 }).catch(() => seen);
    if (typeof expected === 'string' ? seen?.trim() === expected : expected.test(seen ?? '')) return seen;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`expected ${locator} to show ${expected}, last seen ${JSON.stringify(seen)}`);
}

/** Clicks a tree item until it is expanded (a click during a re-render of the tree can be lost). */
export async function expand(item, attempts = 4) {
  for (let i = 1; ; i++) {
    await item.click();
    try {
      await expectAttribute(item, 'aria-expanded', 'true', 3_000);
      return;
    } catch (error) {
      if (i >= attempts) throw error;
    }
  }
}

const background = (frame) => frame.evaluate(() => getComputedStyle(document.body).backgroundColor);

export async function run({ page, step, screenshot, workspace, log }) {
  const declared = await origin('declared');
  const undeclared = await origin('undeclared');
  const servers = page.getByRole('tree', { name: /^Servers\b/ });
  const serverItem = servers.getByRole('treeitem', { name: /^fixture-apps,/ });
  const restMouse = () => page.mouse.move(900, 850);
  const runToolWebview = page.frameLocator(`iframe.webview[src*="extensionId=${EXTENSION_ID}"]:visible`).frameLocator('iframe#active-frame');
  let app;

  try {
    await step('add the fixture Apps server to folder-a/.vscode/mcp.json', async () => {
      const file = path.join(workspace, 'folder-a', '.vscode', 'mcp.json');
      const text = fs.readFileSync(file, 'utf8');
      const entry = JSON.stringify({
        type: 'stdio',
        command: 'node',
        args: ['${env:MCPWB_FIXTURES}/servers/appsServer.js'],
        env: { FIXTURE_APP_DECLARED_ORIGIN: declared.url, FIXTURE_APP_UNDECLARED_ORIGIN: undeclared.url },
      });
      fs.writeFileSync(file, text.replace(/"servers":\s*\{/, `"servers": {\n    "fixture-apps": ${entry},`));
    });

    await step('open the MCP view: fixture-apps runs; its tools are marked "app", increment and get_count "app only"', async () => {
      await page.getByRole('tab', { name: /^MCP\b/ }).click();
      await serverItem.waitFor({ state: 'visible', timeout: 30_000 });
      await serverItem.filter({ hasText: /stdio · 20\d\d-/ }).waitFor({ state: 'visible', timeout: 60_000 });
      await expand(serverItem);
      await expand(servers.getByRole('treeitem', { name: /^Tools 4$/ }));
      await servers.getByRole('treeitem', { name: /^Counter counter\b.*\bapp\b/ }).waitFor({ state: 'visible' });
      await servers.getByRole('treeitem', { name: /^Increment increment\b.*\bapp only\b/ }).waitFor({ state: 'visible' });
      await servers.getByRole('treeitem', { name: /^Get Count get_count\b.*\bapp only\b/ }).waitFor({ state: 'visible' });
      await restMouse();
      await screenshot('apps-01-tree');
    });

    await step('run counter from Run Tool: the app appears in the result area, showing count 0', async () => {
      await clickUntilTab(page, servers.getByRole('treeitem', { name: /^Counter counter\b/ }), /^Run Counter\b/, {
        ancestors: [serverItem, servers.getByRole('treeitem', { name: /^Tools 4$/ })],
        log,
      });
      await runToolWebview.getByRole('button', { name: 'Run', exact: true }).click();
      await runToolWebview
        .locator('#result .outcome')
        .getByRole('heading', { name: /^Result\b/ })
        .waitFor({ state: 'visible' });
      await runToolWebview.locator('iframe.app-frame').waitFor({ state: 'visible' });
      app = await waitForApp(page);
      await expectText(app.locator('#status'), 'ready');
      await expectText(app.locator('#count'), '0');
      await expectText(app.locator('#mode'), 'inline');
      const sandbox = await runToolWebview.locator('iframe.app-frame').getAttribute('sandbox');
      // Same-origin for storage, each frame on a sandbox server port of its own (appsPolicy checks the origins).
      if (sandbox !== 'allow-scripts allow-same-origin') throw new Error(`the proxy frame's sandbox is ${JSON.stringify(sandbox)}`);
      const inner = await app.frameElement().then((e) => e.getAttribute('sandbox'));
      if (inner !== 'allow-scripts allow-forms allow-same-origin') throw new Error(`the app frame's sandbox is ${JSON.stringify(inner)}`);
      await restMouse();
      await screenshot('apps-02-app-inline');
    });

    await step("click Increment in the app: Run Tool asks beside the app (increment is not read-only); Don't Run refuses", async () => {
      await app.locator('#increment').click();
      const approval = runToolWebview.locator('.app-approval');
      await approval.filter({ hasText: /The app wants to run "Increment" on server "fixture-apps"/ }).waitFor({ state: 'visible' });
      await restMouse();
      await screenshot('apps-03-approval');
      await approval.getByRole('button', { name: 'Don’t Run' }).click();
      await expectText(app.locator('#status'), /^increment refused: .*declined/);
      await expectText(app.locator('#count'), '0');
    });

    await step('click Increment again, answer Run Tool: the server tool runs and the app shows 1', async () => {
      await app.locator('#increment').click();
      const approval = runToolWebview.locator('.app-approval');
      await approval.getByRole('button', { name: 'Run Tool', exact: true }).click();
      await expectText(app.locator('#count'), '1');
      await expectText(app.locator('#status'), 'incremented');
    });

    await step('the app calls the model-only reset: refused by the host, never sent, the count stays 1', async () => {
      await app.locator('#call-reset').click();
      await expectText(app.locator('#status'), /^reset refused: .*not visible to apps/);
      await expectText(app.locator('#count'), '1');
    });

    await step("the app's tools/call increment is in the Activity view", async () => {
      const header = page.locator('.pane-header', { hasText: 'Activity' }).first();
      if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
      const activity = page.getByRole('tree', { name: /^Activity\b/ });
      await activity
        .getByRole('treeitem', { name: /^tools\/call, fixture-apps\b/ })
        .first()
        .waitFor({ state: 'visible' });
      // The description names the tool: "fixture-apps · increment · 3 ms · 712 B".
      await activity
        .getByRole('treeitem', { name: /^tools\/call, fixture-apps · increment · / })
        .first()
        .waitFor({ state: 'visible' });
      // The app's own traffic is its own kind: under "fixture-apps (app)", e.g. its ui/initialize.
      await page.locator('.pane-header', { hasText: 'Activity' }).first().hover();
      await page.getByRole('button', { name: 'Filter Activity…' }).click();
      await page.locator('.quick-input-widget input').fill('(app) ui/initialize');
      await page.keyboard.press('Enter');
      await activity
        .getByRole('treeitem', { name: /^ui\/initialize, fixture-apps \(app\) ⇠ · / })
        .first()
        .waitFor({ state: 'visible' });
      await restMouse();
      await screenshot('apps-03c-activity-ui');
      await page.getByRole('button', { name: 'Clear Activity Filter' }).click();
      await restMouse();
      await screenshot('apps-03b-activity');
    });

    await step('a fetch to the undeclared origin is blocked by the CSP; the declared origin is reached', async () => {
      await app.locator('#fetch-undeclared').click();
      await expectText(app.locator('#net'), /csp-blocked .*127\.0\.0\.1/);
      await expectText(app.locator('#net'), /undeclared failed/);
      await app.locator('#fetch-declared').click();
      await expectText(app.locator('#net'), /declared ok 200 hello-declared/);
      if (undeclared.hits !== 0) throw new Error(`the undeclared origin got ${undeclared.hits} request(s)`);
      if (declared.hits !== 1) throw new Error(`the declared origin got ${declared.hits} request(s), expected 1`);
      log(`net log: ${(await app.locator('#net').textContent()).trim().replace(/\n/g, ' | ')}`);
    });

    await step("switch the colour theme (light ⇄ dark): the app's theme and colours follow", async () => {
      const before = await background(app);
      const was = (await app.locator('#theme').textContent()).trim();
      const target = was === 'light' ? { name: 'Dark Modern', theme: 'dark' } : { name: 'Light Modern', theme: 'light' };
      // Keys pressed while the app frame has focus stay in the webview: focus the workbench first.
      await page.locator('.statusbar').click({ position: { x: 400, y: 10 } });
      await pickCommand(page, 'Preferences: Color Theme');
      const input = page.locator('.quick-input-widget input');
      await input.fill(target.name);
      await page.locator('.quick-input-list .monaco-list-row', { hasText: target.name }).first().waitFor();
      await page.keyboard.press('Enter');
      await expectText(app.locator('#theme'), target.theme);
      const deadline = Date.now() + 10_000;
      let after = before;
      while (after === before && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        after = await background(app);
      }
      if (after === before) throw new Error(`the app's background stayed ${before}`);
      log(`app background: ${before} → ${after}`);
      await restMouse();
      await screenshot('apps-04-theme-switched');
    });

    await step('pop out into its own editor tab: fullscreen, the count is still 1', async () => {
      await runToolWebview.locator('#app-pop-out').click();
      await page.getByRole('tab', { name: /^App: Counter\b/ }).waitFor({ state: 'visible' });
      app = await waitForApp(page, async (frame) => (await frame.locator('#mode').textContent()) === 'fullscreen');
      await expectText(app.locator('#count'), '1');
      await restMouse();
      await screenshot('apps-05-popped-out');
    });

    await step('back to Run Tool: inline again, the count is still 1', async () => {
      const tabWebview = page.frameLocator(`iframe.webview[src*="extensionId=${EXTENSION_ID}"]:visible`).frameLocator('iframe#active-frame');
      await tabWebview.locator('#app-pop-in').click();
      await page.getByRole('tab', { name: /^App: Counter\b/ }).waitFor({ state: 'hidden' });
      app = await waitForApp(page, async (frame) => (await frame.locator('#mode').textContent()) === 'inline');
      await expectText(app.locator('#count'), '1');
      await restMouse();
      await screenshot('apps-06-back-inline');
    });

    await step('the app asks for sampling: the MCP Requests panel asks for it; Send with the fake model, Approve: the app shows the reply', async () => {
      await app.locator('#ask-model').click();
      await page.getByRole('tab', { name: /^MCP Requests\b/ }).waitFor({ state: 'visible' });
      const panel = await frameWith(page, '#queue');
      await panel.locator('.queue-item[data-id]').first().waitFor({ state: 'visible' });
      await expectText(panel.locator('#asker'), 'fixture-apps');
      await panel.locator('#model').selectOption(FAKE_MODEL);
      await panel.locator('#send').click();
      await panel.locator('#approve:enabled').waitFor();
      await restMouse();
      await screenshot('apps-07-sampling-request');
      await panel.locator('#approve').click();
      await expectText(app.locator('#sample'), 'model mcpwb-fake-echo said: fake reply to: Say hi from the counter app');
    });
  } finally {
    declared.close();
    undeclared.close();
  }

  // The state app (appsStateSteps.mjs) in the same workbench, on a clean editor area: the counter's
  // Run Tool and the MCP Requests panel closed, so the state app's webview is the one in sight.
  await step('close every editor before the state app', async () => {
    await runCommand(page, 'View: Close All Editors');
    await page
      .getByRole('tab', { name: /^(Run Counter|MCP Requests)\b/ })
      .first()
      .waitFor({ state: 'hidden' });
  });
  const { runStateSteps } = await import('./appsStateSteps.mjs');
  await runStateSteps({ page, step, screenshot, workspace, log });
}
