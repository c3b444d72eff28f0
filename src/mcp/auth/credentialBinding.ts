/**
 * Which authorization server a configured credential may be sent to (SEP-2352: credentials are
 * keyed by issuer). A server entry names the MCP server; the MCP server's protected-resource
 * metadata names the authorization server. So without a binding, whoever controls the server
 * entry or the MCP server decides where the client secret or signing key goes.
 *
 * Two rules, checked before any token request that carries a configured credential:
 *  - `oauth.issuer`, when set, pins the authorization server up front;
 *  - otherwise each configured secret is bound to the first authorization server it is sent
 *    to (trust on first use), recorded by a hash of the secret in the credential store. A
 *    config that would later send the same secret to another issuer (an edited URL, a hostile
 *    workspace reusing an input, a PRM that switched servers) is refused; signing out of the
 *    server releases the binding.
 */
import { createHash } from 'node:crypto';
import type { OAuthSettings } from '../../config/common/oauthConfig';

/** The store the bindings live in: the same one as tokens (SecretStorage in the extension). */
export interface BindingStore {
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
}

export class CredentialBindingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CredentialBindingError';
  }
}

/** Issuer identity as SEP-2352 compares it: exact, tolerating one trailing slash. */
export function issuersMatch(a: string, b: string): boolean {
  return a.replace(/\/$/, '') === b.replace(/\/$/, '');
}

/** The configured secrets a token request sends to (or signs for) the authorization server. */
function boundSecrets(settings: OAuthSettings): string[] {
  return [settings.clientSecret, settings.privateKey].filter((s): s is string => !!s);
}

function bindingKey(secret: string): string {
  return `binding/${createHash('sha256').update(secret).digest('hex')}`;
}

/** Throws when a configured credential must not go to `issuer`; records first uses. */
export async function checkCredentialIssuer(store: BindingStore, settings: OAuthSettings, issuer: string): Promise<void> {
  if (settings.issuer && !issuersMatch(settings.issuer, issuer)) {
    throw new CredentialBindingError(
      `The server sends its clients to the authorization server ${issuer}, but "oauth.issuer" is ${settings.issuer}: the configured client credentials were not sent there.`,
    );
  }
  for (const secret of boundSecrets(settings)) {
    const key = bindingKey(secret);
    const bound = await store.get<string>(key);
    if (bound === undefined) {
      await store.set(key, issuer);
    } else if (!issuersMatch(bound, issuer)) {
      throw new CredentialBindingError(
        `The configured client credentials were first used with the authorization server ${bound}; the server now names ${issuer}, so they were not sent there. If the server really moved, sign out of it ("MCP: Sign Out of Server") and connect again, or set "oauth.issuer".`,
      );
    }
  }
}

/** Sign-out: the server's configured credentials may be bound anew. */
export async function releaseCredentialBindings(store: BindingStore, settings: OAuthSettings | undefined): Promise<void> {
  if (!settings) return;
  await Promise.all(boundSecrets(settings).map((secret) => store.delete(bindingKey(secret))));
}
