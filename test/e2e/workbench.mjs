/** Helpers the e2e modules share for driving the real workbench. */

/**
 * Clicks a tree item until the editor tab it opens appears. A click that lands while VS Code
 * re-renders the tree (a server's lists arriving) can reach a command handle that was just
 * replaced ("Actual command not found"), and a user would simply click again.
 *
 * `ancestors` are the rows above the item (its server, its group), outermost first: before each
 * try after the first they are expanded again if they are not (and the MCP view opened again if
 * another view took its place), as a user whose tree folded would do. Each click
 * gets its own bound, so one that waits for a row that is gone does not use up the step (seen in
 * CI: a row detached by a re-render was not in the DOM again, and one click waited 30 s). When a
 * try fails or a row had to be expanded again, `log` says so: if the tree folds under the user,
 * that is a finding, and the step's log shows it.
 *
 * The tree renders only the rows in its viewport: a row that was in sight can leave the DOM when
 * rows above it grow (another server's groups, the who-runs-them choice at the top). Before a
 * click, a row that is not rendered is scrolled to with the mouse wheel, as a user would, and the
 * log lists the rows the tree did render (seen in CI on 1.100.3: three clicks waited for a tool
 * row under an expanded group that the DOM no longer held).
 */
export async function clickUntilTab(page, item, tabName, { attempts = 3, ancestors = [], log } = {}) {
  const tab = page.getByRole('tab', { name: tabName });
  const tree = page.getByRole('tree', { name: /^Servers\b/ });
  for (let i = 1; ; i++) {
    try {
      if (i > 1 && ancestors.length && !(await ancestors[0].isVisible())) {
        log?.('clickUntilTab: the MCP view is not showing; opening it again');
        await page.getByRole('tab', { name: 'MCP', exact: true }).click({ timeout: 10_000 });
      }
      for (const row of i > 1 ? ancestors : []) {
        if ((await row.getAttribute('aria-expanded', { timeout: 10_000 })) === 'true') continue;
        log?.(`clickUntilTab: ${row} had folded; expanding it again`);
        await row.click({ timeout: 10_000 });
        await expectAttribute(row, 'aria-expanded', 'true', 5_000);
      }
      // An item may be any object with click() that finds its row itself (devLoop's): only a
      // Locator can be scrolled to.
      if (typeof item.count === 'function') await scrollTreeToRow(page, tree, item, log);
      await item.click({ timeout: 10_000 });
      await tab.waitFor({ state: 'visible', timeout: 5_000 });
      return;
    } catch (error) {
      if (i >= attempts) throw error;
      log?.(`clickUntilTab: try ${i} to open ${tabName} failed: ${String(error?.message ?? error).split('\n')[0]}`);
      await clearStaleCommandToast(page, log);
    }
  }
}

/**
 * Wheels the tree from its top down until `item` is rendered and nothing lies over it (the list
 * keeps only the rows in its viewport in the DOM, and once scrolled, its sticky header of parent
 * rows covers the rows under it: a click there lands on the header). Does nothing when the row can
 * be clicked already; logs what the tree rendered when it could not. Native scrolling would not
 * do: VS Code's list resets it.
 */
async function scrollTreeToRow(page, tree, item, log) {
  if (await rowInSight(item)) return;
  const rendered = await tree
    .getByRole('treeitem')
    .evaluateAll((rows) => rows.map((r) => `${r.getAttribute('aria-label')}${r.getAttribute('aria-expanded') === 'true' ? ' [open]' : ''}`));
  log?.(`clickUntilTab: ${item} is not in sight among the ${rendered.length} rows the tree renders (${rendered.join(' | ')}); scrolling the tree to it`);
  const box = await tree.boundingBox();
  if (!box) return;
  const offset = () => tree.evaluate((t) => t.querySelector('.monaco-list-rows')?.style.top ?? '');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let i = 0, last; i < 60; i++) {
    await page.mouse.wheel(0, -box.height);
    await page.waitForTimeout(60);
    const now = await offset();
    if (now === last) break;
    last = now;
  }
  for (let i = 0, last = await offset(); i < 60 && !(await rowInSight(item)); i++) {
    await page.mouse.wheel(0, box.height / 3);
    await page.waitForTimeout(150);
    const now = await offset();
    if (now === last) break;
    last = now;
  }
  log?.(`clickUntilTab: ${(await rowInSight(item)) ? 'the row is in sight now' : 'the row is still not in sight after scrolling the tree through'}`);
}

/** Whether the row is rendered and its middle is not covered by another row (the sticky header). */
async function rowInSight(item) {
  if (!(await item.count())) return false;
  return item.first().evaluate((row) => {
    const r = row.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    if (!hit || row.contains(hit)) return true;
    // A hover card over the row goes when the pointer moves to click; another row does not.
    return !hit.closest('.monaco-tree-sticky-container, .monaco-list-row');
  });
}

/**
 * A click on a tree row that VS Code is rendering again (its items were refreshed, e.g. a list
 * that arrived as the group was expanded) runs the row's old command, which VS Code has already
 * let go: it shows "Actual command not found, wanted to execute …" as an error toast and runs
 * nothing. The next try clicks the new row; the toast would stay up and cover later steps, so
 * it is logged and closed, and no other toast is touched.
 */
async function clearStaleCommandToast(page, log) {
  const message = await clearToast(page, /Actual command not found, wanted to execute/);
  if (message) log?.(`clickUntilTab: VS Code said "${message}" (the row's command was let go as the tree refreshed); closed that toast`);
}

/** Closes the notification toast whose text matches `pattern`, if one is shown; returns its message. */
export async function clearToast(page, pattern) {
  const toast = page.locator('.notification-toast-container').filter({ hasText: pattern }).first();
  if (!(await toast.count())) return undefined;
  const message = ((await toast.locator('.notification-list-item-message').textContent()) ?? '').trim();
  await toast.hover();
  await toast.getByRole('button', { name: /^Clear Notification/ }).click({ timeout: 5_000 });
  await toast.waitFor({ state: 'hidden', timeout: 5_000 });
  return message;
}

/**
 * Picks a command in the palette by its exact title and leaves what it opens to the caller (a
 * command may open a quick pick of its own in the same widget). The row is picked by its label,
 * not as the first row: "MCP: Open Inspector" also matches a recently used "MCP: Open Inspector in
 * Panel", which the palette may list first. The title is filled in, not typed key by key: keys
 * typed while the palette is still taking focus can be lost (seen in CI on VS Code 1.139.1), and a
 * palette that still shows no such row after a while is closed and opened again, as a user would.
 */
export async function pickCommand(page, title, attempts = 3) {
  const quickInput = page.locator('.quick-input-widget');
  const exact = new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  const row = quickInput
    .locator('.quick-input-list .monaco-list-row')
    .filter({ has: page.locator('.label-name').filter({ hasText: exact }) })
    .first();
  for (let i = 1; ; i++) {
    await page.keyboard.press('F1');
    try {
      // F1 pressed while a webview has focus reaches the workbench only through the webview's
      // key forwarding, which a loaded 1.100.3 has been seen to drop: press it again then.
      await quickInput.waitFor({ state: 'visible', timeout: 10_000 });
      await quickInput.locator('input.input').fill(`>${title}`);
      await row.waitFor({ state: 'visible', timeout: 10_000 });
      break;
    } catch (error) {
      if (i >= attempts) throw error;
      const shown = await quickInput
        .locator('.quick-input-list .monaco-list-row .label-name')
        .allTextContents()
        .catch(() => []);
      console.log(`       pickCommand "${title}", try ${i}: ${String(error?.message ?? error).split('\n')[0]}; listed: ${JSON.stringify(shown.slice(0, 5))}`);
      await page.keyboard.press('Escape');
      await quickInput.waitFor({ state: 'hidden' }).catch(() => undefined);
    }
  }
  await row.click();
}

/**
 * Closes an open context menu and waits until it is gone. Escape is tried first (what a user
 * does); when the menu stays (seen on 1.139.1: the key went elsewhere and the open menu's
 * full-window block then took the next step's clicks), a click on that block closes it.
 */
export async function closeContextMenu(page) {
  const menu = page.locator('.context-view').getByRole('menuitem');
  for (let i = 1; ; i++) {
    if (i === 1) await page.keyboard.press('Escape');
    else
      await page
        .locator('.context-view-block')
        .click({ position: { x: 2, y: 2 }, timeout: 2_000 })
        .catch(() => undefined);
    try {
      await menu.first().waitFor({ state: 'hidden', timeout: 3_000 });
      await page.locator('.context-view-block').first().waitFor({ state: 'hidden', timeout: 3_000 });
      return;
    } catch (error) {
      if (i >= 3) throw new Error('the context menu does not close', { cause: error });
    }
  }
}

/**
 * Runs a command that opens a quick pick of its own (see pickCommand) until `shown` is visible.
 * A quick pick closes when the focus leaves it, and a webview that finishes loading (a markdown
 * preview the step before opened) can take the focus: the pick is shown, then hidden (seen on a
 * loaded 1.100.3). A user would run the command again; so does this, and `log` says whether the
 * pick was shown then hidden or never shown.
 */
export async function pickCommandUntil(page, title, shown, { attempts = 3, log } = {}) {
  for (let i = 1; ; i++) {
    await pickCommand(page, title);
    try {
      await shown.waitFor({ state: 'visible', timeout: 10_000 });
      return;
    } catch (error) {
      if (i >= attempts) throw error;
      log?.(`${title}, try ${i}: its pick is not showing (${(await shown.count()) ? 'shown, then hidden' : 'never shown'}); running it again`);
    }
  }
}

/** Runs a command from the palette by its exact title (see pickCommand) and waits for the palette to close. */
export async function runCommand(page, title, attempts = 3) {
  await pickCommand(page, title, attempts);
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
}

/**
 * Opens the MCP view and expands a server and its Tools group (the first steps of most modules);
 * `ready` is the text the server's row shows once it runs.
 */
export async function expandServerTools(page, serverItem, toolsGroup, ready = 'stdio · 2025-11-25 · v1.0.0') {
  await page.getByRole('tab', { name: 'MCP', exact: true }).click();
  await serverItem.filter({ hasText: ready }).waitFor({ state: 'visible' });
  await serverItem.click();
  await expectAttribute(serverItem, 'aria-expanded', 'true');
  await toolsGroup.click();
  await expectAttribute(toolsGroup, 'aria-expanded', 'true');
}

/**
 * The row named `childName` directly under the row `parentItem` in a tree (e.g. the Tools group
 * of one server). Other servers' groups have the same name, and their order depends on which
 * server answered first, so the child is found by the list's own row order (`data-index`) and
 * `aria-level`, never by position among same-named rows.
 */
export async function childRow(tree, parentItem, childName) {
  await parentItem.waitFor({ state: 'visible' });
  const parentIndex = Number(await parentItem.getAttribute('data-index'));
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const rows = await tree.locator('.monaco-list-row').evaluateAll((els) =>
      els.map((el) => ({
        index: Number(el.getAttribute('data-index')),
        level: Number(el.getAttribute('aria-level')),
        label: el.getAttribute('aria-label') ?? '',
      })),
    );
    rows.sort((a, b) => a.index - b.index);
    const parent = rows.find((r) => r.index === parentIndex);
    if (parent) {
      for (const row of rows.filter((r) => r.index > parentIndex)) {
        if (row.level <= parent.level) break;
        if (row.level === parent.level + 1 && childName.test(row.label)) {
          return tree.locator(`.monaco-list-row[data-index="${row.index}"]`);
        }
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no row ${childName} under ${parentItem}`);
}

/** Waits until the locator's element has attribute `name` = `value` (the tree updates asynchronously). */
export async function expectAttribute(locator, name, value, timeout = 10_000) {
  const deadline = Date.now() + timeout;
  let seen;
  while (Date.now() < deadline) {
    seen = await locator.getAttribute(name, { timeout: deadline - Date.now() }).catch(() => seen);
    if (seen === value) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`expected ${name}="${value}" on ${locator}, last seen ${JSON.stringify(seen)}`);
}

/**
 * The webview frame (the inner iframe of a webview: Run Tool, MCP Requests, the Inspector…) that
 * has an element matching `selector`; polls, since webviews load and re-render asynchronously.
 */
export async function frameWith(page, selector, timeout = 20_000) {
  return frameWhere(page, selector, () => true, timeout);
}

/** The webview frame with `selector` for which `accept(frame)` holds (several Inspectors are open). */
export async function frameWhere(page, selector, accept, timeout = 20_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    for (const frame of page.frames()) {
      if (frame === page.mainFrame() || frame.isDetached()) continue;
      if (
        (await frame
          .locator(selector)
          .count()
          .catch(() => 0)) > 0 &&
        (await Promise.resolve(accept(frame)).catch(() => false))
      )
        return frame;
    }
    if (Date.now() > deadline) throw new Error(`no webview shows ${selector} as expected within ${timeout / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Types a path into VS Code's own file dialog (the one a remote workbench shows) and accepts it. */
export async function pickInFileDialog(page, file) {
  const dialog = page.locator('.quick-input-widget');
  const input = dialog.locator('input').first();
  await input.waitFor({ state: 'visible' });
  // The dialog fills in its starting folder a moment after it shows, over anything typed before.
  await waitForValue(input, (v) => v.length > 0);
  for (let attempt = 1; ; attempt++) {
    await input.fill(file);
    // The dialog may still replace the value while it lists the folder (slower on a loaded
    // machine): accept only a value that stayed.
    await page.waitForTimeout(300);
    const value = await input.inputValue();
    if (value !== file) {
      if (attempt < 6) continue;
      throw new Error(`the file dialog holds ${JSON.stringify(value)}, not ${JSON.stringify(file)}`);
    }
    await dialog.getByRole('button', { name: 'OK' }).click();
    try {
      await dialog.waitFor({ state: 'hidden', timeout: 5_000 });
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

/**
 * Types `text` into a webview's text field as a user does (a click, then the text in place of
 * what it held) and goes on only once the field holds it. Playwright's fill focuses the field,
 * then sends the text to whatever has the focus by then: right after a tree item's click opened
 * the panel, the workbench may still be moving the focus (ciO, 1.100.3 under load: Run Tool ran
 * with the message of the run before). What the field holds after a moment is what the page
 * holds: a page drawn anew draws its fields from its model (and keeps the focus, keepingFocus.ts).
 */
export async function typeInField(page, box, text, log, attempts = 3) {
  for (let i = 1; ; i++) {
    await box.click();
    await box.fill(text);
    await page.waitForTimeout(200);
    const value = await box.inputValue();
    if (value === text) return;
    const focus = await page.evaluate(() => {
      const el = document.activeElement;
      return el ? `${el.tagName.toLowerCase()}${el.getAttribute('class') ? `.${el.getAttribute('class').trim().split(/\s+/).join('.')}` : ''}` : 'none';
    });
    log?.(`typeInField: the field holds ${JSON.stringify(value)} after typing ${JSON.stringify(text)} (try ${i}); the workbench's focus: ${focus}`);
    if (i >= attempts) throw new Error(`the field holds ${JSON.stringify(value)}, not the typed ${JSON.stringify(text)}`);
  }
}

async function waitForValue(locator, ok, timeout = 10_000) {
  const deadline = Date.now() + timeout;
  while (!ok(await locator.inputValue().catch(() => ''))) {
    if (Date.now() > deadline) throw new Error(`${locator} got no value`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Polls a locator's text until `ok` accepts it (the workbench renders in its own time). */
export async function waitForText(locator, ok, timeout = 15_000) {
  const deadline = Date.now() + timeout;
  let seen;
  while (Date.now() < deadline) {
    seen = await locator.textContent({ timeout: Math.max(1, deadline - Date.now()) }).catch(() => seen);
    if (seen !== undefined && seen !== null && ok(seen)) return seen;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${locator}: text ${JSON.stringify(seen)} did not become what was expected`);
}

export async function expectText(locator, expected, timeout = 15_000) {
  return waitForText(locator, (t) => t.trim() === expected, timeout).catch((err) => {
    throw new Error(`${err.message} (expected ${JSON.stringify(expected)})`);
  });
}

export async function expectValue(locator, expected, timeout = 15_000) {
  const deadline = Date.now() + timeout;
  let seen;
  while (Date.now() < deadline) {
    seen = await locator.inputValue({ timeout: Math.max(1, deadline - Date.now()) }).catch(() => seen);
    if (seen === expected) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${locator}: value ${JSON.stringify(seen)}, expected ${JSON.stringify(expected)}`);
}
