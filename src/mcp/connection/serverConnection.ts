/**
 * One MCP client connection to one configured server, on the official SDK. The SDK does the
 * protocol (framing, handshake, timeouts, cancellation); this class owns what it leaves to a
 * host: the launch's lifecycle, its state and the public API. The jobs are done by parts it
 * composes, so each can change alone: opening sessions (connectionTransports), authorization
 * and session renewal (sessionRenewal), the lists (listCache); the contract with hosts and
 * callers is in connectionTypes.
 *
 * No `vscode` import: the extension, the unit tests and the headless conformance client all
 * drive this same class.
 */
import type { CallToolResult, Client, GetPromptResult, LoggingLevel, ReadResourceResult, RequestOptions } from '@modelcontextprotocol/client';
import { Emitter } from '../../shared/common/emitter';
import type { HttpLaunch, ServerDefinition } from '../../config/common/launchDefinition';
import { describeEraSource, redactState, runningStateOf, STOPPED, type ServerState } from '../serverState';
import { eraLabel, SessionOpener, type Session } from './connectionTransports';
import { describeLoss } from '../connectFailures';
import { SessionRenewal } from './sessionRenewal';
import { eraSourceOf, EraVerdicts } from './eraVerdicts';
import { Liveness, pingAlive, pingByEra } from './liveness';
import { advertisesList, fetchList, ListCache } from './listCache';
import { requestMeta, requestOptionsFor } from './requestLimits';
import { ToolCalls, type ToolCallOptions } from './toolCalls';
import type { TaskTracker, ToolTask } from './toolTasks';
import { ServerCrashedOnStart, ServerError } from './connectionTypes';
import type { CallOptions, ConnectionHost, LaunchOverride, ForwardedNotification, ListItems, ListKind, ServerLog, StartOptions } from './connectionTypes';
import { ServerSkills } from './serverSkills';
import { errorMessage } from '../../shared/common/errors';

export class McpServerConnection {
  private _state: ServerState = STOPPED;
  private session: Session | undefined;
  /** Bumped on every start/stop so a start that lost the race cleans up after itself. */
  private generation = 0;
  private readonly opener: SessionOpener;
  private readonly renewal: SessionRenewal;
  private readonly lists: ListCache;
  private readonly verdicts: EraVerdicts;
  private readonly liveness: Liveness;
  private _crashedOnStart = false;
  private readonly toolCalls: ToolCalls;
  /** The server's skills (SEP-2640): listed like the lists, SKILL.md read and verified on demand. */
  readonly skills: ServerSkills;

  private readonly onDidChangeStateEmitter = new Emitter<ServerState>();
  readonly onDidChangeState = this.onDidChangeStateEmitter.event;
  private override: LaunchOverride | undefined;
  private readonly onDidWriteStderrEmitter = new Emitter<string>();
  /** Each stderr line of the server process (already redacted), e.g. for a Debug Console. */
  readonly onDidWriteStderr = this.onDidWriteStderrEmitter.event;
  private readonly onDidChangeListEmitter = new Emitter<ListKind>();
  /** Fires after a list was (re)fetched, e.g. on `notifications/tools/list_changed`. */
  readonly onDidChangeList = this.onDidChangeListEmitter.event;
  private readonly onDidCrashEmitter = new Emitter<string>();
  /** Fires with the message when a running server's process exited or its connection dropped without a stop. */
  readonly onDidCrash = this.onDidCrashEmitter.event;
  private readonly onDidNotifyEmitter = new Emitter<ForwardedNotification>();
  /** Log messages and resource updates of the current session, as the server sent them (the agent endpoint forwards them). */
  readonly onDidNotify = this.onDidNotifyEmitter.event;

  constructor(
    private _definition: ServerDefinition,
    private readonly host: ConnectionHost,
    private readonly log: ServerLog,
  ) {
    this.verdicts = new EraVerdicts(host.eraVerdicts);
    this.opener = new SessionOpener({
      definition: () => this._definition,
      connectTimeout: () => this.effective.timeouts.connect,
      host,
      log,
      oauth: () => this.renewal.provider,
      isCurrent: (generation) => generation === this.generation,
      stderrLine: (line) => this.onDidWriteStderrEmitter.fire(line),
      protocolEra: () => this.effective.protocolEra ?? 'auto',
      probeInPlace: () => this.override !== undefined,
      // Keyed by the configured launch: under the debugger it is the same server program, so
      // a debug launch adopts the era of the normal one instead of probing the debuggee.
      priorVerdict: () => this.verdicts.get(this._definition),
      verdictFailed: () => this.verdicts.forget(this._definition),
      listChanged: (session, kind) => {
        if (this.session === session) this.lists.refresh(kind).catch(() => undefined);
        if (this.session === session && kind === 'resources') this.skills.changed();
      },
      lost: (session) => this.lost(session),
      notified: (session, notification) => session === this.session && this.onDidNotifyEmitter.fire(notification),
    });
    this.renewal = new SessionRenewal({
      definition: () => this._definition,
      host,
      log,
      opener: this.opener,
      generation: () => this.generation,
      session: () => this.session,
      requireClient: () => this.requireClient(),
      needsSignIn: (message) => this.setState({ kind: 'needsAuth', message }),
      adoptRenewedSession: async (session) => {
        this.session = session;
        await this.applyLogLevel();
        this.lists.refreshAdvertised();
        this.skills.changed();
      },
      dropStaleSession: (generation, error) => {
        this.session = undefined;
        this.fail(generation, error);
      },
    });
    this.liveness = new Liveness({
      // A debuggee paused at a breakpoint is silent on purpose.
      intervalMs: () => (this.override ? undefined : host.pingIntervalMs?.()),
      // On the client itself, not through the renewal: a hung server is not re-authorized.
      ping: () => pingAlive(this.client, (method) => this.requestOptions(method)),
      unresponsive: () => this.unresponsive(),
    });
    this.lists = new ListCache({
      advertises: (kind) => this.advertises(kind),
      fetch: (kind) => this.renewal.request(`${kind}/list`, (client) => fetchList(client, kind, this.requestOptions(`${kind}/list`))),
      changed: (kind) => this.onDidChangeListEmitter.fire(kind),
      log,
    });
    this.skills = new ServerSkills({
      capabilities: () => (this._state.kind === 'running' ? this._state.capabilities : undefined),
      request: (method, run) => this.renewal.request(method, run),
      requestOptions: (method) => this.requestOptions(method),
      log,
    });
    this.toolCalls = new ToolCalls({
      request: (method, run) => this.renewal.request(method, run),
      requestOptions: (method, options) => this.requestOptions(method, options),
      meta: (client) => this.meta(client),
      tools: async () => this.lists.cached('tools') ?? (this.advertises('tools') ? await this.list('tools') : []),
      cachedTools: () => this.lists.cached('tools'),
      refreshTools: () => this.lists.refresh('tools'),
      client: () => this.client,
      hasHeaders: () => this._definition.launch.type !== 'stdio',
      log,
    });
  }

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

  /** The last start failed because the server died during it (not a config error or a hang). */
  get crashedOnStart(): boolean {
    return this._state.kind === 'error' && this._crashedOnStart;
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
    return this.lists.cached(kind);
  }

  /** Marks a server that must not start (untrusted, disabled, unresolved) with the reason; undefined clears it. */
  setBlocked(reason: string | undefined): void {
    if (this._state.kind === 'running' || this._state.kind === 'starting') return;
    this.setState(reason === undefined ? { kind: 'stopped' } : { kind: 'stopped', reason });
  }

  async start(options: StartOptions = {}): Promise<void> {
    if (this._state.kind === 'running' || this._state.kind === 'starting') return;
    const generation = ++this.generation;
    this._crashedOnStart = false;
    this.lists.clear();
    this.toolCalls.tasks.clear();
    this.setState({ kind: 'starting' });
    const def = this.effective;
    if (def.error) {
      this.fail(generation, new ServerError(def.error));
      return;
    }
    let session: Session | undefined;
    try {
      if (def.launch.type === 'stdio') {
        this.renewal.forgetProvider();
        session = await this.opener.openStdio(def.launch, generation);
      } else {
        const launch = def.launch;
        await this.renewal.loadProvider(def, launch);
        session = await this.renewal.connectAuthorized(generation, options.interactive === true, () => this.opener.openHttp(launch, generation));
        if (!session) return;
      }
    } catch (error) {
      this.fail(generation, error);
      return;
    }
    if (generation !== this.generation) {
      session.closedByUs = true;
      await this.opener.close(session);
      return;
    }
    this.session = session;
    const { client } = session;
    const running = runningStateOf(client, session.kind);
    const { protocolVersion, era } = running;
    const eraSource = eraSourceOf(def, session.verdict, era);
    // Over SSE (configured, or Streamable HTTP refused) the era is the transport's: nothing to remember.
    if (session.kind !== 'sse') this.verdicts.remember(this._definition, era, !(session.verdict?.era === 'legacy' && era === 'legacy'));
    const serverVersion = client.getServerVersion();
    this.log.log(
      'info',
      `Connected to ${serverVersion?.name ?? 'server'} ${serverVersion?.version ?? ''} over ${session.kind}, protocol ${protocolVersion} (${eraLabel(era)}), era ${describeEraSource(eraSource)}.`,
    );
    this.setState({ ...running, eraSource });
    if (def.launch.type === 'http' && !this.renewal.provider && this.verdicts.recheckDue(session.kind, session.verdict)) void this.recheckEra(def.launch);
    const tasksNote = this.toolCalls.unusedTasksNote();
    if (tasksNote) this.log.log('info', tasksNote);
    await this.applyLogLevel();
    this.lists.refreshAdvertised();
    this.skills.changed();
    this.liveness.watch();
  }

  /** Re-checks a remembered legacy era over HTTP in the background; the next start uses what it finds. */
  private async recheckEra(launch: HttpLaunch): Promise<void> {
    const modern = await this.opener.speaksModern(launch);
    if (modern !== undefined) this.verdicts.remember(this._definition, modern ? 'modern' : 'legacy', true);
    if (modern) this.log.log('info', 'The server now speaks MCP 2026-07-28 (stateless 2026 era): its next start uses it.');
  }

  async stop(reason?: string): Promise<void> {
    this.generation++;
    const session = this.endSession();
    this.setState(reason ? { kind: 'stopped', reason } : STOPPED);
    if (session) {
      session.closedByUs = true;
      await this.opener.close(session);
      this.log.log('info', 'Server stopped.');
    }
  }

  async restart(): Promise<void> {
    await this.stop().then(() => this.start());
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
    await this.renewal.signOut(launch, async () => {
      if (this._state.kind === 'running' || this._state.kind === 'starting' || this._state.kind === 'needsAuth') {
        await this.stop('signed out');
      }
    });
  }

  async dispose(): Promise<void> {
    await this.stop();
    const emitters = [
      this.onDidChangeStateEmitter,
      this.onDidChangeListEmitter,
      this.onDidWriteStderrEmitter,
      this.onDidCrashEmitter,
      this.onDidNotifyEmitter,
      this.skills,
    ];
    for (const emitter of emitters) emitter.dispose();
    this.toolCalls.tasks.dispose();
  }

  /**
   * Tells the server the roots changed, if it is running (it will call `roots/list`). A
   * 2026-07-28 server has no such notification: it asks for roots in each request that needs them.
   */
  async notifyRootsChanged(): Promise<void> {
    const client = this.client;
    if (client && client.getProtocolEra() !== 'modern')
      await client.sendRootsListChanged().catch((e) => this.log.log('warn', `Could not send roots/list_changed: ${errorMessage(e)}`));
  }

  /**
   * Sends `logging/setLevel` when the server supports logging and a level is configured. A
   * 2026-07-28 server has no session to set it on: the level rides on each request (`meta`).
   */
  async applyLogLevel(): Promise<void> {
    const level = this.host.serverLogLevel();
    const client = this.client;
    if (!client || !level || !client.getServerCapabilities()?.logging || client.getProtocolEra() === 'modern') return;
    try {
      await client.setLoggingLevel(level as LoggingLevel, this.requestOptions('logging/setLevel'));
    } catch (error) {
      this.log.log('warn', `logging/setLevel failed: ${errorMessage(error)}`);
    }
  }

  /** Whether the running server advertised the capability behind a list. */
  advertises(kind: ListKind): boolean {
    return this._state.kind === 'running' && advertisesList(this._state.capabilities, kind);
  }

  /** The full list (all pages), from cache when fresh. Empty when not advertised. */
  list<K extends ListKind>(kind: K): Promise<ListItems[K]> {
    return this.lists.list(kind);
  }

  /**
   * Re-fetches a list. Refreshes of one kind run one after another, and notifications that
   * arrive while one is queued share it, so the cache always ends at the newest list.
   */
  refresh<K extends ListKind>(kind: K): Promise<ListItems[K]> {
    return this.lists.refresh(kind);
  }

  /**
   * Calls a tool and resolves with its result. A call the server runs as a task is followed
   * until it ends (`options.onTask` sees its states; the tracked tasks are in `tasks`).
   */
  callTool(name: string, args: Record<string, unknown> | undefined, options: ToolCallOptions = {}): Promise<CallToolResult> {
    return this.toolCalls.call(name, args, options);
  }

  /** The tool calls of this launch that run as tasks, newest first, and their changes. */
  get tasks(): TaskTracker {
    return this.toolCalls.tasks;
  }

  /** Whether tool calls of this server can run as tasks (see toolCalls.ts for the eras). */
  get offersTasks(): boolean {
    return this.toolCalls.available();
  }

  /** Asks the server to cancel a task (`tasks/cancel`); its call then ends as cancelled. */
  cancelTask(taskId: string): Promise<void> {
    return this.toolCalls.cancel(taskId);
  }

  /** Fetches the server's own list of tasks (`tasks/list`, 2025-11-25) into `tasks`. */
  refreshTasks(): Promise<ToolTask[]> {
    return this.toolCalls.refresh();
  }

  async readResource(uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    // `refresh`: a read the user asked for shows what the server has now, not a cached copy.
    return this.renewal.request('resources/read', (client) =>
      client.readResource({ uri, ...this.meta(client) }, { ...this.requestOptions('resources/read', options), cacheMode: 'refresh' }),
    );
  }

  async getPrompt(name: string, args?: Record<string, string>, options: CallOptions = {}): Promise<GetPromptResult> {
    return this.renewal.request('prompts/get', (client) =>
      client.getPrompt({ name, arguments: args, ...this.meta(client) }, this.requestOptions('prompts/get', options)),
    );
  }

  /**
   * Follows the changes of a resource (`notifications/resources/updated`, which reach the
   * client's notification handlers): `resources/subscribe` on 2025-11-25, a
   * `subscriptions/listen` stream for the URI on 2026-07-28 (which removed resources/subscribe).
   * Resolves with the function that stops following it on the same session.
   */
  async subscribeResource(uri: string): Promise<() => Promise<void>> {
    const client = this.requireClient();
    const options = this.requestOptions('resources/subscribe');
    if (client.getProtocolEra() === 'modern') {
      const subscription = await client.listen({ resourceSubscriptions: [uri] }, options);
      return () => subscription.close();
    }
    await client.subscribeResource({ uri }, options);
    return async () => {
      if (this.client === client) await client.unsubscribeResource({ uri }, this.requestOptions('resources/unsubscribe'));
    };
  }

  /** Checks the server answers: `ping` on 2025-11-25; 2026-07-28 removed it, so `server/discover` there. */
  async ping(options: CallOptions = {}): Promise<void> {
    await this.renewal.request('ping', (client) => pingByEra(client, (method) => this.requestOptions(method, options)));
  }

  /** Per-request `_meta` (the log level of a 2026-07-28 server, see requestLimits.ts). */
  private meta(client: Client): { _meta: Record<string, unknown> } | undefined {
    return requestMeta(client, () => this.host.serverLogLevel());
  }

  /** SDK request options from the server's timeouts (requestLimits.ts). */
  requestOptions(method: string, options: CallOptions = {}): RequestOptions {
    return requestOptionsFor(this.effective.timeouts, method, options);
  }

  /** The client, or why there is none: a failed server's own line (as its tree item says), not just "error". */
  private requireClient(): Client {
    if (this.client) return this.client;
    throw new ServerError(
      this._state.kind === 'error' ? this._state.message : `Server "${this._definition.label}" is not running (${this._state.kind}). Start it first.`,
    );
  }

  /**
   * The running server did not answer a ping in time: it hangs. Its session is closed (the
   * process ended), so callers fail now instead of each waiting out its timeout, and it is
   * reported like a crash, so the registry may restart it.
   */
  private unresponsive(): void {
    if (!this.session || this._state.kind !== 'running') return;
    const session = this.endSession()!;
    session.closedByUs = true;
    this.opener.close(session).catch(() => undefined);
    this.crashed(`Server "${this._definition.name}" is not responding: no answer to a ping within ${this.effective.timeouts.request} s.`);
  }

  /** The current session closed without us: the process exited or the connection dropped. */
  private lost(session: Session): void {
    if (this.session !== session) return;
    this.endSession();
    this.crashed(describeLoss(this._definition.name, session), session.stderrTail.length ? `Last output:\n${session.stderrTail.join('\n')}` : undefined);
  }

  /** Forgets the current session and what was known through it (lists, tasks); returns it for closing. */
  private endSession(): Session | undefined {
    const session = this.session;
    this.liveness.stop();
    this.session = undefined;
    this.lists.clear();
    this.toolCalls.tasks.clear();
    return session;
  }

  /** A running server was lost without a stop: it shows as failed and the registry may restart it. */
  private crashed(message: string, detail?: string): void {
    this.log.log('error', message + (detail ? `\n${detail}` : ''));
    this.setState({ kind: 'error', message, detail });
    this.onDidCrashEmitter.fire(message);
  }

  /**
   * Replaces the message of a failed server (e.g. with what happens next: "restarting in 2 s"),
   * so the user reads one line. Ignored once the server left the error state.
   */
  explainFailure(message: string): void {
    if (this._state.kind !== 'error') return;
    this.setState({ ...this._state, message });
  }

  private fail(generation: number, error: unknown): void {
    if (generation !== this.generation) return;
    // A start that failed may have failed on a stale verdict: the next one probes again.
    this.verdicts.forget(this._definition);
    this._crashedOnStart = error instanceof ServerCrashedOnStart;
    const message = error instanceof ServerError ? error.message : errorMessage(error);
    const detail = error instanceof ServerError ? error.detail : undefined;
    this.log.log('error', message + (detail ? `\n${detail}` : ''));
    this.setState({ kind: 'error', message, detail });
  }

  /** Every state is redacted as it is set, so no reader (tree, status, API) ever holds a secret. */
  private setState(state: ServerState): void {
    this._state = redactState(state, this._definition.secrets);
    if (state.kind !== 'running') this.skills.clear();
    this.onDidChangeStateEmitter.fire(this._state);
  }
}
