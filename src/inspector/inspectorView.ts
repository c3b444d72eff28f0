/**
 * The Inspector in the bottom panel: a webview view (`mcpWorkbench.inspectorView`) showing the
 * same live recording as the editor tab. Its page need not be kept while hidden (no
 * retainContextWhenHidden): the filters, selection, tab, Console settings and params drafts are
 * in the page's saved state, and the host sends the rows again when the page loads or is shown
 * again. Nothing here reveals the view: it opens only when the user opens it, never on a
 * server's restart. The page's controller loads when the view is first resolved
 * (dist/features.js, esbuild.mjs lazyFeatures).
 */
import * as vscode from 'vscode';
import type { ActivityLog } from '../traffic/common/activityLog';
import type { InspectorController, InspectorContext } from './inspectorController';
import { webviewHtml, webviewResourceRoots } from '../shared/webviewHtml';

/** How long `show` waits for VS Code to report the view visible or resolved. */
const SHOW_TIMEOUT_MS = 5000;

export class InspectorViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewId = 'mcpWorkbench.inspectorView';
  private view: vscode.WebviewView | undefined;
  /** The controller of the resolved view (tests read its rows and console lines). */
  controller: InspectorController | undefined;
  private readonly onDidResolveEmitter = new vscode.EventEmitter<InspectorController>();
  readonly onDidResolve = this.onDidResolveEmitter.event;
  private readonly onDidShowEmitter = new vscode.EventEmitter<void>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: ActivityLog,
    private readonly context: InspectorContext,
  ) {}

  get visible(): boolean {
    return this.view?.visible ?? false;
  }

  async resolveWebviewView(view: vscode.WebviewView): Promise<void> {
    this.controller?.dispose();
    this.controller = undefined;
    this.view = view;
    let disposed = false;
    const disposal = view.onDidDispose(() => (disposed = true));
    const { InspectorController } = await import('./inspectorController.js');
    disposal.dispose();
    if (disposed || this.view !== view) {
      if (this.view === view) this.view = undefined;
      return;
    }
    view.webview.options = { enableScripts: true, localResourceRoots: webviewResourceRoots(this.extensionUri) };
    const html = () => webviewHtml(view.webview, this.extensionUri, 'inspector', vscode.l10n.t('MCP Inspector'));
    const controller = new InspectorController(view.webview, html, { kind: 'live', log: this.log }, this.context);
    this.controller = controller;
    // Hidden: nothing is sent. Shown again, the page either loads anew and says `ready`, or was
    // kept by VS Code and is brought up to date (see `hidden`).
    view.onDidChangeVisibility(() => {
      if (view.visible) {
        controller.shown();
        this.onDidShowEmitter.fire();
      } else controller.hidden();
    });
    view.onDidDispose(() => {
      controller.dispose();
      if (this.controller === controller) this.controller = undefined;
      if (this.view === view) this.view = undefined;
    });
    this.onDidResolveEmitter.fire(controller);
  }

  /**
   * Shows the view (the user asked: "MCP: Open Inspector in Panel"), taking the focus unless
   * `preserveFocus`, and returns the controller of the page in sight: a hidden view may come back
   * as itself or, once its panel was closed, be resolved anew.
   */
  async show(preserveFocus = false): Promise<InspectorController> {
    if (this.view?.visible && this.controller) {
      this.view.show(preserveFocus);
      return this.controller;
    }
    const inSight = new Promise<InspectorController | undefined>((resolve) => {
      const subscriptions: vscode.Disposable[] = [];
      const done = (controller: InspectorController | undefined) => {
        subscriptions.forEach((d) => d.dispose());
        clearTimeout(timer);
        resolve(controller);
      };
      subscriptions.push(
        this.onDidResolve((c) => done(c)),
        this.onDidShowEmitter.event(() => done(this.controller)),
      );
      // Neither came (VS Code showed the view without saying so): what there is.
      const timer = setTimeout(() => done(this.controller), SHOW_TIMEOUT_MS);
    });
    if (this.view) this.view.show(preserveFocus);
    else await vscode.commands.executeCommand(`${InspectorViewProvider.viewId}.focus`);
    return (
      (await inSight) ??
      (await new Promise<InspectorController>((resolve) => {
        const once = this.onDidResolve((c) => {
          once.dispose();
          resolve(c);
        });
      }))
    );
  }

  dispose(): void {
    this.controller?.dispose();
    this.onDidResolveEmitter.dispose();
    this.onDidShowEmitter.dispose();
  }
}
