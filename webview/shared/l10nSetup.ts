// Hands the extension's translations to @vscode/l10n before any webview module draws text.
// Import it first in every webview's main.ts (ES modules run in import order): the strings
// themselves are `l10n.t('…')` calls in each file, which `npm run l10n` (@vscode/l10n-dev)
// finds and exports into l10n/bundle.l10n.json together with the extension host's strings.
// The bundle comes from the HTML shell's JSON data block (src/shared/common/webviewL10n.ts);
// without one (English) l10n.t returns its argument with the {0} placeholders filled in.
import * as l10n from '@vscode/l10n';
import { WEBVIEW_L10N_ELEMENT_ID } from '../../src/shared/common/webviewL10n';

const data = document.getElementById(WEBVIEW_L10N_ELEMENT_ID)?.textContent;
if (data) {
  try {
    l10n.config({ contents: JSON.parse(data) as Record<string, string> });
  } catch {
    // A broken bundle leaves the page in English rather than blank.
  }
}
