/**
 * The local sandbox server: serves each app's sandbox proxy page from its own origin
 * (http://127.0.0.1:<random port>), with the app's Content-Security-Policy as a response
 * header. A webview cannot give a nested frame a policy of its own (srcdoc and blob: frames
 * inherit the webview's strict one, which would block the app's inline scripts), so the
 * policy has to come from a response, as other hosts do with a sandbox origin of their own.
 * Pages are reachable only under an unguessable token the host registered; the server holds
 * only the policy, never the app's HTML (that goes to the frame by postMessage).
 */
import { createServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { sandboxProxyPage } from './sandboxProxyPage';

export interface SandboxPage {
  /** Path of the proxy page on the server, e.g. `/proxy/3f9c…`. */
  readonly path: string;
  dispose(): void;
}

/** What an app session needs of the sandbox server. */
export interface AppSandbox {
  /** The origin a webview loads sandbox pages from (mapped by `asExternalUri` for remote windows). */
  origin(): Promise<string>;
  register(policy: string, allow: string): SandboxPage;
}

export class AppSandboxServer {
  private server: Server | undefined;
  private listening: Promise<string> | undefined;
  private readonly pages = new Map<string, { policy: string; allow: string }>();

  /** Starts the server (once) and resolves with its origin, e.g. `http://127.0.0.1:41234`. */
  origin(): Promise<string> {
    this.listening ??= new Promise<string>((resolve, reject) => {
      const server = createServer((req, res) => {
        const match = /^\/proxy\/([a-f0-9]{48})$/.exec(req.url ?? '');
        const page = match && req.method === 'GET' ? this.pages.get(match[1]) : undefined;
        if (!page) {
          res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end('not found');
          return;
        }
        res.writeHead(200, {
          'Content-Type': 'text/html; charset=utf-8',
          'Content-Security-Policy': page.policy,
          'Cache-Control': 'no-store',
          'Referrer-Policy': 'no-referrer',
          'X-Content-Type-Options': 'nosniff',
          'Cross-Origin-Resource-Policy': 'cross-origin',
        }).end(sandboxProxyPage(page.policy, page.allow));
      });
      server.on('error', reject);
      server.listen(0, '127.0.0.1', () => {
        this.server = server;
        resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      });
    });
    return this.listening;
  }

  /** Registers a proxy page for one app (its policy and `allow` list). */
  register(policy: string, allow: string): SandboxPage {
    const token = randomBytes(24).toString('hex');
    this.pages.set(token, { policy, allow });
    return { path: `/proxy/${token}`, dispose: () => void this.pages.delete(token) };
  }

  dispose(): void {
    this.pages.clear();
    this.server?.close();
    this.server = undefined;
    this.listening = undefined;
  }
}
