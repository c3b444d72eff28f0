// End-to-end, as a user would: see the offline message (the official registry is unreachable
// here), point mcpWorkbench.registry.url at the fixture registry (test/fixtures/registry,
// started here) in the Settings editor, run "MCP: Browse Server Registry" from the Command
// Palette, search, pick a server with several packages and see the choice between running it
// here and its remote. Screenshots in test-results/e2e/<version>/.
// Run: node test/launch/runInCodeServer.mjs --e2e gallery --vscode 1.100.3

import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export async function run({ page, step, screenshot, workspace, log, vscodeVersion }) {
  const { startRegistryFixture } = require(path.join(REPO, 'out', 'test', 'fixtures', 'registry', 'registryServer.js'));
  const registry = await startRegistryFixture();
  const quickInput = page.locator('.quick-input-widget');
  const searchBox = quickInput.locator('input.input');
  const row = (name) => quickInput.getByRole('option', { name });
  const restMouse = () => page.mouse.move(900, 850);
  const written = path.join(workspace, 'folder-b', '.vscode', 'mcp.json');

  try {
    await step('unchanged, the registry (the official one) cannot be reached here: the list says so in one line', async () => {
      // The palette lists the commands known when it opens: wait for the extension (its MCP view) first.
      await page.getByRole('tab', { name: /^MCP\b/ }).waitFor({ state: 'visible' });
      await page.keyboard.press('F1');
      await searchBox.fill('>MCP: Browse Server Registry');
      await row(/MCP: Browse Server Registry/)
        .first()
        .click();
      // The test machines have no internet; where the official registry answers, there is nothing to show here.
      const offline = await row(/Could not reach the MCP registry at https:\/\/registry\.modelcontextprotocol\.io/)
        .waitFor({ state: 'visible', timeout: 20_000 })
        .then(
          () => true,
          () => false,
        );
      if (offline) {
        await row(/Open the mcpWorkbench\.registry\.url setting/).waitFor({ state: 'visible' });
        await restMouse();
        await screenshot('gallery-00-offline');
      } else {
        log('the official registry answered: no offline message to show');
      }
      await page.keyboard.press('Escape');
    });

    await step('set mcpWorkbench.registry.url to the fixture registry in the Settings editor', async () => {
      await page.keyboard.press('F1');
      await searchBox.fill('>Preferences: Open User Settings');
      await row(/^Preferences: Open User Settings$/)
        .first()
        .click();
      const settings = page.locator('.settings-editor');
      await settings.locator('.settings-header .suggest-input-container').click();
      await page.keyboard.type('mcpWorkbench.registry.url');
      const input = settings.locator('input[aria-label="mcpWorkbench.registry.url"]');
      await input.waitFor({ state: 'visible' });
      await input.fill(registry.url);
      await page.keyboard.press('Tab');
      // The Settings editor writes the value after a short debounce.
      await page.waitForTimeout(1500);
    });

    await step('run "MCP: Browse Server Registry" from the Command Palette: the registry\'s servers are listed', async () => {
      // The setting reaches the extension host a moment later; try again until the fixture's servers show.
      for (let attempt = 1; ; attempt++) {
        try {
          await page.keyboard.press('F1');
          // Short waits, tried again: the first fill after the Settings editor had focus was seen
          // to hang for the whole default 30 s on 1.139.1 while a second palette took it at once.
          await searchBox.waitFor({ state: 'visible', timeout: 5000 });
          await searchBox.fill('>MCP: Browse Server Registry', { timeout: 5000 });
          await row(/MCP: Browse Server Registry/)
            .first()
            .click({ timeout: 5000 });
          await row(/Weather/)
            .first()
            .waitFor({ state: 'visible', timeout: 5000 });
          break;
        } catch (error) {
          if (attempt === 5) throw error;
          log(
            `Browse Server Registry, try ${attempt}: ${String(error?.message ?? error).split('\n')[0]}; shown: ${JSON.stringify(await quickInput.locator('.monaco-list-row').allTextContents())}`,
          );
          await page.keyboard.press('Escape');
        }
      }
      await row(/Filesystem/).waitFor({ state: 'visible' });
      await restMouse();
      await screenshot('gallery-01-browse');
    });

    await step('search "weather": only the matching servers remain', async () => {
      await searchBox.fill('weather');
      await row(/old-weather/).waitFor({ state: 'visible' });
      await row(/Filesystem/).waitFor({ state: 'hidden' });
      await screenshot('gallery-02-search');
    });

    await step('pick Filesystem (several packages and a remote): run it here or connect to the remote', async () => {
      await searchBox.fill('filesystem');
      await row(/Filesystem/).waitFor({ state: 'visible' });
      await row(/old-weather/).waitFor({ state: 'hidden' });
      await row(/Filesystem/).click();
      await row(/Run it on this machine with (npx|docker)/).waitFor({ state: 'visible' });
      await row(/Connect to the remote server/).waitFor({ state: 'visible' });
      await restMouse();
      await screenshot('gallery-03-choose');
    });

    // The confirmation is a modal dialog. VS Code 1.139 skips dialogs only when an extension test
    // suite runs (DialogService.skipDialogs: extensionTestsPath), which this workbench has not, so
    // it shows; 1.100 refuses every dialog in a workbench started with --enable-smoke-test-driver.
    // The integration test (test/integration/main/gallery.test.ts) answers it through the API and
    // checks what is written.
    const showsDialogs = Number(vscodeVersion.split('.')[1]) > 100;
    if (!showsDialogs) {
      await step('Escape: nothing is written (VS Code 1.100 shows no dialog to a smoke-test-driven workbench)', async () => {
        await page.keyboard.press('Escape');
        await quickInput.waitFor({ state: 'hidden' });
        if (fs.existsSync(written)) throw new Error(`${written} was written: ${fs.readFileSync(written, 'utf8')}`);
      });
      return;
    }
    await step('run it here: the confirmation names the command, its inputs and where it goes', async () => {
      await row(/Run it on this machine with (npx|docker)/).click();
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.waitFor({ state: 'visible', timeout: 20_000 });
      await dialog.getByText(/Install MCP server "Filesystem" from the MCP registry\?/).waitFor({ state: 'visible' });
      await dialog.getByRole('button', { name: 'Install for User' }).waitFor({ state: 'visible' });
      await restMouse();
      await screenshot('gallery-04-confirm');
    });

    await step('Cancel: nothing is written', async () => {
      await page.locator('.monaco-dialog-box').getByRole('button', { name: 'Cancel' }).click();
      await page.locator('.monaco-dialog-box').waitFor({ state: 'hidden' });
      if (fs.existsSync(written)) throw new Error(`${written} was written: ${fs.readFileSync(written, 'utf8')}`);
    });
  } finally {
    await registry.close();
  }
}
