/**
 * How a webview gets the extension's translations: VS Code gives the extension host its bundle
 * (`vscode.l10n.bundle`, undefined in English) but not the webviews, so the HTML shell carries
 * it in a JSON data block that the webview's script hands to `@vscode/l10n` (`l10n.config`,
 * webview/shared/l10nSetup.ts) before drawing anything. A data block is not a script: the
 * strict CSP (scripts only by nonce) does not need loosening for it.
 */

/**
 * For tests only: the path of a bundle file (`{ "English": "translation" }`) the webviews and
 * the pure code's l10n.t get instead of `vscode.l10n.bundle` (src/shared/l10nBundle.ts). VS Code picks the extension's bundle by display language,
 * and the test builds cannot switch it (no language pack is installed offline), so the e2e
 * test test/e2e/l10n.e2e.mjs hands a pseudo-locale bundle over this way.
 */
export const WEBVIEW_L10N_TEST_BUNDLE_ENV = 'MCPWB_TEST_WEBVIEW_L10N_BUNDLE';

/** The id of the data block; webview/shared/l10nSetup.ts reads it. */
export const WEBVIEW_L10N_ELEMENT_ID = 'mcpwb-l10n';

/**
 * The `<script type="application/json">` element holding `bundle`, or '' when there is none
 * (English). Translations are text from the extension's own files, but a `<` in one must still
 * not end the element early (`</script>`), so every `<`, `>` and `&` is a JSON escape.
 */
export function webviewL10nScript(bundle: Record<string, string> | undefined): string {
  if (!bundle || Object.keys(bundle).length === 0) return '';
  const json = JSON.stringify(bundle).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `<script type="application/json" id="${WEBVIEW_L10N_ELEMENT_ID}">${json}</script>`;
}
