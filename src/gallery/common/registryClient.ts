/**
 * A client of the MCP registry API (`GET {base}/v0.1/servers`, `…/{name}/versions/latest`) on
 * `fetch`, with a timeout, cancellation and one-line errors that say what to do. Pure (no
 * `vscode`): the glue passes the setting's URL and an AbortSignal.
 */
import { readEntry, readServerList, type RegistryEntry, type RegistryPage } from './registryTypes';
import { errorMessage } from '../../shared/common/errors';

export const REGISTRY_URL_SETTING = 'mcpWorkbench.registry.url';
export const DEFAULT_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';
export const DEFAULT_TIMEOUT_MS = 15_000;
/** Far above a page of 100 servers; a larger answer is not a registry's. */
const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/** A failure the user is told about as it is (`message` is the one line to show). */
export class RegistryError extends Error {
  constructor(
    message: string,
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'RegistryError';
  }
}

/** The request was cancelled by the caller (a new search, the picker closed): nothing to show. */
export class RegistryCancelled extends Error {
  constructor() {
    super('cancelled');
    this.name = 'RegistryCancelled';
  }
}

export interface ListQuery {
  search?: string;
  cursor?: string;
  limit?: number;
}

export interface RegistryClientOptions {
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Sent as User-Agent, so registry operators can tell clients apart. */
  userAgent?: string;
}

/** The base URL without a trailing slash; throws a RegistryError for anything but http(s). */
export function registryBaseUrl(setting: string | undefined): string {
  const text = (setting ?? '').trim() || DEFAULT_REGISTRY_URL;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new RegistryError(`${REGISTRY_URL_SETTING} is not a URL: "${text}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RegistryError(`${REGISTRY_URL_SETTING} must be an http(s) URL, not "${text}".`);
  url.search = '';
  url.hash = '';
  return url.href.replace(/\/+$/, '');
}

export class RegistryClient {
  private readonly timeoutMs: number;
  private readonly fetchImpl: typeof fetch;

  constructor(
    readonly baseUrl: string,
    private readonly options: RegistryClientOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.fetchImpl = options.fetch ?? fetch;
  }

  /** One page of the newest version of each server, filtered by `search` (a substring of the name). */
  async listServers(query: ListQuery, signal?: AbortSignal): Promise<RegistryPage> {
    const params = new URLSearchParams();
    if (query.search?.trim()) params.set('search', query.search.trim());
    if (query.cursor) params.set('cursor', query.cursor);
    params.set('limit', String(query.limit ?? 30));
    // Only the latest version of each server; entries of older registries are filtered on isLatest too.
    params.set('version', 'latest');
    const body = await this.getJson(`${this.baseUrl}/v0.1/servers?${params}`, signal);
    try {
      return readServerList(body);
    } catch (error) {
      throw new RegistryError(
        `The MCP registry at ${this.baseUrl} sent something that is not a server list (${(error as Error).message}). Check ${REGISTRY_URL_SETTING}.`,
      );
    }
  }

  /** The latest version of one server, by its registry name (`io.github.user/weather`). */
  async getServer(name: string, signal?: AbortSignal): Promise<RegistryEntry> {
    const body = await this.getJson(`${this.baseUrl}/v0.1/servers/${encodeURIComponent(name)}/versions/latest`, signal, name);
    const entry = readEntry(body);
    if (!entry)
      throw new RegistryError(`The MCP registry at ${this.baseUrl} sent something that is not a server for "${name}". Check ${REGISTRY_URL_SETTING}.`);
    return entry;
  }

  private async getJson(url: string, signal: AbortSignal | undefined, serverName?: string): Promise<unknown> {
    if (signal?.aborted) throw new RegistryCancelled();
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), this.timeoutMs);
    const both = new AbortController();
    const abort = () => both.abort();
    timeout.signal.addEventListener('abort', abort, { once: true });
    signal?.addEventListener('abort', abort, { once: true });
    const unreachable = (reason: string) =>
      new RegistryError(`Could not reach the MCP registry at ${this.baseUrl}: ${reason}. Check your network or ${REGISTRY_URL_SETTING}.`);
    const failed = (error: unknown): Error => {
      if (signal?.aborted) return new RegistryCancelled();
      if (timeout.signal.aborted)
        return unreachable(`no answer within ${this.timeoutMs < 1000 ? `${this.timeoutMs} ms` : `${Math.round(this.timeoutMs / 1000)} s`}`);
      return unreachable(networkReason(error));
    };
    try {
      let response: Response;
      try {
        response = await this.fetchImpl(url, {
          signal: both.signal,
          headers: { Accept: 'application/json', ...(this.options.userAgent ? { 'User-Agent': this.options.userAgent } : {}) },
          redirect: 'follow',
        });
      } catch (error) {
        throw failed(error);
      }
      if (response.status === 404 && serverName !== undefined) {
        throw new RegistryError(`The MCP registry at ${this.baseUrl} has no server named "${serverName}".`);
      }
      if (!response.ok) {
        throw new RegistryError(
          `The MCP registry at ${this.baseUrl} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}. Check ${REGISTRY_URL_SETTING} or try again later.`,
        );
      }
      let text: string;
      try {
        text = await readCapped(response, MAX_RESPONSE_BYTES);
      } catch (error) {
        if (error instanceof RegistryError) throw error;
        throw failed(error);
      }
      try {
        return JSON.parse(text);
      } catch {
        throw new RegistryError(`The MCP registry at ${this.baseUrl} sent something that is not JSON. Check ${REGISTRY_URL_SETTING}.`, text.slice(0, 200));
      }
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
    }
  }
}

/** `fetch failed` says nothing; its cause (`connect ECONNREFUSED 127.0.0.1:9`, `getaddrinfo ENOTFOUND …`) does. */
function networkReason(error: unknown): string {
  const cause = (error as { cause?: { message?: string; code?: string } } | undefined)?.cause;
  const text = cause?.message || cause?.code || errorMessage(error);
  return text.replace(/\.$/, '');
}

async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  const tooLarge = () => new RegistryError(`The MCP registry's answer is larger than ${maxBytes / 1024 / 1024} MB; it was not read.`);
  if (declared > maxBytes) throw tooLarge();
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
