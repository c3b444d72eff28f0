/**
 * The local sandbox server. Two origins per app, both on 127.0.0.1 and both the server's own:
 *
 * - the proxy origin (one port, http://127.0.0.1:<P>) serves each app's sandbox proxy page
 *   (sandboxProxyPage.ts). A webview cannot give a nested frame a policy of its own (srcdoc and
 *   blob: frames inherit the webview's strict one), so pages come from a server, as the ext-apps
 *   reference host does with a sandbox origin of its own. The webview frames it with
 *   PROXY_SANDBOX: that origin, not the webview's.
 * - the app origin (a port of its own for each app, http://127.0.0.1:<Q>) serves the app's
 *   document with the app's Content-Security-Policy as a header. The proxy frames it with
 *   `allow-same-origin`, so the app has an origin, and with it storage (pdf.js keeps its place
 *   in `localStorage`), but that origin is its own: not the webview's, not VS Code's, not the
 *   proxy's (another port, so the app cannot reach into it or lift its own sandbox), and not another
 *   app's (each app has its own port). Its policy has no `'self'`, so it cannot read its own
 *   server either.
 *
 * Pages are reachable only under an unguessable token the host registered, and are gone once
 * the app is disposed.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { sandboxProxyPage, proxyPolicy } from './sandboxProxyPage';
import { withViolationListener } from './cspViolation';

export interface SandboxPage {
  /** Path of the proxy page on the server, e.g. `/proxy/3f9c…`. */
  readonly path: string;
  /** The app document's URL, on the app's own origin. */
  readonly appUrl: string;
  dispose(): void;
}

/** What an app session needs of the sandbox server. */
export interface AppSandbox {
  /** The origin a webview loads sandbox pages from (mapped by `asExternalUri` for remote windows). */
  origin(): Promise<string>;
  /** Registers an app: its policy, `allow` list and HTML. */
  register(policy: string, allow: string, html: string): Promise<SandboxPage>;
}

const TOKEN_PATH = /^\/(proxy|app)\/([a-f0-9]{48})$/;
const COMMON_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Resource-Policy': 'cross-origin',
};

function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end('not found');
}

/** Listens on a random port of 127.0.0.1 and resolves with the origin. */
function listen(server: Server): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

interface Page {
  appOrigin: string;
  appUrl: string;
  allow: string;
}

export class AppSandboxServer {
  private server: Server | undefined;
  private listening: Promise<string> | undefined;
  private readonly pages = new Map<string, Page>();
  private readonly appServers = new Set<Server>();

  /** Starts the proxy server (once) and resolves with its origin, e.g. `http://127.0.0.1:41234`. */
  origin(): Promise<string> {
    if (!this.listening) {
      const server = createServer((req, res) => {
        const match = TOKEN_PATH.exec(req.url ?? '');
        const page = match && match[1] === 'proxy' && req.method === 'GET' ? this.pages.get(match[2]) : undefined;
        if (!page) return notFound(res);
        const policy = proxyPolicy(page.appOrigin);
        res.writeHead(200, { ...COMMON_HEADERS, 'Content-Security-Policy': policy }).end(sandboxProxyPage(policy, page.appUrl, page.allow));
      });
      this.server = server;
      this.listening = listen(server);
    }
    return this.listening;
  }

  /** Registers an app: its own origin (a new port) serving its document under a new token. */
  async register(policy: string, allow: string, html: string): Promise<SandboxPage> {
    const token = randomBytes(24).toString('hex');
    const document = withViolationListener(html);
    const appServer = createServer((req, res) => {
      const match = TOKEN_PATH.exec(req.url ?? '');
      if (!match || match[1] !== 'app' || match[2] !== token || req.method !== 'GET' || !this.pages.has(token)) return notFound(res);
      res.writeHead(200, { ...COMMON_HEADERS, 'Content-Security-Policy': policy }).end(document);
    });
    this.appServers.add(appServer);
    const appOrigin = await listen(appServer);
    const appUrl = `${appOrigin}/app/${token}`;
    this.pages.set(token, { appOrigin, appUrl, allow });
    return {
      path: `/proxy/${token}`,
      appUrl,
      dispose: () => {
        this.pages.delete(token);
        this.appServers.delete(appServer);
        appServer.close();
        appServer.closeAllConnections();
      },
    };
  }

  dispose(): void {
    this.pages.clear();
    for (const appServer of this.appServers) {
      appServer.close();
      appServer.closeAllConnections();
    }
    this.appServers.clear();
    this.server?.close();
    this.server?.closeAllConnections();
    this.server = undefined;
    this.listening = undefined;
  }
}
