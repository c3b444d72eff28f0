/**
 * The `oauth` field of an `http`/`sse` server entry: which OAuth grant the client uses and
 * the client credentials it authenticates with. Pure: no `vscode`, no I/O.
 *
 * Secrets (`clientSecret`, `privateKey`, `assertion`, `idp.clientSecret`, `idp.idToken`) are
 * meant to be `${input:id}` references to password inputs, whose values live in VS Code's
 * SecretStorage; a literal value is a warning. Where a secret may be sent is not the file's to
 * decide: see `definitionBuilder.ts` (what a workspace file may read) and
 * `src/mcp/auth/credentialBinding.ts` (every configured secret is bound to one authorization
 * server).
 */
import * as jsonc from 'jsonc-parser';

/** A problem at a place in the file (the shape of serverConfig's ConfigProblem, which imports this file). */
interface ConfigProblem {
  severity: 'error' | 'warning' | 'info';
  message: string;
  offset: number;
  length: number;
}
type ProblemSeverity = ConfigProblem['severity'];

/**
 * How the client gets its access token:
 * - `authorization_code`: the user signs in in the browser (the default);
 * - `client_credentials`: the client is the principal, no user (SEP-1046);
 * - `jwt_bearer`: a workload identity token (a JWT from the platform the client runs on, e.g. a
 *   Kubernetes projected token or a CI OIDC token) is exchanged for an access token (RFC 7523,
 *   SEP-1933 workload identity federation);
 * - `enterprise_managed`: the user's ID token from the company's identity provider is exchanged
 *   there for an identity assertion grant (ID-JAG, RFC 8693) and that at the server's
 *   authorization server for an access token (RFC 7523, SEP-990).
 */
export type OAuthGrantType = 'authorization_code' | 'client_credentials' | 'jwt_bearer' | 'enterprise_managed';
export const OAUTH_GRANT_TYPES: readonly OAuthGrantType[] = ['authorization_code', 'client_credentials', 'jwt_bearer', 'enterprise_managed'];

/** How the client authenticates at the token endpoint (RFC 7591 names). */
export type TokenEndpointAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none';
export const TOKEN_ENDPOINT_AUTH_METHODS: readonly TokenEndpointAuthMethod[] = ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'];

/** JWS algorithms a `private_key_jwt` assertion may be signed with. */
export const SIGNING_ALGORITHMS = ['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'] as const;

/** The company identity provider of `enterprise_managed` (SEP-990). */
export interface IdentityProviderSettings {
  /** The IdP's issuer URL; its token endpoint is discovered from its metadata unless `tokenEndpoint` is given. */
  issuer?: string;
  tokenEndpoint?: string;
  /** This client's id at the IdP (the audience of the ID token). */
  clientId?: string;
  /** Its secret at the IdP, if the IdP wants one. */
  clientSecret?: string;
  /** The user's OpenID Connect ID token from the IdP. */
  idToken?: string;
}

/**
 * The `oauth` field of an `http`/`sse` server. Everything is optional: without it the client
 * signs the user in with a Client ID Metadata Document or dynamic client registration.
 */
export interface OAuthSettings {
  /** Default `authorization_code`. */
  grantType?: OAuthGrantType;
  /** A client id registered with the authorization server beforehand. */
  clientId?: string;
  /** Its secret, for confidential clients (an `${input:…}` with `"password": true`). */
  clientSecret?: string;
  /** Default: `private_key_jwt` with a `privateKey`, `client_secret_basic` with a secret, else `none`. */
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  /** PEM (PKCS#8) private key that signs `private_key_jwt` client assertions. */
  privateKey?: string;
  /** JWS algorithm of those assertions; default from the key (ES256 for P-256, RS256 for RSA). */
  signingAlgorithm?: string;
  /** The authorization server's issuer: configured credentials are sent to no other (SEP-2352). */
  issuer?: string;
  /** Scopes to ask for when neither the server's challenge nor its metadata names any. */
  scopes?: string[];
  /** The redirect URI registered for `clientId`; a loopback `http://127.0.0.1:<port>/…` runs a local listener. */
  redirectUri?: string;
  /** Sender-constrained tokens (DPoP, RFC 9449 / SEP-1932): every request carries a proof of a key only this client holds. */
  dpop?: boolean;
  /** `jwt_bearer`: the workload identity JWT. */
  assertion?: string;
  /** `jwt_bearer`: a file holding the workload identity JWT, read for every token request (platforms rotate it). */
  assertionFile?: string;
  /** `enterprise_managed`: the identity provider. */
  idp?: IdentityProviderSettings;
}

/** The grant a settings object means (`authorization_code` unless set). */
export function grantTypeOf(settings: OAuthSettings | undefined): OAuthGrantType {
  return settings?.grantType ?? 'authorization_code';
}

/** The client authentication a settings object means, with the defaults applied. */
export function authMethodOf(settings: OAuthSettings | undefined): TokenEndpointAuthMethod {
  if (settings?.tokenEndpointAuthMethod) return settings.tokenEndpointAuthMethod;
  if (settings?.privateKey) return 'private_key_jwt';
  return settings?.clientSecret ? 'client_secret_basic' : 'none';
}

/** Every secret a settings object holds (for redaction), resolved or not. */
export function oauthSecrets(settings: OAuthSettings | undefined): string[] {
  if (!settings) return [];
  return [settings.clientSecret, settings.privateKey, settings.assertion, settings.idp?.clientSecret, settings.idp?.idToken].filter(
    (s): s is string => typeof s === 'string' && s !== '',
  );
}

/** Paths of the secret fields, for messages and the workspace rules. */
export const OAUTH_SECRET_FIELDS = ['clientSecret', 'privateKey', 'assertion', 'idp.clientSecret', 'idp.idToken'] as const;

/** The value of a dotted `oauth` field path. */
export function oauthField(settings: OAuthSettings, path: string): string | undefined {
  const [head, tail] = path.split('.');
  const value = tail ? (settings as Record<string, Record<string, unknown> | undefined>)[head]?.[tail] : (settings as Record<string, unknown>)[head];
  return typeof value === 'string' ? value : undefined;
}

const STRING_FIELDS = ['clientId', 'clientSecret', 'redirectUri', 'privateKey', 'signingAlgorithm', 'issuer', 'assertion', 'assertionFile'] as const;
const IDP_FIELDS = ['issuer', 'tokenEndpoint', 'clientId', 'clientSecret', 'idToken'] as const;
const KNOWN = [...STRING_FIELDS, 'grantType', 'tokenEndpointAuthMethod', 'scopes', 'dpop', 'idp'];

type Report = (path: (string | number)[], severity: ProblemSeverity, message: string) => void;

export function parseOAuth(raw: unknown, name: string, node: jsonc.Node, problems: ConfigProblem[]): OAuthSettings | undefined {
  const report: Report = (path, severity, message) => {
    const at = jsonc.findNodeAtLocation(node, path) ?? node;
    problems.push({ severity, message, offset: at.offset, length: at.length });
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    report([], 'error', `"oauth" of server "${name}" must be an object.`);
    return undefined;
  }
  const out: OAuthSettings = {};
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    if ((STRING_FIELDS as readonly string[]).includes(k)) {
      if (typeof v === 'string' && v !== '') (out as Record<string, string>)[k] = v;
      else report([k], 'error', `"oauth.${k}" of server "${name}" must be a non-empty string.`);
    } else if (k === 'grantType') {
      if (OAUTH_GRANT_TYPES.includes(v as OAuthGrantType)) out.grantType = v as OAuthGrantType;
      else report([k], 'error', `"oauth.grantType" of server "${name}" must be one of ${OAUTH_GRANT_TYPES.map((g) => `"${g}"`).join(', ')}.`);
    } else if (k === 'tokenEndpointAuthMethod') {
      if (TOKEN_ENDPOINT_AUTH_METHODS.includes(v as TokenEndpointAuthMethod)) out.tokenEndpointAuthMethod = v as TokenEndpointAuthMethod;
      else
        report(
          [k],
          'error',
          `"oauth.tokenEndpointAuthMethod" of server "${name}" must be one of ${TOKEN_ENDPOINT_AUTH_METHODS.map((g) => `"${g}"`).join(', ')}.`,
        );
    } else if (k === 'scopes') {
      if (Array.isArray(v) && v.every((x) => typeof x === 'string')) out.scopes = v as string[];
      else report([k], 'error', `"oauth.scopes" of server "${name}" must be an array of strings.`);
    } else if (k === 'dpop') {
      if (typeof v === 'boolean') out.dpop = v;
      else report([k], 'error', `"oauth.dpop" of server "${name}" must be true or false.`);
    } else if (k === 'idp') {
      out.idp = parseIdp(v, name, report);
    } else {
      report([k], 'warning', `Unknown "oauth" field "${k}": use ${KNOWN.join(', ')}.`);
    }
  }
  checkCombinations(out, name, report);
  return out;
}

function parseIdp(raw: unknown, name: string, report: Report): IdentityProviderSettings | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    report(['idp'], 'error', `"oauth.idp" of server "${name}" must be an object.`);
    return undefined;
  }
  const idp: IdentityProviderSettings = {};
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    if (!(IDP_FIELDS as readonly string[]).includes(k)) {
      report(['idp', k], 'warning', `Unknown "oauth.idp" field "${k}": use ${IDP_FIELDS.join(', ')}.`);
    } else if (typeof v === 'string' && v !== '') {
      idp[k as (typeof IDP_FIELDS)[number]] = v;
    } else {
      report(['idp', k], 'error', `"oauth.idp.${k}" of server "${name}" must be a non-empty string.`);
    }
  }
  return idp;
}

/** A value that holds no `${…}` reference is written into the file itself (the config language server warns about secrets written so). */
function isLiteral(value: string): boolean {
  return !/\$\{[^}]+\}/.test(value);
}

function checkCombinations(o: OAuthSettings, name: string, report: Report): void {
  const grant = grantTypeOf(o);
  const method = authMethodOf(o);
  const need = (ok: boolean, path: string[], message: string) => {
    if (!ok) report(path, 'error', `Server "${name}": ${message}`);
  };
  if (grant !== 'authorization_code') {
    need(
      !!o.clientId,
      ['grantType'],
      `"grantType": "${grant}" needs "oauth.clientId" (the client registered with the authorization server; there is no dynamic registration without a user).`,
    );
    if (o.redirectUri) report(['redirectUri'], 'warning', `"oauth.redirectUri" of server "${name}" is ignored: "${grant}" involves no browser.`);
  }
  if (grant === 'client_credentials') {
    need(
      method !== 'none',
      ['grantType'],
      '"grantType": "client_credentials" needs a client secret ("clientSecret") or a key ("privateKey"): the client itself is what gets authorized.',
    );
  }
  if (grant === 'jwt_bearer') {
    need(
      !!o.assertion !== !!o.assertionFile,
      ['grantType'],
      '"grantType": "jwt_bearer" needs exactly one of "oauth.assertion" (the workload identity JWT) and "oauth.assertionFile" (a file holding it).',
    );
  } else if (o.assertion || o.assertionFile) {
    report(
      [o.assertion ? 'assertion' : 'assertionFile'],
      'warning',
      `"oauth.${o.assertion ? 'assertion' : 'assertionFile'}" of server "${name}" is only used with "grantType": "jwt_bearer".`,
    );
  }
  if (grant === 'enterprise_managed') {
    need(
      method === 'client_secret_basic' || method === 'client_secret_post' || method === 'private_key_jwt',
      ['grantType'],
      '"grantType": "enterprise_managed" needs the client\'s credentials at the MCP authorization server ("clientSecret" or "privateKey").',
    );
    need(!!o.idp, ['grantType'], '"grantType": "enterprise_managed" needs "oauth.idp": the identity provider that issues the identity assertion grant.');
    if (o.idp) {
      need(!!o.idp.issuer || !!o.idp.tokenEndpoint, ['idp'], '"oauth.idp" needs "issuer" or "tokenEndpoint".');
      need(!!o.idp.clientId, ['idp'], '"oauth.idp" needs "clientId" (this client at the identity provider).');
      need(!!o.idp.idToken, ['idp'], '"oauth.idp" needs "idToken" (the user\'s ID token, e.g. "${input:id-token}").');
    }
  } else if (o.idp) {
    report(['idp'], 'warning', `"oauth.idp" of server "${name}" is only used with "grantType": "enterprise_managed".`);
  }
  if ((method === 'client_secret_basic' || method === 'client_secret_post') && !o.clientSecret) {
    report(['tokenEndpointAuthMethod'], 'error', `Server "${name}": "tokenEndpointAuthMethod": "${method}" needs "oauth.clientSecret".`);
  }
  if (method === 'private_key_jwt' && !o.privateKey) {
    report(['tokenEndpointAuthMethod'], 'error', `Server "${name}": "tokenEndpointAuthMethod": "private_key_jwt" needs "oauth.privateKey".`);
  }
  if (method === 'none' && (o.clientSecret || o.privateKey)) {
    report(
      ['tokenEndpointAuthMethod'],
      'warning',
      `Server "${name}": "tokenEndpointAuthMethod": "none" sends no client credentials; "clientSecret"/"privateKey" are ignored.`,
    );
  }
  if (o.clientSecret && !o.clientId) report(['clientSecret'], 'warning', `"oauth.clientSecret" of server "${name}" is ignored without "oauth.clientId".`);
  if (o.signingAlgorithm && !(SIGNING_ALGORITHMS as readonly string[]).includes(o.signingAlgorithm)) {
    report(['signingAlgorithm'], 'error', `"oauth.signingAlgorithm" of server "${name}" must be one of ${SIGNING_ALGORITHMS.join(', ')}.`);
  }
  for (const [path, value] of [
    [['redirectUri'], o.redirectUri],
    [['issuer'], o.issuer],
    [['idp', 'issuer'], o.idp?.issuer],
    [['idp', 'tokenEndpoint'], o.idp?.tokenEndpoint],
  ] as const) {
    if (value === undefined || !isLiteral(value)) continue;
    try {
      new URL(value);
    } catch {
      report([...path], 'error', `"oauth.${path.join('.')}" of server "${name}" is not a valid URL.`);
      if (path[0] === 'redirectUri') delete o.redirectUri;
    }
  }
}

/** The settings with `fn` applied to every string in them (variable resolution). */
export function mapOAuthStrings(o: OAuthSettings, fn: (s: string) => string): OAuthSettings {
  const out: OAuthSettings = { ...o };
  for (const k of STRING_FIELDS) if (o[k] !== undefined) out[k] = fn(o[k]!);
  if (o.scopes) out.scopes = o.scopes.map(fn);
  if (o.idp) {
    const idp: IdentityProviderSettings = { ...o.idp };
    for (const k of IDP_FIELDS) if (o.idp[k] !== undefined) idp[k] = fn(o.idp[k]!);
    out.idp = idp;
  }
  return out;
}

/** Every string in the settings (where `${input:…}` may be used). */
export function oauthStrings(o: OAuthSettings | undefined): string[] {
  if (!o) return [];
  const strings: string[] = [];
  mapOAuthStrings(o, (s) => {
    strings.push(s);
    return s;
  });
  return strings;
}
