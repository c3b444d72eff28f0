/**
 * Keeps resource subscriptions in step with what the editor shows: a resource is subscribed
 * while any tab or visible editor shows it (image previews have no text document), on servers
 * that advertise `resources.subscribe`; `notifications/resources/updated` re-reads it. The
 * connection subscribes the way the server's era has it (resources/subscribe or
 * subscriptions/listen).
 */
import * as vscode from 'vscode';
import type { Client } from '@modelcontextprotocol/client';
import type { McpServerConnection } from '../mcp/connection/serverConnection';
import type { ServerRegistry } from '../mcp/serverRegistry';
import { parseResourceDocumentUri, resourceKey, type ResourceFileSystem } from './resourceFileSystem';
import { showWarningMessage } from '../shared/notifications';
import { errorMessage } from '../shared/common/errors';
import { DisposableStore } from '../shared/common/disposables';

interface Subscription {
  serverId: string;
  resourceUri: string;
  /** The client the subscription was made on; a restart makes a new one, so it must be renewed. */
  client: Client;
  /** Resolves with what ends the subscription; undefined when subscribing failed. */
  stop: Promise<(() => Promise<void>) | undefined>;
}

export class ResourceSubscriptions implements vscode.Disposable {
  private readonly subscribed = new Map<string, Subscription>();
  private readonly disposables = new DisposableStore();
  private scheduled = false;

  constructor(
    private readonly registry: ServerRegistry,
    private readonly fs: ResourceFileSystem,
  ) {
    const schedule = () => this.schedule();
    this.disposables.push(
      vscode.workspace.onDidOpenTextDocument(schedule),
      vscode.workspace.onDidCloseTextDocument(schedule),
      vscode.window.onDidChangeVisibleTextEditors(schedule),
      vscode.window.tabGroups.onDidChangeTabs(schedule),
      vscode.window.tabGroups.onDidChangeTabGroups(schedule),
    );
    this.disposables.push(registry.forEachConnection((c) => this.watch(c)));
    this.schedule();
  }

  /** Server id + URI of everything open now. */
  openKeys(): Map<string, { serverId: string; resourceUri: string }> {
    const open = new Map<string, { serverId: string; resourceUri: string }>();
    const add = (uri: vscode.Uri | undefined) => {
      const id = uri && parseResourceDocumentUri(uri);
      if (id) open.set(resourceKey(id.serverId, id.resourceUri), { serverId: id.serverId, resourceUri: id.resourceUri });
    };
    // Tabs and visible editors, not workspace.textDocuments: a document an extension opened
    // (openTextDocument) stays in that list for minutes after its editor closed.
    for (const editor of vscode.window.visibleTextEditors) add(editor.document.uri);
    for (const group of vscode.window.tabGroups.all) {
      for (const tab of group.tabs) {
        const input = tab.input;
        if (input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom) add(input.uri);
        else if (input instanceof vscode.TabInputTextDiff) {
          add(input.original);
          add(input.modified);
        }
      }
    }
    return open;
  }

  /** Whether a subscription is active for the resource (for tests and the tree). */
  isSubscribed(serverId: string, resourceUri: string): boolean {
    return this.subscribed.has(resourceKey(serverId, resourceUri));
  }

  /** Editor events come in bursts (closing a group closes many tabs): reconcile once per tick. */
  schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setTimeout(() => {
      this.scheduled = false;
      this.reconcile();
    }, 0);
  }

  private reconcile(): void {
    const open = this.openKeys();
    this.fs.retainOnly(new Set(open.keys()));
    for (const [key, sub] of [...this.subscribed]) {
      const connection = this.registry.get(sub.serverId);
      const stale = connection?.client !== sub.client;
      if (open.has(key) && !stale) continue;
      this.subscribed.delete(key);
      // A subscription on a client that is gone ended with it.
      if (!stale) void end(sub);
    }
    for (const [key, { serverId, resourceUri }] of open) {
      if (this.subscribed.has(key)) continue;
      const connection = this.registry.get(serverId);
      const client = connection?.client;
      if (!connection || !client || !supportsSubscribe(connection)) continue;
      const stop = connection.subscribeResource(resourceUri).catch((error: unknown) => {
        if (this.subscribed.get(key)?.client === client) this.subscribed.delete(key);
        void showWarningMessage(
          vscode.l10n.t(
            'MCP server "{0}" refused to subscribe to {1}; the editor will not follow changes: {2}',
            connection.definition.label,
            resourceUri,
            errorMessage(error),
          ),
        );
        return undefined;
      });
      this.subscribed.set(key, { serverId, resourceUri, client, stop });
    }
  }

  private watch(connection: McpServerConnection): { dispose(): void }[] {
    // The connection passes on each update (other features, the agent endpoint, follow them too).
    const updates = connection.onDidNotify((n) => {
      if (n.method !== 'notifications/resources/updated') return;
      const key = resourceKey(connection.definition.id, n.params.uri);
      if (this.subscribed.has(key)) void this.fs.refresh(connection.definition.id, n.params.uri);
    });
    // Subscriptions die with the old client; renew them on the new one (or drop them).
    return [updates, connection.onDidChangeState(() => this.schedule())];
  }

  dispose(): void {
    for (const sub of this.subscribed.values()) {
      const connection = this.registry.get(sub.serverId);
      if (connection?.client === sub.client) void end(sub);
    }
    this.subscribed.clear();
    this.disposables.dispose();
  }
}

function supportsSubscribe(connection: McpServerConnection): boolean {
  const state = connection.state;
  return state.kind === 'running' && !!(state.capabilities.resources as { subscribe?: boolean } | undefined)?.subscribe;
}

async function end(sub: Subscription): Promise<void> {
  const stop = await sub.stop;
  await stop?.().catch(() => undefined);
}
