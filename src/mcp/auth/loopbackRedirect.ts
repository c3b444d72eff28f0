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
  /** Resolves with the first redirect that carries the sign-in's `state`; the listener is closed by then. */
  readonly response: Promise<AuthorizationResponse>;
  close(): void;
}

/**
 * Listens on the redirect URL's host and port; resolves when the browser arrives at its path
 * with `state`, the unguessable value of this sign-in's authorization URL. Any local process,
 * and any web page (by navigation or a fetch, also through a DNS name rebound to 127.0.0.1), can
 * send requests here: one without that `state`, or with another Host than the redirect URL's,
 * gets an error page and the listener keeps waiting. Only then is `error` read, so no one
 * else can end the sign-in with a refusal of their own wording.
 */
export async function listenForLoopbackRedirect(redirectUrl: string, state: string, signal?: AbortSignal): Promise<LoopbackRedirect> {
  const target = new URL(redirectUrl);
  let settle!: { resolve(r: AuthorizationResponse): void; reject(e: Error): void };
  const response = new Promise<AuthorizationResponse>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const page = (res: http.ServerResponse, status: number, text: string) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(`<!doctype html><meta charset="utf-8"><title>MCP Workbench</title><p>${text}</p>`);
  };
  let settled = false;
  const server = http.createServer((req, res) => {
    // The browser sends the redirect URL's own host and port (URL.host leaves out port 80, as browsers do).
    if (settled || (req.headers.host ?? '').toLowerCase() !== target.host.toLowerCase() || req.method !== 'GET') {
      res.writeHead(settled ? 410 : 400).end();
      return;
    }
    const url = new URL(req.url ?? '/', target);
    if (url.pathname !== target.pathname) {
      res.writeHead(404).end();
      return;
    }
    const answer = parseAuthorizationResponse(url);
    if (!state || answer.state !== state) {
      page(res, 400, 'This is not the answer to the sign-in MCP Workbench is waiting for; it was ignored.');
      return;
    }
    settled = true;
    page(res, 200, `${answer.error ? 'Sign-in was refused.' : 'Signed in.'} You can close this tab and return to VS Code.`);
    close();
    settle.resolve(answer);
  });
  const close = () => {
    server.close();
    server.closeAllConnections?.();
  };
  signal?.addEventListener(
    'abort',
    () => {
      close();
      settle.reject(new Error('Sign-in was cancelled.'));
    },
    { once: true },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(Number(target.port || 80), target.hostname.replace(/^\[|\]$/g, ''), () => resolve());
  });
  return { response, close };
}
