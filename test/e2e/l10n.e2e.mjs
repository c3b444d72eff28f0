// End-to-end, through the real workbench: the webviews show the translations the extension hands
// them (src/shared/common/webviewL10n.ts), here a pseudo-locale made from l10n/bundle.l10n.json
// by @vscode/l10n-dev's `generate-pseudo` ("Run" → "Řŭŭƞ"). VS Code picks an extension's bundle
// by display language, which these builds cannot switch (no language pack offline), so the
// bundle reaches the extension host through the test-only MCPWB_TEST_WEBVIEW_L10N_BUNDLE
// variable; from there on it is the path every translation takes: the HTML shell's data block,
// l10n.config in the page, l10n.t in every label.
// 1. Run Tool of `add`: the buttons, the server line, the result and the history are translated.
// 2. Run Tool of `sample`: the MCP Requests panel opens on the sampling request, translated.
// 3. MCP: Open Inspector: the filter bar, the exchanges and the selected one's panes, translated.
// In both, no text or title/aria-label/placeholder/alt of the page is still the English of a
// string in l10n/bundle.l10n.json (but for the few the extension host sends, see HOST_TEXT).

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { clickUntilTab, expandServerTools, expectAttribute, expectText, frameWith, runCommand, waitForText } from './workbench.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = path.join(REPO, 'node_modules', '@vscode', 'l10n-dev', 'dist', 'cli.js');

/** Runs @vscode/l10n-dev; `generate-pseudo` writes bundle.l10n.qps-ploc.json beside its input. */
function l10nDev(...args) {
  const result = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`vscode-l10n-dev ${args.join(' ')}: ${result.stderr}`);
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-l10n-e2e-'));
// The launcher imports this module once and runs it in each VS Code version: the bundle must
// last until the launcher exits, and not after it (it was left in the temp folder every run).
process.on('exit', () => fs.rmSync(work, { recursive: true, force: true }));
fs.copyFileSync(path.join(REPO, 'l10n', 'bundle.l10n.json'), path.join(work, 'bundle.l10n.json'));
l10nDev('generate-pseudo', path.join(work, 'bundle.l10n.json'));
const pseudoFile = path.join(work, 'bundle.l10n.qps-ploc.json');
const pseudo = JSON.parse(fs.readFileSync(pseudoFile, 'utf8'));
// What must not show in English once a bundle is given: every string of the committed bundle
// (test/unit/manifest.test.ts keeps it equal to the l10n.t calls), except what the pages get
// from the extension host's vscode.l10n.t, whose language VS Code sets (English here whatever
// the webviews and the pure code get): the HTML shell's "Loading…", gone once the page draws.
const HOST_TEXT = new Set(['Loading…']);
const webviewStrings = Object.keys(JSON.parse(fs.readFileSync(path.join(REPO, 'l10n', 'bundle.l10n.json'), 'utf8')))
  // Words only: "{0} ({1})" reads the same in every language.
  .filter((english) => !HOST_TEXT.has(english) && /[A-Za-z]{2}/.test(english.replace(/\{\d+\}/g, '')));

/** Read by the launcher before VS Code starts: the extension host hands this bundle to the webviews. */
export const env = { MCPWB_TEST_WEBVIEW_L10N_BUNDLE: pseudoFile };

/** The pseudo-locale text of `english`, placeholders filled as l10n.t does. */
function t(english, ...args) {
  const text = pseudo[english];
  if (typeof text !== 'string' || text === english) throw new Error(`no pseudo translation of "${english}"`);
  return text.replace(/\{(\d+)\}/g, (m, i) => (args[i] !== undefined ? String(args[i]) : m));
}

/** Texts and labels in `frame` that are still the English of a webview string. */
async function englishLeft(frame) {
  const shown = await frame.locator('body').evaluate((body) => {
    const found = [];
    const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      // Server data (JSON, tool output) is not the extension's text.
      if (node.parentElement?.closest('script, style, textarea, pre, code, .json-tree, .json-text')) continue;
      const text = node.textContent.trim();
      if (text) found.push(text);
    }
    for (const el of body.querySelectorAll('[title], [aria-label], [placeholder], [alt]')) {
      for (const name of ['title', 'aria-label', 'placeholder', 'alt']) {
        const value = el.getAttribute(name)?.trim();
        if (value) found.push(value);
      }
    }
    return found;
  });
  const patterns = webviewStrings.map((english) => ({
    english,
    re: new RegExp(`^${english.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{\d+\\\}/g, '.*')}$`, 's'),
  }));
  return shown.flatMap((text) => patterns.filter((p) => p.re.test(text)).map((p) => `"${text}" (${p.english})`));
}

export async function run({ page, step, screenshot, log }) {
  const servers = page.getByRole('tree', { name: /^Servers\b/ });
  const serverItem = servers.getByRole('treeitem', { name: /^fixture-stdio,/ });
  const toolsGroup = servers.getByRole('treeitem', { name: /^Tools \d+$/ });
  const addItem = servers.getByRole('treeitem', { name: /^Add numbers add\b/ });
  const sampleItem = servers.getByRole('treeitem', { name: /^Sample sample\b/ });
  const runner = (tool) => frameWith(page, `h1 code:text-is("${tool}")`);
  const approval = () => frameWith(page, '#queue, #empty');
  const restMouse = () => page.mouse.move(700, 880);

  await step('the pseudo-locale bundle translates every string of l10n/bundle.l10n.json', async () => {
    const missing = webviewStrings.filter((english) => typeof pseudo[english] !== 'string' || pseudo[english] === english);
    if (webviewStrings.length < 400 || missing.length) throw new Error(`${webviewStrings.length} strings; not translated: ${missing.join(' | ')}`);
  });

  await step('open the Run Tool panel of `add`: its buttons and server line are translated', async () => {
    await expandServerTools(page, serverItem, toolsGroup);
    await clickUntilTab(page, addItem, /^Run Add numbers\b/, { ancestors: [serverItem, toolsGroup], log });
    const form = await runner('add');
    await form.getByRole('button', { name: t('Run'), exact: true }).waitFor({ state: 'visible' });
    await form.getByRole('button', { name: t('Edit as JSON'), exact: true }).waitFor({ state: 'visible' });
    await expectAttribute(form.getByRole('button', { name: t('Reset'), exact: true }), 'title', t('Back to the schema defaults'));
    await expectText(form.locator('header .server'), t('Server: {0}', 'fixture-stdio'));
  });

  await step('run 2 + 3: the result, the view switch and the history are translated; no English is left', async () => {
    const form = await runner('add');
    await form.locator('.field[data-pointer="/a"]').getByRole('textbox').fill('2');
    await form.locator('.field[data-pointer="/b"]').getByRole('textbox').fill('3');
    await form.getByRole('button', { name: t('Run'), exact: true }).click();
    await expectText(form.locator('#result .outcome pre.text').first(), '5');
    await waitForText(form.locator('#result .outcome-head h2').first(), (text) => text.trim().startsWith(t('Result')));
    await form.getByRole('button', { name: t('Raw'), exact: true }).waitFor({ state: 'visible' });
    await expectText(form.locator('#history > summary'), t('History (1 run)'));
    await form.locator('#history > summary').click();
    await form.getByRole('button', { name: t('Compare last two runs'), exact: true }).waitFor({ state: 'visible' });
    const left = await englishLeft(form);
    if (left.length) throw new Error(`English left in Run Tool: ${left.join('; ')}`);
    await restMouse();
    await screenshot('l10n-toolRunner');
  });

  await step('run `sample`: the MCP Requests panel shows the sampling request translated; no English is left', async () => {
    await clickUntilTab(page, sampleItem, /^Run Sample\b/, { ancestors: [serverItem, toolsGroup], log });
    const form = await runner('sample');
    await form.locator('.field[data-pointer="/prompt"]').getByRole('textbox').fill('Write a haiku about translations');
    await form.getByRole('button', { name: t('Run'), exact: true }).click();
    await page.getByRole('tab', { name: /^MCP Requests\b/ }).waitFor({ state: 'visible' });
    const panel = await approval();
    await panel.locator('.queue-item[data-id]').first().waitFor({ state: 'visible' });
    await expectText(panel.locator('#detail h1'), t('Sampling request'));
    await expectText(panel.locator('.asker'), t('Asked by MCP server {0}', 'fixture-stdio'));
    await expectText(panel.locator('#approve'), t('Approve'));
    await expectText(panel.locator('#deny'), t('Deny'));
    await expectAttribute(panel.locator('#policy'), 'aria-label', t('Sampling policy for this server'));
    const left = await englishLeft(panel);
    if (left.length) throw new Error(`English left in MCP Requests: ${left.join('; ')}`);
    await restMouse();
    await screenshot('l10n-approval');
    await panel.locator('#deny').click();
    await panel.locator('#empty').waitFor({ state: 'visible' });
    await expectText(panel.locator('#empty'), t('No requests are waiting. Sampling and elicitation requests from MCP servers appear here.'));
  });

  await step('MCP: Open Inspector: the filters, the rows and the detail panes are translated; no English is left', async () => {
    await runCommand(page, 'MCP: Open Inspector');
    const inspector = await frameWith(page, '.rows[role=tree]');
    await expectAttribute(inspector.locator('#panel-exchanges .toolbar'), 'aria-label', t('Filters'));
    await inspector.getByRole('button', { name: t('Export…'), exact: true }).waitFor({ state: 'visible' });
    const row = inspector.getByRole('treeitem', { name: new RegExp(`^tools/call add, fixture-stdio, ${t('result')}, `) }).first();
    await row.locator(':scope > .line').click();
    await expectText(inspector.locator('section.pane.request h2'), t('Request'));
    await expectText(inspector.locator('section.pane.response h2'), t('Response'));
    await expectText(inspector.locator('section.pane.request button.copy'), t('Copy JSON'));
    const left = await englishLeft(inspector);
    if (left.length) throw new Error(`English left in the Inspector: ${left.join('; ')}`);
    await restMouse();
    await screenshot('l10n-inspector');
  });
}
