/**
 * The Inspector as an editor tab ("MCP: Open Inspector"): one live tab, and one read-only tab
 * per imported recording. What the page shows comes from its InspectorController.
 */
import * as vscode from 'vscode';
import type { ActivityLog } from '../traffic/common/activityLog';
import type { InspectorRecord } from './common/inspectorRows';
import { InspectorController, type InspectorContext, type InspectorSource } from './inspectorController';
import { webviewHtml, webviewResourceRoots } from '../shared/webviewHtml';

export class InspectorPanel extends InspectorController {
  static readonly viewType = 'mcpWorkbench.inspector';

  /** A new live Inspector tab; `select` picks a row (an Activity entry's seq). registerInspector keeps the one open and reveals it again. */
  static openLive(extensionUri: vscode.Uri, log: ActivityLog, context: InspectorContext, select: number | undefined, closed: () => void): InspectorPanel {
    return InspectorPanel.create(extensionUri, { kind: 'live', log }, context, select, closed);
  }

  static showRecording(extensionUri: vscode.Uri, records: readonly InspectorRecord[], fileName: string, context: InspectorContext): InspectorPanel {
    return InspectorPanel.create(extensionUri, { kind: 'recording', records, fileName }, context);
  }

  private static create(extensionUri: vscode.Uri, source: InspectorSource, context: InspectorContext, select?: number, closed?: () => void): InspectorPanel {
    const title = source.kind === 'live' ? vscode.l10n.t('MCP Inspector') : vscode.l10n.t('MCP Inspector: {0} (read-only)', source.fileName);
    const panel = vscode.window.createWebviewPanel(
      InspectorPanel.viewType,
      title,
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      {
        enableScripts: true,
        // Kept when hidden: the selection, filters, drafts and scroll position survive switching tabs.
        retainContextWhenHidden: true,
        localResourceRoots: webviewResourceRoots(extensionUri),
      },
    );
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'mcp.svg');
    return new InspectorPanel(panel, () => webviewHtml(panel.webview, extensionUri, 'inspector', title), source, context, select, closed);
  }

  private disposed = false;

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    pageHtml: () => string,
    source: InspectorSource,
    context: InspectorContext,
    select?: number,
    private readonly closed: () => void = () => undefined,
  ) {
    super(panel.webview, pageHtml, source, context, select);
    panel.onDidDispose(() => this.dispose());
  }

  reveal(): void {
    this.panel.reveal();
  }

  override dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.closed();
    super.dispose();
    this.panel.dispose();
  }
}
