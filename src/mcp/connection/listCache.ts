/**
 * The lists a server offers (tools, resources, resource templates, prompts): fetched whole
 * across pages, cached per kind, and fetched again when the server says one changed. How long
 * a cached list is good follows the server: a 2026-07-28 list result carries a cache hint
 * (`ttlMs`), and past it the list is fetched again when asked for; a 2025 result has none and
 * stays good for the session, kept fresh by list-changed notifications. Kept apart from the
 * connection because this is its own policy. No `vscode` import.
 */
import type { CacheableRequestOptions, Client } from '@modelcontextprotocol/client';
import type { ListItems, ListKind, ServerLog } from './connectionTypes';
import { errorMessage } from '../../shared/common/errors';

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
  /** A fetch is under way (the one a new session starts, or a refresh). */
  fetching: boolean;
}

/** Whether two JSON values are equal, without serializing them (stops at the first difference). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k) || !sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

export class ListCache {
  private readonly entries = new Map<ListKind, CacheEntry>();

  constructor(
    private readonly source: ListSource,
    private readonly now: () => number = Date.now,
  ) {}

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
    // A fetch already asked for (e.g. the one a new session starts) is shared, not repeated.
    if (cache?.queued || cache?.fetching) {
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
      cache = { chain: Promise.resolve(), queued: false, fetching: false };
      this.entries.set(kind, cache);
    }
    const entry = cache;
    if (entry.queued) return entry.chain as Promise<ListItems[K]>;
    entry.queued = true;
    entry.chain = entry.chain
      .catch(() => undefined)
      .then(async () => {
        entry.queued = false;
        entry.fetching = true;
        const { items, ttlMs } = await this.source.fetch(kind).finally(() => (entry.fetching = false));
        if (this.entries.get(kind) === entry) {
          // A stale list fetched again is often the same: telling the UI only about real changes
          // keeps a view that lists on every refresh from refetching a 0-ttl list in a loop.
          const same = entry.items !== undefined && sameJson(entry.items, items);
          entry.items = items;
          entry.expiresAt = ttlMs === undefined ? undefined : this.now() + Math.min(Math.max(ttlMs, 0), MAX_TTL_MS);
          if (!same) this.source.changed(kind);
        }
        return items;
      });
    entry.chain.catch((error) => this.source.log.log('warn', `Listing ${kind} failed: ${errorMessage(error)}`));
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
 * How many pages one list may take before the walk gives up. The SDK's default (64) failed a
 * server with 10,000 tools in pages of 100; the walk also stops at a page that repeats the
 * previous one, so this only has to bound a server whose cursors never converge.
 */
export const LIST_MAX_PAGES = 10_000;

const LIST_METHOD: Record<ListKind, { method: 'tools/list' | 'resources/list' | 'resources/templates/list' | 'prompts/list'; field: string }> = {
  tools: { method: 'tools/list', field: 'tools' },
  resources: { method: 'resources/list', field: 'resources' },
  resourceTemplates: { method: 'resources/templates/list', field: 'resourceTemplates' },
  prompts: { method: 'prompts/list', field: 'prompts' },
};

/**
 * Every page of a list: the SDK walks the cursors (stopping at a page that repeats the previous
 * one, and at LIST_MAX_PAGES), keeps page one's cache hint, and stores the tools for what it
 * derives from them (SEP-2243 header mirroring). `refresh`, because this cache has already
 * decided the list must be fetched.
 */
export async function fetchList(client: Client, kind: ListKind, options: CacheableRequestOptions): Promise<FetchedList> {
  const refresh: CacheableRequestOptions = { ...options, cacheMode: 'refresh' };
  let result: Record<string, unknown>;
  try {
    switch (kind) {
      case 'tools':
        result = await client.listTools(undefined, refresh);
        break;
      case 'resources':
        result = await client.listResources(undefined, refresh);
        break;
      case 'resourceTemplates':
        result = await client.listResourceTemplates(undefined, refresh);
        break;
      case 'prompts':
        result = await client.listPrompts(undefined, refresh);
        break;
    }
  } catch (error) {
    // The SDK joins later pages with `push(...page)`, which overflows the stack for a page of
    // ~130k items; such a list is walked here, page by page, instead.
    if (!(error instanceof RangeError)) throw error;
    result = await walkPages(client, kind, options);
  }
  const items = result[LIST_METHOD[kind].field] as unknown[];
  // `ttlMs` is on the wire result but not in the SDK's public types (2026-07-28 only).
  const ttlMs = client.getProtocolEra() === 'modern' && typeof result.ttlMs === 'number' ? result.ttlMs : undefined;
  return { items, ttlMs };
}

/** Pages one by one with explicit cursors (the SDK never aggregates those), appending item by item. */
async function walkPages(client: Client, kind: ListKind, options: CacheableRequestOptions): Promise<Record<string, unknown>> {
  const { method, field } = LIST_METHOD[kind];
  const first = (await client.request({ method, params: {} }, options)) as Record<string, unknown>;
  const items = [...(first[field] as unknown[])];
  let cursor = first.nextCursor as string | undefined;
  for (let pages = 1; cursor !== undefined; pages++) {
    if (pages >= LIST_MAX_PAGES) throw new Error(`${method}: more than ${LIST_MAX_PAGES} pages; the server's pagination does not end`);
    const page = (await client.request({ method, params: { cursor } }, options)) as Record<string, unknown>;
    for (const item of page[field] as unknown[]) items.push(item);
    cursor = page.nextCursor === cursor ? undefined : (page.nextCursor as string | undefined);
  }
  return { ...first, [field]: items, nextCursor: undefined };
}
