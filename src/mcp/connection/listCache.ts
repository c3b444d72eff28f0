/**
 * The lists a server offers (tools, resources, resource templates, prompts): fetched whole
 * across pages, cached per kind, and fetched again when the server says one changed. How long
 * a cached list is good follows the server: a 2026-07-28 list result carries a cache hint
 * (`ttlMs`), and past it the list is fetched again when asked for; a 2025 result has none and
 * stays good for the session, kept fresh by list-changed notifications. Kept apart from the
 * connection because this is its own policy. No `vscode` import.
 */
import type { CacheableRequestOptions, Client } from '@modelcontextprotocol/client';
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
  fetch(kind: ListKind): Promise<FetchedList>;
  /** A fetched list became the cached one. */
  changed(kind: ListKind): void;
  readonly log: ServerLog;
}

/** A whole list and the server's cache hint for it. */
export interface FetchedList {
  items: unknown[];
  /** Milliseconds the list stays fresh (2026-07-28 `ttlMs`); undefined: no hint (2025 era). */
  ttlMs?: number;
}

interface CacheEntry {
  items?: unknown[];
  /** When the list goes stale (from `ttlMs`); undefined: good until the server says it changed. */
  expiresAt?: number;
  /** The refreshes of one kind, one after another. */
  chain: Promise<unknown>;
  /** A refresh is waiting in `chain` that has not started fetching yet. */
  queued: boolean;
}

export class ListCache {
  private readonly entries = new Map<ListKind, CacheEntry>();

  constructor(private readonly source: ListSource, private readonly now: () => number = Date.now) {}

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

  /** The full list (all pages), from cache while fresh (within its `ttlMs`). Empty when not advertised. */
  async list<K extends ListKind>(kind: K): Promise<ListItems[K]> {
    const cache = this.entries.get(kind);
    if (cache?.items && !cache.queued && this.fresh(cache)) return cache.items as ListItems[K];
    if (cache?.queued) {
      await cache.chain.catch(() => undefined);
      if (cache.items) return cache.items as ListItems[K];
    }
    return this.refresh(kind);
  }

  /** Whether a cached list may still be served: no hint, or its hint has not run out. */
  isFresh(kind: ListKind): boolean {
    const cache = this.entries.get(kind);
    return !!cache?.items && this.fresh(cache);
  }

  private fresh(entry: CacheEntry): boolean {
    return entry.expiresAt === undefined || this.now() < entry.expiresAt;
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
      const { items, ttlMs } = await this.source.fetch(kind);
      if (this.entries.get(kind) === entry) {
        // A stale list fetched again is often the same: telling the UI only about real changes
        // keeps a view that lists on every refresh from refetching a 0-ttl list in a loop.
        const same = entry.items !== undefined && JSON.stringify(entry.items) === JSON.stringify(items);
        entry.items = items;
        entry.expiresAt = ttlMs === undefined ? undefined : this.now() + Math.min(Math.max(ttlMs, 0), MAX_TTL_MS);
        if (!same) this.source.changed(kind);
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

/** A server cannot pin a list longer than a day (the SDK caps its own cache the same way). */
const MAX_TTL_MS = 86_400_000;

/**
 * Every page of a list: the SDK walks the cursors (stopping at a page that repeats the previous
 * one, and at 64 pages), keeps page one's cache hint, and stores the tools for its own output
 * validation. `refresh`, because this cache has already decided the list must be fetched.
 */
export async function fetchList(client: Client, kind: ListKind, options: CacheableRequestOptions): Promise<FetchedList> {
  const refresh: CacheableRequestOptions = { ...options, cacheMode: 'refresh' };
  let result: Record<string, unknown>;
  let items: unknown[];
  switch (kind) {
    case 'tools': {
      const page = await client.listTools(undefined, refresh);
      [result, items] = [page, page.tools];
      break;
    }
    case 'resources': {
      const page = await client.listResources(undefined, refresh);
      [result, items] = [page, page.resources];
      break;
    }
    case 'resourceTemplates': {
      const page = await client.listResourceTemplates(undefined, refresh);
      [result, items] = [page, page.resourceTemplates];
      break;
    }
    case 'prompts': {
      const page = await client.listPrompts(undefined, refresh);
      [result, items] = [page, page.prompts];
      break;
    }
  }
  // `ttlMs` is on the wire result but not in the SDK's public types (2026-07-28 only).
  const ttlMs = client.getProtocolEra() === 'modern' && typeof result.ttlMs === 'number' ? result.ttlMs : undefined;
  return { items, ttlMs };
}
