/**
 * The lists a server offers (tools, resources, resource templates, prompts): fetched whole
 * across pages, cached per kind for the life of a session, and fetched again when the server
 * says one changed. Kept apart from the connection because how lists are fetched and when a
 * cached one is still good is its own policy (later protocol versions send cache hints).
 * No `vscode` import.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Prompt, Resource, ResourceTemplate, Tool } from '@modelcontextprotocol/sdk/types.js';
import { errorText, type ListItems, type ListKind, type ServerLog } from './connectionTypes';

const LIST_KINDS: readonly ListKind[] = ['tools', 'resources', 'resourceTemplates', 'prompts'];

/** The server capability that advertises each list. */
const LIST_CAPABILITY: Record<ListKind, 'tools' | 'resources' | 'prompts'> = {
  tools: 'tools',
  resources: 'resources',
  resourceTemplates: 'resources',
  prompts: 'prompts',
};

/** Whether server capabilities (from `initialize`) advertise a list. */
export function advertisesList(capabilities: Record<string, unknown>, kind: ListKind): boolean {
  return !!capabilities[LIST_CAPABILITY[kind]];
}

/** What the cache needs from the connection it serves. */
export interface ListSource {
  advertises(kind: ListKind): boolean;
  /** Fetches every page of a list on the current session. */
  fetch(kind: ListKind): Promise<unknown[]>;
  /** A fetched list became the cached one. */
  changed(kind: ListKind): void;
  readonly log: ServerLog;
}

interface CacheEntry {
  items?: unknown[];
  /** The refreshes of one kind, one after another. */
  chain: Promise<unknown>;
  /** A refresh is waiting in `chain` that has not started fetching yet. */
  queued: boolean;
}

export class ListCache {
  private readonly entries = new Map<ListKind, CacheEntry>();

  constructor(private readonly source: ListSource) {}

  /** Cached list, or undefined when not fetched yet (or not advertised). */
  cached<K extends ListKind>(kind: K): ListItems[K] | undefined {
    return this.entries.get(kind)?.items as ListItems[K] | undefined;
  }

  /**
   * Forgets every list (the session started, stopped or was lost). A fetch still under way
   * then finds its entry gone and leaves whatever the next session caches alone.
   */
  clear(): void {
    this.entries.clear();
  }

  /** The full list (all pages), from cache when fresh. Empty when not advertised. */
  async list<K extends ListKind>(kind: K): Promise<ListItems[K]> {
    const cache = this.entries.get(kind);
    if (cache?.items && !cache.queued) return cache.items as ListItems[K];
    if (cache) {
      await cache.chain.catch(() => undefined);
      if (cache.items) return cache.items as ListItems[K];
    }
    return this.refresh(kind);
  }

  /**
   * Re-fetches a list. Refreshes of one kind run one after another, and notifications that
   * arrive while one is queued share it, so the cache always ends at the newest list.
   */
  refresh<K extends ListKind>(kind: K): Promise<ListItems[K]> {
    if (!this.source.advertises(kind)) return Promise.resolve([] as unknown as ListItems[K]);
    let cache = this.entries.get(kind);
    if (!cache) {
      cache = { chain: Promise.resolve(), queued: false };
      this.entries.set(kind, cache);
    }
    const entry = cache;
    if (entry.queued) return entry.chain as Promise<ListItems[K]>;
    entry.queued = true;
    entry.chain = entry.chain.catch(() => undefined).then(async () => {
      entry.queued = false;
      const items = await this.source.fetch(kind);
      if (this.entries.get(kind) === entry) {
        entry.items = items;
        this.source.changed(kind);
      }
      return items;
    });
    entry.chain.catch((error) => this.source.log.log('warn', `Listing ${kind} failed: ${errorText(error)}`));
    return entry.chain as Promise<ListItems[K]>;
  }

  /** Fetches every advertised list so the UI has them (new session); failures are logged, not fatal. */
  refreshAdvertised(): void {
    for (const kind of LIST_KINDS) {
      if (this.source.advertises(kind)) this.refresh(kind).catch(() => undefined);
    }
  }
}

/** Every page of a list, following `nextCursor`; stops at a repeated cursor instead of looping. */
export async function fetchPages(client: Client, kind: ListKind, pageOptions: () => RequestOptions, log: ServerLog): Promise<unknown[]> {
  const items: unknown[] = [];
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  do {
    const params = cursor ? { cursor } : undefined;
    const options = pageOptions();
    let page: { nextCursor?: string } & Record<string, unknown>;
    switch (kind) {
      case 'tools':
        page = await client.listTools(params, options);
        items.push(...(page.tools as Tool[]));
        break;
      case 'resources':
        page = await client.listResources(params, options);
        items.push(...(page.resources as Resource[]));
        break;
      case 'resourceTemplates':
        page = await client.listResourceTemplates(params, options);
        items.push(...(page.resourceTemplates as ResourceTemplate[]));
        break;
      case 'prompts':
        page = await client.listPrompts(params, options);
        items.push(...(page.prompts as Prompt[]));
        break;
    }
    cursor = page.nextCursor;
    if (cursor !== undefined) {
      if (seenCursors.has(cursor)) {
        log.log('warn', `The server repeated the cursor ${JSON.stringify(cursor)} while listing ${kind}; stopping there.`);
        break;
      }
      seenCursors.add(cursor);
    }
  } while (cursor !== undefined);
  return items;
}
