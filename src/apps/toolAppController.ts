/**
 * The app of a Run Tool panel: after each run of a tool that has one, a new AppSession is
 * shown in the panel's result area (inline), or in the app's own editor tab while it is popped
 * out (fullscreen). Pop-out and back move the session between the two webviews: the old frame
 * is asked to tear down first (it may save its state), and the session gives the new frame the
 * same tool input and result, storage origin and the user's answers (AppSession.leave).
 */
import * as vscode from 'vscode';
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import type { AppDisplayMode, AppFromWebview, AppToWebview } from './common/appsProtocol';
import type { ToolApp, ToolApps } from './common/toolApps';
import type { AppSession, AppView } from './appSession';
import { AppEditorPanel } from './appEditorPanel';
import type { AppsService } from './appsService';
import type { Workbench } from '../workbench';
import { DisposableStore } from '../shared/common/disposables';

export class ToolAppController implements ToolApp, vscode.Disposable {
  private session: AppSession | undefined;
  private readonly sessionDisposables = new DisposableStore();
  private editor: AppEditorPanel | undefined;
  private readonly inline: AppView;
  private moving: Promise<void> = Promise.resolve();
  /** Where the app is to be shown: the Run Tool panel, or its own editor tab. */
  private where: AppDisplayMode = 'inline';

  constructor(
    private readonly workbench: Workbench,
    private readonly apps: AppsService,
    post: (message: AppToWebview) => void,
    private readonly title: () => string,
  ) {
    this.inline = { kind: 'inline', post };
  }

  /** The session shown now (for tests and the pop-out command). */
  get current(): AppSession | undefined {
    return this.session;
  }

  get displayMode(): AppDisplayMode {
    return this.where;
  }

  /** Shows the app of a finished run (replacing the previous run's app). */
  async show(serverId: string, tool: Tool, args: Record<string, unknown>, result: CallToolResult | undefined): Promise<void> {
    const service = this.apps;
    this.inline.post({ type: 'appPlaceholder', placeholder: { kind: 'loading', text: vscode.l10n.t('Loading the app…') } });
    const created = await service.createSession(serverId, tool, args, result);
    if ('error' in created) {
      this.inline.post({ type: 'appPlaceholder', placeholder: { kind: 'error', text: created.error } });
      return;
    }
    this.disposeSession();
    this.session = created;
    this.sessionDisposables.push(created.onDidRequestDisplayMode((mode) => void (mode === 'fullscreen' ? this.popOut() : this.popIn())));
    if (this.where === 'inline' || this.editor?.isReady) await this.mount(this.where);
  }

  /** The Run Tool webview was (re-)created: show the app in it again if it lives there. */
  async remount(): Promise<void> {
    if (!this.session) return;
    if (this.where === 'fullscreen') this.postPoppedOut();
    else await this.mount('inline');
  }

  receiveInline(message: AppFromWebview): void {
    if (message.type === 'appDisplayMode' && message.mode === 'fullscreen') {
      void this.popOut();
      return;
    }
    this.session?.receive(message);
  }

  /** Moves the app into its own editor tab (fullscreen display mode). */
  popOut(): Promise<void> {
    return this.serially(async () => {
      if (!this.session || this.where === 'fullscreen') return;
      this.where = 'fullscreen';
      await this.session.leave();
      this.postPoppedOut();
      // The tab's webview asks for the app once its script runs (`ready`).
      if (this.editor?.isReady) await this.mount('fullscreen');
      else if (this.editor) this.editor.reveal();
      else this.editor = this.openEditor();
    });
  }

  /** Moves the app back into the Run Tool panel (inline); closes its tab. */
  popIn(): Promise<void> {
    return this.serially(async () => {
      if (this.where === 'inline') return;
      this.where = 'inline';
      const editor = this.editor;
      this.editor = undefined;
      await this.session?.leave();
      editor?.dispose();
      await this.mount('inline');
    });
  }

  private serially(step: () => Promise<void>): Promise<void> {
    this.moving = this.moving.then(step, step);
    return this.moving;
  }

  private openEditor(): AppEditorPanel {
    const editor = new AppEditorPanel(this.workbench, this.apps, this.title(), {
      receive: (message) => {
        if (message.type === 'appDisplayMode' && message.mode === 'inline') void this.popIn();
        else this.session?.receive(message);
      },
      ready: () => {
        if (this.editor === editor && this.where === 'fullscreen') void this.serially(() => this.mount('fullscreen'));
      },
      closed: () => {
        if (this.editor !== editor) return;
        // The tab and its frame are gone already: nothing is left to ask to tear down.
        this.session?.unmount();
        void this.popIn();
      },
    });
    return editor;
  }

  private async mount(where: AppDisplayMode): Promise<void> {
    const session = this.session;
    if (!session) return;
    const view: AppView | undefined = where === 'inline' ? this.inline : this.editor?.view;
    if (!view) return;
    const spec = await session.mountIn(view, this.title());
    if (where === 'fullscreen') this.postPoppedOut();
    view.post({ type: 'appShow', app: spec });
    session.showServerState();
  }

  private postPoppedOut(): void {
    this.inline.post({ type: 'appPlaceholder', placeholder: { kind: 'poppedOut', text: vscode.l10n.t('The app is open in its own editor tab.') } });
  }

  private disposeSession(): void {
    this.sessionDisposables.clear();
    this.session?.dispose();
    this.session = undefined;
  }

  dispose(): void {
    this.disposeSession();
    this.editor?.dispose();
    this.editor = undefined;
  }
}

/** What Run Tool is handed (built by the composition root): the apps service and one controller per panel. */
export function toolAppsOf(workbench: Workbench, apps: AppsService): ToolApps {
  return {
    frameSources: () => apps.frameSources(),
    appFor: (post, title) => new ToolAppController(workbench, apps, post, title),
  };
}
