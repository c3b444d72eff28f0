#!/usr/bin/env node
// Renders media/icon.png (256×256, the Marketplace and extension-list icon) from the activity
// bar glyph media/mcp.svg: the same three strokes in white on a rounded blue tile. The PNG is
// committed; run this again only when the SVG changes:  node scripts/make-icon.mjs
// It uses the Chromium and playwright-core the e2e tests already need (no image library).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const glyph = fs.readFileSync(path.join(REPO, 'media', 'mcp.svg'), 'utf8');
const inner = glyph.replace(/^[\s\S]*?<svg[^>]*>/, '').replace(/<\/svg>\s*$/, '');
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">
  <defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#2b7de9"/><stop offset="1" stop-color="#1746a2"/></linearGradient></defs>
  <rect x="8" y="8" width="240" height="240" rx="52" fill="url(#bg)"/>
  <g transform="translate(32 32) scale(8)" fill="none" stroke="#ffffff" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round">${inner}</g>
</svg>`;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ viewport: { width: 256, height: 256 } });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.locator('svg').screenshot({ path: path.join(REPO, 'media', 'icon.png'), omitBackground: true });
} finally {
  await browser.close();
}
console.log('wrote media/icon.png');
