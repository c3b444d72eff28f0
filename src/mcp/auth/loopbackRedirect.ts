/**
 * A one-shot HTTP listener for OAuth redirects to a loopback address (RFC 8252 §7.3), for
 * servers whose client registration names `http://127.0.0.1:<port>/…` as redirect URI.
 * Pure Node: no `vscode`.
 */
import * as http from 'node:http';
import { parseAuthorizationResponse, type AuthorizationResponse } from './oauthProvider';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function isLoopbackRedirect(redirectUrl: string): boolean {
  try {
    const url = new URL(redirectUrl);
    return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
  } catch {
    return false;
  }
}

export interface LoopbackRedirect {
  /** Resolves with the first redirect to the path; the listener is closed by then. */
  readonly response: Promise<AuthorizationResponse>;
  close(): void;
}

/** Listens on the redirect URL's host and port; resolves when the browser arrives at its path. */
export async function listenForLoopbackRedirect(redirectUrl: string, signal?: AbortSignal): Promise<LoopbackRedirect> {
  const target = new URL(redirectUrl);
  let settle!: { resolve(r: AuthorizationResponse): void; reject(e: Error): void };
  const response = new Promise<AuthorizationResponse>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', target);
    if (url.pathname !== target.pathname) {
      res.writeHead(404).end();
      return;
    }
    const answer = parseAuthorizationResponse(url);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><meta charset="utf-8"><title>MCP Workbench</title><p>${answer.error ? 'Sign-in was refused.' : 'Signed in.'} You can close this tab and return to VS Code.</p>`);
    close();
    settle.resolve(answer);
  });
  const close = () => {
    server.close();
    server.closeAllConnections?.();
  };
  signal?.addEventListener('abort', () => {
    close();
    settle.reject(new Error('Sign-in was cancelled.'));
  }, { once: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(Number(target.port || 80), target.hostname.replace(/^\[|\]$/g, ''), () => resolve());
  });
  return { response, close };
}
