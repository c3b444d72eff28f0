/**
 * An app popped out of Run Tool into its own editor tab (the spec's "fullscreen" display mode).
 * The tab's webview, like Run Tool's, only holds the sandbox frame and relays; closing the tab
 * or pressing "Back to Run Tool" returns the app to the panel.
 */
import * as vscode from 'vscode';
import { parseAppFromWebview, type AppFromWebview, type AppToWebview } from './common/appsProtocol';
import type { AppView } from './appSession';
import type { AppsService } from './appsService';
import { webviewHtml, webviewResourceRoots } from '../shared/webviewHtml';
import { WebviewChannel } from '../shared/webviewChannel';
import type { Workbench } from '../workbench';
import { DisposableStore } from '../shared/common/disposables';

export interface AppEditorEvents {
  receive(message: AppFromWebview): void;
  /** The webview's script runs and waits for the app. */
  ready(): void;
  /** The user closed the tab. */
  closed(): void;
}

export class AppEditorPanel implements vscode.Disposable {
  static readonly viewType = 'mcpWorkbench.app';
  private readonly panel: vscode.WebviewPanel;
  private readonly disposables = new DisposableStore();
  private disposed = false;
  private readonly channel: WebviewChannel<AppFromWebview, AppToWebview>;
  readonly view: AppView;

  constructor(
    workbench: Workbench,
    apps: AppsService,
    title: string,
    private readonly events: AppEditorEvents,
  ) {
    const extensionUri = workbench.context.extensionUri;
    this.panel = vscode.window.createWebviewPanel(
      AppEditorPanel.viewType,
      vscode.l10n.t('App: {0}', title),
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      // Retained: hiding the tab must not restart the app.
      { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: webviewResourceRoots(extensionUri) },
    );
    this.panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'mcp.svg');
    this.channel = new WebviewChannel(this.panel.webview, {
      parse: parseAppFromWebview,
      receive: (message) => this.events.receive(message),
      ready: () => this.events.ready(),
      error: (error) => console.error(`MCP Workbench app tab: ${String(error)}`),
    });
    this.view = { kind: 'fullscreen', post: (message: AppToWebview) => this.channel.post(message) };
    void apps.frameSources().then((frameSources) => {
      if (!this.disposed) this.panel.webview.html = webviewHtml(this.panel.webview, extensionUri, 'apps', title, { frameSources });
    });
    this.disposables.push(
      this.panel.onDidDispose(() => {
        const byUser = !this.disposed;
        this.dispose();
        if (byUser) this.events.closed();
      }),
      this.channel,
    );
  }

  get isReady(): boolean {
    return this.channel.isReady;
  }

  reveal(): void {
    this.panel.reveal();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.panel.dispose();
    this.disposables.dispose();
  }
}
