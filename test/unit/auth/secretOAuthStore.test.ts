import * as assert from 'node:assert/strict';
import { SecretOAuthStore, type SecretStorageLike } from '../../../src/auth/common/secretOAuthStore';

/**
 * SecretStorage as VS Code behaves (a stand-in: the real one needs a running VS Code, where the
 * auth integration tests use it): values by key, each read and write counted, onDidChange fired
 * after every store or delete, whoever made it.
 */
class CountingSecrets implements SecretStorageLike {
  readonly values = new Map<string, string>();
  reads = 0;
  failNextRead = false;
  private readonly listeners = new Set<(e: { key: string }) => unknown>();
  async get(key: string): Promise<string | undefined> {
    this.reads++;
    await new Promise((r) => setImmediate(r));
    if (this.failNextRead) {
      this.failNextRead = false;
      throw new Error('keychain locked');
    }
    return this.values.get(key);
  }
  async store(key: string, value: string): Promise<void> {
    this.values.set(key, value);
    this.fire(key);
  }
  async delete(key: string): Promise<void> {
    this.values.delete(key);
    this.fire(key);
  }
  /** Another window (or another extension's API call) changed the key. */
  changeElsewhere(key: string, value: string | undefined): void {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
    this.fire(key);
  }
  onDidChange(listener: (e: { key: string }) => unknown) {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }
  private fire(key: string): void {
    queueMicrotask(() => this.listeners.forEach((l) => l({ key })));
  }
}

const KEY = 'https://mcp.example.com/mcp#tokens';
const FULL = `mcpWorkbench.oauth/${KEY}`;

describe('SecretOAuthStore', () => {
  it('a stored value is read from SecretStorage once, then from memory', async () => {
    const secrets = new CountingSecrets();
    secrets.values.set(FULL, JSON.stringify({ access_token: 'at-1', token_type: 'Bearer' }));
    const store = new SecretOAuthStore(secrets);
    for (let i = 0; i < 5; i++) assert.equal((await store.get<{ access_token: string }>(KEY))?.access_token, 'at-1');
    assert.equal(secrets.reads, 1);
    // Concurrent first reads share one round trip too.
    const other = new SecretOAuthStore(secrets);
    await Promise.all([other.get(KEY), other.get(KEY), other.get(KEY)]);
    assert.equal(secrets.reads, 2);
  });

  it('nothing stored is remembered as nothing, until something is', async () => {
    const secrets = new CountingSecrets();
    const store = new SecretOAuthStore(secrets);
    assert.equal(await store.get(KEY), undefined);
    assert.equal(await store.get(KEY), undefined);
    assert.equal(secrets.reads, 1);
    await store.set(KEY, { access_token: 'at-2' });
    assert.deepEqual(await store.get(KEY), { access_token: 'at-2' });
  });

  it('writes and deletes go through to SecretStorage and are read back at once', async () => {
    const secrets = new CountingSecrets();
    const store = new SecretOAuthStore(secrets);
    await store.set(KEY, { access_token: 'at-3' });
    assert.equal(secrets.values.get(FULL), JSON.stringify({ access_token: 'at-3' }));
    assert.deepEqual(await store.get(KEY), { access_token: 'at-3' });
    await store.delete(KEY);
    assert.equal(secrets.values.has(FULL), false);
    assert.equal(await store.get(KEY), undefined);
  });

  it('a change made elsewhere (another window signed in or out) is seen by the next read', async () => {
    const secrets = new CountingSecrets();
    secrets.values.set(FULL, JSON.stringify({ access_token: 'old' }));
    const store = new SecretOAuthStore(secrets);
    assert.deepEqual(await store.get(KEY), { access_token: 'old' });
    secrets.changeElsewhere(FULL, JSON.stringify({ access_token: 'new' }));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(await store.get(KEY), { access_token: 'new' });
    secrets.changeElsewhere(FULL, undefined);
    await new Promise((r) => setImmediate(r));
    assert.equal(await store.get(KEY), undefined);
  });

  it('each read gets its own object, so a caller changing it cannot change what others read', async () => {
    const secrets = new CountingSecrets();
    const store = new SecretOAuthStore(secrets);
    await store.set(KEY, { access_token: 'at-4', scope: 'a' });
    const first = await store.get<{ scope: string }>(KEY);
    first!.scope = 'changed';
    assert.deepEqual(await store.get(KEY), { access_token: 'at-4', scope: 'a' });
  });

  it('a failed read is not remembered', async () => {
    const secrets = new CountingSecrets();
    secrets.values.set(FULL, JSON.stringify({ access_token: 'at-5' }));
    secrets.failNextRead = true;
    const store = new SecretOAuthStore(secrets);
    await assert.rejects(store.get(KEY), /keychain locked/);
    assert.deepEqual(await store.get(KEY), { access_token: 'at-5' });
  });

  it('every credential read or written is reported for redaction, nested clients included', async () => {
    const seen: string[] = [];
    const secrets = new CountingSecrets();
    secrets.values.set(FULL, JSON.stringify({ access_token: 'at-6', refresh_token: 'rt-6' }));
    const store = new SecretOAuthStore(secrets, (v) => seen.push(v));
    await store.get(KEY);
    await store.set('https://mcp.example.com/mcp#client', { 'https://issuer': { client_id: 'c', client_secret: 'cs-6' } });
    assert.deepEqual(seen, ['at-6', 'rt-6', 'cs-6']);
  });
});
