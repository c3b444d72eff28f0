/**
 * The DPoP key of one server's OAuth client (RFC 9449 / SEP-1932). Tokens bound to it are
 * stored across restarts, so the key is stored with them (in the same credential store:
 * SecretStorage in the extension); without it a stored DPoP-bound token or refresh token would
 * be useless after a reload and every window would need a new authorization. ES256 (P-256), the
 * algorithm every DPoP server supports. No `vscode` import.
 */
import { createHash, webcrypto } from 'node:crypto';
import { DpopSession, generateDpopKeyPair, type DpopKeyPair } from '@modelcontextprotocol/client';

/** The stored form: the private and public JWKs. */
export interface StoredDpopKey {
  privateJwk: webcrypto.JsonWebKey;
  publicJwk: webcrypto.JsonWebKey;
}

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;

/** A session on the stored key, or on a new one that `save` receives. */
export async function loadDpopSession(stored: StoredDpopKey | undefined, save: (key: StoredDpopKey) => Promise<void>): Promise<DpopSession> {
  if (stored?.privateJwk && stored.publicJwk?.kty === 'EC') {
    try {
      return await DpopSession.create({ keyPair: await importKeyPair(stored) });
    } catch {
      // An unreadable stored key is replaced; tokens bound to it are refused and renewed.
    }
  }
  const keyPair = await generateDpopKeyPair({ alg: 'ES256', extractable: true });
  const privateJwk = await webcrypto.subtle.exportKey('jwk', keyPair.privateKey as webcrypto.CryptoKey);
  await save({ privateJwk, publicJwk: keyPair.publicJwk as webcrypto.JsonWebKey });
  return DpopSession.create({ keyPair });
}

async function importKeyPair(stored: StoredDpopKey): Promise<DpopKeyPair> {
  const { crv, kty, x, y } = stored.publicJwk;
  const publicJwk = { crv, kty, x, y };
  const privateKey = await webcrypto.subtle.importKey('jwk', stored.privateJwk, ALGORITHM, false, ['sign']);
  const publicKey = await webcrypto.subtle.importKey('jwk', publicJwk, ALGORITHM, true, ['verify']);
  return { privateKey, publicKey, publicJwk, thumbprint: thumbprintOf(publicJwk), alg: 'ES256' } as unknown as DpopKeyPair;
}

/** RFC 7638 JWK thumbprint of an EC public key: SHA-256 of its required members in order. */
function thumbprintOf(jwk: { crv?: string; kty?: string; x?: string; y?: string }): string {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return createHash('sha256').update(canonical).digest('base64url');
}
