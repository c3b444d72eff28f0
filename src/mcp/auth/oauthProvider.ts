/**
 * The OAuth client of one MCP server (authorization spec 2025-11-25), on the SDK's
 * `OAuthClientProvider` contract. The SDK's `auth()` does discovery (RFC 9728 protected-resource
 * metadata, RFC 8414 / OIDC authorization-server metadata with the 2025-03-26 fallbacks), client
 * identity (CIMD, dynamic registration), PKCE, the `resource` parameter, refresh and step-up
 * scopes. This class supplies what it leaves to a host: where credentials are kept, the
 * pre-registered client from config, the client's metadata, the `state` check, and how the
 * user's browser is sent to the authorization URL and the code comes back.
 *
 * No `vscode` import: the extension backs the store with SecretStorage, tests and the
 * conformance client with memory.
 */
import { randomBytes } from 'node:crypto';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthClientProvider, OAuthDiscoveryState, OAuthTokens } from '@modelcontextprotocol/client';
import type { OAuthSettings } from '../../config/common/serverConfig';
import { checkExternalUrl } from '../../shared/common/urlSafety';

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

const KEYS = ['tokens', 'client', 'verifier', 'discovery'] as const;
type Key = (typeof KEYS)[number];

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

  constructor(private readonly options: WorkbenchOAuthOptions) {}

  get redirectUrl(): string {
    return this.options.redirectUrl;
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const settings = this.options.settings;
    return {
      client_name: this.options.clientName ?? 'MCP Workbench',
      client_uri: this.options.clientUri,
      redirect_uris: [this.options.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // A desktop app cannot keep a secret (RFC 8252): a public client unless config gives one.
      token_endpoint_auth_method: settings?.clientId && settings.clientSecret ? 'client_secret_basic' : 'none',
      scope: settings?.scopes?.length ? settings.scopes.join(' ') : undefined,
    };
  }

  /** Whether the client identity comes from config (never stored, never re-registered). */
  get preRegistered(): boolean {
    return !!this.options.settings?.clientId;
  }

  state(): string {
    return randomBytes(24).toString('base64url');
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const settings = this.options.settings;
    if (settings?.clientId) {
      const stored = await this.read<OAuthClientInformationMixed>('client');
      // The SDK stamps the pre-registered client with the authorization server that accepted it.
      const base = stored?.client_id === settings.clientId ? stored : { client_id: settings.clientId };
      return settings.clientSecret ? { ...base, client_secret: settings.clientSecret } : base;
    }
    return this.read('client');
  }

  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    if (this.preRegistered) {
      // A configured secret stays in config: only the binding to the issuer is kept.
      const { client_secret: _secret, ...rest } = info;
      await this.write('client', rest);
    } else {
      await this.write('client', info);
    }
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    const tokens = await this.read<OAuthTokens>('tokens');
    // While more scopes are needed the refresh token is hidden, so auth() asks the user.
    if (tokens && this.stepUp) return { ...tokens, refresh_token: undefined };
    return tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    this.stepUp = false;
    await this.write('tokens', tokens);
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
      if (response.error) {
        throw new OAuthAuthorizationError(`The authorization server refused: ${response.error}${response.errorDescription ? ` (${response.errorDescription})` : ''}`);
      }
      const sent = pending.url.searchParams.get('state');
      if (sent !== null && response.state !== sent) {
        throw new OAuthAuthorizationError('The authorization response did not carry the state this client sent; it was ignored.');
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
    const keys: Key[] = scope === 'all' ? [...KEYS] : [scope];
    await Promise.all(keys.map((k) => this.options.store.delete(this.key(k))));
  }

  /** Sign-out: forgets tokens, the client registration and discovery for this server. */
  async signOut(): Promise<void> {
    this.pending = undefined;
    this.endAuthorization();
    await this.invalidateCredentials('all');
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
