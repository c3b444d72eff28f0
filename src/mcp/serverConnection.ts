/**
 * One MCP client connection to one configured server, on the official SDK. The SDK does the
 * protocol (framing, handshake, timeouts, cancellation); this class owns what it leaves to a
 * host: the process/HTTP lifecycle, state, list caches, logging, trace and policy.
 *
 * No `vscode` import: the extension, the unit tests and the headless conformance client all
 * drive this same class.
 */
import * as readline from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolResultSchema,
  ErrorCode,
  type ClientCapabilities,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type GetPromptResult,
  type LoggingLevel,
  type Progress,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  type Root,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { Emitter } from '../shared/common/emitter';
import type { HttpLaunch, Launch, ServerDefinition, StdioLaunch } from '../config/common/launchDefinition';
import { channelLevelFor, formatLogData, type ChannelLevel, type McpLogLevel } from '../shared/common/logLevels';
import { redactText } from '../shared/common/redact';
import type { TimeoutSettings } from '../config/common/serverConfig';
import { STOPPED, type ServerState } from './serverState';
import type { TraceRecord } from './trace';
import { planStdioSpawn, SpawnError, type StdioSpawnPlan } from './stdioSpawn';
import type { WorkbenchOAuthProvider } from './oauthProvider';
import { TracingTransport } from './tracingTransport';

/** Where a connection writes what the user may want to read. */
export interface ServerLog {
  log(level: ChannelLevel, message: string): void;
  /** One line of the server process's stderr: shown as plain output, never as an error. */
  stderr(line: string): void;
}

/** What the hosting environment (the extension, a test, the conformance CLI) provides. */
export interface ConnectionHost {
  readonly clientInfo: { name: string; version: string };
  /** The roots offered to servers: the workspace folders. */
  roots(): Root[];
  /** Environment a stdio server inherits before `envFile` and `env` apply. */
  baseEnv(): Promise<Record<string, string | undefined>>;
  /** Level requested with `logging/setLevel`, or undefined to keep the server's default. */
  serverLogLevel(): McpLogLevel | undefined;
  /** Receives every JSON-RPC message when tracing is on. */
  trace?(server: ServerDefinition, record: TraceRecord): void;
  /**
   * Client features a host implements beyond roots (sampling, elicitation): the capabilities
   * it declares and the request handlers it installs on every new SDK client. Only declare
   * what really works: servers rely on it.
   */
  readonly clientFeatures?: ClientFeatures;
  /** OAuth for protected HTTP servers (MCP authorization); without it a 401 is an error. */
  readonly auth?: ConnectionAuthHost;
}

export interface ClientFeatures {
  capabilities(): ClientCapabilities;
  /** Called for each launch's new Client, before `initialize` is sent. */
  install(client: Client, server: ServerDefinition): void;
}

/** What a host provides so connections can authorize against protected HTTP servers. */
export interface ConnectionAuthHost {
  /**
   * The OAuth client of an HTTP server: credentials stored per server URL, the redirect
   * handling, settings from the entry's `oauth` field. Undefined: the server gets no OAuth.
   */
  provider(server: ServerDefinition, launch: HttpLaunch): WorkbenchOAuthProvider | undefined | Promise<WorkbenchOAuthProvider | undefined>;
  /**
   * Whether the user may be sent to the browser now without having asked to sign in:
   * `start` for a start not begun by `signIn()`, `request` when a running server asks for new
   * authorization (expired session without refresh token, more scopes). Default: no.
   */
  mayPrompt?(server: ServerDefinition, reason: 'start' | 'request'): boolean | Promise<boolean>;
}

/** Authorization attempts for one start or one request (step-up included) before giving up. */
const MAX_AUTH_ATTEMPTS = 3;

export interface StartOptions {
  /** The user asked to sign in: a protected server may open the browser. */
  interactive?: boolean;
}

/** The SDK transport refused to go on until the user authorizes (its `auth()` returned REDIRECT). */
class AuthorizationNeeded extends Error {
  constructor(readonly transport: StreamableHTTPClientTransport | SSEClientTransport, override readonly cause: unknown) {
    super('The server requires authorization.');
    this.name = 'AuthorizationNeeded';
  }
}

export type ListKind = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';

export interface ListItems {
  tools: Tool[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
  prompts: Prompt[];
}

const LIST_CAPABILITY: Record<ListKind, 'tools' | 'resources' | 'prompts'> = {
  tools: 'tools',
  resources: 'resources',
  resourceTemplates: 'resources',
  prompts: 'prompts',
};

export interface CallOptions {
  signal?: AbortSignal;
  onprogress?: (progress: Progress) => void;
}

/**
 * A temporary replacement of the configured launch (e.g. the same server under a debugger).
 * It lasts until cleared; config reloads keep it, since they diff the configured definition.
 */
export interface LaunchOverride {
  launch: Launch;
  /** Timeouts to use meanwhile (a debuggee paused at a breakpoint answers late). */
  timeouts?: Partial<TimeoutSettings>;
}

/** Raised for failures a user can act on; `detail` holds what a log reader needs. */
export class ServerError extends Error {
  constructor(message: string, readonly detail?: string, override readonly cause?: unknown) {
    super(message);
    this.name = 'ServerError';
  }
}

/** Everything that belongs to one launch; dropped as a whole on stop or restart. */
interface Session {
  client: Client;
  transport: TracingTransport;
  kind: 'stdio' | 'http' | 'sse';
  stderrTail: string[];
  closedByUs: boolean;
  /** Transport errors during the handshake are reported by the handshake itself, not logged twice. */
  handshaking: boolean;
  /** Replaced by a new session after the server forgot this one (its pending requests are retried). */
  replaced?: boolean;
}

export class McpServerConnection {
  private _state: ServerState = STOPPED;
  private session: Session | undefined;
  /** Bumped on every start/stop so a start that lost the race cleans up after itself. */
  private generation = 0;
  private readonly caches = new Map<ListKind, { items?: unknown[]; chain: Promise<unknown>; queued: boolean }>();
  /** The OAuth client of the current launch (HTTP servers, when the host provides auth). */
  private oauth: WorkbenchOAuthProvider | undefined;
  private authorizing: Promise<void> | undefined;
  private renewing: Promise<void> | undefined;

  private readonly onDidChangeStateEmitter = new Emitter<ServerState>();
  readonly onDidChangeState = this.onDidChangeStateEmitter.event;
  private override: LaunchOverride | undefined;
  private readonly onDidWriteStderrEmitter = new Emitter<string>();
  /** Each stderr line of the server process (already redacted), e.g. for a Debug Console. */
  readonly onDidWriteStderr = this.onDidWriteStderrEmitter.event;
  private readonly onDidChangeListEmitter = new Emitter<ListKind>();
  /** Fires after a list was (re)fetched, e.g. on `notifications/tools/list_changed`. */
  readonly onDidChangeList = this.onDidChangeListEmitter.event;

  constructor(
    private _definition: ServerDefinition,
    private readonly host: ConnectionHost,
    private readonly log: ServerLog,
  ) {}

  get definition(): ServerDefinition {
    return this._definition;
  }

  /** Takes a new label/line without restarting (the launch itself did not change). */
  updateDefinition(definition: ServerDefinition): void {
    this._definition = definition;
  }

  get state(): ServerState {
    return this._state;
  }

  /** The override in effect, if any (see `setLaunchOverride`). */
  get launchOverride(): LaunchOverride | undefined {
    return this.override;
  }

  /** Sets or clears the launch override; takes effect at the next start. */
  setLaunchOverride(override: LaunchOverride | undefined): void {
    this.override = override;
  }

  /** The definition a start uses: the configured one with the override applied. */
  private get effective(): ServerDefinition {
    const o = this.override;
    return o ? { ...this._definition, launch: o.launch, timeouts: { ...this._definition.timeouts, ...o.timeouts } } : this._definition;
  }

  /** The SDK client of the current launch, for features built on top (tree, forms). */
  get client(): Client | undefined {
    return this._state.kind === 'running' ? this.session?.client : undefined;
  }

  /** Cached list, or undefined when not fetched yet (or not advertised). */
  cached<K extends ListKind>(kind: K): ListItems[K] | undefined {
    return this.caches.get(kind)?.items as ListItems[K] | undefined;
  }

  /** Marks a server that must not start (untrusted, disabled, unresolved) with the reason. */
  setBlocked(reason: string): void {
    if (this._state.kind === 'running' || this._state.kind === 'starting') return;
    this.setState({ kind: 'stopped', reason });
  }

  async start(options: StartOptions = {}): Promise<void> {
    if (this._state.kind === 'running' || this._state.kind === 'starting') return;
    const generation = ++this.generation;
    this.caches.clear();
    this.setState({ kind: 'starting' });
    const def = this.effective;
    if (def.error) {
      this.fail(generation, new ServerError(def.error));
      return;
    }
    let session: Session | undefined;
    try {
      if (def.launch.type === 'stdio') {
        this.oauth = undefined;
        session = await this.connectStdio(def.launch, generation);
      } else {
        const launch = def.launch;
        this.oauth = this.host.auth ? await this.host.auth.provider(def, launch) : undefined;
        session = await this.withAuthorization(generation, 'start', options.interactive === true, () => this.connectHttp(launch, generation));
        if (!session) return;
      }
    } catch (error) {
      this.fail(generation, error);
      return;
    }
    if (generation !== this.generation) {
      session.closedByUs = true;
      await this.closeSession(session);
      return;
    }
    this.session = session;
    const { client, transport } = session;
    const serverVersion = client.getServerVersion();
    this.log.log('info', `Connected to ${serverVersion?.name ?? 'server'} ${serverVersion?.version ?? ''} over ${session.kind}, protocol ${transport.negotiatedProtocolVersion ?? 'unknown'}.`);
    this.setState({
      kind: 'running',
      protocolVersion: transport.negotiatedProtocolVersion ?? (transport.inner as { protocolVersion?: string }).protocolVersion ?? 'unknown',
      capabilities: (client.getServerCapabilities() ?? {}) as Record<string, unknown>,
      serverInfo: { name: serverVersion?.name ?? '', version: serverVersion?.version ?? '', title: (serverVersion as { title?: string } | undefined)?.title },
      instructions: client.getInstructions(),
      transport: session.kind,
    });
    await this.applyLogLevel();
    // Fetch every advertised list now so the UI has them; failures are logged, not fatal.
    for (const kind of ['tools', 'resources', 'resourceTemplates', 'prompts'] as ListKind[]) {
      if (this.advertises(kind)) this.refresh(kind).catch(() => undefined);
    }
  }

  async stop(reason?: string): Promise<void> {
    this.generation++;
    const session = this.session;
    this.session = undefined;
    this.caches.clear();
    this.setState(reason ? { kind: 'stopped', reason } : STOPPED);
    if (session) {
      session.closedByUs = true;
      await this.closeSession(session);
      this.log.log('info', 'Server stopped.');
    }
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /**
   * Starts (or restarts) a protected server on the user's request, sending them to the browser
   * when the server asks for authorization. Resolves when it runs or has failed.
   */
  async signIn(): Promise<void> {
    if (this._definition.launch.type === 'stdio') {
      throw new ServerError(`Server "${this._definition.label}" runs over stdio; only HTTP servers use sign-in.`);
    }
    if (!this.host.auth) throw new ServerError('This host does not support signing in to servers.');
    if (this._state.kind === 'running' || this._state.kind === 'starting') await this.stop();
    await this.start({ interactive: true });
  }

  /**
   * Forgets the tokens and the client registration kept for this server's URL, and stops it if
   * it runs (its next start asks the user to sign in again).
   */
  async signOut(): Promise<void> {
    const launch = this._definition.launch;
    if (launch.type === 'stdio' || !this.host.auth) return;
    const provider = this.oauth ?? (await this.host.auth.provider(this._definition, launch));
    if (this._state.kind === 'running' || this._state.kind === 'starting' || this._state.kind === 'needsAuth') {
      await this.stop('signed out');
    }
    await provider?.signOut();
    this.oauth = undefined;
    this.log.log('info', 'Signed out: stored tokens and client registration were removed.');
  }

  /**
   * Runs `connect`, and when the server demands authorization, sends the user to the browser
   * (if allowed), exchanges the code and connects again, a bounded number of times. Returns
   * undefined when the server was left in `needsAuth` (or the start was superseded).
   */
  private async withAuthorization(generation: number, reason: 'start', interactive: boolean, connect: () => Promise<Session>): Promise<Session | undefined> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await connect();
      } catch (error) {
        if (!(error instanceof AuthorizationNeeded) || generation !== this.generation) throw error;
        const provider = this.oauth;
        if (!provider?.pendingAuthorization) {
          throw new ServerError(`Server "${this._definition.name}" refused the authorization it was given.`, errorText(error.cause), error.cause);
        }
        const allowed = interactive || (await this.host.auth?.mayPrompt?.(this._definition, reason)) === true;
        if (generation !== this.generation) return undefined;
        if (!allowed) {
          this.log.log('info', 'The server requires you to sign in.');
          this.setState({ kind: 'needsAuth', message: `Server "${this._definition.label}" requires you to sign in.` });
          return undefined;
        }
        if (attempt > MAX_AUTH_ATTEMPTS) {
          throw new ServerError(`Server "${this._definition.name}" still refused after ${MAX_AUTH_ATTEMPTS} authorizations.`);
        }
        this.log.log('info', 'Waiting for authorization in the browser…');
        await this.completeAuthorization(provider, error.transport);
        if (generation !== this.generation) return undefined;
        this.log.log('info', 'Authorized; connecting again.');
      }
    }
  }

  /** One authorization at a time: concurrent callers share it. */
  private completeAuthorization(provider: WorkbenchOAuthProvider, transport: StreamableHTTPClientTransport | SSEClientTransport): Promise<void> {
    this.authorizing ??= (async () => {
      try {
        const code = await provider.authorize();
        // The SDK exchanges the code (PKCE verifier, `resource`, client authentication).
        await transport.finishAuth(code);
      } catch (error) {
        throw new ServerError(`Signing in to server "${this._definition.name}" failed: ${errorText(error)}`, undefined, error);
      } finally {
        provider.endAuthorization();
        this.authorizing = undefined;
      }
    })();
    return this.authorizing;
  }

  async dispose(): Promise<void> {
    await this.stop();
    this.onDidChangeStateEmitter.dispose();
    this.onDidChangeListEmitter.dispose();
    this.onDidWriteStderrEmitter.dispose();
  }

  /** Tells the server the roots changed, if it is running (it will call `roots/list`). */
  async notifyRootsChanged(): Promise<void> {
    const client = this.client;
    if (client) await client.sendRootsListChanged().catch((e) => this.log.log('warn', `Could not send roots/list_changed: ${errorText(e)}`));
  }

  /** Sends `logging/setLevel` when the server supports logging and a level is configured. */
  async applyLogLevel(): Promise<void> {
    const level = this.host.serverLogLevel();
    const client = this.client;
    if (!client || !level || !client.getServerCapabilities()?.logging) return;
    try {
      await client.setLoggingLevel(level as LoggingLevel, this.requestOptions('logging/setLevel'));
    } catch (error) {
      this.log.log('warn', `logging/setLevel failed: ${errorText(error)}`);
    }
  }

  /** Whether the running server advertised the capability behind a list. */
  advertises(kind: ListKind): boolean {
    return this._state.kind === 'running' && !!this._state.capabilities[LIST_CAPABILITY[kind]];
  }

  /** The full list (all pages), from cache when fresh. Empty when not advertised. */
  async list<K extends ListKind>(kind: K): Promise<ListItems[K]> {
    const cache = this.caches.get(kind);
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
    if (!this.advertises(kind)) return Promise.resolve([] as unknown as ListItems[K]);
    let cache = this.caches.get(kind);
    if (!cache) {
      cache = { chain: Promise.resolve(), queued: false };
      this.caches.set(kind, cache);
    }
    const entry = cache;
    if (entry.queued) return entry.chain as Promise<ListItems[K]>;
    entry.queued = true;
    const generation = this.generation;
    entry.chain = entry.chain.catch(() => undefined).then(async () => {
      entry.queued = false;
      const items = await this.fetchAll(kind);
      if (generation === this.generation && this.caches.get(kind) === entry) {
        entry.items = items;
        this.onDidChangeListEmitter.fire(kind);
      }
      return items;
    });
    entry.chain.catch((error) => this.log.log('warn', `Listing ${kind} failed: ${errorText(error)}`));
    return entry.chain as Promise<ListItems[K]>;
  }

  async callTool(name: string, args: Record<string, unknown> | undefined, options: CallOptions = {}): Promise<CallToolResult> {
    // A plain request, not client.callTool: that one throws away a result whose
    // structuredContent breaks the tool's outputSchema, and the user needs to see both.
    return this.withFriendlyErrors('tools/call', (client) =>
      client.request({ method: 'tools/call', params: { name, arguments: args } }, CallToolResultSchema, this.requestOptions('tools/call', options)));
  }

  async readResource(uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    return this.withFriendlyErrors('resources/read', (client) => client.readResource({ uri }, this.requestOptions('resources/read', options)));
  }

  async getPrompt(name: string, args?: Record<string, string>, options: CallOptions = {}): Promise<GetPromptResult> {
    return this.withFriendlyErrors('prompts/get', (client) => client.getPrompt({ name, arguments: args }, this.requestOptions('prompts/get', options)));
  }

  async ping(options: CallOptions = {}): Promise<void> {
    await this.withFriendlyErrors('ping', (client) => client.ping(this.requestOptions('ping', options)));
  }

  /** SDK request options from the server's timeouts. A progress handler is always set so progress can reset the timer. */
  requestOptions(method: string, options: CallOptions = {}): RequestOptions {
    const t = this.effective.timeouts;
    return {
      timeout: secondsToMs(t.request),
      resetTimeoutOnProgress: t.resetOnProgress,
      maxTotalTimeout: t.maxTotal > 0 ? secondsToMs(t.maxTotal) : undefined,
      signal: options.signal,
      onprogress: method === 'tools/call' || options.onprogress ? options.onprogress ?? (() => undefined) : undefined,
    };
  }

  private requireClient(): Client {
    const client = this.client;
    if (!client) {
      throw new ServerError(`Server "${this._definition.label}" is not running (${this._state.kind}). Start it first.`);
    }
    return client;
  }

  /**
   * Runs a request on the current session and handles what HTTP servers may answer mid-session:
   * a demand for (more) authorization — the SDK has refreshed tokens when it could and asks for
   * the browser otherwise — and a 404 for the session id, which means the server dropped the
   * session: spec 2025-11-25 says to start a new one, so the request is sent again on it.
   */
  private async withFriendlyErrors<T>(method: string, run: (client: Client) => Promise<T>): Promise<T> {
    let authAttempts = 0;
    let renewed = false;
    for (;;) {
      const session = this.session;
      const client = this.requireClient();
      const tokenBefore = this.oauth ? (await this.oauth.tokens())?.access_token : undefined;
      try {
        return await run(client);
      } catch (error) {
        if (session && error instanceof UnauthorizedError && this.oauth) {
          // Another request may have authorized meanwhile: then only this one is retried.
          const tokenNow = (await this.oauth.tokens())?.access_token;
          if (++authAttempts > MAX_AUTH_ATTEMPTS) throw this.explain(method, error);
          if (this.oauth.authorizing || (tokenNow && tokenNow !== tokenBefore)) {
            await this.authorizing?.catch(() => undefined);
          } else {
            if (!this.oauth.pendingAuthorization) throw this.explain(method, error);
            const allowed = (await this.host.auth?.mayPrompt?.(this._definition, 'request')) === true;
            if (!allowed) {
              throw new ServerError(`Server "${this._definition.label}" asks you to sign in again before ${method}. Use "MCP: Sign In to Server".`, undefined, error);
            }
            await this.completeAuthorization(this.oauth, session.transport.inner as StreamableHTTPClientTransport | SSEClientTransport);
          }
          continue;
        }
        if (session && !renewed && (session.replaced || this.isSessionGone(session, error))) {
          renewed = true;
          await this.renewSession(session);
          continue;
        }
        throw this.explain(method, error);
      }
    }
  }

  private isSessionGone(session: Session, error: unknown): boolean {
    return session.kind === 'http' && error instanceof StreamableHTTPError && error.code === 404
      && !!(session.transport.inner as StreamableHTTPClientTransport).sessionId;
  }

  /** Replaces a session the server forgot with a new one (new `initialize`, no session id). */
  private renewSession(stale: Session): Promise<void> {
    if (this.session !== stale) return this.renewing ?? Promise.resolve();
    this.renewing ??= (async () => {
      const launch = this._definition.launch;
      const generation = this.generation;
      try {
        if (launch.type === 'stdio') return;
        this.log.log('info', 'The server no longer knows this session (HTTP 404); starting a new session.');
        stale.closedByUs = true;
        stale.replaced = true;
        // No DELETE: the server has already dropped the session.
        await stale.client.close().catch(() => undefined);
        const session = this.newSession(this.createHttpTransport(new URL(launch.url), launch, 'http'), 'http');
        await this.handshake(session, generation, launch.url);
        if (generation !== this.generation) {
          session.closedByUs = true;
          await this.closeSession(session);
          return;
        }
        this.session = session;
        await this.applyLogLevel();
        for (const kind of ['tools', 'resources', 'resourceTemplates', 'prompts'] as ListKind[]) {
          if (this.advertises(kind)) this.refresh(kind).catch(() => undefined);
        }
      } catch (error) {
        if (generation === this.generation && this.session === stale) {
          this.session = undefined;
          this.fail(generation, error instanceof AuthorizationNeeded
            ? new ServerError(`Server "${this._definition.label}" requires you to sign in again.`)
            : error);
        }
        throw error;
      } finally {
        this.renewing = undefined;
      }
    })();
    return this.renewing;
  }

  /** Rewrites SDK timeouts into messages that name the setting to change. */
  private explain(method: string, error: unknown): unknown {
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      const t = this._definition.timeouts;
      const where = `for server "${this._definition.name}" in ${this._definition.source.label}, or the mcpWorkbench.timeouts setting`;
      if (/maximum total timeout/i.test(error.message)) {
        return new ServerError(`${method} took longer than the maximum of ${t.maxTotal} s. Raise "timeouts.maxTotal" ${where}.`);
      }
      if (/timed out/i.test(error.message)) {
        return new ServerError(`${method} got no answer within ${t.request} s. Raise "timeouts.request" ${where}.`);
      }
      return new ServerError(`${method} was cancelled: ${String(error.message).replace(/^MCP error -?\d+: /, '')}`);
    }
    return error;
  }

  private async connectStdio(launch: StdioLaunch, generation: number): Promise<Session> {
    const def = this._definition;
    let plan: StdioSpawnPlan;
    try {
      plan = await planStdioSpawn(launch, await this.host.baseEnv(), `server "${def.name}"`, def.source.label);
    } catch (error) {
      throw error instanceof SpawnError ? new ServerError(error.message, error.detail) : error;
    }
    const { command, args, env, resolved } = plan;
    this.log.log('info', redactText(`Starting ${resolved}${launch.args.length ? ' ' + launch.args.join(' ') : ''}${launch.cwd ? ` in ${launch.cwd}` : ''}`, def.secrets));

    // Variables removed with `env: { X: null }` stay undefined, which child_process skips; the
    // SDK's own default environment would otherwise bring PATH/HOME back.
    const sdkTransport = new StdioClientTransport({ command, args, env: env as Record<string, string>, cwd: launch.cwd, stderr: 'pipe' });
    const session = this.newSession(sdkTransport, 'stdio');
    const stderr = sdkTransport.stderr;
    if (stderr) {
      readline.createInterface({ input: stderr as unknown as NodeJS.ReadableStream }).on('line', (line) => {
        session.stderrTail.push(line);
        if (session.stderrTail.length > 20) session.stderrTail.shift();
        const redacted = redactText(line, def.secrets);
        this.log.stderr(redacted);
        this.onDidWriteStderrEmitter.fire(redacted);
      });
    }
    await this.handshake(session, generation, `the server process (${resolved})`);
    return session;
  }

  private async connectHttp(launch: HttpLaunch, generation: number): Promise<Session> {
    const def = this._definition;
    let url: URL;
    try {
      url = new URL(launch.url);
    } catch {
      throw new ServerError(`The url "${launch.url}" of server "${def.name}" is not a valid URL.`);
    }
    if (launch.type === 'sse') {
      const session = this.newSession(this.createHttpTransport(url, launch, 'sse'), 'sse');
      await this.handshake(session, generation, url.href);
      return session;
    }
    this.log.log('info', `Connecting to ${url.href} (Streamable HTTP)…`);
    const session = this.newSession(this.createHttpTransport(url, launch, 'http'), 'http');
    try {
      await this.handshake(session, generation, url.href);
      return session;
    } catch (error) {
      // Spec 2025-03-26 "Backwards Compatibility": a 4xx to the initialize POST means the
      // server may only speak the 2024-11-05 HTTP+SSE transport; try a GET for its stream.
      const cause = error instanceof ServerError ? error.cause : error;
      const status = cause instanceof StreamableHTTPError ? cause.code : undefined;
      if (status === undefined || status < 400 || status >= 500 || status === 401 || status === 403 || generation !== this.generation) throw error;
      this.log.log('info', `Streamable HTTP was refused (HTTP ${status}); trying the legacy HTTP+SSE transport.`);
      const legacy = this.newSession(this.createHttpTransport(url, launch, 'sse'), 'sse');
      await this.handshake(legacy, generation, url.href);
      return legacy;
    }
  }

  /**
   * The SDK's HTTP transports with the OAuth client: they add the bearer token to every request
   * and run discovery, refresh and step-up themselves. Tokens live in HTTP headers, below the
   * tracing wrapper, so traces never see them.
   */
  private createHttpTransport(url: URL, launch: HttpLaunch, kind: 'http' | 'sse'): StreamableHTTPClientTransport | SSEClientTransport {
    const requestInit: RequestInit = { headers: launch.headers };
    const authProvider = this.oauth;
    // The SDK answers 403 insufficient_scope with auth(), which prefers a refresh; a refresh
    // cannot add scopes, so the provider is told to ask for a new authorization instead.
    const fetchFn: typeof fetch | undefined = authProvider && (async (input, init) => {
      const response = await fetch(input, init);
      if (response.status === 403 && /insufficient_scope/.test(response.headers.get('www-authenticate') ?? '')) authProvider.requireNewAuthorization();
      return response;
    });
    return kind === 'sse'
      ? new SSEClientTransport(url, { requestInit, authProvider, fetch: fetchFn })
      : new StreamableHTTPClientTransport(url, { requestInit, authProvider, fetch: fetchFn });
  }

  private newSession(sdkTransport: Transport, kind: Session['kind']): Session {
    const def = this._definition;
    const transport = new TracingTransport(sdkTransport, this.host.trace ? (record) => this.host.trace!(def, record) : undefined);
    const features = this.host.clientFeatures;
    const client = new Client(this.host.clientInfo, { capabilities: { ...features?.capabilities(), roots: { listChanged: true } } });
    const session: Session = { client, transport, kind, stderrTail: [], closedByUs: false, handshaking: true };
    features?.install(client, def);
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: this.host.roots() }));
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      this.log.log(channelLevelFor(n.params.level), redactText(formatLogData(n.params.logger, n.params.data), def.secrets));
    });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.onListChanged(session, 'tools'));
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => this.onListChanged(session, 'prompts'));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      this.onListChanged(session, 'resources');
      this.onListChanged(session, 'resourceTemplates');
    });
    client.onerror = (error) => {
      if (!session.closedByUs && !session.handshaking) this.log.log('warn', `Transport: ${redactText(errorText(error), def.secrets)}`);
    };
    client.onclose = () => {
      if (session.closedByUs || this.session !== session) return;
      this.session = undefined;
      this.caches.clear();
      const detail = session.stderrTail.length ? `Last output:\n${session.stderrTail.join('\n')}` : undefined;
      const message = kind === 'stdio' ? 'The server process exited unexpectedly.' : 'The connection to the server was closed.';
      this.log.log('error', message + (detail ? `\n${detail}` : ''));
      this.setState({ kind: 'error', message, detail });
    };
    return session;
  }

  private onListChanged(session: Session, kind: ListKind): void {
    if (this.session !== session) return;
    this.refresh(kind).catch(() => undefined);
  }

  /** Runs `initialize` with the connect timeout, which also covers spawning and the SSE GET. */
  private async handshake(session: Session, generation: number, target: string): Promise<void> {
    const seconds = this.effective.timeouts.connect;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ServerError(
        `Server "${this._definition.name}" did not complete the MCP handshake within ${seconds} s. `
        + `Check that ${target} is an MCP server, or raise "timeouts.connect" in ${this._definition.source.label} (or the mcpWorkbench.timeouts setting).`,
      )), secondsToMs(seconds));
    });
    try {
      await Promise.race([session.client.connect(session.transport, { timeout: secondsToMs(seconds) }), timeout]);
      session.handshaking = false;
    } catch (error) {
      session.closedByUs = true;
      await this.closeSession(session);
      if (generation !== this.generation) throw new ServerError('Start was superseded.');
      if (error instanceof UnauthorizedError && session.kind !== 'stdio') {
        throw new AuthorizationNeeded(session.transport.inner as StreamableHTTPClientTransport | SSEClientTransport, error);
      }
      if (error instanceof ServerError) throw error;
      throw this.describeConnectError(error, session, target);
    } finally {
      clearTimeout(timer);
    }
  }

  private describeConnectError(error: unknown, session: Session, target: string): Error {
    const text = errorText(error);
    const tail = session.stderrTail.length ? `Last output:\n${session.stderrTail.join('\n')}` : undefined;
    const code = (error as { code?: unknown })?.code ?? (error as { cause?: { code?: unknown } })?.cause?.code;
    if (code === 'ECONNREFUSED' || /ECONNREFUSED|fetch failed/.test(text)) {
      return new ServerError(`Cannot reach ${target}: the connection was refused or failed. Is the server running and the "url" right?`, text, error);
    }
    if (error instanceof StreamableHTTPError || (error as { name?: string })?.name === 'SseError') {
      return new ServerError(`${target} answered with an error: ${text}`, tail, error);
    }
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      return new ServerError(`Server "${this._definition.name}" closed the connection during the handshake (${target}).${tail ? ' Its last output is in the server log.' : ''}`, tail, error);
    }
    return new ServerError(`Server "${this._definition.name}" failed to start: ${text}`, tail, error);
  }

  private async closeSession(session: Session): Promise<void> {
    const inner = session.transport.inner;
    if (inner instanceof StreamableHTTPClientTransport && inner.sessionId) {
      // Spec: a client that no longer needs a session SHOULD DELETE it (405 means not supported).
      await inner.terminateSession().catch((e) => this.log.log('debug', `Session DELETE failed: ${errorText(e)}`));
    }
    // The SDK's stdio close follows the spec: end stdin, wait, SIGTERM, wait, SIGKILL.
    await session.client.close().catch((e) => this.log.log('debug', `Close failed: ${errorText(e)}`));
  }

  private fail(generation: number, error: unknown): void {
    if (generation !== this.generation) return;
    const message = error instanceof ServerError ? error.message : errorText(error);
    const detail = error instanceof ServerError ? error.detail : undefined;
    this.log.log('error', message + (detail ? `\n${detail}` : ''));
    this.setState({ kind: 'error', message, detail });
  }

  private setState(state: ServerState): void {
    this._state = state;
    this.onDidChangeStateEmitter.fire(state);
  }

  private async fetchAll(kind: ListKind): Promise<unknown[]> {
    return this.withFriendlyErrors(`${kind}/list`, (client) => this.fetchPages(client, kind));
  }

  private async fetchPages(client: Client, kind: ListKind): Promise<unknown[]> {
    const items: unknown[] = [];
    const seenCursors = new Set<string>();
    let cursor: string | undefined;
    do {
      const params = cursor ? { cursor } : undefined;
      const options = this.requestOptions(`${kind}/list`);
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
          this.log.log('warn', `The server repeated the cursor ${JSON.stringify(cursor)} while listing ${kind}; stopping there.`);
          break;
        }
        seenCursors.add(cursor);
      }
    } while (cursor !== undefined);
    return items;
  }
}

function secondsToMs(seconds: number): number {
  return Math.round(seconds * 1000);
}

export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
