/**
 * Opening and closing the SDK sessions of one connection: a spawned stdio process, Streamable
 * HTTP (with the spec's fallback to legacy HTTP+SSE) or legacy SSE, each wrapped for tracing,
 * given the host's client features and taken through `initialize` under the connect timeout.
 * Failures come out as ServerErrors that say what to check (worded in ../connectFailures.ts).
 * Kept apart from the connection's state so that a new way to reach a server changes this file
 * only. No `vscode` import.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as readline from 'node:readline';
import {
  Client,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SSEClientTransport,
  SseError,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type Transport,
  type VersionNegotiationOptions,
} from '@modelcontextprotocol/client';
import type { HttpLaunch, ServerDefinition, StdioLaunch } from '../../config/common/launchDefinition';
import { channelLevelFor, formatLogData } from '../../shared/common/logLevels';
import { describeEraSource } from '../serverState';
import { redactText } from '../../shared/common/redact';
import {
  MODERN_PROTOCOL_VERSION,
  secondsToMs,
  ServerCrashedOnStart,
  ServerError,
  type ConnectionHost,
  type ForwardedNotification,
  type ListKind,
  type ProtocolEraSetting,
  type ServerLog,
} from './connectionTypes';
import type { WorkbenchOAuthProvider } from '../auth/oauthProvider';
import { lookingAgainMessage, planStdioSpawn, SpawnError, withFreshPathOnMissingCommand, type StdioSpawnPlan } from '../process/stdioSpawn';
import { DEFAULT_SANDBOX_SETTINGS, planSandbox } from '../process/sandbox';
import { resolveCommand } from '../process/commandResolution';
import { descendantsOf, killProcesses, killTreeWindows } from '../process/processTree';
import { MessageTooLargeError, OwnedStdioTransport } from '../process/ownedStdioTransport';
import { traceTransport } from './tracingTransport';
import type { EraVerdict } from './eraVerdicts';
import { recordingFetch } from './httpRecording';
import { LIST_MAX_PAGES } from './listCache';
import { errorMessage } from '../../shared/common/errors';
import { describeConnectError } from '../connectFailures';

/** The SDK transports that can carry OAuth (and so finish an authorization). */
export type HttpTransport = StreamableHTTPClientTransport | SSEClientTransport;

/** Everything that belongs to one launch; dropped as a whole on stop or restart. */
export interface Session {
  client: Client;
  /** The SDK transport, instrumented in place for tracing. */
  transport: Transport;
  kind: 'stdio' | 'http' | 'sse';
  stderrTail: string[];
  /** The stdio process was stopped because one message outgrew the limit (bytes). */
  oversized?: number;
  /** How the stdio process ended, once it has: a crash message names it. */
  exit?: { code: number | null; signal: string | null };
  closedByUs: boolean;
  /** Transport errors during the handshake are reported by the handshake itself, not logged twice. */
  handshaking: boolean;
  /** Replaced by a new session after the server forgot this one (its pending requests are retried). */
  replaced?: boolean;
  /** The remembered era this session was opened on, if any (else the era was probed or configured). */
  verdict?: EraVerdict;
}

/** The SDK transport refused to go on until the user authorizes (its `auth()` returned REDIRECT). */
export class AuthorizationNeeded extends Error {
  constructor(
    readonly transport: HttpTransport,
    override readonly cause: unknown,
  ) {
    super('The server requires authorization.');
    this.name = 'AuthorizationNeeded';
  }
}

/** What opening sessions needs from the connection that owns them; read at each use. */
export interface SessionOwner {
  /** The configured definition: it names the server and its secrets in messages. */
  definition(): ServerDefinition;
  /** Seconds that spawning or connecting plus `initialize` may take (the effective timeouts). */
  connectTimeout(): number;
  readonly host: ConnectionHost;
  readonly log: ServerLog;
  /** The OAuth client the HTTP transports authorize with, if any. */
  oauth(): WorkbenchOAuthProvider | undefined;
  /** Whether the start begun at `generation` still counts (no stop or newer start since). */
  isCurrent(generation: number): boolean;
  /** A redacted line of the server process's stderr, already written to the log. */
  stderrLine(line: string): void;
  /** Which protocol era to speak: see ProtocolEraSetting. */
  protocolEra(): ProtocolEraSetting;
  /**
   * The launch runs under a debugger (a launch override): the SDK must not spawn a second
   * process for the era probe (it would fight the first over the inspector port).
   */
  probeInPlace(): boolean;
  /** The era a start of the same launch found (`auto` only, see eraVerdicts.ts): the start skips the sibling probe. */
  priorVerdict(): EraVerdict | undefined;
  /** A start on the remembered era failed: forget it (the opener then probes, in the same start). */
  verdictFailed(): void;
  /** The server announced that a list of `session` changed. */
  listChanged(session: Session, kind: ListKind): void;
  /** `session` closed without us closing it: the process exited or the connection dropped. */
  lost(session: Session): void;
  /** A log message or resource update arrived on `session`. */
  notified(session: Session, notification: ForwardedNotification): void;
}

export class SessionOpener {
  constructor(private readonly owner: SessionOwner) {}

  async openStdio(launch: StdioLaunch, generation: number): Promise<Session> {
    const def = this.owner.definition();
    let plan: StdioSpawnPlan;
    try {
      const who = `server "${def.name}"`;
      plan = await withFreshPathOnMissingCommand(
        (options) => this.owner.host.baseEnv(options),
        (env) => planStdioSpawn(launch, env, who, def.source.label),
        () => this.owner.log.log('info', lookingAgainMessage(launch.command)),
      );
    } catch (error) {
      throw error instanceof SpawnError ? new ServerError(error.message, error.detail) : error;
    }
    const { env, resolved } = plan;
    this.owner.log.log(
      'info',
      redactText(`Starting ${resolved}${launch.args.length ? ' ' + launch.args.join(' ') : ''}${launch.cwd ? ` in ${launch.cwd}` : ''}`, def.secrets),
    );
    const sandboxed = launch.sandbox ? await this.sandboxed(launch, plan) : undefined;

    // The whole environment is given: variables removed with `env: { X: null }` stay removed.
    const maxBufferSize = this.owner.host.maxMessageBytes?.();
    const params = {
      ...(sandboxed?.spawn ?? plan.spawn),
      env: sandboxed ? { ...env, TMPDIR: '/tmp', TMP: '/tmp', TEMP: '/tmp' } : env,
      cwd: launch.cwd,
      stderr: 'pipe' as const,
      ...(maxBufferSize ? { maxBufferSize } : {}),
    };
    // A server known to be modern is probed on its own process: one request, no second spawn,
    // and its `server/discover` answer is fresh (capabilities, version) at every start.
    const verdict = this.owner.priorVerdict();
    const inPlace = this.owner.probeInPlace() || verdict?.era === 'modern';
    const stdioTransport = inPlace ? new InPlaceProbeStdioTransport(params) : new OwnedStdioTransport(params);
    const session = this.newSession(stdioTransport, 'stdio');
    const stderr = stdioTransport.stderr;
    if (stderr) {
      readline.createInterface({ input: stderr as unknown as NodeJS.ReadableStream }).on('line', (line) => {
        session.stderrTail.push(line);
        if (session.stderrTail.length > 20) session.stderrTail.shift();
        const redacted = redactText(line, def.secrets);
        this.owner.log.stderr(redacted);
        this.owner.stderrLine(redacted);
      });
    }
    try {
      await this.handshake(session, generation, `the server process (${resolved})`, verdict);
    } catch (error) {
      if (!this.retriesWithoutVerdict(verdict, error, generation)) throw error;
      return this.openStdio(launch, generation);
    }
    return session;
  }

  /**
   * The spawn of a server with `sandboxEnabled` (sandbox.ts): under bwrap, or undefined to run it
   * unsandboxed because the user allowed that; a ServerError with the reason when it may not start. `bwrap` is looked up on the
   * extension host's PATH, never the entry's `env`: a config must not choose its own sandbox.
   */
  private async sandboxed(launch: StdioLaunch, plan: StdioSpawnPlan): Promise<{ spawn: StdioSpawnPlan['spawn'] } | undefined> {
    const def = this.owner.definition();
    const settings = this.owner.host.sandboxSettings?.() ?? DEFAULT_SANDBOX_SETTINGS;
    const hostPath = (await this.owner.host.baseEnv()).PATH ?? '';
    const bwrap = settings.bwrapPath ? resolveCommand(settings.bwrapPath, { pathValue: hostPath }).resolved : undefined;
    const decision = planSandbox({
      who: `Server "${def.name}"`,
      sandbox: launch.sandbox!,
      settings,
      platform: process.platform,
      bwrap,
      command: plan.spawn.command,
      args: plan.spawn.args,
      cwd: launch.cwd,
      home: os.homedir(),
      kindOf: (p) => {
        const stat = fs.statSync(p, { throwIfNoEntry: false });
        return stat?.isDirectory() ? 'dir' : stat ? 'file' : undefined;
      },
    });
    if (decision.kind === 'refused') throw new ServerError(decision.reason);
    if (decision.kind === 'unsandboxed') {
      this.owner.log.log('warn', decision.warning);
      return undefined;
    }
    this.owner.log.log('info', decision.summary);
    return { spawn: { command: decision.command, args: decision.args } };
  }

  /** Legacy SSE when configured; otherwise Streamable HTTP, falling back to SSE when refused. */
  async openHttp(launch: HttpLaunch, generation: number): Promise<Session> {
    let url: URL;
    try {
      url = new URL(launch.url);
    } catch {
      throw new ServerError(`The url "${launch.url}" of server "${this.owner.definition().name}" is not a valid URL.`);
    }
    if (launch.type === 'sse') {
      const session = this.newSession(this.createHttpTransport(url, launch, 'sse'), 'sse');
      await this.handshake(session, generation, url.href, undefined);
      return session;
    }
    this.owner.log.log('info', `Connecting to ${url.href} (Streamable HTTP)…`);
    const session = this.newSession(this.createHttpTransport(url, launch, 'http'), 'http');
    const verdict = this.owner.priorVerdict();
    try {
      await this.handshake(session, generation, url.href, verdict);
      return session;
    } catch (error) {
      if (this.retriesWithoutVerdict(verdict, error, generation)) return this.openHttp(launch, generation);
      // Spec 2025-03-26 "Backwards Compatibility": a 4xx to the initialize POST means the
      // server may only speak the 2024-11-05 HTTP+SSE transport; try a GET for its stream.
      const status = httpStatusOf(error instanceof ServerError ? error.cause : error);
      if (status === undefined || status < 400 || status >= 500 || status === 401 || status === 403 || !this.owner.isCurrent(generation)) throw error;
      this.owner.log.log('info', `Streamable HTTP was refused (HTTP ${status}); trying the legacy HTTP+SSE transport.`);
      const legacy = this.newSession(this.createHttpTransport(url, launch, 'sse'), 'sse');
      await this.handshake(legacy, generation, url.href, undefined);
      return legacy;
    }
  }

  /** A fresh Streamable HTTP session to a server that spoke it a moment ago: no fallback, no log line. */
  async reopenStreamableHttp(launch: HttpLaunch, generation: number): Promise<Session> {
    const session = this.newSession(this.createHttpTransport(new URL(launch.url), launch, 'http'), 'http');
    await this.handshake(session, generation, launch.url, this.owner.priorVerdict());
    return session;
  }

  /**
   * Whether a start that failed on a remembered era is tried again with a probe: the server may
   * have changed eras since (it answers the handshake with an error). Not when it timed out (the
   * full connect timeout would run twice), needs authorization (nothing to do with the era) or
   * died (a probe would spawn it twice more; the failed start forgets the verdict, so the
   * registry's restart probes). The verdict is forgotten first, so this happens once.
   */
  private retriesWithoutVerdict(verdict: EraVerdict | undefined, error: unknown, generation: number): boolean {
    if (!verdict || !this.owner.isCurrent(generation)) return false;
    if (error instanceof HandshakeTimedOut || error instanceof AuthorizationNeeded || error instanceof ServerCrashedOnStart) return false;
    this.owner.verdictFailed();
    const remembered = `${eraLabel(verdict.era)}, ${describeEraSource({ kind: 'remembered', since: verdict.at })}`;
    const why = redactText(errorMessage(error), this.owner.definition().secrets);
    this.owner.log.log('info', `Starting on the remembered era (${remembered}) failed (${why}); probing the server's era again.`);
    return true;
  }

  /**
   * Whether a Streamable HTTP server speaks 2026-07-28 now: one `server/discover` from a client
   * of its own, pinned, so there is no fallback (no `initialize`, no session left on the server).
   * Undefined when it could not tell. Not for a server with OAuth: a probe must never end in
   * the browser.
   */
  async speaksModern(launch: HttpLaunch): Promise<boolean | undefined> {
    const client = new Client(this.owner.host.clientInfo, { versionNegotiation: { mode: { pin: MODERN_PROTOCOL_VERSION } } });
    try {
      await client.connect(this.createHttpTransport(new URL(launch.url), launch, 'http'), { timeout: secondsToMs(this.owner.connectTimeout()) });
      return true;
    } catch (error) {
      return error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed ? false : undefined;
    } finally {
      await client.close().catch(() => undefined);
    }
  }

  async close(session: Session): Promise<void> {
    const transport = session.transport;
    if (transport instanceof StreamableHTTPClientTransport && transport.sessionId) {
      // Spec: a client that no longer needs a session SHOULD DELETE it (405 means not supported).
      await transport.terminateSession().catch((e) => this.owner.log.log('debug', `Session DELETE failed: ${errorMessage(e)}`));
    }
    // The stdio close follows the spec: end stdin, wait, SIGTERM, wait, SIGKILL, to the server's
    // process group. A descendant that left the group (setsid, a daemon) is found first (once
    // the server is gone it is reparented and no longer findable) and ended after. Windows has
    // no groups nor SIGTERM: taskkill /T ends the tree up front.
    const pid = transport instanceof OwnedStdioTransport ? transport.pid : null;
    if (pid && process.platform === 'win32') await killTreeWindows(pid);
    const leftovers = pid ? await descendantsOf(pid) : [];
    await session.client.close().catch((e) => this.owner.log.log('debug', `Close failed: ${errorMessage(e)}`));
    if (leftovers.length) await killProcesses(leftovers);
  }

  /**
   * The SDK's HTTP transports with the OAuth client: they add the bearer token to every request
   * and run discovery, refresh and step-up themselves. Tokens live in HTTP headers, below the
   * tracing wrapper, so traces never see them.
   */
  private createHttpTransport(url: URL, launch: HttpLaunch, kind: 'http' | 'sse'): HttpTransport {
    const requestInit: RequestInit = { headers: launch.headers };
    const authProvider = this.owner.oauth();
    // The SDK answers 403 insufficient_scope with auth(), which prefers a refresh; a refresh
    // cannot add scopes, so the provider is told to ask for a new authorization instead. A 401
    // to a request that carried a token may mean the server moved to another authorization
    // server (SEP-2352): cached discovery goes before the SDK's auth() runs, so it looks again.
    // (This fetch also carries discovery and token requests: only the server's own URL counts.)
    // Every request goes through the recording fetch (the Inspector's HTTP exchanges, and a
    // per-request AbortSignal: see httpRecording.ts); the OAuth layer sits above it, so a
    // request it sends again with a renewed token is recorded as the second exchange it is.
    const def = this.owner.definition();
    const http = this.owner.host.http;
    const base = recordingFetch(fetch, http ? (record) => http.call(this.owner.host, def, record) : undefined);
    const fetchFn: typeof fetch = !authProvider
      ? base
      : async (input, init) => {
          let response = await base(input, init);
          const challenge = response.headers.get('www-authenticate') ?? '';
          if (response.status === 403 && /insufficient_scope/.test(challenge)) authProvider.requireNewAuthorization();
          const sent = accessToken(init);
          if (response.status === 401 && !/use_dpop_nonce/.test(challenge) && sent && sameEndpoint(input, url)) {
            // Another request renewed the token meanwhile: send this one again with it, no second
            // renewal. Not below the SDK's DPoP layer: a proof is bound to the token it came with.
            const newer = await authProvider.afterUnauthorized(sent.token);
            if (newer && sent.scheme === 'bearer') {
              await response.body?.cancel();
              const headers = new Headers(init?.headers);
              headers.set('authorization', `Bearer ${newer}`);
              response = await base(input, { ...init, headers });
            }
          }
          if (!response.ok && isTokenRequest(init)) {
            authProvider.noteTokenRefusal(
              await response
                .clone()
                .text()
                .catch(() => ''),
            );
          }
          return response;
        };
    return kind === 'sse'
      ? new SSEClientTransport(url, { requestInit, authProvider, fetch: fetchFn })
      : new StreamableHTTPClientTransport(url, { requestInit, authProvider, fetch: fetchFn });
  }

  private newSession(sdkTransport: Transport, kind: Session['kind']): Session {
    const { host, log } = this.owner;
    const def = this.owner.definition();
    const transport = traceTransport(sdkTransport, host.trace ? (record) => host.trace!(def, record) : undefined);
    const features = host.clientFeatures;
    // List changes go through the SDK's `listChanged` option: on 2025-11-25 it handles the
    // unsolicited notifications, on 2026-07-28 it also opens the `subscriptions/listen` stream
    // they come on. The cache refetches by itself, so the SDK is told not to.
    const changed = (kinds: ListKind[]) => ({ autoRefresh: false, debounceMs: 0, onChanged: () => kinds.forEach((k) => this.owner.listChanged(session, k)) });
    const client = new Client(host.clientInfo, {
      listMaxPages: LIST_MAX_PAGES,
      capabilities: { ...features?.capabilities(), roots: { listChanged: true } },
      versionNegotiation: kind === 'sse' ? { mode: 'legacy' } : negotiationFor(this.owner.protocolEra(), this.owner.connectTimeout(), kind),
      listChanged: { tools: changed(['tools']), prompts: changed(['prompts']), resources: changed(['resources', 'resourceTemplates']) },
    });
    const session: Session = { client, transport, kind, stderrTail: [], closedByUs: false, handshaking: true };
    features?.install(client, def);
    // Roots: a 2025-11-25 server asks with a request, a 2026-07-28 one in `inputRequests`.
    client.setRequestHandler('roots/list', () => ({ roots: host.roots() }));
    client.setNotificationHandler('notifications/message', (n) => {
      const text = redactText(formatLogData(n.params.logger, n.params.data), def.secrets);
      if (log.message) log.message(n.params.level, text);
      else log.log(channelLevelFor(n.params.level), text);
      this.owner.notified(session, { method: 'notifications/message', params: n.params });
    });
    client.setNotificationHandler('notifications/resources/updated', (n) => this.owner.notified(session, { method: n.method, params: { uri: n.params.uri } }));
    client.onerror = (error) => {
      // The stdio transport stops a server whose message outgrows the limit; the loss is then
      // explained as that, not as a crash.
      if (error instanceof MessageTooLargeError) session.oversized = error.limit;
      if (!session.closedByUs && !session.handshaking) log.log('warn', `Transport: ${redactText(errorMessage(error), def.secrets)}`);
    };
    client.onclose = () => {
      if (sdkTransport instanceof OwnedStdioTransport) session.exit = sdkTransport.exit;
      if (!session.closedByUs) this.owner.lost(session);
    };
    return session;
  }

  /**
   * Runs `initialize` with the connect timeout, which also covers spawning and the SSE GET. A
   * `legacy` verdict skips the probe (`prior`); a `modern` one needs nothing here (HTTP probes in
   * place anyway, stdio was given the in-place transport).
   */
  private async handshake(session: Session, generation: number, target: string, verdict: EraVerdict | undefined): Promise<void> {
    const seconds = this.owner.connectTimeout();
    let timer: NodeJS.Timeout | undefined;
    let superseded: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new HandshakeTimedOut(
              `Server "${this.owner.definition().name}" did not complete the MCP handshake within ${seconds} s. ` +
                `Check that ${target} is an MCP server, or raise "timeouts.connect" in ${this.owner.definition().source.label} (or the mcpWorkbench.timeouts setting).`,
            ),
          ),
        secondsToMs(seconds),
      );
      // Stopped or restarted while starting: give up now, and end the process, rather than at the
      // connect timeout (300 s under the debugger, which a debuggee paused under `--inspect-brk`
      // that no debugger attached to would wait out, and outlive VS Code closing meanwhile).
      superseded = setInterval(() => {
        if (!this.owner.isCurrent(generation)) reject(new ServerError('Start was superseded.'));
      }, 200);
    });
    try {
      const prior = session.kind !== 'sse' && verdict?.era === 'legacy' ? { prior: { kind: 'legacy' as const } } : {};
      await Promise.race([session.client.connect(session.transport, { timeout: secondsToMs(seconds), ...prior }), timeout]);
      session.handshaking = false;
      if (verdict && session.kind !== 'sse') session.verdict = verdict;
    } catch (error) {
      session.closedByUs = true;
      await this.close(session);
      if (!this.owner.isCurrent(generation)) throw new ServerError('Start was superseded.');
      if (error instanceof UnauthorizedError && session.kind !== 'stdio') {
        throw new AuthorizationNeeded(session.transport as HttpTransport, error);
      }
      if (error instanceof ServerError) throw error;
      throw describeConnectError(error, session, target, this.owner);
    } finally {
      clearTimeout(timer);
      clearInterval(superseded);
    }
  }
}

/** The handshake did not finish within the connect timeout. */
class HandshakeTimedOut extends ServerError {}

/**
 * The stdio transport under another class, so that the SDK probes the era on this very process
 * instead of a disposable sibling (it runs the sibling only for the exact class).
 */
class InPlaceProbeStdioTransport extends OwnedStdioTransport {}

/**
 * What `protocolEra` asks of the SDK. `auto` probes with `server/discover` and falls back to
 * `initialize`. On stdio a silent server counts as legacy once the probe times out, so there the
 * probe gets at most 10 s of the connect timeout: a legacy server that ignores unknown requests
 * must not hold every start for 30 s. Over HTTP silence is an outage, so the probe gets it all.
 */
export function negotiationFor(era: ProtocolEraSetting, connectSeconds: number, kind: Session['kind'] = 'stdio'): VersionNegotiationOptions {
  switch (era) {
    case 'legacy':
      return { mode: 'legacy' };
    case 'modern':
      return { mode: { pin: MODERN_PROTOCOL_VERSION } };
    case 'auto':
      return { mode: 'auto', probe: { timeoutMs: kind === 'stdio' ? Math.min(secondsToMs(connectSeconds), 10_000) : secondsToMs(connectSeconds) } };
  }
}

/** The HTTP status behind a failed connect, also when the SDK wrapped it into a negotiation failure. */
function httpStatusOf(error: unknown): number | undefined {
  if (error instanceof SdkHttpError) return error.status;
  if (error instanceof SseError) return error.code;
  const cause = (error as { data?: { cause?: unknown } } | undefined)?.data?.cause;
  return cause && cause !== error ? httpStatusOf(cause) : undefined;
}

/** How the log and tooltips name an era. */
export function eraLabel(era: 'modern' | 'legacy'): string {
  return era === 'modern' ? 'stateless 2026 era' : '2025 era, initialize handshake';
}

/** A token endpoint request: a form POST with a `grant_type`. */
function isTokenRequest(init: RequestInit | undefined): boolean {
  return init?.method === 'POST' && init.body instanceof URLSearchParams && init.body.has('grant_type');
}

/** The access token a request carries, and its scheme. */
function accessToken(init: RequestInit | undefined): { scheme: 'bearer' | 'dpop'; token: string } | undefined {
  const match = /^(bearer|dpop)\s+(.+)$/i.exec(new Headers(init?.headers).get('authorization') ?? '');
  return match ? { scheme: match[1].toLowerCase() as 'bearer' | 'dpop', token: match[2] } : undefined;
}

function sameEndpoint(input: string | URL | Request, url: URL): boolean {
  const target = new URL(input instanceof Request ? input.url : String(input));
  return target.origin === url.origin && target.pathname === url.pathname;
}
