/**
 * The HTTP exchange behind JSON-RPC messages, as the Inspector shows and exports it: redacted
 * headers with the `Mcp-*` ones marked, status, timing, session id and sizes. Built from a raw
 * recorded exchange only when one is opened or exported (src/traffic/common/httpLog.ts), so
 * the request path pays nothing for it. Pure and free of Node APIs.
 */
import { redactHeader, redactText, redactValue } from '../../shared/common/redact';
import type { HttpRecord } from '../../mcp/connection/httpRecording';

export interface HttpHeader {
  name: string;
  value: string;
  /** An `Mcp-*` header (Mcp-Method, Mcp-Name, Mcp-Session-Id, Mcp-Protocol-Version, Mcp-Param-*). */
  mcp?: true;
  /** The value was a credential or held a secret and is replaced. */
  redacted?: true;
}

/** How an exchange was matched to the JSON-RPC message it is shown for. */
export type HttpLink = 'id' | 'method' | 'stream';

export interface HttpExchangeView {
  startedAt: number;
  method: string;
  /** Redacted (query values that are secrets are replaced). */
  url: string;
  status?: number;
  statusText?: string;
  requestHeaders: HttpHeader[];
  responseHeaders: HttpHeader[];
  /** Milliseconds from start to the response headers, and to the end of the body (or stream). */
  headersMs?: number;
  totalMs?: number;
  sessionId?: string;
  requestBytes?: number;
  responseBytes?: number;
  /** An SSE response: `totalMs` is the stream's lifetime, its events are the JSON-RPC rows. */
  stream?: boolean;
  /** Still open (a stream, or no response yet). */
  open?: boolean;
  error?: string;
  /** The request body, redacted, when it is JSON (the JSON-RPC message(s)). */
  requestBody?: string;
  link?: HttpLink;
}

/** Headers as given to fetch, as name/value pairs (names as sent, lower-cased by Headers). */
export function headerPairs(init: RequestInit['headers'] | Headers | undefined): [string, string][] {
  if (!init) return [];
  if (Array.isArray(init)) return init.map(([n, v]) => [String(n), String(v)]);
  if (typeof (init as Headers).forEach === 'function' && typeof (init as Headers).get === 'function') {
    const out: [string, string][] = [];
    (init as Headers).forEach((v, n) => out.push([n, v]));
    return out;
  }
  return Object.entries(init as Record<string, string>).map(([n, v]) => [n, String(v)]);
}

export const isMcpHeader = (name: string) => /^mcp-/i.test(name);

/** Every header through the one redaction path; `Mcp-*` headers marked for highlighting. */
export function headerViews(pairs: readonly [string, string][], secrets: readonly string[]): HttpHeader[] {
  return pairs.map(([name, raw]) => {
    const { value, redacted } = redactHeader(name, raw, secrets);
    const header: HttpHeader = { name, value };
    if (isMcpHeader(name)) header.mcp = true;
    if (redacted) header.redacted = true;
    return header;
  });
}

/** The raw facts of an exchange, as the recording fetch keeps them (read here, never copied). */
export type RawExchange = HttpRecord;

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

/** The shown form of a raw exchange, everything redacted with `secrets`. */
export function exchangeView(raw: RawExchange, secrets: readonly string[], link?: HttpLink): HttpExchangeView {
  const requestHeaders = headerViews(headerPairs(raw.requestHeaders), secrets);
  const responseHeaders = headerViews(headerPairs(raw.responseHeaders), secrets);
  const sessionHeader = [...responseHeaders, ...requestHeaders].find((h) => h.name.toLowerCase() === 'mcp-session-id');
  const view: HttpExchangeView = { startedAt: raw.startedAt, method: raw.method, url: redactText(raw.url, secrets), requestHeaders, responseHeaders };
  if (raw.status !== undefined) view.status = raw.status;
  if (raw.statusText) view.statusText = raw.statusText;
  if (raw.headersMs !== undefined) view.headersMs = Math.round(raw.headersMs * 10) / 10;
  if (raw.totalMs !== undefined) view.totalMs = Math.round(raw.totalMs * 10) / 10;
  else view.open = true;
  if (sessionHeader) view.sessionId = sessionHeader.value;
  if (raw.requestBody !== undefined) {
    view.requestBytes = utf8Bytes(raw.requestBody);
    try {
      view.requestBody = JSON.stringify(redactValue(JSON.parse(raw.requestBody) as unknown, secrets));
    } catch {
      // not JSON (a token request's form): left out, it may carry credentials
    }
  }
  if (raw.status !== undefined) view.responseBytes = raw.responseBytes;
  if (raw.stream) view.stream = true;
  if (raw.error) view.error = redactText(raw.error, secrets);
  if (link) view.link = link;
  return view;
}

/** What linking needs of a JSON-RPC exchange (an Inspector record). */
export interface LinkTarget {
  kind: 'request' | 'notification';
  direction: 'send' | 'receive';
  method: string;
  id?: string | number;
  startedAt: number;
  endedAt?: number;
}

/** The JSON-RPC messages a request body carried (one, or a batch); parsed once per exchange. */
export type BodyMessages = { id?: unknown; method?: unknown }[];

export function bodyMessages(body: string | undefined): BodyMessages {
  if (!body) return [];
  try {
    const value = JSON.parse(body) as unknown;
    const list = Array.isArray(value) ? value : [value];
    return list.filter((m): m is { id?: unknown; method?: unknown } => typeof m === 'object' && m !== null);
  } catch {
    return [];
  }
}

/**
 * The exchanges (indexes into `exchanges`, one server's, oldest first) that carried `target`:
 * the POST whose body holds its id (a request this client sent, or this client's answer to a
 * server's request), or for a notification the POST holding its method nearest in time; for a
 * message the server sent, the stream that was open when it arrived (the latest one started).
 */
export function linkExchanges(
  target: LinkTarget,
  exchanges: readonly RawExchange[],
  messagesOf: (index: number) => BodyMessages,
): { index: number; link: HttpLink }[] {
  const out: { index: number; link: HttpLink }[] = [];
  const nearest = (match: (m: { id?: unknown; method?: unknown }) => boolean): number | undefined => {
    let best: number | undefined;
    let bestDistance = Infinity;
    exchanges.forEach((x, i) => {
      if (x.method !== 'POST' || !messagesOf(i).some(match)) return;
      const distance = Math.abs(x.startedAt - target.startedAt);
      if (distance < bestDistance) {
        best = i;
        bestDistance = distance;
      }
    });
    return best;
  };
  if (target.direction === 'send') {
    const i =
      target.kind === 'request' && target.id !== undefined
        ? nearest((m) => m.id === target.id && m.method === target.method)
        : nearest((m) => m.id === undefined && m.method === target.method);
    if (i !== undefined) out.push({ index: i, link: target.kind === 'request' ? 'id' : 'method' });
    return out;
  }
  // Sent by the server: the stream it came on, then (for a request) the POST of our answer.
  const at = target.startedAt;
  for (let i = exchanges.length - 1; i >= 0; i--) {
    const x = exchanges[i];
    if (!x.stream || x.startedAt > at) continue;
    if (x.totalMs === undefined || x.startedAt + x.totalMs >= at - 5) {
      out.push({ index: i, link: 'stream' });
      break;
    }
  }
  if (target.kind === 'request' && target.id !== undefined) {
    const i = nearest((m) => m.id === target.id && m.method === undefined);
    if (i !== undefined) out.push({ index: i, link: 'id' });
  }
  return out;
}
