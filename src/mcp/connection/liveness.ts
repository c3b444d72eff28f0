/**
 * Notices a server that hangs: a process that is alive but no longer reads or answers looks
 * "running" forever otherwise. While a server runs it is pinged every interval (`ping` on
 * 2025-11-25; `server/discover` on 2026-07-28, which has no ping); a ping that gets no answer
 * within the request timeout declares it not responding. Only one ping is in flight at a time.
 * No `vscode` import.
 */
import { SdkError, SdkErrorCode, type Client, type RequestOptions } from '@modelcontextprotocol/client';

/**
 * Asks a server whether it is there: `ping` on 2025-11-25; 2026-07-28 removed it, so
 * `server/discover` there. Both the liveness watch and the connection's `ping()` send this.
 */
export async function pingByEra(client: Client, options: (method: 'ping' | 'server/discover') => RequestOptions): Promise<void> {
  if (client.getProtocolEra() === 'modern') await client.discover(options('server/discover'));
  else await client.ping(options('ping'));
}

/**
 * The liveness watch's ping: any answer, even an error (a server without `ping`), shows the
 * server is alive; only silence (the request timed out) rejects.
 */
export async function pingAlive(client: Client | undefined, options: (method: 'ping' | 'server/discover') => RequestOptions): Promise<void> {
  try {
    if (client) await pingByEra(client, options);
  } catch (error) {
    if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) throw error;
  }
}

export interface LivenessOwner {
  /** Milliseconds between pings; 0 or undefined turns them off. */
  intervalMs(): number | undefined;
  /** Sends one ping; rejects when the server does not answer in time. */
  ping(): Promise<void>;
  /** The server did not answer a ping (called once per watch). */
  unresponsive(error: unknown): void;
}

export class Liveness {
  private timer: NodeJS.Timeout | undefined;
  private watching = 0;

  constructor(private readonly owner: LivenessOwner) {}

  /** Starts pinging the session that just started running (and stops watching any earlier one). */
  watch(): void {
    this.stop();
    const interval = this.owner.intervalMs();
    if (!interval) return;
    const watch = ++this.watching;
    const next = () => {
      this.timer = setTimeout(() => {
        this.owner.ping().then(
          () => {
            if (watch === this.watching) next();
          },
          (error) => {
            if (watch !== this.watching) return;
            this.watching++;
            this.owner.unresponsive(error);
          },
        );
      }, interval);
      // Pings must not keep a host (test runner, CLI) alive.
      this.timer.unref?.();
    };
    next();
  }

  stop(): void {
    this.watching++;
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
