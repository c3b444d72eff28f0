// End-to-end: MCP Apps run as their authors built them (issue 32). The policy fixture app
// (test/fixtures/servers/apps/policyAppServer.ts) does what the published PDF viewer (pdf.js)
// and three.js examples need: it starts a Worker from a blob: URL, evaluates code with
// `new Function`, and keeps a value in localStorage. It also fetches an origin its server did
// not declare: the policy blocks it, a line beside the app says so, and the server's log has it.
// The app has an origin of its own (its storage is its own): not the webview's, and it cannot
// reach its parent's or the top window's document or storage. When its server is stopped while
// the app is open, a line beside the app says so, with Start; it goes away once the server runs.
import fs from 'node:fs';
import path from 'node:path';
import { clickUntilTab, pickCommand } from './workbench.mjs';
import { expand, expectText, waitForApp } from './apps.e2e.mjs';

const EXTENSION_ID = 'mcp-workbench.mcp-workbench';
const BLOCKED = 'https://undeclared.invalid/data.json';

function logFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? logFiles(full) : e.name.endsWith('.log') ? [full] : [];
  });
}

export async function run({ page, step, screenshot, workspace, log }) {
  const servers = page.getByRole('tree', { name: /^Servers\b/ });
  const serverItem = servers.getByRole('treeitem', { name: /^fixture-policy,/ });
  const runToolWebview = page.frameLocator(`iframe.webview[src*="extensionId=${EXTENSION_ID}"]:visible`).frameLocator('iframe#active-frame');
  let app;

  await step('add the policy Apps fixture server to folder-a/.vscode/mcp.json', async () => {
    const file = path.join(workspace, 'folder-a', '.vscode', 'mcp.json');
    const text = fs.readFileSync(file, 'utf8');
    const entry = JSON.stringify({ type: 'stdio', command: 'node', args: ['${env:MCPWB_FIXTURES}/servers/apps/policyAppServer.js'] });
    fs.writeFileSync(file, text.replace(/"servers":\s*\{/, `"servers": {\n    "fixture-policy": ${entry},`));
  });

  await step('open the MCP view: fixture-policy runs, its tool is listed', async () => {
    await page.getByRole('tab', { name: /^MCP\b/ }).click();
    await serverItem.filter({ hasText: /stdio · 20\d\d-/ }).waitFor({ state: 'visible', timeout: 60_000 });
    await expand(serverItem);
    await expand(servers.getByRole('treeitem', { name: /^Tools 1$/ }));
    await servers.getByRole('treeitem', { name: /^Policy policy\b.*\bapp\b/ }).waitFor({ state: 'visible' });
  });

  await step('run policy from Run Tool: the blob: worker answers, new Function runs, localStorage keeps a value', async () => {
    await clickUntilTab(page, servers.getByRole('treeitem', { name: /^Policy policy\b/ }), /^Run Policy\b/, {
      ancestors: [serverItem, servers.getByRole('treeitem', { name: /^Tools 1$/ })],
      log,
    });
    await runToolWebview.getByRole('button', { name: 'Run', exact: true }).click();
    await runToolWebview
      .locator('#result .outcome')
      .getByRole('heading', { name: /^Result\b/ })
      .waitFor({ state: 'visible' });
    app = await waitForApp(page);
    await expectText(app.locator('#status'), 'done', 30_000);
    const seen = {};
    for (const id of ['worker', 'eval', 'storage', 'fetch', 'parent', 'top', 'origin']) seen[id] = (await app.locator(`#${id}`).textContent())?.trim();
    log(`policy app: ${JSON.stringify(seen)}`);
    await page.mouse.move(900, 850);
    await screenshot('apps-policy-01-worker-eval-storage');
    const expected = { worker: 'answered 42', eval: 'computed 42', storage: 'kept', fetch: 'blocked', parent: 'unreachable', top: 'unreachable' };
    const wrong = Object.entries(expected)
      .filter(([id, value]) => seen[id] !== value)
      .map(([id, value]) => `#${id}: expected ${JSON.stringify(value)}, saw ${JSON.stringify(seen[id])}`);
    if (wrong.length) throw new Error(wrong.join('; '));
  });

  await step("the app's origin is its own: not the proxy's, the webview's or the workbench's; it cannot reach them", async () => {
    const appOrigin = await app.evaluate(() => location.origin);
    const proxy = app.parentFrame();
    const proxyOrigin = await proxy.evaluate(() => location.origin);
    const webview = proxy.parentFrame();
    const webviewOrigin = await webview.evaluate(() => location.origin);
    const pageOrigin = await page.evaluate(() => location.origin);
    log(`origins: app ${appOrigin}, proxy ${proxyOrigin}, webview ${webviewOrigin}, workbench ${pageOrigin}`);
    if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(appOrigin)) throw new Error(`the app's origin is not the sandbox server's: ${appOrigin}`);
    // (In VS Code in the browser the webview's origin may be the workbench's own.)
    const host = [webviewOrigin, pageOrigin];
    if (appOrigin === proxyOrigin || host.includes(appOrigin) || host.includes(proxyOrigin))
      throw new Error('the app or its proxy shares an origin with the host');
    // Playwright's evaluate runs in the app's own realm: the same reach the app's scripts have.
    const reach = await app.evaluate(() => {
      const tryIt = (fn) => {
        try {
          fn();
          return 'reachable';
        } catch {
          return 'unreachable';
        }
      };
      return {
        parentDocument: tryIt(() => window.parent.document.body),
        topStorage: tryIt(() => window.top.localStorage.length),
        frameElement: window.frameElement === null ? 'hidden' : 'visible',
      };
    });
    if (reach.parentDocument !== 'unreachable' || reach.topStorage !== 'unreachable' || reach.frameElement !== 'hidden')
      throw new Error(`the app reaches its host: ${JSON.stringify(reach)}`);
  });

  await step("the blocked request shows beside the app, once, and in the server's log", async () => {
    const line = runToolWebview.locator('.app-policy');
    await expectText(
      line,
      new RegExp(`the app tried to load ${BLOCKED.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(connect-src\\), which its declared domains do not allow`),
    );
    await screenshot('apps-policy-02-violation-line');
    const lines = await runToolWebview.locator('.app-policy').count();
    if (lines !== 1) throw new Error(`expected one policy line beside the app, saw ${lines}`);
    const root = path.dirname(workspace);
    const deadline = Date.now() + 20_000;
    let found;
    while (!found && Date.now() < deadline) {
      found = [path.join(root, 'user-data', 'logs'), path.join(root, 'server-data', 'logs')]
        .flatMap(logFiles)
        .map((file) =>
          fs
            .readFileSync(file, 'utf8')
            .split('\n')
            .find((l) => l.includes('ui://policy/app.html') && l.includes(`blocked by its policy: the app tried to load ${BLOCKED}`)),
        )
        .find(Boolean);
      if (!found) await new Promise((r) => setTimeout(r, 500));
    }
    if (!found) throw new Error("the server's log has no line about the blocked request");
    log(`server log: ${found.trim()}`);
  });

  await step('stop fixture-policy with MCP: Stop Server: "Server fixture-policy stopped." and Start show beside the app', async () => {
    await pickCommand(page, 'MCP: Stop Server');
    const quickInput = page.locator('.quick-input-widget');
    await quickInput.locator('input.input').fill('fixture-policy');
    await quickInput.locator('.quick-input-list .monaco-list-row').filter({ hasText: 'fixture-policy' }).first().click();
    await quickInput.waitFor({ state: 'hidden' });
    const line = runToolWebview.locator('.app-server-state');
    await expectText(line, /^Server fixture-policy stopped\.\s*Start$/, 30_000);
    // The app is still shown: its frame stays, only its calls fail until the server runs.
    if ((await runToolWebview.locator('iframe.app-frame').count()) !== 1) throw new Error('the app frame went away when its server stopped');
    await page.mouse.move(900, 850);
    await screenshot('apps-policy-03-server-stopped');
  });

  await step('Start beside the app starts the server; the line goes away', async () => {
    await runToolWebview.locator('.app-server-state').getByRole('button', { name: 'Start', exact: true }).click();
    await serverItem.filter({ hasText: /stdio · 20\d\d-/ }).waitFor({ state: 'visible', timeout: 60_000 });
    await runToolWebview.locator('.app-server-state').waitFor({ state: 'detached', timeout: 30_000 });
    await screenshot('apps-policy-04-server-started');
  });
}
