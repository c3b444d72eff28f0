/**
 * The extension's one URI handler (VS Code allows one per extension), dispatching by path to
 * the features that take links: OAuth redirects (src/auth) and install links (src/gallery).
 */
import * as vscode from 'vscode';
import { showWarningMessage } from './notifications';
import { errorMessage } from './common/errors';

export class UriRouter implements vscode.UriHandler {
  private readonly routes = new Map<string, (uri: vscode.Uri) => unknown>();

  /** Handles links whose path is `path` (`/oauth/callback`); the returned disposable removes it. */
  register(path: string, handler: (uri: vscode.Uri) => unknown): vscode.Disposable {
    this.routes.set(path, handler);
    return new vscode.Disposable(() => {
      if (this.routes.get(path) === handler) this.routes.delete(path);
    });
  }

  handleUri(uri: vscode.Uri): void {
    const handler = this.routes.get(uri.path);
    if (handler) {
      void Promise.resolve()
        .then(() => handler(uri))
        .catch((error) => void showWarningMessage(vscode.l10n.t('MCP Workbench could not handle the link {0}: {1}', uri.path, errorMessage(error))));
      return;
    }
    void showWarningMessage(vscode.l10n.t('MCP Workbench does not handle links to {0}; it was ignored.', uri.path));
  }
}
