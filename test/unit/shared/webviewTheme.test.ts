/**
 * Native controls in the webviews (a select's drop-down list, date and time pickers) are drawn
 * by Chromium in the OS colour scheme unless the page says otherwise: white lists in a dark
 * theme. Every webview's stylesheet must set `color-scheme` from VS Code's theme class and
 * colour selects and options with the theme's variables.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

const WEBVIEWS = path.resolve(__dirname, '../../../../webview');

describe('webview stylesheets follow the theme', () => {
  // A webview is a folder with a main.ts (what esbuild.mjs bundles); webview/shared/ holds code they share.
  const sheets = readdirSync(WEBVIEWS, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(WEBVIEWS, d.name, 'main.ts')))
    .map((d) => path.join(WEBVIEWS, d.name, 'style.css'));

  it('finds the webviews', () => assert.ok(sheets.length >= 2, sheets.join()));

  for (const sheet of sheets) {
    it(`${path.basename(path.dirname(sheet))}: color-scheme from the theme class, selects and options in theme colours`, () => {
      const css = readFileSync(sheet, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
      assert.match(css, /body\.vscode-dark[^{]*\{[^}]*color-scheme:\s*dark/);
      assert.match(css, /body\.vscode-light[^{]*\{[^}]*color-scheme:\s*light/);
      assert.match(css, /(^|[\s,}])select\b[^{]*\{[^}]*background:\s*var\(--vscode-/m);
      assert.match(css, /(^|[\s,}])option\b[^{]*\{[^}]*background:\s*var\(--vscode-/m);
      assert.match(css, /input\[type=(["']?)date\1\][^{]*\{[^}]*background:\s*var\(--vscode-/);
    });
  }
});
