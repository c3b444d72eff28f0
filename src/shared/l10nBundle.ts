/**
 * The one place that decides which translations the code outside `vscode.l10n.t` uses: the
 * webviews (through the HTML shell, common/webviewL10n.ts) and the pure `common/` code that
 * builds text for them (badges, field hints, form problems), which cannot import `vscode` and
 * so calls `l10n.t` of @vscode/l10n, configured here at activation. Both get VS Code's bundle
 * for the display language (undefined in English), or a test's (WEBVIEW_L10N_TEST_BUNDLE_ENV).
 */
import * as l10n from '@vscode/l10n';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { WEBVIEW_L10N_TEST_BUNDLE_ENV } from './common/webviewL10n';

let cached: { bundle: Record<string, string> | undefined } | undefined;

/** The translations of the display language (undefined in English), or a test's bundle. */
export function extensionBundle(): Record<string, string> | undefined {
  if (!cached) {
    const testBundle = process.env[WEBVIEW_L10N_TEST_BUNDLE_ENV];
    cached = { bundle: testBundle ? (JSON.parse(readFileSync(testBundle, 'utf8')) as Record<string, string>) : vscode.l10n.bundle };
  }
  return cached.bundle;
}

/** Gives the pure code's l10n.t the same translations as vscode.l10n.t (nothing to do in English). */
export function configurePureL10n(): void {
  const bundle = extensionBundle();
  if (bundle) l10n.config({ contents: bundle });
}
