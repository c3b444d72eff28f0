/**
 * Feeds one Inspector page's Console tab from the ConsoleLog: all lines of the watched server
 * (or of every server, ALL_SERVERS) when the page starts watching it, then only the new ones, at most every `delayMs`; nothing
 * while no server is watched (the tab is hidden, or the page is not loaded). Pure.
 */
import type { ConsoleLog } from './consoleLog';
import { ALL_SERVERS, type ConsoleToWebview } from './consoleProtocol';

export class ConsoleFeed {
  private watched: string | undefined;
  private sentUpTo = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastSent = 0;
  private readonly known = new Set<string>();
  private readonly stopListening: () => void;

  /** `configured`: the servers of the configuration, listed in the picker before they write anything. */
  constructor(
    private readonly log: ConsoleLog,
    private readonly post: (message: ConsoleToWebview) => void,
    private readonly configured: () => { id: string; label: string }[],
    private readonly delayMs = 200,
  ) {
    this.stopListening = log.onDidAppend((serverId) => {
      if (!this.known.has(serverId)) this.sendServers();
      if (serverId === this.watched || this.watched === ALL_SERVERS) this.schedule();
    });
  }

  get watching(): string | undefined {
    return this.watched;
  }

  /** The picker's servers: configured ones first, then any other that wrote lines. */
  sendServers(): void {
    const servers = new Map<string, string>();
    for (const s of this.configured()) servers.set(s.id, s.label);
    for (const s of this.log.servers()) if (!servers.has(s.id)) servers.set(s.id, s.label);
    this.known.clear();
    for (const id of servers.keys()) this.known.add(id);
    this.post({ type: 'consoleServers', servers: [...servers].map(([id, label]) => ({ id, label })) });
  }

  /** Starts (or, with undefined, stops) feeding a server's lines; a new watch sends them all. */
  watch(serverId: string | undefined): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.watched = serverId;
    if (serverId === undefined) return;
    this.flush(true);
  }

  clear(serverId: string): void {
    if (serverId === ALL_SERVERS) this.log.clearAll();
    else this.log.clear(serverId);
    if (serverId === this.watched) this.flush(true);
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.flush(false);
      },
      Math.max(0, this.lastSent + this.delayMs - Date.now()),
    );
  }

  private flush(reset: boolean): void {
    const serverId = this.watched;
    if (serverId === undefined) return;
    const all = serverId === ALL_SERVERS;
    const lines = all ? this.log.allLines(reset ? 0 : this.sentUpTo) : this.log.lines(serverId, reset ? 0 : this.sentUpTo);
    if (!reset && !lines.length) return;
    this.lastSent = Date.now();
    if (lines.length) this.sentUpTo = lines[lines.length - 1].seq;
    else if (reset) this.sentUpTo = 0;
    this.post({ type: 'consoleLines', serverId, lines, reset, dropped: all ? this.log.droppedAll() : this.log.dropped(serverId) });
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.stopListening();
  }
}
