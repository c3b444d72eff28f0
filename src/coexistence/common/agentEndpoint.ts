/**
 * The loopback Streamable HTTP endpoint through which VS Code's own MCP host reaches the
 * servers MCP Workbench runs (mode 2 of docs/coexistence.md): 127.0.0.1 on a random port, one
 * path per server (`/mcp/<random route id>`), a per-window secret every request must carry
 * (`Authorization: Bearer …`, checked by agentEndpointGate.ts before anything is parsed), and
 * bodies capped. Each request is served statelessly by the SDK's `createMcpHandler` (both
 * protocol eras) with a fresh proxy server forwarding to our connection (agentProxy.ts).
 *
 * No `vscode` here. The SDK's server side loads with the first request that passes the gate.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler, type NodeMcpRequestHandler } from '@modelcontextprotocol/node';
import { checkAgentRequest, MAX_AGENT_REQUEST_BYTES, newSecret } from './agentEndpointGate';
import { createProxyServer, InFlightCalls, type ProxyHooks, type ProxyTarget } from './agentProxy';

/** One server reachable through the endpoint. */
export interface AgentRoute {
  target: ProxyTarget;
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
  private readonly handlers = new Map<string, { mcp: McpHttpHandler; node: NodeMcpRequestHandler }>();

  /**
   * @param routes finds the server of a route id (undefined: no such route, 404).
   * @param log receives one line per refused request and per failure inside the SDK.
   */
  constructor(private readonly routes: (routeId: string) => AgentRoute | undefined, private readonly log: (message: string) => void = () => undefined) {}

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

  /** Drops the SDK handler of a route whose server went away (its open streams end). */
  async forget(routeId: string): Promise<void> {
    const handler = this.handlers.get(routeId);
    this.handlers.delete(routeId);
    await handler?.mcp.close?.();
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
      res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({
        jsonrpc: '2.0', id: null,
        error: { code: -32603, message: `${route.target.definition.label} is not running in MCP Workbench: start it there.` },
      }));
      return;
    }
    try {
      await this.handlerOf(verdict.routeId, route).node(req, res);
    } catch (error) {
      this.log(`agent endpoint: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) refuse(res, 500, 'Internal error');
      else res.end();
    }
  }

  private handlerOf(routeId: string, route: AgentRoute): { mcp: McpHttpHandler; node: NodeMcpRequestHandler } {
    let handler = this.handlers.get(routeId);
    if (!handler) {
      const onerror = (error: Error) => this.log(`agent endpoint: ${error.message}`);
      // The route is looked up again for every request: a restarted server keeps its route.
      const calls = new InFlightCalls();
      const mcp = createMcpHandler(({ requestInfo }) => {
        const current = this.routes(routeId) ?? route;
        return createProxyServer(current.target, current.hooks, { calls, requestSignal: requestInfo?.signal });
      }, {
        legacy: 'stateless', maxRequestBodySize: MAX_AGENT_REQUEST_BYTES, onerror,
      });
      handler = { mcp, node: toNodeHandler(mcp, { maxRequestBodySize: MAX_AGENT_REQUEST_BYTES, onerror }) };
      this.handlers.set(routeId, handler);
    }
    return handler;
  }
}

function refuse(res: ServerResponse, status: number, message: string): void {
  const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8' };
  if (status === 401) headers['www-authenticate'] = 'Bearer realm="MCP Workbench"';
  res.writeHead(status, headers).end(message);
}
