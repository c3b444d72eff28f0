/**
 * The 2025-era clients of one route of the agent endpoint, each in a session of its own. VS
 * Code 1.139 is such a client: after its first POST it opens a GET stream for "async
 * notifications" (extHostMcp.ts `_attachStreamableBackchannel`) and gives up on them for good
 * when the GET is refused, as a stateless endpoint must refuse it. With a session, that stream
 * carries what our connection hears from the server: list changes, log messages (at the level
 * the client set with `logging/setLevel`, which the SDK keeps per session) and updates of the
 * resources it subscribed to. The SDK's sessionful transport does the wire work; this file
 * keeps the sessions and their bounds. 2026-07-28 clients are served statelessly by
 * `createMcpHandler` (agentEndpoint.ts), their changes reach them on `subscriptions/listen`.
 *
 * No `vscode` here.
 */
import { randomBytes } from 'node:crypto';
import {
  isInitializeRequest,
  WebStandardStreamableHTTPServerTransport,
  type LegacyHttpHandler,
  type LoggingMessageNotification,
  type Server,
} from '@modelcontextprotocol/server';
import { asError } from '../../shared/common/errors';

/** Sessions kept per route: VS Code opens one per start of the definition; more are strangers or leftovers. */
export const MAX_SESSIONS_PER_ROUTE = 8;

interface Session {
  server: Server;
  transport: WebStandardStreamableHTTPServerTransport;
  /** Resource URIs this client subscribed to. */
  subscriptions: Set<string>;
}

/** What a session's server is built with: its id once known, for the per-session state. */
export type SessionServerFactory = (session: { subscriptions: Set<string> }) => Server;

export class LegacySessions {
  private readonly sessions = new Map<string, Session>();

  /**
   * @param stateless serves a request that names no session and is no `initialize` (a client
   * that does without sessions, as the endpoint allowed before it had them).
   */
  constructor(
    private readonly newServer: SessionServerFactory,
    private readonly stateless: LegacyHttpHandler,
    private readonly onerror: (error: Error) => void = () => undefined,
  ) {}

  /** Serves one 2025-era request: a new session for `initialize`, the session it names, or statelessly. */
  async fetch(request: Request): Promise<Response> {
    const id = request.headers.get('mcp-session-id');
    if (id !== null) {
      const session = this.sessions.get(id);
      // The spec's answer to an unknown session: the client starts a new one (VS Code does).
      if (!session) return Response.json({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }, { status: 404 });
      return session.transport.handleRequest(request);
    }
    if (request.method !== 'POST') return new Response('Method not allowed.', { status: 405, headers: { allow: 'POST' } });
    if (
      !isInitializeRequest(
        await request
          .clone()
          .json()
          .catch(() => undefined),
      )
    )
      return this.stateless(request);
    const subscriptions = new Set<string>();
    const server = this.newServer({ subscriptions });
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomBytes(16).toString('base64url'),
      onsessioninitialized: (sessionId) => {
        this.sessions.set(sessionId, { server, transport, subscriptions });
        this.evictOldest();
      },
      onsessionclosed: (sessionId) => void this.close(sessionId),
    });
    transport.onerror = this.onerror;
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    // An initialize the transport refused (say, a bad Accept header) leaves no session behind.
    if (transport.sessionId === undefined) await server.close().catch(() => undefined);
    return response;
  }

  /** Sends a notification to every session (list changes). */
  broadcast(send: (server: Server) => Promise<void>): void {
    for (const session of this.sessions.values()) send(session.server).catch((error: unknown) => this.onerror(asError(error)));
  }

  /** Sends a log message to every session, unless below the level it set (the SDK keeps it per session). */
  log(params: LoggingMessageNotification['params']): void {
    for (const [id, session] of this.sessions) session.server.sendLoggingMessage(params, id).catch((error: unknown) => this.onerror(asError(error)));
  }

  /** Sends `notifications/resources/updated` to the sessions that subscribed to `uri`. */
  resourceUpdated(uri: string): void {
    for (const session of this.sessions.values()) {
      if (session.subscriptions.has(uri)) session.server.sendResourceUpdated({ uri }).catch((error: unknown) => this.onerror(asError(error)));
    }
  }

  get size(): number {
    return this.sessions.size;
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id)));
  }

  private async close(sessionId: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    this.sessions.delete(sessionId);
    await session.server.close().catch(() => undefined);
  }

  private evictOldest(): void {
    while (this.sessions.size > MAX_SESSIONS_PER_ROUTE) void this.close(this.sessions.keys().next().value!);
  }
}
