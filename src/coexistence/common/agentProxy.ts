/**
 * The MCP server VS Code's agent talks to for one of our servers (mode 2 of
 * docs/coexistence.md): an SDK v2 low-level `Server` whose handlers forward to our own
 * connection, so the agent and our tree share one server process, one session and one
 * sign-in. What it forwards: tools (list, call, with progress and cancellation), resources
 * (list, templates, read), prompts (list, get) and completions; to a 2025-era client in a
 * session (agentSessions.ts; VS Code 1.139 is one) also `logging/setLevel` and resource
 * subscriptions. The notifications the server sends our connection (list changes, log
 * messages, resource updates) are passed on by agentEndpoint.ts. Requests the server makes of
 * its client during a call (sampling, elicitation, roots) are answered by MCP Workbench as for
 * any call, in its MCP Requests panel.
 *
 * No `vscode` here. The SDK's server side is loaded on first use (esbuild.mjs, agentDeps.js).
 */
import { ProtocolError, ProtocolErrorCode, Server, type CallToolResult, type ServerCapabilities, type Tool } from '@modelcontextprotocol/server';
import type { CompleteRequest, CompleteResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/client';
import type { CallOptions, ListItems, ListKind } from '../../mcp/connection/connectionTypes';
import type { ServerState } from '../../mcp/serverState';
import { redactText } from '../../shared/common/redact';
import { errorMessage } from '../../shared/common/errors';

/** The part of our connection (McpServerConnection) the proxy forwards to. */
export interface ProxyTarget {
  readonly definition: { readonly label: string; readonly secrets: readonly string[] };
  readonly state: ServerState;
  list<K extends ListKind>(kind: K): Promise<ListItems[K]>;
  callTool(name: string, args: Record<string, unknown> | undefined, options?: CallOptions): Promise<unknown>;
  readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult>;
  getPrompt(name: string, args?: Record<string, string>, options?: CallOptions): Promise<GetPromptResult>;
  /** Starts following a resource's updates (resources/subscribe or subscriptions/listen, by the server's era). */
  subscribeResource(uri: string): Promise<unknown>;
  /** The SDK client of the running server (completions go to it as they are). */
  readonly client: { complete(params: CompleteRequest['params'], options?: { signal?: AbortSignal }): Promise<CompleteResult> } | undefined;
}

export interface ProxyHooks {
  /**
   * Our own approval of a tool call from VS Code's agent, on top of VS Code's confirmation
   * (docs/coexistence.md, "Approvals"): resolves true to run it. `tool` is undefined when the
   * server does not list it (then it is treated as not read-only).
   */
  confirmToolCall(tool: Tool | undefined, name: string, args: Record<string, unknown>): Promise<boolean>;
  /** What to take out of error messages; default: the secrets of the server's own config. */
  secrets?(): readonly string[];
}

/** What a tool call the user declined in MCP Workbench returns to the agent. */
export const DECLINED_TEXT = 'The user declined to run this tool in MCP Workbench.';

/**
 * The tool calls of one route in flight, by JSON-RPC id. The endpoint is stateless: the
 * `notifications/cancelled` of a call arrives in another HTTP request, served by another
 * server instance, and finds the call here. (Without sessions, two clients of one route could
 * use the same id; the worse that can happen is that one's cancel ends the other's call.)
 */
export class InFlightCalls {
  private readonly calls = new Map<string | number, AbortController>();

  /** Registers a call; its signal aborts on a cancel for `id` or when any of `signals` aborts. */
  start(id: string | number, signals: (AbortSignal | undefined)[]): { signal: AbortSignal; done(): void } {
    const controller = new AbortController();
    this.calls.set(id, controller);
    return {
      signal: AbortSignal.any([controller.signal, ...signals.filter((s): s is AbortSignal => s !== undefined)]),
      done: () => {
        if (this.calls.get(id) === controller) this.calls.delete(id);
      },
    };
  }

  cancel(id: unknown): void {
    if (typeof id === 'string' || typeof id === 'number') this.calls.get(id)?.abort();
  }

  get size(): number {
    return this.calls.size;
  }
}

/** What one HTTP request's server instance shares with the others of its route. */
export interface ProxyRequestContext {
  calls: InFlightCalls;
  /** Aborts when the HTTP client goes away (the 2026-07-28 way of cancelling). */
  requestSignal?: AbortSignal;
  /** The 2025-era session the server serves (agentSessions.ts); undefined for 2026-07-28 requests. */
  session?: { subscriptions: Set<string> };
  /** A 2026-07-28 request: resource subscriptions come on the client's subscriptions/listen stream. */
  listens?: boolean;
}

/** Builds the server for one request (createMcpHandler makes one per HTTP request). */
export function createProxyServer(target: ProxyTarget, hooks: ProxyHooks, context: ProxyRequestContext = { calls: new InFlightCalls() }): Server {
  const state = target.state;
  if (state.kind !== 'running') throw new ProtocolError(ProtocolErrorCode.InternalError, `${target.definition.label} is not running in MCP Workbench.`);
  const upstream = state.capabilities;
  const session = context.session;
  const capabilities: ServerCapabilities = {};
  // Our connection follows every list it has (on the server's announcements and on our own
  // refreshes), and agentEndpoint.ts passes each change on: so the agent may count on them.
  const listChanged = { listChanged: true };
  if (upstream.tools) capabilities.tools = listChanged;
  // Subscriptions: a 2025-era client in a session subscribes with resources/subscribe (below); a
  // 2026-07-28 one names its URIs on its subscriptions/listen stream (the SDK's router).
  const subscribable = (upstream.resources as { subscribe?: boolean } | undefined)?.subscribe === true && (session !== undefined || context.listens === true);
  if (upstream.resources) capabilities.resources = { ...listChanged, ...(subscribable ? { subscribe: true } : {}) };
  if (upstream.prompts) capabilities.prompts = listChanged;
  if (upstream.completions) capabilities.completions = {};
  // `logging/setLevel` is kept per session by the SDK; 2026-07-28 dropped it (the level rides on each request).
  if (upstream.logging && session) capabilities.logging = {};
  const { name, version, title } = state.serverInfo;
  const server = new Server(
    { name, version, ...(title !== undefined ? { title } : {}) },
    { capabilities, ...(state.instructions !== undefined ? { instructions: state.instructions } : {}) },
  );
  const forwarded = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw asProtocolError(error, hooks.secrets?.() ?? target.definition.secrets);
    }
  };

  if (capabilities.tools) {
    server.setRequestHandler('tools/list', (request) =>
      forwarded(async () => {
        refuseCursor(request.params?.cursor);
        return { tools: (await target.list('tools')).map(forAgent) };
      }),
    );
    server.setRequestHandler('tools/call', (request, ctx) =>
      forwarded(async () => {
        const args = isRecord(request.params.arguments) ? request.params.arguments : {};
        const listed = (await target.list('tools')).find((t) => t.name === request.params.name);
        if (!(await hooks.confirmToolCall(listed, request.params.name, args))) {
          return { content: [{ type: 'text', text: DECLINED_TEXT }], isError: true } satisfies CallToolResult;
        }
        const progressToken = ctx.mcpReq._meta?.progressToken;
        const call = context.calls.start(ctx.mcpReq.id, [ctx.mcpReq.signal, context.requestSignal]);
        try {
          const result = await target.callTool(request.params.name, args, {
            signal: call.signal,
            onprogress:
              progressToken === undefined
                ? undefined
                : (progress) => void ctx.mcpReq.notify({ method: 'notifications/progress', params: { ...progress, progressToken } }).catch(() => undefined),
          });
          return result as CallToolResult;
        } finally {
          call.done();
        }
      }),
    );
    server.setNotificationHandler('notifications/cancelled', (notification) => context.calls.cancel(notification.params?.requestId));
  }
  if (capabilities.resources) {
    server.setRequestHandler('resources/list', (request) =>
      forwarded(async () => {
        refuseCursor(request.params?.cursor);
        return { resources: await target.list('resources') };
      }),
    );
    server.setRequestHandler('resources/templates/list', (request) =>
      forwarded(async () => {
        refuseCursor(request.params?.cursor);
        return { resourceTemplates: await target.list('resourceTemplates') };
      }),
    );
    server.setRequestHandler('resources/read', (request, ctx) => forwarded(() => target.readResource(request.params.uri, { signal: signalOf(ctx, context) })));
  }
  if (subscribable && session) {
    // Followed upstream once asked for and kept: our editor may follow the same resource on the
    // same connection, and servers keep one subscription per URI, not a count.
    server.setRequestHandler('resources/subscribe', (request) =>
      forwarded(async () => {
        await target.subscribeResource(request.params.uri);
        session.subscriptions.add(request.params.uri);
        return {};
      }),
    );
    server.setRequestHandler('resources/unsubscribe', (request) => {
      session.subscriptions.delete(request.params.uri);
      return {};
    });
  }
  if (capabilities.completions) {
    server.setRequestHandler('completion/complete', (request, ctx) =>
      forwarded(async () => {
        const client = target.client;
        if (!client) throw new ProtocolError(ProtocolErrorCode.InternalError, `${target.definition.label} is not running in MCP Workbench.`);
        return client.complete(request.params, { signal: signalOf(ctx, context) });
      }),
    );
  }
  if (capabilities.prompts) {
    server.setRequestHandler('prompts/list', (request) =>
      forwarded(async () => {
        refuseCursor(request.params?.cursor);
        return { prompts: await target.list('prompts') };
      }),
    );
    server.setRequestHandler('prompts/get', (request, ctx) =>
      forwarded(() => target.getPrompt(request.params.name, stringRecord(request.params.arguments), { signal: signalOf(ctx, context) })),
    );
  }
  return server;
}

/**
 * A tool as the agent sees it: as listed, without `execution` (a call the server runs as a task
 * is followed to its end by our connection, so the agent just waits for the result).
 */
export function forAgent(tool: Tool): Tool {
  const { execution: _execution, ...rest } = tool as Tool & { execution?: unknown };
  return rest;
}

/**
 * Our lists are whole (the connection reads every page), so no cursor is ever handed out: a
 * request carrying one did not get it from us.
 */
function refuseCursor(cursor: unknown): void {
  if (cursor !== undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid cursor');
}

/**
 * A failure as the agent receives it: the server's own JSON-RPC error keeps its code (as the
 * server sent it: the SDK's client renames some, e.g. -32002 to -32602, but keeps the original
 * in its message), anything else (a stopped server, a timeout) is an internal error. The message
 * goes to a model, so the secrets of the server's config are taken out of it, as from every
 * message we show.
 */
export function asProtocolError(error: unknown, secrets: readonly string[]): ProtocolError {
  const raw = errorMessage(error);
  const sent = /^MCP error (-\d+): /.exec(raw);
  const code = sent ? Number(sent[1]) : (error as { code?: unknown } | undefined)?.code;
  const message = redactText(sent ? raw.slice(sent[0].length) : raw, secrets);
  return new ProtocolError(typeof code === 'number' && Number.isInteger(code) && code < 0 ? code : ProtocolErrorCode.InternalError, message);
}

function signalOf(ctx: { mcpReq: { signal: AbortSignal } }, context: ProxyRequestContext): AbortSignal {
  return context.requestSignal ? AbortSignal.any([ctx.mcpReq.signal, context.requestSignal]) : ctx.mcpReq.signal;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Prompt arguments are strings by the spec; anything else from the agent is dropped, not coerced. */
function stringRecord(value: unknown): Record<string, string> | undefined {
  if (!isRecord(value)) return undefined;
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}
