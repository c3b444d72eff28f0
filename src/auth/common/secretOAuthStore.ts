/**
 * The OAuth provider's store on VS Code's SecretStorage: keys are
 * `mcpWorkbench.oauth/<server url>#<what>`. No `vscode` import (SecretStorage is passed in by its
 * shape), so the caching below is unit-tested.
 *
 * Reads are cached. Every request to an HTTP server asks for its tokens (the connection before
 * sending, the SDK's transport for the Authorization header, DPoP for its proof), and in VS Code
 * each `SecretStorage.get` is a round trip from the extension host to the main process. The
 * cache holds the stored text per key; it is written through by `set`/`delete` and a key is
 * dropped when SecretStorage says it changed (another window signed in or out, or our own write
 * echoed back), so the next read asks SecretStorage again.
 */
import type { OAuthStore } from '../../mcp/auth/oauthProvider';

/** What this store needs of `vscode.SecretStorage`. */
export interface SecretStorageLike {
  get(key: string): Thenable<string | undefined>;
  store(key: string, value: string): Thenable<void>;
  delete(key: string): Thenable<void>;
  onDidChange(listener: (e: { key: string }) => unknown): { dispose(): unknown };
}

const PREFIX = 'mcpWorkbench.oauth/';

export class SecretOAuthStore implements OAuthStore {
  /** The stored text by full key (undefined: nothing stored), as last read or written. */
  private readonly cache = new Map<string, Promise<string | undefined>>();
  private readonly subscription: { dispose(): unknown };

  /**
   * `onCredential` sees every token and client secret read or written, so that logs, traces and
   * Activity records can hide them (a server may echo its token back).
   */
  constructor(
    private readonly secrets: SecretStorageLike,
    private readonly onCredential: (value: string) => void = () => undefined,
  ) {
    this.subscription = secrets.onDidChange((e) => {
      if (e.key.startsWith(PREFIX)) this.cache.delete(e.key);
    });
  }

  async get<T>(key: string): Promise<T | undefined> {
    const full = PREFIX + key;
    let text = this.cache.get(full);
    if (!text) {
      const read = Promise.resolve(this.secrets.get(full));
      text = read;
      this.cache.set(full, read);
      // A failed read is not remembered: the next one asks again.
      read.then(undefined, () => (this.cache.get(full) === read ? this.cache.delete(full) : undefined));
    }
    const stored = await text;
    if (stored === undefined) return undefined;
    try {
      // Parsed per read: callers get their own object, which they may change.
      const value = JSON.parse(stored) as T;
      this.noteCredentials(value);
      return value;
    } catch {
      return undefined;
    }
  }

  async set(key: string, value: unknown): Promise<void> {
    this.noteCredentials(value);
    const full = PREFIX + key;
    const text = JSON.stringify(value);
    this.cache.set(full, Promise.resolve(text));
    try {
      await this.secrets.store(full, text);
    } catch (error) {
      // Not stored: the cache must not claim it was.
      this.cache.delete(full);
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const full = PREFIX + key;
    this.cache.set(full, Promise.resolve(undefined));
    try {
      await this.secrets.delete(full);
    } catch (error) {
      this.cache.delete(full);
      throw error;
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.cache.clear();
  }

  /** `depth` 1: registered clients are kept as `{ [issuer]: client }`. */
  private noteCredentials(value: unknown, depth = 1): void {
    if (!value || typeof value !== 'object') return;
    const v = value as Record<string, unknown>;
    for (const field of ['access_token', 'refresh_token', 'id_token', 'client_secret']) {
      if (typeof v[field] === 'string') this.onCredential(v[field] as string);
    }
    if (depth > 0) for (const nested of Object.values(v)) this.noteCredentials(nested, depth - 1);
  }
}
