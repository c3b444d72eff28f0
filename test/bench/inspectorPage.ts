/**
 * The Inspector page's side of a flood: the messages the host posted during one flood (recorded
 * by inspectorFloodChild.ts) handed to the real page bundle (dist/webview/inspector.js with its
 * stylesheet) in headless Chromium, one by one as they arrived. Per message: the time from the
 * message event to the end of a forced style and layout (what the page must do before the next
 * frame can paint). Paint itself is not in it. Needs Chromium (MCPWB_CHROMIUM, default
 * /usr/bin/chromium, as the e2e tests); without it the scenario says "not measured".
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { REPO } from './host';

export const CHROMIUM = process.env.MCPWB_CHROMIUM || '/usr/bin/chromium';

export interface PageResult {
  messages: number;
  /** Sum of the per-message times, ms. */
  totalMs: number;
  /** The slowest message, ms (a frame the page could not paint in time when over ~16 ms). */
  maxMs: number;
  /** Row elements in the page at the end. */
  rowElements: number;
}

/** The few browser globals used in the page (the bench compiles without the DOM library). */
interface BrowserGlobals {
  acquireVsCodeApi(): unknown;
  dispatchEvent(event: unknown): void;
  MessageEvent: new (type: string, init: { data: unknown }) => unknown;
  requestAnimationFrame(callback: () => void): void;
  document: { body: { offsetHeight: number }; querySelectorAll(selector: string): { length: number } };
}

export function chromiumAvailable(): boolean {
  return fs.existsSync(CHROMIUM);
}

/**
 * Headless Chromium with the real Inspector page (dist/webview/inspector.js and its stylesheet,
 * after `theme`) in a page of `viewport`, its host a stub that drops what the page posts; the
 * caller closes the browser.
 */
export async function openInspectorPage(viewport: { width: number; height: number }, theme = ''): Promise<{ browser: Browser; page: Page }> {
  const { chromium } = await import('playwright-core');
  const bundle = path.join(REPO, 'dist', 'webview');
  const script = fs.readFileSync(path.join(bundle, 'inspector.js'), 'utf8');
  const style = fs.readFileSync(path.join(bundle, 'inspector.css'), 'utf8');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage({ viewport });
    await page.setContent(`<!DOCTYPE html><html><head><style>${theme}${style}</style></head><body><main id="app"></main></body></html>`);
    await page.evaluate(() => {
      (globalThis as unknown as BrowserGlobals).acquireVsCodeApi = () => ({ postMessage: () => undefined, getState: () => undefined, setState: () => undefined });
    });
    await page.addScriptTag({ content: script });
    return { browser, page };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

export async function measurePage(recorded: { setup: { json: string }[]; flood: { json: string }[] }): Promise<PageResult> {
  const { browser, page } = await openInspectorPage({ width: 1280, height: 800 });
  try {
    return await page.evaluate(
      async ({ setup, flood }) => {
        const window = globalThis as unknown as BrowserGlobals;
        const { document } = window;
        const deliver = (json: string) => {
          const data = JSON.parse(json) as unknown;
          const start = performance.now();
          window.dispatchEvent(new window.MessageEvent('message', { data }));
          // Style and layout now, as the next frame would.
          void document.body.offsetHeight;
          return performance.now() - start;
        };
        setup.forEach(deliver);
        await new Promise((resolve) => setTimeout(resolve, 50));
        let totalMs = 0;
        let maxMs = 0;
        for (const json of flood) {
          const ms = deliver(json);
          totalMs += ms;
          maxMs = Math.max(maxMs, ms);
          // The next message comes in a later task, after a frame (at most one per frame reaches the page anyway).
          await new Promise((resolve) => window.requestAnimationFrame(() => setTimeout(resolve, 0)));
        }
        return { messages: flood.length, totalMs, maxMs, rowElements: document.querySelectorAll('.rows .row').length };
      },
      { setup: recorded.setup.map((p) => p.json), flood: recorded.flood.map((p) => p.json) },
    );
  } finally {
    await browser.close();
  }
}
