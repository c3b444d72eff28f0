/**
 * Keeps a connection usable when an HTTP server stands in the way of its requests: it asks for
 * authorization (at start, or mid-session when a token expired or more scopes are needed), or
 * it forgot the session (HTTP 404) and a new one must be made. This owns the OAuth client of
 * the current launch, so signing out goes through here too; and it words what reaches the user
 * when a request still fails. No `vscode` import.
 */
import { SdkError, SdkErrorCode, SdkHttpError, StreamableHTTPClientTransport, UnauthorizedError, type Client } from '@modelcontextprotocol/client';
import type { HttpLaunch, ServerDefinition } from '../../config/common/launchDefinition';
import { AuthorizationNeeded, type HttpTransport, type Session, type SessionOpener } from './connectionTransports';
import { ServerError, type ConnectionHost, type ServerLog } from './connectionTypes';
import { isStreamCut } from './streamCut';
import type { WorkbenchOAuthProvider } from '../auth/oauthProvider';
import { errorMessage } from '../../shared/common/errors';

/** Authorization attempts for one start or one request (step-up included) before giving up. */
const MAX_AUTH_ATTEMPTS = 3;

/**
 * New sessions in a row, without one request succeeding in between, before a server that
 * forgets every session (HTTP 404 each time) is given up on. The first renewal is immediate
 * (the server restarted); the next ones wait 0.5 s, then 1 s.
 */
const MAX_RENEWALS = 3;
const RENEWAL_BACKOFF_MS = 500;

/** What renewing needs from the connection that owns the session; read at each use. */
export interface RenewalOwner {
  /** The configured definition: it names the server in messages. */
  definition(): ServerDefinition;
  readonly host: ConnectionHost;
  readonly log: ServerLog;
  readonly opener: SessionOpener;
  /** Bumped by every start and stop: work begun under an older one is stale. */
  generation(): number;
  /** The session requests go to now. */
  session(): Session | undefined;
  /** The running session's client, or a ServerError saying the server is not running. */
  requireClient(): Client;
  /** A start stopped before connecting: the user has to sign in first. */
  needsSignIn(message: string): void;
  /** A new session takes over from one the server forgot. */
  adoptRenewedSession(session: Session): Promise<void>;
  /** The forgotten session could not be replaced: it is dropped and the error shown. */
  dropStaleSession(generation: number, error: unknown): void;
}

export class SessionRenewal {
  /** The OAuth client of the current launch (HTTP servers, when the host provides auth). */
  private oauth: WorkbenchOAuthProvider | undefined;
  private authorizing: Promise<void> | undefined;
  private renewing: Promise<void> | undefined;
  /** Sessions replaced since a request last succeeded. */
  private renewals = 0;

  constructor(private readonly owner: RenewalOwner) {}

  /** The OAuth client the HTTP transports of the current launch use. */
  get provider(): WorkbenchOAuthProvider | undefined {
    return this.oauth;
  }

  /** A stdio launch is starting: it has no OAuth client. */
  forgetProvider(): void {
    this.oauth = undefined;
  }

  /** An HTTP launch is starting: asks the host for its OAuth client (none without host auth). */
  async loadProvider(def: ServerDefinition, launch: HttpLaunch): Promise<void> {
    const auth = this.owner.host.auth;
    this.oauth = auth ? await auth.provider(def, launch) : undefined;
  }

  /**
   * Runs `connect`, and when the server demands authorization, sends the user to the browser
   * (if allowed), exchanges the code and connects again, a bounded number of times. Returns
   * undefined when the server was left in `needsAuth` (or the start was superseded).
   */
  async connectAuthorized(generation: number, interactive: boolean, connect: () => Promise<Session>): Promise<Session | undefined> {
    const { owner } = this;
    this.renewals = 0;
    for (let attempt = 1; ; attempt++) {
      try {
        return await connect();
      } catch (error) {
        if (!(error instanceof AuthorizationNeeded) || generation !== owner.generation()) throw error;
        const provider = this.oauth;
        if (!provider?.pendingAuthorization) {
          throw new ServerError(`Server "${owner.definition().name}" refused the authorization it was given.`, errorMessage(error.cause), error.cause);
        }
        const allowed = interactive || (await owner.host.auth?.mayPrompt?.(owner.definition(), 'start')) === true;
        if (generation !== owner.generation()) return undefined;
        if (!allowed) {
          owner.log.log('info', 'The server requires you to sign in.');
          owner.needsSignIn(`Server "${owner.definition().label}" requires you to sign in.`);
          return undefined;
        }
        if (attempt > MAX_AUTH_ATTEMPTS) {
          throw new ServerError(`Server "${owner.definition().name}" still refused after ${MAX_AUTH_ATTEMPTS} authorizations.`);
        }
        owner.log.log('info', 'Waiting for authorization in the browser…');
        await this.completeAuthorization(provider, error.transport);
        if (generation !== owner.generation()) return undefined;
        owner.log.log('info', 'Authorized; connecting again.');
      }
    }
  }

  /**
   * Forgets the tokens and the client registration kept for the server's URL. `stop` runs once
   * the OAuth client is known and before its credentials go, so no request uses them meanwhile.
   */
  async signOut(launch: HttpLaunch, stop: () => Promise<void>): Promise<void> {
    const provider = this.oauth ?? (await this.owner.host.auth?.provider(this.owner.definition(), launch));
    await stop();
    await provider?.signOut();
    this.oauth = undefined;
    this.owner.log.log('info', 'Signed out: stored tokens and client registration were removed.');
  }

  /**
   * Runs a request on the current session and handles what HTTP servers may answer mid-session:
   * a demand for (more) authorization — the SDK has refreshed tokens when it could and asks for
   * the browser otherwise — and a 404 for the session id, which means the server dropped the
   * session: spec 2025-11-25 says to start a new one, so the request is sent again on it.
   */
  request<T>(method: string, run: (client: Client) => Promise<T>): Promise<T> {
    if (this.oauth) return this.requestRecovering(method, run);
    // No OAuth client (every stdio server, most HTTP ones): nothing to read before the request,
    // so it goes out at once and a success comes back without an async frame or awaits of ours
    // (this is on every tool call's path); a failure takes the recovering path below.
    let session: Session | undefined;
    let client: Client;
    try {
      session = this.owner.session();
      client = this.owner.requireClient();
    } catch (error) {
      return Promise.reject(error);
    }
    let attempt: Promise<T>;
    try {
      attempt = Promise.resolve(run(client));
    } catch (error) {
      attempt = Promise.reject(error);
    }
    return attempt.then(
      (result) => {
        this.renewals = 0;
        return result;
      },
      (error: unknown) => this.requestRecovering(method, run, { session, error }),
    );
  }

  /**
   * `request` with authorization and session renewal; `failed` is a first attempt already made
   * (by the fast path of `request`) and its error, handled as if this loop had made it.
   */
  private async requestRecovering<T>(
    method: string,
    run: (client: Client) => Promise<T>,
    failed?: { session: Session | undefined; error: unknown },
  ): Promise<T> {
    const { owner } = this;
    let authAttempts = 0;
    let renewed = false;
    if (this.oauth && !failed) this.oauth.refusedScopes = false;
    for (;;) {
      let session: Session | undefined;
      let tokenBefore: string | undefined;
      let error: unknown;
      if (failed) {
        ({ session, error } = failed);
        failed = undefined;
      } else {
        session = owner.session();
        const client = owner.requireClient();
        tokenBefore = this.oauth ? (await this.oauth.tokens())?.access_token : undefined;
        try {
          const result = await run(client);
          this.renewals = 0;
          return result;
        } catch (e) {
          error = e;
        }
      }
      if (session && error instanceof UnauthorizedError && this.oauth) {
        // Another request may have authorized meanwhile: then only this one is retried.
        const tokenNow = (await this.oauth.tokens())?.access_token;
        if (++authAttempts > MAX_AUTH_ATTEMPTS) {
          const why = this.oauth.refusedScopes ? ' (HTTP 403 insufficient_scope: it was never granted the scopes it asks for)' : '';
          throw new ServerError(
            `Server "${owner.definition().label}" still refused ${method} after ${MAX_AUTH_ATTEMPTS} authorizations${why}.`,
            undefined,
            error,
          );
        }
        if (this.oauth.authorizing || (tokenNow && tokenNow !== tokenBefore)) {
          await this.authorizing?.catch(() => undefined);
        } else {
          if (!this.oauth.pendingAuthorization) throw explainFailure(method, error, owner.definition());
          const allowed = (await owner.host.auth?.mayPrompt?.(owner.definition(), 'request')) === true;
          if (!allowed) {
            throw new ServerError(
              `Server "${owner.definition().label}" asks you to sign in again before ${method}. Use "MCP: Sign In to Server".`,
              undefined,
              error,
            );
          }
          await this.completeAuthorization(this.oauth, session.transport as HttpTransport);
        }
        continue;
      }
      if (session && !renewed && (session.replaced || isSessionGone(session, error))) {
        renewed = true;
        await this.renew(session);
        continue;
      }
      throw explainFailure(method, error, owner.definition());
    }
  }

  /** One authorization at a time: concurrent callers share it. */
  private completeAuthorization(provider: WorkbenchOAuthProvider, transport: HttpTransport): Promise<void> {
    this.authorizing ??= (async () => {
      try {
        const callback = await provider.authorize();
        // The SDK checks `iss` (RFC 9207) and exchanges the code (PKCE verifier, `resource`,
        // client authentication).
        await transport.finishAuth(callback);
      } catch (error) {
        throw new ServerError(`Signing in to server "${this.owner.definition().name}" failed: ${errorMessage(error)}`, undefined, error);
      } finally {
        provider.endAuthorization();
        this.authorizing = undefined;
      }
    })();
    return this.authorizing;
  }

  /** Replaces a session the server forgot with a new one (new `initialize`, no session id). */
  private renew(stale: Session): Promise<void> {
    const { owner } = this;
    if (owner.session() !== stale) return this.renewing ?? Promise.resolve();
    this.renewing ??= (async () => {
      const launch = owner.definition().launch;
      const generation = owner.generation();
      try {
        if (launch.type === 'stdio') return;
        const renewal = ++this.renewals;
        stale.closedByUs = true;
        stale.replaced = true;
        // No DELETE: the server has already dropped the session.
        await stale.client.close().catch(() => undefined);
        if (renewal > MAX_RENEWALS) {
          throw new ServerError(
            `Server "${owner.definition().label}" forgets every session (HTTP 404 right after each new session), so it was stopped after ${MAX_RENEWALS} new sessions: check the server (behind a load balancer, sessions need to stick), then use Restart.`,
          );
        }
        owner.log.log('info', 'The server no longer knows this session (HTTP 404); starting a new session.');
        if (renewal > 1) await new Promise((r) => setTimeout(r, RENEWAL_BACKOFF_MS * 2 ** (renewal - 2)));
        if (generation !== owner.generation()) return;
        const session = await owner.opener.reopenStreamableHttp(launch, generation);
        if (generation !== owner.generation()) {
          session.closedByUs = true;
          await owner.opener.close(session);
          return;
        }
        await owner.adoptRenewedSession(session);
      } catch (error) {
        if (generation === owner.generation() && owner.session() === stale) {
          owner.dropStaleSession(
            generation,
            error instanceof AuthorizationNeeded ? new ServerError(`Server "${owner.definition().label}" requires you to sign in again.`) : error,
          );
        }
        throw error;
      } finally {
        this.renewing = undefined;
      }
    })();
    return this.renewing;
  }
}

function isSessionGone(session: Session, error: unknown): boolean {
  return (
    session.kind === 'http' &&
    error instanceof SdkHttpError &&
    error.status === 404 &&
    session.transport instanceof StreamableHTTPClientTransport &&
    !!session.transport.sessionId
  );
}

/**
 * Rewrites what the SDK reports into one line a user can act on: timeouts name the setting to
 * change, HTTP errors the status, a cut response stream what happened.
 */
function explainFailure(method: string, error: unknown, def: ServerDefinition): unknown {
  if (error instanceof SdkHttpError) {
    // The SDK's text is "Error POSTing to endpoint: <body>"; the body is what the server said.
    const said = String(error.data.text ?? error.statusText ?? '').trim();
    return new ServerError(
      `Server "${def.label}" answered ${method} with HTTP ${error.status}${said ? `: ${said.length > 200 ? said.slice(0, 200) + '…' : said}` : ''}`,
      error.message,
      error,
    );
  }
  if (isStreamCut(error)) {
    return new ServerError(
      `Server "${def.label}" cut the response stream of ${method} before it answered. Try again; if it keeps happening, check the server or the proxy in between.`,
      undefined,
      error,
    );
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    const t = def.timeouts;
    const where = `for server "${def.name}" in ${def.source.label}, or the mcpWorkbench.timeouts setting`;
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
