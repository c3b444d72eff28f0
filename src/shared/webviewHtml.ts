/**
 * The HTML shell every webview of the extension loads: a strict CSP (`default-src 'none'`,
 * scripts only by nonce, styles and images only from the extension), and the bundle
 * `dist/webview/<name>.js` with its stylesheet. The page itself is built by that script, in the
 * display language: the extension's translations travel with the page (common/webviewL10n.ts).
 */
import * as vscode from 'vscode';
import { webviewL10nScript } from './common/webviewL10n';
import { extensionBundle } from './l10nBundle';

/** Where webview bundles live; panels use it as their only local resource roots. */
export function webviewResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')];
}

/** Optional loosening, each for a reason: `frameSources` are origins the page may frame (the MCP Apps sandbox server). */
export interface WebviewHtmlOptions {
  frameSources?: readonly string[];
}

export function webviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, name: string, title: string, options: WebviewHtmlOptions = {}): string {
  const bytes = new Uint8Array(24);
  globalThis.crypto.getRandomValues(bytes);
  const nonce = Buffer.from(bytes)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '');
  const root = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(root, `${name}.js`));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(root, `${name}.css`));
  const csp = [
    "default-src 'none'",
    `img-src ${webview.cspSource} data:`,
    'media-src data:',
    `style-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
    ...(options.frameSources?.length ? [`frame-src ${options.frameSources.join(' ')}`] : []),
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="${escapeHtml(vscode.env.language)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style}">
<title>${escapeHtml(title)}</title>
</head>
<body>
<main id="app" aria-live="polite"><p class="loading">${escapeHtml(vscode.l10n.t('Loading…'))}</p></main>
${webviewL10nScript(extensionBundle())}
<script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
