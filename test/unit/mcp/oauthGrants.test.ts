/**
 * The pieces of the machine-to-machine grants that are ours, not the SDK's: the token request
 * bodies, the default signing algorithm of a key, the stored DPoP key, and the issuer binding
 * of configured credentials.
 */
import * as assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { machineTokenRequest, signingAlgorithmOf, JWT_BEARER_GRANT } from '../../../src/mcp/auth/machineGrants';
import { loadDpopSession, type StoredDpopKey } from '../../../src/mcp/auth/dpopKey';
import { checkCredentialIssuer, issuersMatch, releaseCredentialBindings } from '../../../src/mcp/auth/credentialBinding';
import { MemoryOAuthStore } from '../../../src/mcp/auth/oauthProvider';

const pem = (options: Parameters<typeof generateKeyPairSync>[1], type: 'ec' | 'rsa') =>
  (
    generateKeyPairSync(
      type as 'ec',
      { ...(options as object), privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } } as never,
    ) as unknown as { privateKey: string }
  ).privateKey;

describe('machine-to-machine grants', () => {
  it('builds the client_credentials and jwt_bearer requests; the workload token file is read at each request', async () => {
    const cc = await machineTokenRequest({ grantType: 'client_credentials', clientId: 'c' }, 'mcp:read', {});
    assert.equal(cc?.toString(), 'grant_type=client_credentials&scope=mcp%3Aread');
    const dir = mkdtempSync(join(tmpdir(), 'mcpwb-wif-'));
    const file = join(dir, 'token');
    writeFileSync(file, 'first.jwt.value\n');
    const settings = { grantType: 'jwt_bearer' as const, clientId: 'w', assertionFile: file };
    assert.equal((await machineTokenRequest(settings, undefined, {}))?.get('assertion'), 'first.jwt.value');
    writeFileSync(file, 'rotated.jwt.value');
    const rotated = await machineTokenRequest(settings, undefined, {});
    assert.equal(rotated?.get('grant_type'), JWT_BEARER_GRANT);
    assert.equal(rotated?.get('assertion'), 'rotated.jwt.value');
    await assert.rejects(machineTokenRequest({ ...settings, assertionFile: join(dir, 'missing') }, undefined, {}), /token file .* could not be read/);
    assert.equal(await machineTokenRequest({ clientId: 'c' }, undefined, {}), undefined, 'authorization code: the SDK builds it');
  });

  it('enterprise_managed refuses to ask for an ID-JAG before discovery named the audience and resource', async () => {
    await assert.rejects(
      machineTokenRequest(
        { grantType: 'enterprise_managed', clientId: 'c', idp: { tokenEndpoint: 'https://idp.example.com/token', clientId: 'wb', idToken: 't' } },
        undefined,
        {},
      ),
      /protected-resource metadata/,
    );
  });

  it('picks the signing algorithm from the key', () => {
    assert.equal(signingAlgorithmOf(pem({ namedCurve: 'P-256' } as never, 'ec')), 'ES256');
    assert.equal(signingAlgorithmOf(pem({ namedCurve: 'P-384' } as never, 'ec')), 'ES384');
    assert.equal(signingAlgorithmOf(pem({ modulusLength: 2048 } as never, 'rsa')), 'RS256');
    assert.throws(() => signingAlgorithmOf('not a key'), /is not a PEM private key/);
  });

  it('keeps the DPoP key: a stored key gives the same thumbprint after a reload', async () => {
    let saved: StoredDpopKey | undefined;
    const first = await loadDpopSession(undefined, async (key) => void (saved = key));
    assert.ok(saved?.privateJwk.d, 'the private key was saved');
    const again = await loadDpopSession(saved, async () => assert.fail('a stored key is not replaced'));
    assert.equal(again.thumbprint, first.thumbprint);
    const proof = await again.buildProof({ htm: 'POST', htu: 'https://mcp.example.com/mcp' });
    assert.equal(JSON.parse(Buffer.from(proof.split('.')[0], 'base64url').toString()).typ, 'dpop+jwt');
  });

  it('binds configured credentials to the first issuer, honours a pin, and sign-out releases the binding', async () => {
    const store = new MemoryOAuthStore();
    const settings = { clientId: 'c', clientSecret: 'shh' };
    await checkCredentialIssuer(store, settings, 'https://auth.example.com');
    await checkCredentialIssuer(store, settings, 'https://auth.example.com/');
    await assert.rejects(checkCredentialIssuer(store, settings, 'https://evil.example'), /first used with the authorization server https:\/\/auth.example.com/);
    assert.ok(![...store.values.values()].some((v) => v.includes('shh')), 'only a hash of the secret is kept');
    await releaseCredentialBindings(store, settings);
    await checkCredentialIssuer(store, settings, 'https://evil.example');
    await assert.rejects(
      checkCredentialIssuer(new MemoryOAuthStore(), { ...settings, issuer: 'https://auth.example.com' }, 'https://other.example'),
      /"oauth.issuer" is https:\/\/auth.example.com/,
    );
    assert.ok(issuersMatch('https://a.example/', 'https://a.example'));
    assert.ok(!issuersMatch('https://a.example/x', 'https://a.example'));
  });
});
