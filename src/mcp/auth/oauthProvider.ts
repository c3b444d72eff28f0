/**
 * The OAuth client of one MCP server (MCP authorization 2025-11-25 and 2026-07-28), on the SDK's
 * `OAuthClientProvider` contract. The SDK's `auth()` does discovery (RFC 9728 protected-resource
 * metadata, RFC 8414 / OIDC authorization-server metadata with the 2025-03-26 fallbacks), client
 * identity (CIMD, dynamic registration), PKCE, the `resource` parameter, refresh, step-up
 * scopes and DPoP proofs. This class supplies what it leaves to a host: where credentials are
 * kept (client registrations per issuer, SEP-2352), the configured client and grant (`oauth` of
 * the server entry: authorization code, client credentials, JWT bearer, enterprise-managed; see
 * machineGrants.ts), which authorization server configured credentials may go to
 * (credentialBinding.ts), the DPoP key, the `state` check, and how the user's browser is sent to
 * the authorization URL and the code comes back.
 *
 * No `vscode` import: the extension backs the store with SecretStorage, tests and the
 * conformance client with memory.
 */
import { randomBytes } from 'node:crypto';
import { OAuthError } from '@modelcontextprotocol/client';
import type {
  AddClientAuthentication,
  DpopSession,
  OAuthClientInformationContext,
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  OAuthTokens,
} from '@modelcontextprotocol/client';
import { authMethodOf, grantTypeOf, type OAuthSettings } from '../../config/common/oauthConfig';
import { checkExternalUrl } from '../../shared/common/urlSafety';
import { checkCredentialIssuer, releaseCredentialBindings } from './credentialBinding';
import { loadDpopSession, type StoredDpopKey } from './dpopKey';
import { grantTypesFor, machineTokenRequest, privateKeyJwtAuthentication, type DiscoveredServer } from './machineGrants';

export type { OAuthSettings };

/** JSON values by key. Implementations must keep what they are given unchanged. */
export interface OAuthStore {
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
}

export class MemoryOAuthStore implements OAuthStore {
  readonly values = new Map<string, string>();
  async get<T>(key: string): Promise<T | undefined> {
    const text = this.values.get(key);
    return text === undefined ? undefined : (JSON.parse(text) as T);
  }
  async set(key: string, value: unknown): Promise<void> {
    this.values.set(key, JSON.stringify(value));
  }
  async delete(key: string): Promise<void> {
    this.values.delete(key);
  }
}

/** What the redirect back from the authorization server carried. */
export interface AuthorizationResponse {
  code?: string;
  state?: string;
  /** RFC 9207: the issuer the authorization server named in the redirect, if any. */
  iss?: string;
  error?: string;
  errorDescription?: string;
}

/**
 * Sends the user agent to `authorizationUrl` and resolves with the parameters of the redirect to
 * `redirectUrl`. The extension opens the browser and waits for its URI handler (or a loopback
 * server); the conformance client follows the URL headlessly.
 */
export type AuthorizationHandler = (authorizationUrl: URL, redirectUrl: string, signal?: AbortSignal) => Promise<AuthorizationResponse>;

export interface WorkbenchOAuthOptions {
  /** Keys of `store` are prefixed with this (the extension uses the server URL). */
  keyPrefix: string;
  store: OAuthStore;
  redirectUrl: string;
  authorize: AuthorizationHandler;
  settings?: OAuthSettings;
  /** An HTTPS URL of this client's Client ID Metadata Document, when one is published. */
  clientMetadataUrl?: string;
  clientName?: string;
  clientUri?: string;
}

const KEYS = ['tokens', 'client', 'verifier', 'discovery', 'dpop-key'] as const;

/** How long a 401 waits for a renewal another request began before renewing itself. */
const RENEWAL_WAIT_MS = 10_000;
type Key = (typeof KEYS)[number];

/** Dynamically registered clients, one per authorization server (client ids are unique to their issuer). */
type ClientsByIssuer = Record<string, OAuthClientInformationMixed>;

export class OAuthAuthorizationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OAuthAuthorizationError';
  }
}

export class WorkbenchOAuthProvider implements OAuthClientProvider {
  /** The authorization URL the last `auth()` asked for, with the PKCE verifier made for it. */
  private pending: { url: URL; verifier: string | undefined } | undefined;
  private lastVerifier: string | undefined;
  /** While the user is in the browser: the one authorization in flight, and its verifier. */
  private flight: Promise<URLSearchParams> | undefined;
  private flightVerifier: string | undefined;
  private stepUp = false;

  private readonly discovered: DiscoveredServer = {};
  /** The authorization server's answer to the last refused token request of a grant without a browser. */
  private refusal: { error: string; error_description?: string } | undefined;
  private dpopSession: Promise<DpopSession> | undefined;
  /** Set for `private_key_jwt`: the SDK then calls it instead of its own client authentication. */
  readonly addClientAuthentication?: AddClientAuthentication;

  constructor(private readonly options: WorkbenchOAuthOptions) {
    if (options.settings?.clientId && authMethodOf(options.settings) === 'private_key_jwt' && options.settings.privateKey) {
      this.addClientAuthentication = privateKeyJwtAuthentication(options.settings);
    }
  }

  private get settings(): OAuthSettings {
    return this.options.settings ?? {};
  }

  /** Undefined for the grants that need no browser: the SDK then asks for a token directly. */
  get redirectUrl(): string | undefined {
    return grantTypeOf(this.settings) === 'authorization_code' ? this.options.redirectUrl : undefined;
  }

  get clientMetadataUrl(): string | undefined {
    return grantTypeOf(this.settings) === 'authorization_code' ? this.options.clientMetadataUrl : undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    const settings = this.settings;
    const interactive = grantTypeOf(settings) === 'authorization_code';
    return {
      client_name: this.options.clientName ?? 'MCP Workbench',
      client_uri: this.options.clientUri,
      redirect_uris: interactive ? [this.options.redirectUrl] : [],
      grant_types: grantTypesFor(grantTypeOf(settings)),
      response_types: interactive ? ['code'] : [],
      // A desktop app cannot keep a secret (RFC 8252): a public client unless config gives one.
      token_endpoint_auth_method: settings.clientId ? authMethodOf(settings) : 'none',
      scope: settings.scopes?.length ? settings.scopes.join(' ') : undefined,
    };
  }

  /** Whether the client identity comes from config (never stored, never re-registered). */
  get preRegistered(): boolean {
    return !!this.settings.clientId;
  }

  state(): string {
    return randomBytes(24).toString('base64url');
  }

  /**
   * The client at the authorization server `ctx.issuer`. A configured client is checked first:
   * its credentials go only to the issuer they are pinned or bound to (credentialBinding.ts).
   * Registered clients are kept per issuer, so a server that moves to another authorization
   * server gets a new registration there and the old one is never sent to it (SEP-2352).
   */
  async clientInformation(ctx?: OAuthClientInformationContext): Promise<OAuthClientInformationMixed | undefined> {
    const settings = this.settings;
    if (settings.clientId) {
      if (ctx?.issuer) await checkCredentialIssuer(this.options.store, settings, ctx.issuer);
      const method = authMethodOf(settings);
      const secret = method === 'client_secret_basic' || method === 'client_secret_post' ? settings.clientSecret : undefined;
      return {
        client_id: settings.clientId,
        ...(secret ? { client_secret: secret } : {}),
        ...(settings.tokenEndpointAuthMethod ? { token_endpoint_auth_method: settings.tokenEndpointAuthMethod } : {}),
        // The SDK's stamp: these credentials belong to the issuer just checked (or pinned).
        ...((ctx?.issuer ?? settings.issuer) ? { issuer: ctx?.issuer ?? settings.issuer } : {}),
      } as OAuthClientInformationMixed;
    }
    const clients = await this.registeredClients();
    if (ctx?.issuer) return clients[ctx.issuer] ?? clients[ctx.issuer.replace(/\/$/, '')] ?? clients[`${ctx.issuer.replace(/\/$/, '')}/`];
    return Object.values(clients).pop();
  }

  async saveClientInformation(info: OAuthClientInformationMixed, ctx?: OAuthClientInformationContext): Promise<void> {
    // A configured client is never stored: config stays its only source.
    if (this.preRegistered) return;
    const issuer = ctx?.issuer ?? (info as { issuer?: string }).issuer ?? '';
    const clients = await this.registeredClients();
    delete clients[issuer];
    await this.write('client', { ...clients, [issuer]: info });
  }

  private async registeredClients(): Promise<ClientsByIssuer> {
    const stored = await this.read<ClientsByIssuer | OAuthClientInformationMixed>('client');
    if (!stored) return {};
    // Before registrations were kept per issuer, one client was stored as is.
    if (typeof (stored as OAuthClientInformationMixed).client_id === 'string') {
      const legacy = stored as OAuthClientInformationMixed & { issuer?: string };
      return { [legacy.issuer ?? '']: legacy };
    }
    return { ...(stored as ClientsByIssuer) };
  }

  /** The grant's token request for the grants without a browser (SDK hook); undefined: authorization code. */
  prepareTokenRequest(scope?: string): Promise<URLSearchParams | undefined> {
    this.refusal = undefined;
    return machineTokenRequest(this.settings, scope, this.discovered);
  }

  /**
   * The transport saw the token endpoint refuse a request (its error body). For the grants
   * without a browser the SDK would discard the credentials and send the same request again;
   * SEP-1933 wants a refusal surfaced, not retried, so `invalidateCredentials` then throws it.
   */
  noteTokenRefusal(body: string): void {
    if (grantTypeOf(this.settings) === 'authorization_code') return;
    try {
      const answer = JSON.parse(body) as { error?: unknown; error_description?: unknown };
      // A nonce challenge is answered by the SDK itself (RFC 9449 §8): not a refusal.
      if (typeof answer.error === 'string' && answer.error !== 'use_dpop_nonce') {
        this.refusal = { error: answer.error, error_description: typeof answer.error_description === 'string' ? answer.error_description : undefined };
      }
    } catch {
      // Not an OAuth error body: the SDK reports it as it is.
    }
  }

  /** Called by the SDK after discovery: the enterprise grant's ID-JAG is issued for this audience… */
  saveAuthorizationServerUrl(url: string): void {
    this.discovered.authorizationServer = url;
  }

  /** …and this resource. */
  saveResourceUrl(url: string): void {
    this.discovered.resource = url;
  }

  /** DPoP (`oauth.dpop`): one key per server, stored with the tokens bound to it. */
  async dpop(): Promise<DpopSession | undefined> {
    if (!this.settings.dpop) return undefined;
    this.dpopSession ??= (async () => loadDpopSession(await this.read<StoredDpopKey>('dpop-key'), (key) => this.write('dpop-key', key)))();
    return this.dpopSession;
  }

  /**
   * The server answered 401 to a request that carried `token`. Returns a newer token to send the
   * request again with when another request has renewed meanwhile (or does within a few
   * seconds), so that concurrent 401s do not start concurrent renewals: with rotating refresh
   * tokens the second refresh would spend a used token and end in "sign in again". The request
   * that renews drops cached discovery first: the server may have moved to another
   * authorization server (SEP-2352), so the coming `auth()` reads its metadata again.
   */
  async afterUnauthorized(token: string): Promise<string | undefined> {
    const newer = async () => {
      const current = (await this.tokens())?.access_token;
      return current && current !== token ? current : undefined;
    };
    const already = await newer();
    if (already) return already;
    const renewal = this.renewal;
    if (renewal && renewal.token === token && Date.now() - renewal.started < RENEWAL_WAIT_MS) {
      await Promise.race([renewal.done, new Promise((r) => setTimeout(r, RENEWAL_WAIT_MS))]);
      return newer();
    }
    let finish!: () => void;
    this.renewal = { token, started: Date.now(), done: new Promise<void>((r) => (finish = r)), finish };
    await this.invalidateCredentials('discovery');
    return undefined;
  }

  /** A renewal begun by `afterUnauthorized` that concurrent 401s wait for. */
  private renewal: { token: string; started: number; done: Promise<void>; finish(): void } | undefined;

  async tokens(): Promise<OAuthTokens | undefined> {
    const tokens = await this.read<OAuthTokens>('tokens');
    // While more scopes are needed the refresh token is hidden, so auth() asks the user.
    if (tokens && this.stepUp) return { ...tokens, refresh_token: undefined };
    return tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    this.stepUp = false;
    this.refusal = undefined;
    await this.write('tokens', tokens);
    this.renewal?.finish();
    this.renewal = undefined;
  }

  /** The server wants scopes the current token lacks (403 insufficient_scope): refreshing will not do. */
  requireNewAuthorization(): void {
    this.stepUp = true;
    this.refusedScopes = true;
  }

  /** Set by each 403 insufficient_scope; the connection clears it to tell the refusals of one request apart. */
  refusedScopes = false;

  /**
   * Called by the SDK's `auth()` when the user must authorize. Nothing happens yet: the
   * connection decides whether the user may be sent to the browser now (`authorize()`).
   */
  redirectToAuthorization(authorizationUrl: URL): void {
    // Requests that failed while the user is in the browser wait for that authorization.
    if (this.flight) return;
    this.pending = { url: authorizationUrl, verifier: this.lastVerifier };
  }

  /** The authorization URL the last `auth()` asked for, if the user has not been sent there yet. */
  get pendingAuthorization(): URL | undefined {
    return this.pending?.url;
  }

  /**
   * Sends the user to the pending authorization URL and resolves with the code, after checking
   * the `state` the redirect came back with (CSRF, RFC 6749 §10.12). Concurrent callers share
   * one authorization. Call `endAuthorization()` once the code was exchanged. The result is the
   * callback's `code` and `iss` (RFC 9207), as the SDK's `finishAuth(params)` takes them: it
   * checks `iss` against the authorization server's metadata.
   */
  authorize(signal?: AbortSignal): Promise<URLSearchParams> {
    if (this.flight) return this.flight;
    const pending = this.pending;
    if (!pending) return Promise.reject(new OAuthAuthorizationError('No authorization is pending.'));
    this.pending = undefined;
    // The authorization endpoint comes from the server's metadata: a `command:`, `file:` or
    // plain-http URL must never reach the browser (the SDK only refuses javascript:/data:).
    const check = checkExternalUrl(pending.url.href);
    if (!check.ok) return Promise.reject(new OAuthAuthorizationError(`The authorization URL was not opened: ${check.reason}.`));
    this.flightVerifier = pending.verifier;
    const flight = (async () => {
      const response = await this.options.authorize(pending.url, this.options.redirectUrl, signal);
      // State first: an `error` without this sign-in's state may come from anyone (RFC 6749 §10.12).
      const sent = pending.url.searchParams.get('state');
      if (sent !== null && response.state !== sent) {
        throw new OAuthAuthorizationError('The authorization response did not carry the state this client sent; it was ignored.');
      }
      if (response.error) {
        throw new OAuthAuthorizationError(
          `The authorization server refused: ${response.error}${response.errorDescription ? ` (${response.errorDescription})` : ''}`,
        );
      }
      if (!response.code) throw new OAuthAuthorizationError('The authorization response carried no code.');
      const callback = new URLSearchParams({ code: response.code });
      if (response.iss !== undefined) callback.set('iss', response.iss);
      return callback;
    })();
    this.flight = flight;
    return flight;
  }

  /** Whether an authorization is in flight (the user is in the browser). */
  get authorizing(): boolean {
    return !!this.flight;
  }

  endAuthorization(): void {
    this.flight = undefined;
    this.flightVerifier = undefined;
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    if (this.flight) return;
    this.lastVerifier = codeVerifier;
    await this.write('verifier', codeVerifier);
  }

  async codeVerifier(): Promise<string> {
    // The verifier of the URL the user was sent to, even if another auth() made a newer one.
    const verifier = this.flightVerifier ?? (await this.read<string>('verifier'));
    if (!verifier) throw new OAuthAuthorizationError('No PKCE code verifier is stored for this authorization.');
    return verifier;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.write('discovery', state);
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return this.read('discovery');
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    const refusal = this.refusal;
    if (refusal && (scope === 'client' || scope === 'tokens')) {
      // The SDK's auth() is about to retry a refused grant without a browser: surface it instead.
      this.refusal = undefined;
      throw OAuthError.fromResponse(refusal);
    }
    const keys: Key[] = scope === 'all' ? [...KEYS] : [scope];
    if (scope === 'all') this.dpopSession = undefined;
    await Promise.all(keys.map((k) => this.options.store.delete(this.key(k))));
  }

  /**
   * Sign-out: forgets tokens, client registrations, discovery and the DPoP key for this server,
   * and lets its configured credentials be bound to an authorization server anew.
   */
  async signOut(): Promise<void> {
    this.pending = undefined;
    this.endAuthorization();
    await this.invalidateCredentials('all');
    await releaseCredentialBindings(this.options.store, this.options.settings);
  }

  private key(name: Key): string {
    return `${this.options.keyPrefix}#${name}`;
  }

  private read<T>(name: Key): Promise<T | undefined> {
    return this.options.store.get<T>(this.key(name));
  }

  private write(name: Key, value: unknown): Promise<void> {
    return this.options.store.set(this.key(name), value);
  }
}

/**
 * Follows an authorization URL the way a browser would when the user is already signed in and
 * consent needs no click: GETs and redirects until one points at `redirectUrl`, whose query is
 * the answer. For tests and the conformance client.
 */
export async function followAuthorizationHeadlessly(authorizationUrl: URL, redirectUrl: string, fetchFn: typeof fetch = fetch): Promise<AuthorizationResponse> {
  let url = authorizationUrl;
  for (let hop = 0; hop < 10; hop++) {
    if (url.href.startsWith(redirectUrl)) return parseAuthorizationResponse(url);
    const response = await fetchFn(url, { redirect: 'manual' });
    await response.body?.cancel();
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) {
      throw new OAuthAuthorizationError(`The authorization endpoint answered HTTP ${response.status} without a redirect.`);
    }
    url = new URL(location, url);
  }
  throw new OAuthAuthorizationError('Too many redirects while following the authorization URL.');
}

export function parseAuthorizationResponse(url: URL | string): AuthorizationResponse {
  const params = new URL(url).searchParams;
  return {
    code: params.get('code') ?? undefined,
    state: params.get('state') ?? undefined,
    iss: params.get('iss') ?? undefined,
    error: params.get('error') ?? undefined,
    errorDescription: params.get('error_description') ?? undefined,
  };
}
