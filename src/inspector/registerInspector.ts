/**
 * The Inspector: "MCP: Open Inspector" (an editor tab, live, every server), "MCP: Open Inspector
 * in Panel" (the same in the bottom panel), "Open in Inspector" on an Activity entry, and
 * "MCP: Import Recording…" (a saved .jsonl opens read-only in an editor tab). The Console's
 * lines are recorded from activation on, so the panel shows what came before it was opened.
 * The panels' and the exports' code loads on first use (dist/features.js, esbuild.mjs lazyFeatures).
 */
import * as vscode from 'vscode';
import type { ActivityLog } from '../traffic/common/activityLog';
import { HttpLog } from '../traffic/common/httpLog';
import type { Workbench } from '../workbench';
import type { ToolApprovalGate } from '../toolRunner/common/toolApprovals';
import type { InspectorPanel } from './inspectorPanel';
import { InspectorViewProvider } from './inspectorView';
import { type InspectorContext, type InspectorController } from './inspectorController';
import { InspectorActions } from './detailActions';
import { ConsoleLog, consoleLevelOf, formatConsoleExport } from './common/consoleLog';
import { ALL_SERVERS } from './common/consoleProtocol';
import { redactText } from '../shared/common/redact';
import { showErrorMessage, showWarningMessage } from '../shared/notifications';
import { errorMessage } from '../shared/common/errors';
import { InspectorCommands } from './common/commandIds';
import { registerCommandTable } from '../shared/commandTable';

export function registerInspector(workbench: Workbench, log: ActivityLog, gate: ToolApprovalGate): vscode.Disposable[] {
  const extensionUri = workbench.context.extensionUri;
  // The HTTP exchanges of HTTP servers, kept raw and redacted when shown (like the activity log).
  const http = new HttpLog();
  const httpSubscription = workbench.onHttp(({ server, record }) => http.add(workbench.recordedServer(server), record));
  // Clear Activity clears the HTTP exchanges with it.
  const clearSubscription = log.onDidChange(() => {
    if (log.size === 0) http.clear();
  });
  const actions = new InspectorActions(workbench, log, gate);
  const consoleLog = new ConsoleLog();
  const recordOutput = workbench.outputs.onDidOutput(({ server, level, text }) =>
    consoleLog.append(server.id, server.label, level === 'stderr' ? 'stderr' : consoleLevelOf(level), text),
  );
  const serversChanged = new vscode.EventEmitter<void>();
  const registryChanged = workbench.registry.onDidChange(() => serversChanged.fire());

  const importFile = async (arg?: vscode.Uri): Promise<InspectorPanel | undefined> => {
    const uri =
      arg instanceof vscode.Uri
        ? arg
        : (
            await vscode.window.showOpenDialog({
              title: vscode.l10n.t('Import MCP Recording'),
              canSelectMany: false,
              filters: { [vscode.l10n.t('JSON Lines')]: ['jsonl'] },
            })
          )?.[0];
    if (!uri) return undefined;
    let text: string;
    try {
      text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    } catch (error) {
      void showErrorMessage(vscode.l10n.t('Could not read {0}: {1}', uri.fsPath, errorMessage(error)));
      return undefined;
    }
    const { importRecording } = await import('./common/recording.js');
    let imported: ReturnType<typeof importRecording>;
    try {
      imported = importRecording(text);
    } catch (error) {
      void showErrorMessage(vscode.l10n.t('Could not import {0}: {1}', uri.fsPath, errorMessage(error)));
      return undefined;
    }
    if (imported.skipped.length) {
      void showWarningMessage(
        vscode.l10n.t(
          '{0} line(s) of {1} are not recorded exchanges and were skipped (first: line {2}).',
          imported.skipped.length,
          uri.fsPath,
          imported.skipped[0],
        ),
      );
    }
    const name = uri.path.split('/').pop() ?? uri.path;
    const { InspectorPanel } = await import('./inspectorPanel.js');
    return InspectorPanel.showRecording(extensionUri, imported.records, name, context);
  };

  /**
   * A server's console lines (ALL_SERVERS: every server's, labelled) as a file. Redacted once
   * more with the secrets known now, each server's own: a token learnt after a line was recorded
   * is hidden too.
   */
  const exportConsole = async (serverId: string = ALL_SERVERS, target?: vscode.Uri): Promise<vscode.Uri | undefined> => {
    const all = serverId === ALL_SERVERS;
    const secretsOf = (id: string) => {
      const def = workbench.registry.get(id)?.definition;
      return def ? workbench.secretsOf(def) : [];
    };
    const lines = (all ? consoleLog.servers() : consoleLog.servers().filter((s) => s.id === serverId))
      .flatMap(({ id, label }) => {
        const secrets = secretsOf(id);
        return consoleLog.lines(id).map((l) => ({ ...l, text: redactText(l.text, secrets), ...(all ? { server: redactText(label, secrets) } : {}) }));
      })
      .sort((a, b) => a.seq - b.seq);
    const { exportConsoleToFile } = await import('./inspectorExports.js');
    return exportConsoleToFile(formatConsoleExport(lines), lines.length, target);
  };

  const context: InspectorContext = {
    exportConsole: (serverId) => exportConsole(serverId),
    actions,
    importFile: async () => void (await importFile()),
    console: consoleLog,
    http,
    servers: () => workbench.registry.all().map((c) => ({ id: c.definition.id, label: c.definition.label })),
    onDidChangeServers: serversChanged.event,
  };
  const view = new InspectorViewProvider(extensionUri, log, context);

  const seqOf = (arg?: { seq?: unknown } | number): number | undefined => (typeof arg === 'number' ? arg : typeof arg?.seq === 'number' ? arg.seq : undefined);
  /** The live Inspector tab while it is open (or opening): one per window, revealed again rather than opened twice. */
  let live: Promise<InspectorPanel> | undefined;
  const open = async (arg?: { seq?: unknown } | number): Promise<InspectorPanel> => {
    const select = seqOf(arg);
    if (live) {
      const panel = await live;
      panel.reveal();
      if (select !== undefined) panel.selectWhenReady(select);
      return panel;
    }
    const opening: Promise<InspectorPanel> = import('./inspectorPanel.js').then(({ InspectorPanel }) =>
      InspectorPanel.openLive(extensionUri, log, context, select, () => {
        if (live === opening) live = undefined;
      }),
    );
    live = opening;
    opening.catch(() => {
      if (live === opening) live = undefined;
    });
    return opening;
  };
  /**
   * "Open in Inspector" (an Activity entry, a Check Server finding): where the user keeps the
   * Inspector. With the panel view in sight the exchange is selected there; otherwise in the
   * editor tab, as "MCP: Open Inspector" opens it. A panel page that cannot be reached (VS Code
   * lost it, see selectWhenReady) does not swallow the request: the editor tab shows the exchange.
   */
  const openEntry = async (arg?: { seq?: unknown } | number): Promise<InspectorController> => {
    if (!view.visible) return open(arg);
    const controller = await view.show();
    const seq = seqOf(arg);
    if (seq !== undefined)
      controller.selectWhenReady(seq, () => {
        console.warn(`MCP Workbench Inspector: the page in the panel did not answer; exchange ${seq} is shown in the Inspector editor tab.`);
        void open(seq);
      });
    return controller;
  };

  return [
    vscode.window.registerWebviewViewProvider(InspectorViewProvider.viewId, view),
    ...registerCommandTable({
      [InspectorCommands.open]: open,
      [InspectorCommands.openInPanel]: () => view.show(),
      [InspectorCommands.openActivityEntry]: openEntry,
      [InspectorCommands.importRecording]: importFile,
      // Exports the live recording without opening anything.
      [InspectorCommands.exportRecording]: async (target?: vscode.Uri) =>
        (await import('./inspectorExports.js')).exportToFile(
          log.entries(),
          { replayOf: actions.replayOf, httpOf: (r) => http.exchangesFor(r.serverId, r) },
          target instanceof vscode.Uri ? target : undefined,
        ),
      // Tests and keyboard users: the Console's Export button, with a server id (default: all servers).
      [InspectorCommands.exportConsole]: async (target?: vscode.Uri, serverId?: string) =>
        exportConsole(typeof serverId === 'string' ? serverId : ALL_SERVERS, target instanceof vscode.Uri ? target : undefined),
      [InspectorCommands.exportHar]: async (target?: vscode.Uri) =>
        (await import('./inspectorExports.js')).exportHarToFile(http, target instanceof vscode.Uri ? target : undefined),
      // Tests: the panel view's controller (undefined until the view was shown once).
      [InspectorCommands.view]: () => ({ controller: view.controller, visible: view.visible }),
    }),
    { dispose: () => void live?.then((panel) => panel.dispose()) },
    view,
    httpSubscription,
    clearSubscription,
    actions,
    recordOutput,
    registryChanged,
    serversChanged,
  ];
}
