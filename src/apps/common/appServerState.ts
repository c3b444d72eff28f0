/**
 * The line beside an open app while its server is not running. The app keeps its frame (what
 * it shows is still worth seeing), but every call it makes fails until the server runs again;
 * without this line the user would only see the app's own error. The host sends it when the
 * server's state changes (AppSession), the webview shows it with a Start button (appFrame.ts).
 */
import * as l10n from '@vscode/l10n';

/** The server's state, as far as the line cares (ServerState['kind'], or undefined when the server is gone from the configuration). */
export type AppServerStateKind = 'stopped' | 'starting' | 'running' | 'error' | 'needsAuth' | undefined;

export interface AppServerLine {
  text: string;
  /** Whether Start is offered (not while it is already starting). */
  canStart: boolean;
}

/** The line for a server in this state, or undefined when it runs (no line). */
export function appServerLine(serverLabel: string, kind: AppServerStateKind): AppServerLine | undefined {
  switch (kind) {
    case 'running':
      return undefined;
    case 'starting':
      return { text: l10n.t('Server {0} is starting…', serverLabel), canStart: false };
    case 'needsAuth':
      return { text: l10n.t('Server {0} stopped: it needs you to sign in.', serverLabel), canStart: true };
    case undefined:
      return { text: l10n.t('Server {0} is no longer configured; the app cannot reach it.', serverLabel), canStart: false };
    default:
      return { text: l10n.t('Server {0} stopped.', serverLabel), canStart: true };
  }
}
