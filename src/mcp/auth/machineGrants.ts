/**
 * The token requests of the grants that need no browser, on the SDK's provider hooks
 * (`prepareTokenRequest`, `addClientAuthentication`): client credentials (SEP-1046), the
 * JWT-bearer grant with a workload identity token (RFC 7523, SEP-1933), and enterprise-managed
 * authorization (RFC 8693 token exchange for an ID-JAG at the company's identity provider, then
 * the JWT-bearer grant with it, SEP-990). The SDK does discovery, the `resource` parameter,
 * client authentication, DPoP and the token request itself. No `vscode` import.
 */
import { createPrivateKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import {
  createPrivateKeyJwtAuth,
  requestJwtAuthorizationGrant,
  discoverAndRequestJwtAuthGrant,
  type AddClientAuthentication,
} from '@modelcontextprotocol/client';
import { grantTypeOf, type OAuthGrantType, type OAuthSettings } from '../../config/common/oauthConfig';

export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** The `grant_types` a client of this grant registers (RFC 7591 names). */
export function grantTypesFor(grant: OAuthGrantType): string[] {
  switch (grant) {
    case 'client_credentials':
      return ['client_credentials'];
    case 'jwt_bearer':
    case 'enterprise_managed':
      return [JWT_BEARER_GRANT];
    default:
      return ['authorization_code', 'refresh_token'];
  }
}

/** What discovery found, which the enterprise grant needs: the token's audience and resource. */
export interface DiscoveredServer {
  authorizationServer?: string;
  resource?: string;
}

/**
 * The body of a token request for a grant that needs no browser; undefined for
 * `authorization_code` (the SDK builds that one from the code and the PKCE verifier).
 */
export async function machineTokenRequest(
  settings: OAuthSettings,
  scope: string | undefined,
  discovered: DiscoveredServer,
  fetchFn?: typeof fetch,
): Promise<URLSearchParams | undefined> {
  const grant = grantTypeOf(settings);
  let params: URLSearchParams;
  if (grant === 'client_credentials') {
    params = new URLSearchParams({ grant_type: 'client_credentials' });
  } else if (grant === 'jwt_bearer') {
    params = new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion: await workloadAssertion(settings) });
  } else if (grant === 'enterprise_managed') {
    params = new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion: await identityAssertionGrant(settings, scope, discovered, fetchFn) });
  } else {
    return undefined;
  }
  if (scope) params.set('scope', scope);
  return params;
}

/** The workload identity JWT: configured, or read fresh from its file (platforms rotate it). */
async function workloadAssertion(settings: OAuthSettings): Promise<string> {
  if (settings.assertion) return settings.assertion.trim();
  if (!settings.assertionFile) throw new Error('"oauth.assertion" or "oauth.assertionFile" is needed for "grantType": "jwt_bearer".');
  try {
    return (await readFile(settings.assertionFile, 'utf8')).trim();
  } catch (error) {
    throw new Error(`The workload identity token file ${settings.assertionFile} could not be read: ${(error as Error).message}`, { cause: error });
  }
}

/** SEP-990 step 2: the user's ID token exchanged at the identity provider for an ID-JAG. */
async function identityAssertionGrant(
  settings: OAuthSettings,
  scope: string | undefined,
  discovered: DiscoveredServer,
  fetchFn?: typeof fetch,
): Promise<string> {
  const idp = settings.idp;
  if (!idp?.clientId || !idp.idToken || (!idp.tokenEndpoint && !idp.issuer)) {
    throw new Error('"oauth.idp" needs "clientId", "idToken" and "issuer" or "tokenEndpoint" for "grantType": "enterprise_managed".');
  }
  if (!discovered.authorizationServer || !discovered.resource) {
    throw new Error(
      'The server did not name its authorization server and resource (RFC 9728 protected-resource metadata), which enterprise-managed authorization needs.',
    );
  }
  const request = {
    audience: discovered.authorizationServer,
    resource: discovered.resource,
    idToken: idp.idToken,
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
    scope,
    fetchFn,
  };
  const result = idp.tokenEndpoint
    ? await requestJwtAuthorizationGrant({ ...request, tokenEndpoint: idp.tokenEndpoint })
    : await discoverAndRequestJwtAuthGrant({ ...request, idpUrl: idp.issuer! });
  return result.jwtAuthGrant;
}

/** `private_key_jwt` client authentication (RFC 7523 §2.2): `iss` = `sub` = client id, `aud` = the issuer. */
export function privateKeyJwtAuthentication(settings: OAuthSettings): AddClientAuthentication {
  let sign: AddClientAuthentication | undefined;
  return (headers, params, url, metadata) => {
    sign ??= createPrivateKeyJwtAuth({
      issuer: settings.clientId!,
      subject: settings.clientId!,
      privateKey: settings.privateKey!,
      alg: settings.signingAlgorithm ?? signingAlgorithmOf(settings.privateKey!),
    });
    return sign(headers, params, url, metadata);
  };
}

const CURVE_ALGORITHMS: Record<string, string> = { prime256v1: 'ES256', secp384r1: 'ES384', secp521r1: 'ES512' };

/** The JWS algorithm a PEM key signs with by default: ES256/384/512 by curve, RS256 (PS256 for RSA-PSS keys). */
export function signingAlgorithmOf(pem: string): string {
  let key;
  try {
    key = createPrivateKey(pem);
  } catch (error) {
    throw new Error(`"oauth.privateKey" is not a PEM private key: ${(error as Error).message}`, { cause: error });
  }
  const type = key.asymmetricKeyType;
  if (type === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve ?? '';
    const alg = CURVE_ALGORITHMS[curve];
    if (!alg) throw new Error(`"oauth.privateKey" uses the curve ${curve}; use P-256, P-384 or P-521, or set "oauth.signingAlgorithm".`);
    return alg;
  }
  if (type === 'rsa' || type === 'rsa-pss') return type === 'rsa' ? 'RS256' : 'PS256';
  throw new Error(`"oauth.privateKey" is a ${type} key; set "oauth.signingAlgorithm".`);
}
