/**
 * What the loopback endpoint (agentEndpoint.ts) lets through, decided before any MCP code runs.
 * The endpoint listens on 127.0.0.1 only and serves VS Code's own MCP host, which we give the
 * per-window secret in an `Authorization` header (McpHttpServerDefinition.headers). Everything
 * else on this machine, including web pages the user has open (DNS rebinding, cross-origin
 * POSTs), is a stranger: it gets a status code and a few words, never which servers exist.
 * Pure: the request is given as plain values.
 */
import { timingSafeEqual } from 'node:crypto';

/** The largest request body accepted (the SDK's own default: tool arguments may carry file contents). */
export const MAX_AGENT_REQUEST_BYTES = 4 * 1024 * 1024;

/** The path of one server's endpoint: `/mcp/<route id>`; route ids are random per window. */
const ROUTE_PATH = /^\/mcp\/([A-Za-z0-9_-]{16,64})$/;

/** The parts of an HTTP request the gate looks at (header names lower-case, as Node gives them). */
export interface AgentRequestHead {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
}

export type GateVerdict = { ok: true; routeId: string } | { ok: false; status: number; message: string };

/**
 * Checks a request against the endpoint's port and secret. The order matters: the host and
 * origin first (a browser page never gets further), then the secret (a local process without
 * it learns nothing about routes), then the path and size.
 */
export function checkAgentRequest(request: AgentRequestHead, expected: { port: number; secret: string }): GateVerdict {
  const header = (name: string): string | undefined => {
    const value = request.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  if (!isLoopbackHost(header('host'), expected.port)) return deny(403, 'Forbidden host');
  if (!isAllowedOrigin(header('origin'))) return deny(403, 'Forbidden origin');
  if (!hasSecret(header('authorization'), expected.secret)) return deny(401, 'Unauthorized');
  const method = request.method ?? '';
  if (method !== 'POST' && method !== 'GET' && method !== 'DELETE') return deny(405, 'Method not allowed');
  const match = ROUTE_PATH.exec(request.url ?? '');
  if (!match) return deny(404, 'Not found');
  const length = header('content-length');
  if (length !== undefined && !(Number(length) <= MAX_AGENT_REQUEST_BYTES)) return deny(413, 'Request body too large');
  return { ok: true, routeId: match[1] };
}

/** `Bearer <secret>`, compared in constant time. */
export function hasSecret(authorization: string | undefined, secret: string): boolean {
  if (!authorization || !secret) return false;
  const given = Buffer.from(authorization, 'utf8');
  const wanted = Buffer.from(`Bearer ${secret}`, 'utf8');
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/** The Host header of a request made to our own listening address (a rebound DNS name is not). */
export function isLoopbackHost(host: string | undefined, port: number): boolean {
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

/**
 * Whether a request with this Origin header (undefined: none) may come from VS Code's MCP host.
 * VS Code makes the HTTP requests of an extension's MCP server definition in a Node extension
 * host, never in a window: `mainThreadMcp.ts` hands the start to the extension host that
 * registered the collection (Node hosts preferred, "No CORS issues"), and `McpHTTPHandle` there
 * calls Node's `fetch` (`extHostMcp.ts` `_fetchInternal`; `extHostMcpNode.ts` only diverts
 * `unix:`/`pipe:` URLs). Its requests use `redirect: 'manual'`, which keeps them on Node's
 * fetch even where `http.electronFetch` is on (`proxyResolver.ts`). Node's fetch sends no
 * Origin. So any Origin at all is a browser, a webview (MCP Apps show server-made pages) or
 * something pretending: refused, secret or not. (Checked in VS Code 1.139.1, desktop and server
 * alike; docs/coexistence.md cites the files.)
 */
export function isAllowedOrigin(origin: string | undefined): boolean {
  return origin === undefined;
}

/** A route id: 16 random bytes, URL-safe. */
export function newRouteId(randomBytes: (size: number) => Buffer): string {
  return randomBytes(16).toString('base64url');
}

/** The per-window secret: 32 random bytes, URL-safe. */
export function newSecret(randomBytes: (size: number) => Buffer): string {
  return randomBytes(32).toString('base64url');
}

function deny(status: number, message: string): GateVerdict {
  return { ok: false, status, message };
}
