/**
 * The Activity tree: one item per JSON-RPC exchange, newest first. Refreshes are throttled
 * (at most one per REFRESH_MS) so a busy server never costs a re-render per message. The view
 * lists the newest LISTED_MAX exchanges; older ones (a log raised above its default size) are
 * under one collapsed "N older exchanges" node, so a refresh costs the same whatever the log's size.
 */
import * as vscode from 'vscode';
import { durationOf, formatBytes, formatDuration, type ActivityEntry, type ActivityLog } from '../traffic/common/activityLog';
import { escapeMarkdown, revealControlCharacters } from '../shared/common/untrustedText';
import { timeOfDay } from '../shared/common/durations';
import { factsOf } from '../traffic/common/exchangeFacts';
import { InspectorCommands } from '../inspector/common/commandIds';
import { ActivityCommands } from './common/commandIds';
import { onClick } from '../shared/selectionCommand';

export const REFRESH_MS = 250;

/** contextValue of entries that "Re-run" applies to (client `tools/call`). */
export const RERUNNABLE_CONTEXT = 'activityToolCall';

/**
 * The most exchanges the view lists at its top level: the log's default size
 * (`mcpWorkbench.activity.maxEntries`). A refresh sends every listed item to the workbench, at
 * most four times a second while a server is busy; with the log raised to 10,000 entries a flood
 * of notifications took 2.5 times as long with the view visible, and with 50,000 one refresh sent
 * 31,614 items and the view stopped following (issue 29, docs/performance.md). The rest are under
 * the OLDER node, whose children VS Code asks for only while it is expanded.
 */
export const LISTED_MAX = 1000;

/** The node the exchanges beyond LISTED_MAX are under (one per view: its id keeps it collapsed or expanded across refreshes). */
export interface OlderExchanges {
  readonly older: true;
}
/** What the view shows: an exchange, or the node of the older ones. */
export type ActivityNode = ActivityEntry | OlderExchanges;
export const isOlderExchanges = (node: ActivityNode | undefined): node is OlderExchanges => !!node && 'older' in node;

/** Requests whose result may carry `isError` (a task's tool result comes back through tasks/result). */
const TOOL_RESULT_METHODS = new Set(['tools/call', 'tasks/result']);

export class ActivityTreeProvider implements vscode.TreeDataProvider<ActivityNode>, vscode.Disposable {
  private readonly onDidChangeTreeDataEmitter = new vscode.EventEmitter<ActivityNode | undefined>();
  readonly onDidChangeTreeData = this.onDidChangeTreeDataEmitter.event;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastFire = 0;
  private _filter: string | undefined;
  private readonly subscription: { dispose(): void };
  /** Answered tool calls whose result has `isError: true`; read once per entry (reading a response parses and redacts it). */
  private readonly toolErrors = new WeakMap<ActivityEntry, boolean>();
  /** The one OLDER node. */
  readonly older: OlderExchanges = { older: true };
  /**
   * The exchanges under it as of the last listing of the top level. VS Code asks for the top
   * level, then for the children of expanded nodes: listed anew, an exchange pushed down by one
   * that arrived in between would be under both, and VS Code 1.100 rejects an id listed twice.
   */
  private olderListed: ActivityEntry[] = [];

  constructor(private readonly log: ActivityLog) {
    this.subscription = log.onDidChange(() => this.scheduleRefresh());
  }

  get filter(): string | undefined {
    return this._filter;
  }

  set filter(value: string | undefined) {
    this._filter = value?.trim() || undefined;
    this.refreshNow();
  }

  /**
   * The newest LISTED_MAX top-level exchanges, then the OLDER node if there are more; under it
   * the rest; under the first round of a multi-round-trip request, its later rounds.
   */
  getChildren(element?: ActivityNode): ActivityNode[] {
    if (element) return isOlderExchanges(element) ? this.olderListed : this.log.rounds(element);
    const top = this.log.topLevel(this._filter);
    this.olderListed = top.slice(LISTED_MAX);
    return this.olderListed.length ? [...top.slice(0, LISTED_MAX), this.older] : top;
  }

  /** For reveal: a later round's first round; an older exchange's OLDER node. */
  getParent(node: ActivityNode): ActivityNode | undefined {
    if (isOlderExchanges(node)) return undefined;
    const origin = node.originSeq === undefined ? undefined : this.log.find(node.originSeq);
    if (origin) return origin;
    return this.olderListed.includes(node) ? this.older : undefined;
  }

  getTreeItem(node: ActivityNode): vscode.TreeItem {
    if (isOlderExchanges(node)) return this.olderItem();
    const entry = node;
    const hasRounds = entry.round === 1 && this.log.rounds(entry).length > 0;
    const label =
      entry.round !== undefined && entry.round > 1
        ? vscode.l10n.t('{0} (round {1})', revealControlCharacters(entry.method), entry.round)
        : revealControlCharacters(entry.method);
    const item = new vscode.TreeItem(label, hasRounds ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
    item.id = `activity-${entry.seq}`;
    item.description = revealControlCharacters(describe(entry));
    const toolError = this.isToolError(entry);
    item.iconPath = toolError ? new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed')) : iconFor(entry);
    item.contextValue = entry.rerun ? RERUNNABLE_CONTEXT : entry.kind === 'request' ? 'activityRequest' : 'activityNotification';
    item.command = onClick(ActivityCommands.openSelected, openCommand(entry));
    item.accessibilityInformation = { label: `${entry.method}, ${describe(entry)}, ${toolError ? vscode.l10n.t('tool error') : statusText(entry)}` };
    return item;
  }

  /**
   * The tooltip, built for the entry hovered: VS Code asks for it only then. A refresh sends every
   * entry of the log to the workbench (1,000 by default), at most four times a second while a
   * server is busy; with a tooltip each, that was 37% more bytes per refresh, and as many
   * tooltips built in the extension host (issue 29, docs/performance.md).
   */
  resolveTreeItem(item: vscode.TreeItem, node: ActivityNode): vscode.TreeItem {
    if (!isOlderExchanges(node)) item.tooltip ??= tooltipFor(node, this.isToolError(node));
    return item;
  }

  private olderItem(): vscode.TreeItem {
    const count = this.olderListed.length.toLocaleString(vscode.env.language);
    const item = new vscode.TreeItem(vscode.l10n.t('{0} older exchanges', count), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = 'activity-older';
    item.iconPath = new vscode.ThemeIcon('history');
    item.contextValue = 'olderExchanges';
    item.tooltip = vscode.l10n.t(
      'The view lists the newest {0} exchanges; the log keeps {1} more (mcpWorkbench.activity.maxEntries). The Inspector lists them all, with filters.',
      LISTED_MAX.toLocaleString(vscode.env.language),
      count,
    );
    return item;
  }

  /** A tool call (or a task's result) answered with a result that says `isError: true`: a failure, not a success. */
  private isToolError(entry: ActivityEntry): boolean {
    if (!TOOL_RESULT_METHODS.has(entry.method) || entry.status.kind !== 'ok' || entry.kind !== 'request') return false;
    let known = this.toolErrors.get(entry);
    if (known === undefined) {
      known = factsOf(entry).isError === true;
      this.toolErrors.set(entry, known);
    }
    return known;
  }

  /** Immediate refresh (user actions: filter, clear). */
  refreshNow(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.lastFire = Date.now();
    this.onDidChangeTreeDataEmitter.fire(undefined);
  }

  private scheduleRefresh(): void {
    if (this.timer) return;
    const wait = Math.max(0, this.lastFire + REFRESH_MS - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.lastFire = Date.now();
      this.onDidChangeTreeDataEmitter.fire(undefined);
    }, wait);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.subscription.dispose();
    this.onDidChangeTreeDataEmitter.dispose();
  }
}

/** What a click on an entry runs (through the view's selection: src/shared/selectionCommand.ts). */
export function openCommand(entry: ActivityEntry): vscode.Command {
  return { command: InspectorCommands.openActivityEntry, title: vscode.l10n.t('Open in Inspector'), arguments: [entry.seq] };
}

function describe(entry: ActivityEntry): string {
  const parts = [entry.direction === 'receive' ? `${entry.serverLabel} ⇠` : entry.serverLabel];
  // Which tool a tools/call ran (from the redacted request), e.g. one an MCP App called.
  const toolName = entry.method === 'tools/call' ? (entry.request as { params?: { name?: unknown } } | undefined)?.params?.name : undefined;
  if (typeof toolName === 'string') parts.push(revealControlCharacters(toolName.slice(0, 100)));
  const duration = durationOf(entry);
  if (entry.kind === 'request') parts.push(duration === undefined ? vscode.l10n.t('pending') : formatDuration(duration));
  parts.push(formatBytes(entry.requestSize + (entry.responseSize ?? 0)));
  if (entry.inputRequired) parts.push(vscode.l10n.t('input required'));
  return parts.join(' · ');
}

function statusText(entry: ActivityEntry): string {
  const s = entry.status;
  switch (s.kind) {
    case 'pending':
      return vscode.l10n.t('pending');
    case 'ok':
      return entry.kind === 'notification' ? vscode.l10n.t('notification') : vscode.l10n.t('ok');
    case 'cancelled':
      return s.reason ? vscode.l10n.t('cancelled: {0}', s.reason) : vscode.l10n.t('cancelled');
    case 'error':
      return s.code !== undefined ? vscode.l10n.t('error {0}: {1}', s.code, s.message) : vscode.l10n.t('error: {0}', s.message);
  }
}

function iconFor(entry: ActivityEntry): vscode.ThemeIcon {
  switch (entry.status.kind) {
    case 'pending':
      return new vscode.ThemeIcon('loading~spin');
    case 'error':
      return new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'));
    case 'cancelled':
      return new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('testing.iconSkipped'));
    case 'ok':
      return entry.kind === 'notification'
        ? new vscode.ThemeIcon(entry.direction === 'send' ? 'arrow-right' : 'bell')
        : new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'));
  }
}

function tooltipFor(entry: ActivityEntry, toolError: boolean): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`**${escapeMarkdown(entry.method)}**${entry.id !== undefined ? ` #${escapeMarkdown(String(entry.id))}` : ''}\n\n`);
  const duration = durationOf(entry);
  const rows: [string, string][] = [
    [vscode.l10n.t('Server'), entry.serverLabel],
    [vscode.l10n.t('Direction'), entry.direction === 'send' ? vscode.l10n.t('client → server') : vscode.l10n.t('server → client')],
    [vscode.l10n.t('Status'), toolError ? vscode.l10n.t('tool error (result with isError: true)') : statusText(entry)],
    [vscode.l10n.t('Started'), timeOfDay(entry.startedAt)],
  ];
  if (duration !== undefined && entry.kind === 'request') rows.push([vscode.l10n.t('Duration'), formatDuration(duration)]);
  rows.push([entry.kind === 'request' ? vscode.l10n.t('Request size') : vscode.l10n.t('Size'), formatBytes(entry.requestSize)]);
  if (entry.responseSize !== undefined) rows.push([vscode.l10n.t('Response size'), formatBytes(entry.responseSize)]);
  if (entry.round !== undefined)
    rows.push([vscode.l10n.t('Round'), entry.inputRequired ? vscode.l10n.t('{0}, answered with input_required', entry.round) : String(entry.round)]);
  md.appendMarkdown(rows.map(([k, v]) => `${escapeMarkdown(k)}: ${escapeMarkdown(v)}`).join('  \n'));
  return md;
}
