/**
 * The HTTP exchanges of every HTTP server, kept raw in a bounded ring (oldest dropped) beside
 * the activity log. Adding is one array push: the record is the object the recording fetch
 * keeps updating (src/mcp/connection/httpRecording.ts). Bodies are parsed for linking, and
 * everything is redacted, only when an exchange is asked for (an Inspector detail, an export).
 * Pure: no `vscode`.
 */
import { bodyMessages, exchangeView, linkExchanges, type BodyMessages, type HttpExchangeView, type LinkTarget, type RawExchange } from './httpExchange';
import type { ActivityServer } from './activityLog';

interface Kept {
  server: ActivityServer;
  raw: RawExchange;
  messages?: BodyMessages;
}

const secretsNow = (server: ActivityServer) => (typeof server.secrets === 'function' ? server.secrets() : server.secrets);

export class HttpLog {
  private ring: Kept[] = [];

  constructor(private readonly max = 2000) {}

  add(server: ActivityServer, raw: RawExchange): void {
    this.ring.push({ server, raw });
    if (this.ring.length > this.max * 1.25) this.ring = this.ring.slice(-this.max);
  }

  clear(): void {
    this.ring = [];
  }

  get size(): number {
    return Math.min(this.ring.length, this.max);
  }

  private kept(): Kept[] {
    return this.ring.length > this.max ? this.ring.slice(-this.max) : this.ring;
  }

  /** The exchanges that carried one JSON-RPC exchange of `serverId`, redacted. */
  exchangesFor(serverId: string, target: LinkTarget): HttpExchangeView[] {
    const mine = this.kept().filter((k) => k.server.id === serverId);
    if (!mine.length) return [];
    const links = linkExchanges(
      target,
      mine.map((k) => k.raw),
      (i) => (mine[i].messages ??= bodyMessages(mine[i].raw.requestBody)),
    );
    return links.map(({ index, link }) => exchangeView(mine[index].raw, secretsNow(mine[index].server), link));
  }

  /** Every kept exchange, oldest first, redacted (for HAR), with the server it belongs to. */
  all(): { serverId: string; serverLabel: string; view: HttpExchangeView }[] {
    return this.kept().map((k) => ({ serverId: k.server.id, serverLabel: k.server.label, view: exchangeView(k.raw, secretsNow(k.server)) }));
  }
}
