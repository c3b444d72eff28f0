/**
 * The Activity view: every JSON-RPC exchange of every server, with filter, clear, a
 * request ↔ response view and "Re-run" for tool calls.
 */
import * as vscode from 'vscode';
import { ActivityLog, type ActivityEntry } from '../traffic/common/activityLog';
import type { Workbench } from '../workbench';
import { isOlderExchanges, openCommand, type ActivityTreeProvider } from './activityTreeProvider';
import { runSelected } from '../shared/selectionCommand';
import { showErrorMessage, showInformationMessage, showWarningMessage, withNotificationProgress } from '../shared/notifications';
import type { ConfirmCall, ToolApprovalGate } from '../toolRunner/common/toolApprovals';
import { errorMessage } from '../shared/common/errors';
import { userLevelCap } from '../shared/common/userSettings';
import { ActivityCommands, ActivityContextKeys } from './common/commandIds';
import { registerCommandTable } from '../shared/commandTable';
import type { ServerState } from '../mcp/serverState';
import { protocolAndEra } from '../servers/common/treeText';

export const ACTIVITY_VIEW = 'mcpWorkbench.activity';
export const ACTIVITY_SCHEME = 'mcp-activity';
const MAX_ENTRIES_SETTING = 'activity.maxEntries' as const;

// User level only, clamped: a workspace must not lift the log's memory bound.
const readMax = () => userLevelCap(MAX_ENTRIES_SETTING, vscode.workspace.getConfiguration('mcpWorkbench').inspect(MAX_ENTRIES_SETTING));

/** The traffic log of the window, built by the composition root: the Activity view fills it, the Inspector and Check read it. */
export function createActivityLog(): ActivityLog {
  return new ActivityLog(readMax);
}

/**
 * The session's handshake says how its era was decided (issue 30: probed now, remembered from an
 * earlier start, or set by config): the Inspector shows it on the `initialize` / `server/discover` row.
 */
function noteEraOn(log: ActivityLog, serverId: string, state: Extract<ServerState, { kind: 'running' }>): void {
  if (!state.eraSource) return;
  const handshake = log
    .entries()
    .find((e) => e.serverId === serverId && e.kind === 'request' && e.direction === 'send' && (e.method === 'initialize' || e.method === 'server/discover'));
  if (handshake) log.annotate(handshake, protocolAndEra(state));
}

/** The view of `provider` over `log`; re-runs ask `gate`, as Run Tool would. */
export function registerActivity(workbench: Workbench, log: ActivityLog, provider: ActivityTreeProvider, gate: ToolApprovalGate): vscode.Disposable[] {
  const view = vscode.window.createTreeView(ACTIVITY_VIEW, { treeDataProvider: provider, showCollapseAll: false });
  const documents = new ActivityDocuments(log);

  const updateDescription = () => {
    view.description = provider.filter ? vscode.l10n.t('filter: {0}', provider.filter) : undefined;
    // Counted in the log: listing the provider here would replace what VS Code's last listing left under the older exchanges' node.
    view.message =
      provider.filter && log.size > 0 && log.topLevel(provider.filter).length === 0 ? vscode.l10n.t('No entries match "{0}".', provider.filter) : undefined;
    void vscode.commands.executeCommand('setContext', ActivityContextKeys.filtered, !!provider.filter);
  };

  const subscriptions: { dispose(): void }[] = [
    // Recorded off the message's path (see ActivityLog.record); secrets are asked for when an
    // entry is read (redaction is lazy), not per message.
    workbench.onTrace(({ server, record, at }) => log.record(workbench.recordedServer(server), record, at)),
    // Requests that were in flight when the connection went away will never be answered.
    workbench.registry.forEachConnection((connection) =>
      connection.onDidChangeState((state) => {
        if (state.kind === 'running') noteEraOn(log, connection.definition.id, state);
        else if (state.kind !== 'starting') log.abandon(connection.definition.id, Date.now());
      }),
    ),
  ];

  /** The exchange selected in the view (not the node of the older ones). */
  const selectedEntry = (): ActivityEntry | undefined => {
    const node = view.selection[0];
    return isOlderExchanges(node) ? undefined : node;
  };

  const showEntry = async (arg?: ActivityEntry | number) => {
    const entry = typeof arg === 'number' ? log.find(arg) : (arg ?? selectedEntry());
    if (!entry) return;
    const request = ActivityDocuments.uri(entry, 'request');
    const title = `${entry.method}${entry.id !== undefined ? ` #${entry.id}` : ''} · ${entry.serverLabel}`;
    if (entry.kind === 'notification') {
      await vscode.window.showTextDocument(request, { preview: true });
      return;
    }
    await vscode.commands.executeCommand('vscode.diff', request, ActivityDocuments.uri(entry, 'response'), vscode.l10n.t('{0} (request ↔ response)', title), {
      preview: true,
    });
  };

  /** `options.confirm` replaces Run Tool's dialog for tests (see ConfirmCall), as on the Run Tool panel. */
  const rerun = async (arg?: ActivityEntry | number, options?: { confirm?: ConfirmCall }): Promise<ActivityEntry | undefined> => {
    const entry = typeof arg === 'number' ? log.find(arg) : (arg ?? selectedEntry());
    if (!entry?.rerun) {
      void showInformationMessage(entry?.rerunUnavailable ?? vscode.l10n.t('Only tool calls (tools/call) can be re-run.'));
      return undefined;
    }
    const connection = workbench.registry.get(entry.serverId) ?? workbench.registry.find(entry.serverLabel);
    if (!connection?.client) {
      void showErrorMessage(vscode.l10n.t('Cannot re-run {0}: MCP server "{1}" is not running.', entry.rerun.name, entry.serverLabel));
      return undefined;
    }
    const { name, arguments: args } = entry.rerun;
    // A re-run is a tool call the user starts: it asks exactly when Run Tool would.
    if (!(await gate.approveRun(connection, name, args ?? {}, options?.confirm))) return undefined;
    let created: ActivityEntry | undefined;
    const sub = workbench.onTrace(({ server, record }) => {
      if (!created && server.id === connection.definition.id && record.kind === 'request' && record.method === 'tools/call' && record.direction === 'send') {
        created = log.entries().find((e) => e.serverId === server.id && e.id === record.id && e.method === 'tools/call');
      }
    });
    try {
      const result = await withNotificationProgress(
        { title: vscode.l10n.t('Running tool {0} on {1}', name, connection.definition.label), cancellable: true },
        (progress, token) => {
          const controller = new AbortController();
          token.onCancellationRequested(() => controller.abort());
          return connection.callTool(name, args, {
            signal: controller.signal,
            onprogress: (p) => progress.report({ message: p.message ?? (p.total ? `${p.progress}/${p.total}` : String(p.progress)) }),
          });
        },
      );
      if (result.isError) void showWarningMessage(vscode.l10n.t('Tool {0} reported an error; see the new Activity entry.', name));
    } catch (error) {
      if ((error as { name?: string })?.name !== 'AbortError') {
        void showErrorMessage(vscode.l10n.t('Re-running tool {0} on MCP server "{1}" failed: {2}', name, connection.definition.label, errorMessage(error)));
      }
    } finally {
      sub.dispose();
    }
    if (created) void view.reveal(created, { select: true, focus: false }).then(undefined, () => undefined);
    return created;
  };

  return [
    view,
    documents,
    vscode.workspace.registerTextDocumentContentProvider(ACTIVITY_SCHEME, documents),
    { dispose: () => subscriptions.forEach((s) => s.dispose()) },
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`mcpWorkbench.${MAX_ENTRIES_SETTING}`)) log.setMaxEntries(readMax());
    }),
    ...registerCommandTable({
      [ActivityCommands.openSelected]: runSelected(view, (node) => (isOlderExchanges(node) ? undefined : openCommand(node))),
      [ActivityCommands.showEntry]: showEntry,
      [ActivityCommands.rerunEntry]: rerun,
      [ActivityCommands.clear]: () => {
        log.clear();
        provider.refreshNow();
        updateDescription();
      },
      [ActivityCommands.filter]: async (preset?: string) => {
        const value =
          typeof preset === 'string'
            ? preset
            : await vscode.window.showInputBox({
                title: vscode.l10n.t('Filter MCP Activity'),
                prompt: vscode.l10n.t('Words to match in the server name or method (all must match); empty shows everything'),
                value: provider.filter ?? '',
                placeHolder: vscode.l10n.t('e.g. tools/call fixture'),
              });
        if (value === undefined) return;
        provider.filter = value;
        updateDescription();
      },
      [ActivityCommands.clearFilter]: () => {
        provider.filter = undefined;
        updateDescription();
      },
      // Not in the palette: the log behind the view, for the integration tests.
      [ActivityCommands.log]: () => log,
    }),
  ];
}

/** Read-only JSON documents of an entry's request and response (`mcp-activity:/<seq>/request.json`). */
class ActivityDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  private readonly subscription: { dispose(): void };
  /** Documents of pending requests, refreshed when their response arrives. */
  private readonly open = new Set<string>();

  constructor(private readonly log: ActivityLog) {
    this.subscription = log.onDidChange(() => {
      for (const key of this.open) {
        const entry = this.log.find(Number(key));
        if (entry && entry.status.kind !== 'pending') {
          this.open.delete(key);
          this.emitter.fire(ActivityDocuments.uri(entry, 'response'));
        }
      }
    });
  }

  static uri(entry: ActivityEntry, part: 'request' | 'response'): vscode.Uri {
    return vscode.Uri.from({ scheme: ACTIVITY_SCHEME, path: `/${entry.seq}/${part}.json` });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const [, seq, file] = uri.path.split('/');
    const entry = this.log.find(Number(seq));
    if (!entry) return `// ${vscode.l10n.t('This entry is no longer in the activity log (see the mcpWorkbench.activity.maxEntries setting).')}\n`;
    if (file === 'request.json') return JSON.stringify(entry.request, null, 2) + '\n';
    if (entry.status.kind === 'pending') {
      this.open.add(seq);
      return `// ${vscode.l10n.t('No response yet.')}\n`;
    }
    if (entry.response === undefined) {
      return entry.status.kind === 'cancelled'
        ? `// ${vscode.l10n.t('Cancelled before a response arrived{0}.', entry.status.reason ? `: ${entry.status.reason}` : '')}\n`
        : `// ${vscode.l10n.t('No response: {0}', entry.status.kind === 'error' ? entry.status.message : entry.status.kind)}\n`;
    }
    return JSON.stringify(entry.response, null, 2) + '\n';
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}
