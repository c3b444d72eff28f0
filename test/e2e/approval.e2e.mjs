// End-to-end, through the real workbench: the approval panel (MCP Requests) as a user sees it.
// 1. Sampling: run the fixture tool `sample` from the Run Tool panel; the server's
//    sampling/createMessage opens the approval panel; edit the prompt, pick the fake
//    vscode.lm model (test/fixtures/extensions/fake-model, installed by the launcher), Send,
//    edit the streamed reply, Approve; the Run Tool panel shows the approved text. Then once
//    more with "Answer by hand": the button says so, and Approve waits for a written reply.
// 2. Elicitation: run the fixture tool `elicit`; the form opens in the same panel; an invalid
//    name shows its problem and gets the focus, the fixed form is accepted through the sticky
//    action bar (checked to be on screen and uncovered); a sampling request arriving while the
//    name is typed leaves the focus and caret in the field; the tool result has the content,
//    with the Run Tool panel left visible beside the approval panel all along.
// 3. Sampling mock profile: fixture-stdio gets `"sampling": { "mock": "weather" }` in its config
//    file (applied without a restart); `sample` is answered by the profile, the panel says
//    "Answered by mock profile 'weather'", the user edits the reply and approves.
// Run with `npm run test:e2e` (test/launch/runInCodeServer.mjs --e2e documents the run()
// contract). Screenshots: test-results/e2e/approval-*.png.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { clickUntilTab, expandServerTools, expectText, expectValue, frameWith, waitForText } from './workbench.mjs';
const FAKE_MODEL = 'vscode-lm:mcpwb-fake/mcpwb-fake-echo';

// Re-runs the last call of fixture-stdio's open Run Tool panels from a key, the focus staying
// where it is: a server's request arriving while the user types in the approval panel.
export const keybindings = [{ key: 'ctrl+shift+alt+y', command: 'mcpWorkbench.toolRunner.rerunLast', args: 'fixture-stdio' }];

export async function run({ page, step, screenshot, workspace, log }) {
  const tag = Date.now().toString(36);
  const servers = page.getByRole('tree', { name: /^Servers\b/ });
  const serverItem = servers.getByRole('treeitem', { name: /^fixture-stdio,/ });
  const toolsGroup = servers.getByRole('treeitem', { name: /^Tools \d+$/ });
  const sampleItem = servers.getByRole('treeitem', { name: /^Sample sample\b/ });
  const elicitItem = servers.getByRole('treeitem', { name: /^Elicit elicit\b/ });
  const restMouse = () => page.mouse.move(700, 880);

  // Both panels are webviews of the same extension (nested iframes); tell them apart by content.
  const approval = () => frameWith(page, '#queue, #empty, #app > .loading');
  // The Run Tool panel of one tool: its h1 is "<title> <code>name</code>".
  const runner = (tool) => frameWith(page, `h1 code:text-is("${tool}")`);

  await step('open the MCP view; fixture-stdio runs; expand its Tools', async () => {
    await expandServerTools(page, serverItem, toolsGroup);
    await sampleItem.waitFor({ state: 'visible' });
  });

  // ---------------------------------------------------------------------------------------
  // Sampling
  const prompt = `Write a haiku about tests ${tag}`;
  const edited = `Write a haiku about Playwright ${tag}`;
  const approved = `Green checks in a row,\nthe webview clicked by a bot (${tag})`;

  await step('run the `sample` tool: the approval panel opens on the sampling request', async () => {
    await clickUntilTab(page, sampleItem, /^Run Sample\b/, { ancestors: [serverItem, toolsGroup], log });
    const form = await runner('sample');
    await form.locator('.field[data-pointer="/prompt"]').getByRole('textbox').fill(prompt);
    await form.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('tab', { name: /^MCP Requests\b/ }).waitFor({ state: 'visible' });
    const panel = await approval();
    await panel.locator('.queue-item[data-id]').first().waitFor({ state: 'visible' });
    await expectText(panel.locator('#asker'), 'fixture-stdio');
    await expectValue(panel.locator('#msg-0-0'), prompt);
    const models = await panel.locator('#model option').evaluateAll((os) => os.map((o) => o.value));
    if (!models.includes(FAKE_MODEL) || !models.includes('manual'))
      throw new Error(`#model offers ${JSON.stringify(models)}; expected the fake vscode.lm model and "manual"`);
    if (!(await panel.locator('#approve').isDisabled())) throw new Error('Approve is enabled before anything was sent');
    // The Run Tool panel, still visible beside it, says the call waits for the user, not the server.
    await expectText((await runner('sample')).locator('#awaiting-user > span'), 'The server is waiting for your answer in MCP Requests.');
    await restMouse();
    await screenshot('approval-01-sampling-request');
  });

  await step('edit the prompt, pick the fake vscode.lm model, Send: the reply streams into the response', async () => {
    const panel = await approval();
    await panel.locator('#msg-0-0').fill(edited);
    await panel.locator('#model').selectOption(FAKE_MODEL);
    await panel.locator('#send').click();
    await expectValue(panel.locator('#response'), `fake reply to: ${edited}`);
    await expectText(panel.locator('.meta'), 'model mcpwb-fake-echo, stopReason endTurn');
    await panel.locator('#approve:enabled').waitFor();
    await restMouse();
    await screenshot('approval-02-sampling-response');
  });

  await step('edit the response and Approve: the queue empties, the tool result has the approved text', async () => {
    const panel = await approval();
    await panel.locator('#response').fill(approved);
    await screenshot('approval-03-sampling-edited');
    await panel.locator('#approve').click();
    await panel.locator('#empty').waitFor({ state: 'visible' });
    const form = await runner('sample');
    const result = form.locator('#result .outcome pre.text').first();
    await result.waitFor({ state: 'visible' });
    const text = await waitForText(result, (t) => t.includes('"ok"'));
    const outcome = JSON.parse(text);
    const expected = { role: 'assistant', content: { type: 'text', text: approved }, model: 'mcpwb-fake-echo', stopReason: 'endTurn' };
    if (!outcome.ok || !sameJson(outcome.result, expected)) {
      throw new Error(`tool result ${text}, expected the approved reply ${JSON.stringify(expected)}`);
    }
    await restMouse();
    await screenshot('approval-04-sampling-result');
  });

  await step('answer by hand: the button says "Write the reply", Approve waits for a reply', async () => {
    const form = await runner('sample');
    await form.locator('.field[data-pointer="/prompt"]').getByRole('textbox').fill(`By hand ${tag}`);
    await form.getByRole('button', { name: 'Run', exact: true }).click();
    const panel = await approval();
    await expectValue(panel.locator('#msg-0-0'), `By hand ${tag}`);
    await expectText(panel.locator('#send'), 'Send to model');
    await panel.locator('#model').selectOption('manual');
    await expectText(panel.locator('#send'), 'Write the reply');
    await panel.locator('#send').click();
    await panel.locator('#response').waitFor({ state: 'visible' });
    await expectText(panel.locator('#send'), 'Start the reply over');
    if (!(await panel.locator('#approve').isDisabled())) throw new Error('Approve is enabled on an empty reply');
    await panel.locator('#response').fill('   ');
    if (!(await panel.locator('#approve').isDisabled())) throw new Error('Approve is enabled on a blank reply');
    await panel.locator('#response').fill(`Written by hand ${tag}`);
    await panel.locator('#approve:enabled').waitFor();
    await restMouse();
    await screenshot('approval-05-by-hand');
    await panel.locator('#approve').click();
    await panel.locator('#empty').waitFor({ state: 'visible' });
    const result = (await runner('sample')).locator('#result .outcome pre.text').first();
    await waitForText(result, (t) => t.includes(`Written by hand ${tag}`) && t.includes('"human"'));
  });

  // ---------------------------------------------------------------------------------------
  // Elicitation (form mode, the fixture's default schema: every field kind)
  await step('run the `elicit` tool: the form opens in the approval panel, defaults filled in', async () => {
    await clickUntilTab(page, elicitItem, /^Run Elicit\b/, { ancestors: [serverItem, toolsGroup], log });
    const form = await runner('elicit');
    await form.getByRole('heading', { level: 1, name: /^Elicit/ }).waitFor({ state: 'visible' });
    await form.getByRole('button', { name: 'Run', exact: true }).click();
    const panel = await approval();
    await panel.locator('#elicit-form').waitFor({ state: 'visible' });
    // The approval panel did not hide the Run Elicit panel (hidden webviews are not kept, so
    // finding its frame means it is shown), which links to the waiting request.
    const waiting = (await runner('elicit')).locator('#awaiting-user');
    await expectText(waiting.locator('span'), 'The server is waiting for your answer in MCP Requests.');
    await waiting.locator('#show-requests').click();
    await (await approval()).locator('#elicit-form').waitFor({ state: 'visible' });
    await expectNoToast(page);
    await expectText(panel.locator('#asker'), 'fixture-stdio');
    await expectValue(panel.locator('#field-age'), '30');
    await expectValue(panel.locator('#field-nickname'), 'buddy');
    if (!(await panel.locator('#field-subscribe').isChecked())) throw new Error('#field-subscribe (default true) is not checked');
    await restMouse();
    await screenshot('approval-05-elicit-form');
  });

  await step('an invalid name ("X", minLength 2): Accept shows the problem next to it, nothing is sent', async () => {
    const panel = await approval();
    await panel.locator('#field-name').fill('X');
    // The form is taller than the panel: Accept sits in the sticky action bar at the bottom,
    // visible and not covered (the tool call's progress toast is not shown while it waits).
    await panel.evaluate(() => window.scrollTo(0, 0));
    await expectClickable(page, panel.locator('#accept'));
    await expectClickable(page, panel.locator('#decline'));
    await panel.locator('#accept').click();
    const problem = await waitForText(panel.locator('#problem-name'), (t) => t.trim().length > 0);
    if (!/2/.test(problem)) throw new Error(`#problem-name says ${JSON.stringify(problem)}; expected the minimum length 2`);
    // The first invalid field has the focus.
    await waitForValue(() => panel.evaluate(() => document.activeElement?.id), 'field-name', 'the focused element');
    await panel.locator('#elicit-form').waitFor({ state: 'visible' }); // still waiting for the user
    await restMouse();
    await screenshot('approval-06-elicit-invalid');
  });

  await step('a sampling request arrives while the name is typed: the panel is drawn anew, the field keeps the focus and the caret', async () => {
    const panel = await approval();
    const name = panel.locator('#field-name');
    await name.fill('Ada Lace');
    await name.evaluate((el) => el.setSelectionRange(4, 4));
    // From the field, as a user's key: the Run Sample panel runs its last call again (`sample`),
    // and its sampling request joins the queue.
    await page.keyboard.press('Control+Shift+Alt+Y');
    await waitForValue(() => panel.locator('#queue .queue-item').count(), 2, 'requests in the queue', 20_000);
    await page.keyboard.type('Love');
    await expectValue(name, 'Ada LoveLace');
    await panel.locator('#queue .queue-item', { hasText: 'sampling' }).click();
    await panel.locator('#deny').click();
    await waitForValue(() => panel.locator('#queue .queue-item').count(), 1, 'requests in the queue once the sampling one is denied', 20_000);
    await expectValue(panel.locator('#field-name'), 'Ada LoveLace');
  });

  await step('fix the name, fill email and size, Accept: the tool result has the accepted content', async () => {
    const panel = await approval();
    await panel.locator('#field-name').fill('Ada Lovelace');
    await panel.locator('#field-email').fill('ada@example.com');
    await panel.locator('#field-size').selectOption('m');
    await expectClickable(page, panel.locator('#accept'));
    await panel.locator('#accept').click();
    await panel.locator('#empty').waitFor({ state: 'visible' });
    // The Run Elicit panel stayed visible beside the approval panel: no tab to click.
    const form = await runner('elicit');
    const result = form.locator('#result .outcome pre.text').first();
    const text = await waitForText(result, (t) => t.includes('"accept"'));
    const outcome = JSON.parse(text);
    const content = outcome.result?.content ?? {};
    const expected = {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      age: 30,
      subscribe: true,
      color: 'green',
      size: 'm',
      toppings: ['cheese'],
      nickname: 'buddy',
    };
    for (const [key, value] of Object.entries(expected)) {
      if (!sameJson(content[key], value))
        throw new Error(`accepted ${key} = ${JSON.stringify(content[key])}, expected ${JSON.stringify(value)}; result ${text}`);
    }
    if (outcome.result.action !== 'accept') throw new Error(`action ${outcome.result.action}`);
    await restMouse();
    await screenshot('approval-07-elicit-result');
  });

  // ---------------------------------------------------------------------------------------
  // Sampling mock profile (written into the fresh copy of the fixture workspace)
  await step('a sampling mock profile answers `sample`: the panel says which profile, the edited reply is approved', async () => {
    const file = path.join(workspace, 'folder-a', '.vscode', 'mcp.json');
    const text = fs
      .readFileSync(file, 'utf8')
      .replace('"FIXTURE_PAGE_SIZE": "4" },', '"FIXTURE_PAGE_SIZE": "4" },\n      "sampling": { "mock": "weather" },')
      .replace(
        '"inputs": [],',
        '"samplingMocks": { "weather": { "model": "mock-weather", "rules": [{ "match": "weather", "reply": "Sunny, 21 °C." }] } },\n  "inputs": [],',
      );
    if (!text.includes('"samplingMocks"') || !text.includes('"mock": "weather"')) throw new Error(`could not add the mock to ${file}`);
    fs.writeFileSync(file, text);
    await clickUntilTab(page, sampleItem, /^Run Sample\b/, { ancestors: [serverItem, toolsGroup], log });
    // The config reload is debounced: a request sent before it lands is answered the usual way (denied here).
    let panel;
    for (let attempt = 1; ; attempt++) {
      await new Promise((r) => setTimeout(r, 1000));
      const form = await runner('sample');
      await form.locator('.field[data-pointer="/prompt"]').getByRole('textbox').fill(`What is the weather? ${tag}`);
      await form.getByRole('button', { name: 'Run', exact: true }).click();
      panel = await approval();
      await expectValue(panel.locator('#msg-0-0'), `What is the weather? ${tag}`);
      if (
        await panel
          .locator('#mock-profile')
          .waitFor({ state: 'visible', timeout: 3_000 })
          .then(
            () => true,
            () => false,
          )
      )
        break;
      if (attempt >= 5) throw new Error('the mock profile never answered (no #mock-profile)');
      await panel.locator('#deny').click();
      await panel.locator('#empty').waitFor({ state: 'visible' });
    }
    await expectText(
      panel.locator('#mock-profile'),
      `Answered by mock profile 'weather' (rule 1 (match "weather")), not by a model. Edit the reply, then Approve, or Deny.`,
    );
    await expectValue(panel.locator('#response'), 'Sunny, 21 °C.');
    await expectText(panel.locator('.meta'), 'model mock-weather, stopReason endTurn');
    await panel.locator('#response').fill(`Sunny, 22 °C (${tag}).`);
    await restMouse();
    await screenshot('approval-08-sampling-mock');
    await panel.locator('#approve').click();
    await panel.locator('#empty').waitFor({ state: 'visible' });
    const result = (await runner('sample')).locator('#result .outcome pre.text').first();
    await waitForText(result, (t) => t.includes(`Sunny, 22 °C (${tag}).`) && t.includes('"mock-weather"'));
  });
}

/** Fails when a notification toast is shown (it would lie over the webviews' buttons). */
async function expectNoToast(page) {
  await new Promise((r) => setTimeout(r, 800)); // past the tool call's 400 ms progress delay
  const toasts = await page.locator('.notification-toast-container').count();
  if (toasts) throw new Error(`${toasts} notification toast(s) shown: ${await page.locator('.notification-toast-container').first().textContent()}`);
}

/**
 * Fails unless the middle of the element (in a webview) is on screen and the topmost element
 * of the workbench there is the webview's iframe (not a notification toast over it).
 */
async function expectClickable(page, locator) {
  await locator.waitFor({ state: 'visible' });
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${locator} has no box`);
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  const viewport = page.viewportSize();
  if (viewport && (y < 0 || y > viewport.height || x < 0 || x > viewport.width)) throw new Error(`${locator} is off screen at ${x},${y}`);
  const hit = await page.evaluate(
    ([px, py]) => {
      const e = document.elementFromPoint(px, py);
      return e ? `${e.tagName}${e.closest('.notifications-toasts, .notification-toast-container') ? ' (notification toast)' : ''}` : 'nothing';
    },
    [x, y],
  );
  if (hit !== 'IFRAME') throw new Error(`${locator} is covered at ${Math.round(x)},${Math.round(y)} by ${hit}`);
  const inner = await locator.evaluate((b) => {
    const r = b.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return top === b || b.contains(top);
  });
  if (!inner) throw new Error(`${locator} is covered inside its webview`);
}

async function waitForValue(read, expected, what, timeout = 5_000) {
  const deadline = Date.now() + timeout;
  let seen;
  while (Date.now() < deadline) {
    seen = await read().catch(() => seen);
    if (seen === expected) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what}: ${JSON.stringify(seen)}, expected ${JSON.stringify(expected)}`);
}

/** Deep equality of JSON values, whatever the order of object keys. */
function sameJson(a, b) {
  const norm = (v) =>
    Array.isArray(v)
      ? v.map(norm)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, norm(v[k])]),
          )
        : v;
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
}
