/**
 * The loopback Streamable HTTP endpoint through which VS Code's own MCP host reaches the
 * servers MCP Workbench runs (mode 2 of docs/coexistence.md): 127.0.0.1 on a random port, one
 * path per server (`/mcp/<random route id>`), a per-window secret every request must carry
 * (`Authorization: Bearer …`, checked by agentEndpointGate.ts before anything is parsed), and
 * bodies capped. A 2026-07-28 request is served statelessly by the SDK's `createMcpHandler`,
 * a 2025-era client (VS Code 1.139) in a session of its own (agentSessions.ts), each by a proxy
 * server forwarding to our connection (agentProxy.ts). What the connection hears from the
 * server (list changes, log messages, resource updates) is passed on to both: on
 * `subscriptions/listen` streams and on the sessions' GET streams.
 *
 * No `vscode` here. The SDK's server side loads with the first request that passes the gate.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, isLegacyRequest, legacyStatelessFallback, type LoggingMessageNotification, type McpHttpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler, type NodeMcpRequestHandler } from '@modelcontextprotocol/node';
import type { ForwardedNotification, ListKind } from '../../mcp/connection/connectionTypes';
import type { Event } from '../../shared/common/emitter';
import { redactText } from '../../shared/common/redact';
import { checkAgentRequest, MAX_AGENT_REQUEST_BYTES, newSecret } from './agentEndpointGate';
import { createProxyServer, InFlightCalls, type ProxyHooks, type ProxyRequestContext, type ProxyTarget } from './agentProxy';
import { LegacySessions } from './agentSessions';
import { errorMessage } from '../../shared/common/errors';

/** One server reachable through the endpoint: our connection to it (McpServerConnection). */
export interface AgentRoute {
  target: ProxyTarget & {
    readonly onDidChangeList: Event<ListKind>;
    readonly onDidNotify: Event<ForwardedNotification>;
  };
  hooks: ProxyHooks;
}

/** Connections open at once; VS Code needs a few per server. */
const MAX_CONNECTIONS = 64;
/** A client that takes longer than this to send its request (headers and body) is cut off. */
const REQUEST_TIMEOUT_MS = 30_000;

export class AgentEndpoint {
  /** The per-window secret: VS Code gets it in the definitions' headers; it never leaves memory otherwise. */
  readonly secret = newSecret(randomBytes);
  private server: HttpServer | undefined;
  private listening: Promise<number> | undefined;
  private readonly handlers = new Map<string, RouteHandler>();

  /**
   * @param routes finds the server of a route id (undefined: no such route, 404).
   * @param log receives one line per refused request and per failure inside the SDK.
   */
  constructor(
    private readonly routes: (routeId: string) => AgentRoute | undefined,
    private readonly log: (message: string) => void = () => undefined,
  ) {}

  /** Starts listening on 127.0.0.1 (once); resolves with the port. */
  listen(): Promise<number> {
    this.listening ??= new Promise<number>((resolve, reject) => {
      const server = createServer((req, res) => void this.serve(req, res));
      server.maxConnections = MAX_CONNECTIONS;
      server.requestTimeout = REQUEST_TIMEOUT_MS;
      server.headersTimeout = Math.min(server.headersTimeout, REQUEST_TIMEOUT_MS);
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        server.on('error', (error) => this.log(`agent endpoint: ${error.message}`));
        resolve((server.address() as AddressInfo).port);
      });
      this.server = server;
    });
    return this.listening;
  }

  /** The port, once listening. */
  get port(): number | undefined {
    const address = this.server?.listening ? this.server.address() : undefined;
    return address && typeof address === 'object' ? address.port : undefined;
  }

  /** The URL of a route (listen() must have resolved). */
  url(routeId: string): string {
    if (this.port === undefined) throw new Error('The agent endpoint is not listening.');
    return `http://127.0.0.1:${this.port}/mcp/${routeId}`;
  }

  /** The headers every request must carry. */
  headers(): Record<string, string> {
    return { Authorization: `Bearer ${this.secret}` };
  }

  /** The 2025-era sessions open on all routes. */
  sessionCount(): number {
    return [...this.handlers.values()].reduce((sum, h) => sum + h.sessionCount, 0);
  }

  /** Drops the SDK handler of a route whose server went away (its open streams end). */
  async forget(routeId: string): Promise<void> {
    const handler = this.handlers.get(routeId);
    this.handlers.delete(routeId);
    await handler?.close();
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.listening = undefined;
    await Promise.all([...this.handlers.keys()].map((id) => this.forget(id)));
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const port = this.port;
    const verdict = port === undefined ? { ok: false as const, status: 503, message: 'Closing' } : checkAgentRequest(req, { port, secret: this.secret });
    if (!verdict.ok) {
      this.log(`agent endpoint: refused ${req.method ?? '?'} (${verdict.status} ${verdict.message})`);
      refuse(res, verdict.status, verdict.message);
      return;
    }
    const route = this.routes(verdict.routeId);
    if (!route) {
      refuse(res, 404, 'Not found');
      return;
    }
    if (route.target.state.kind !== 'running') {
      // A JSON-RPC error the agent can show: the server is ours to start.
      res.writeHead(503, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32603, message: `${route.target.definition.label} is not running in MCP Workbench: start it there.` },
        }),
      );
      return;
    }
    try {
      await this.handlerOf(verdict.routeId, route).node(req, res);
    } catch (error) {
      this.log(`agent endpoint: ${errorMessage(error)}`);
      if (!res.headersSent) refuse(res, 500, 'Internal error');
      else res.end();
    }
  }

  private handlerOf(routeId: string, route: AgentRoute): RouteHandler {
    let handler = this.handlers.get(routeId);
    if (!handler) {
      // The route is looked up again for every request: a restarted server keeps its route.
      handler = new RouteHandler(
        () => this.routes(routeId) ?? route,
        (error) => this.log(`agent endpoint: ${error.message}`),
      );
      this.handlers.set(routeId, handler);
    }
    handler.follow(route.target);
    return handler;
  }
}

/** The serving of one route: both eras, and what the server announces passed on to their clients. */
class RouteHandler {
  readonly node: NodeMcpRequestHandler;
  private readonly modern: McpHttpHandler;
  private readonly sessions: LegacySessions;
  private followed: AgentRoute['target'] | undefined;
  private following: { dispose(): void }[] = [];

  constructor(
    private readonly current: () => AgentRoute,
    onerror: (error: Error) => void,
  ) {
    const calls = new InFlightCalls();
    const serverFor = (context: Omit<ProxyRequestContext, 'calls'>) => {
      const { target, hooks } = current();
      return createProxyServer(target, hooks, { calls, ...context });
    };
    const maxRequestBodySize = MAX_AGENT_REQUEST_BYTES;
    this.modern = createMcpHandler(({ requestInfo }) => serverFor({ requestSignal: requestInfo?.signal, listens: true }), {
      legacy: 'reject',
      maxRequestBodySize,
      onerror,
    });
    const stateless = legacyStatelessFallback(() => serverFor({}), onerror, { maxRequestBodySize });
    this.sessions = new LegacySessions((session) => serverFor({ session }), stateless, onerror);
    // The SDK's own routing predicate (the pattern its docs give for a sessionful 2025 leg).
    const fetch = async (request: Request) =>
      (await isLegacyRequest(request, undefined, { maxRequestBodySize })) ? this.sessions.fetch(request) : this.modern.fetch(request);
    this.node = toNodeHandler({ fetch }, { maxRequestBodySize, onerror });
  }

  /** Follows the announcements of the route's connection (again when the route got a new one). */
  follow(target: AgentRoute['target']): void {
    if (target === this.followed) return;
    this.following.forEach((d) => d.dispose());
    this.followed = target;
    this.following = [target.onDidChangeList((kind) => this.listChanged(kind)), target.onDidNotify((n) => this.notified(n))];
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  async close(): Promise<void> {
    this.following.forEach((d) => d.dispose());
    this.following = [];
    await this.sessions.closeAll();
    await this.modern.close();
  }

  /**
   * A list of the server changed (our connection re-fetched it, mostly on the server's word):
   * tell the agent. One `resources/list_changed` re-fetches both resource lists, so templates add nothing.
   */
  private listChanged(kind: ListKind): void {
    if (kind === 'tools') {
      this.modern.notify.toolsChanged();
      this.sessions.broadcast((server) => server.sendToolListChanged());
    } else if (kind === 'prompts') {
      this.modern.notify.promptsChanged();
      this.sessions.broadcast((server) => server.sendPromptListChanged());
    } else if (kind === 'resources') {
      this.modern.notify.resourcesChanged();
      this.sessions.broadcast((server) => server.sendResourceListChanged());
    }
  }

  private notified(notification: ForwardedNotification): void {
    if (notification.method === 'notifications/resources/updated') {
      this.sessions.resourceUpdated(notification.params.uri);
      // 2026-07-28 clients get it on the listen streams that asked for the URI (the SDK's router
      // filters): when our connection follows it upstream (for a 2025-era session or our editor).
      this.modern.notify.resourceUpdated(notification.params.uri);
      return;
    }
    const { target, hooks } = this.current();
    this.sessions.log(redactLog(notification.params, hooks.secrets?.() ?? target.definition.secrets));
  }
}

/** A log message as the agent gets it: without the secrets we know of, as every message we pass on. */
export function redactLog(params: LoggingMessageNotification['params'], secrets: readonly string[]): LoggingMessageNotification['params'] {
  if (typeof params.data === 'string') return { ...params, data: redactText(params.data, secrets) };
  const json = JSON.stringify(params.data) ?? 'null';
  const redacted = redactText(json, secrets);
  if (redacted === json) return params;
  try {
    return { ...params, data: JSON.parse(redacted) as unknown };
  } catch {
    return { ...params, data: redacted };
  }
}

function refuse(res: ServerResponse, status: number, message: string): void {
  const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8' };
  if (status === 401) headers['www-authenticate'] = 'Bearer realm="MCP Workbench"';
  res.writeHead(status, headers).end(message);
}
