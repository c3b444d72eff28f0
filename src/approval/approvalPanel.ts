/**
 * The one approval panel: a webview showing the queue of pending sampling and elicitation
 * requests across servers. It is a view of ApprovalService's state; the webview's buttons
 * call the same service methods the tests call. Not retained when hidden: drafts live in the
 * service (sent by the webview as `samplingDraft` / `formDraft`), so nothing typed is lost.
 */
import * as vscode from 'vscode';
import { parseFromWebview, type FromWebview, type ToWebview } from './common/approvalProtocol';
import type { ApprovalService } from './approvalService';
import { webviewHtml, webviewResourceRoots } from '../shared/webviewHtml';
import { describeRaw, WebviewChannel } from '../shared/webviewChannel';
import { showErrorMessage, showWarningMessage } from '../shared/notifications';
import { errorMessage } from '../shared/common/errors';
import { DisposableStore } from '../shared/common/disposables';

export class ApprovalPanel implements vscode.Disposable {
  static readonly viewType = 'mcpWorkbench.approval';

  /** Reveals the panel, optionally on one request. */
  show(select?: string, preserveFocus = false): this {
    if (select) this.selected = select;
    this.panel.reveal(this.revealColumn(), preserveFocus);
    this.postState();
    return this;
  }

  private readonly panel: vscode.WebviewPanel;
  private readonly disposables = new DisposableStore();
  private selected: string | undefined;
  private disposed = false;
  private readonly channel: WebviewChannel<FromWebview, ToWebview>;
  /** Resolves when the webview's script ran (the CSP let it) and asked for the state. */
  readonly webviewReady: Promise<void>;

  /** A new panel (registerApproval keeps the one open); `closed` runs when it goes away. */
  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly service: ApprovalService,
    private readonly closed: () => void,
  ) {
    this.panel = vscode.window.createWebviewPanel(
      ApprovalPanel.viewType,
      vscode.l10n.t('MCP Requests'),
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      {
        enableScripts: true,
        retainContextWhenHidden: false,
        localResourceRoots: webviewResourceRoots(extensionUri),
      },
    );
    this.panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'mcp.svg');
    this.channel = new WebviewChannel(this.panel.webview, {
      parse: parseFromWebview,
      receive: (message) => this.handle(message),
      ready: () => this.postState(),
      invalid: (raw) => console.warn(`MCP Workbench approval panel: ignored a malformed webview message: ${describeRaw(raw)}`),
      error: (error) => void showErrorMessage(errorMessage(error)),
    });
    this.webviewReady = this.channel.whenReady;
    this.panel.webview.html = this.html();
    this.disposables.push(
      this.panel.onDidDispose(() => this.dispose()),
      this.channel,
      service.onDidChange(() => this.postState()),
      service.onDidStream((c) => this.post({ type: 'chunk', requestId: c.requestId, text: c.text })),
    );
  }

  /**
   * Where to reveal: where the panel is, unless that is the active editor group showing
   * something else (typically the Run Tool panel whose call asked): revealing there would
   * hide it, so the panel moves to another group (the next one to the right, else the
   * last other one, else a new group beside).
   */
  private revealColumn(): vscode.ViewColumn | undefined {
    const column = this.panel.viewColumn;
    const active = vscode.window.tabGroups.activeTabGroup;
    if (column === undefined || column !== active.viewColumn || this.panel.visible) return undefined;
    const others = vscode.window.tabGroups.all.filter((g) => g.viewColumn !== column).sort((x, y) => x.viewColumn - y.viewColumn);
    return (others.find((g) => g.viewColumn > column) ?? others[others.length - 1])?.viewColumn ?? vscode.ViewColumn.Beside;
  }

  private async handle(m: FromWebview): Promise<void> {
    const s = this.service;
    switch (m.type) {
      case 'ready': // answered by the channel (ready: postState)
        return;
      case 'select':
        this.selected = m.requestId;
        return;
      case 'samplingDraft':
        s.setSamplingDraft(m.requestId, m.draft);
        return;
      case 'send': {
        const r = await s.send(m.requestId, m.draft);
        if (!r.ok) this.postState();
        return;
      }
      case 'stop':
        s.stop(m.requestId);
        return;
      case 'approve': {
        const r = s.approve(m.requestId, m.draft);
        if (!r.ok) void showWarningMessage(r.reason);
        return;
      }
      case 'deny':
        s.deny(m.requestId);
        return;
      case 'setPolicy': {
        const view = s.views().find((v) => v.id === m.requestId);
        await s.setPolicyOfRequest(m.requestId, m.policy);
        if (m.policy === 'never' && view?.kind === 'sampling') s.deny(m.requestId);
        return;
      }
      case 'formDraft':
        s.setFormValues(m.requestId, m.values);
        return;
      case 'accept':
        s.accept(m.requestId, m.values);
        return;
      case 'decline':
        s.decline(m.requestId);
        return;
      case 'cancel':
        s.cancel(m.requestId);
        return;
      case 'openUrl': {
        const view = s.views().find((v) => v.id === m.requestId);
        if (view?.kind !== 'elicitUrl') return;
        const open = vscode.l10n.t('Open {0}', view.domain ?? view.url);
        const answer = await showWarningMessage(
          vscode.l10n.t('Open this address from MCP server "{0}" in your browser?', view.server.label),
          { modal: true, detail: `${view.url}\n\n${vscode.l10n.t('Domain: {0}', view.domain ?? '?')}` },
          open,
        );
        if (answer !== open) return;
        const r = await s.openUrl(m.requestId);
        if (!r.ok) void showErrorMessage(r.reason);
        return;
      }
      case 'error':
        console.error(`MCP Workbench approval webview: ${m.message}`);
        return;
    }
  }

  postState(): void {
    const pending = this.service.views();
    if (this.selected && !pending.some((p) => p.id === this.selected)) this.selected = undefined;
    this.post({ type: 'state', pending, ...(this.selected ? { selected: this.selected } : {}) });
  }

  private post(message: ToWebview): void {
    if (!this.disposed) this.channel.post(message);
  }

  private html(): string {
    return webviewHtml(this.panel.webview, this.extensionUri, 'approval', vscode.l10n.t('MCP Requests'));
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.closed();
    this.panel.dispose();
    this.disposables.dispose();
  }
}
