/**
 * The Inspector's Console: per server, the lines of its stderr and its `notifications/message`
 * log messages, in a ring buffer bounded by lines and characters (a server that floods stderr
 * costs a fixed amount of memory, the oldest lines go first). Pure and free of Node APIs: the
 * webview filters with the same code (`filterConsole`).
 */

/** The MCP log levels (RFC 5424, least severe first), and `stderr` for a line of the process's stderr. */
export type ConsoleLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency' | 'stderr';
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface ConsoleLine {
  /** Unique and increasing across servers: the page asks for what came after the last one it has. */
  seq: number;
  at: number;
  level: ConsoleLevel;
  /** Server text, redacted; shown with textContent only. */
  text: string;
  /** The server's label, on lines of the all-servers view (whose lines come from many servers). */
  server?: string;
}

/** Per server. A flood of short lines hits the line cap, a few huge ones the character cap. */
export const MAX_CONSOLE_LINES = 5000;
export const MAX_CONSOLE_CHARS = 1_000_000;
/** A longer line is cut (a server printing a whole file on one line). */
export const MAX_LINE_CHARS = 8000;

/** The level of a log notification as sent: an unknown level counts as info (as the Output view does). */
export function consoleLevelOf(level: unknown): LogLevel {
  return typeof level === 'string' && (LOG_LEVELS as readonly string[]).includes(level) ? (level as LogLevel) : 'info';
}

/** Oldest first; the oldest line goes when either cap would be exceeded. */
export class ConsoleRing {
  private readonly slots: (ConsoleLine | undefined)[];
  private start = 0;
  private count = 0;
  private chars = 0;
  /** Lines dropped to stay within the caps, for "N older lines dropped". */
  dropped = 0;

  constructor(
    private readonly maxLines = MAX_CONSOLE_LINES,
    private readonly maxChars = MAX_CONSOLE_CHARS,
  ) {
    this.slots = new Array(maxLines);
  }

  get size(): number {
    return this.count;
  }

  push(line: ConsoleLine): void {
    if (this.count === this.maxLines) this.dropOldest();
    this.slots[(this.start + this.count) % this.maxLines] = line;
    this.count++;
    this.chars += line.text.length;
    while (this.chars > this.maxChars && this.count > 1) this.dropOldest();
  }

  private dropOldest(): void {
    const oldest = this.slots[this.start]!;
    this.slots[this.start] = undefined;
    this.start = (this.start + 1) % this.maxLines;
    this.count--;
    this.chars -= oldest.text.length;
    this.dropped++;
  }

  /** The lines with a seq above `after`, oldest first. */
  lines(after = 0): ConsoleLine[] {
    const out: ConsoleLine[] = [];
    for (let i = 0; i < this.count; i++) {
      const line = this.slots[(this.start + i) % this.maxLines]!;
      if (line.seq > after) out.push(line);
    }
    return out;
  }

  clear(): void {
    this.slots.fill(undefined);
    this.start = this.count = this.chars = this.dropped = 0;
  }
}

/** Every server's console, as the host keeps it from activation on (so opening the panel later shows what came before). */
export class ConsoleLog {
  private readonly rings = new Map<string, { label: string; ring: ConsoleRing }>();
  private nextSeq = 1;
  private readonly listeners = new Set<(serverId: string, line: ConsoleLine) => void>();

  constructor(
    private readonly maxLines = MAX_CONSOLE_LINES,
    private readonly maxChars = MAX_CONSOLE_CHARS,
  ) {}

  append(serverId: string, label: string, level: ConsoleLevel, text: string, at = Date.now()): ConsoleLine {
    let entry = this.rings.get(serverId);
    if (!entry) this.rings.set(serverId, (entry = { label, ring: new ConsoleRing(this.maxLines, this.maxChars) }));
    entry.label = label;
    const line: ConsoleLine = {
      seq: this.nextSeq++,
      at,
      level,
      text: text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}… (${text.length - MAX_LINE_CHARS} more characters)` : text,
    };
    entry.ring.push(line);
    for (const listener of this.listeners) listener(serverId, line);
    return line;
  }

  /** Called for every new line; returns the function that stops it. */
  onDidAppend(listener: (serverId: string, line: ConsoleLine) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  lines(serverId: string, after = 0): ConsoleLine[] {
    return this.rings.get(serverId)?.ring.lines(after) ?? [];
  }

  dropped(serverId: string): number {
    return this.rings.get(serverId)?.ring.dropped ?? 0;
  }

  clear(serverId: string): void {
    this.rings.get(serverId)?.ring.clear();
  }

  /**
   * Every server's lines with a seq above `after`, merged in the order they arrived (seq is
   * global), each with its server's label; the newest `maxLines` of them.
   */
  allLines(after = 0): ConsoleLine[] {
    const merged: ConsoleLine[] = [];
    for (const { label, ring } of this.rings.values()) for (const line of ring.lines(after)) merged.push({ ...line, server: label });
    merged.sort((a, b) => a.seq - b.seq);
    return merged.length > this.maxLines ? merged.slice(merged.length - this.maxLines) : merged;
  }

  /** Lines dropped to stay within the bounds, over all servers. */
  droppedAll(): number {
    let dropped = 0;
    for (const { ring } of this.rings.values()) dropped += ring.dropped;
    return dropped;
  }

  clearAll(): void {
    for (const { ring } of this.rings.values()) ring.clear();
  }

  /** Servers that wrote something, with their label (a removed server's lines stay readable). */
  servers(): { id: string; label: string }[] {
    return [...this.rings].map(([id, { label }]) => ({ id, label }));
  }
}

/** What the Console's filter bar holds. */
export interface ConsoleFilter {
  /** Log messages below this level are hidden; undefined: all levels. */
  minLevel?: LogLevel;
  /** Hide the stderr lines (shown by default). */
  hideStderr?: boolean;
  /** Words that must all occur (case-insensitive) in the line's text. */
  text?: string;
}

const SEVERITY = new Map<string, number>(LOG_LEVELS.map((level, i) => [level, i]));

export function matchesConsole(line: ConsoleLine, filter: ConsoleFilter, words = filterWords(filter)): boolean {
  if (line.level === 'stderr') {
    if (filter.hideStderr) return false;
  } else if (filter.minLevel && SEVERITY.get(line.level)! < SEVERITY.get(filter.minLevel)!) return false;
  if (!words.length) return true;
  const hay = line.text.toLowerCase();
  return words.every((w) => hay.includes(w));
}

export function filterWords(filter: ConsoleFilter): string[] {
  return (filter.text ?? '').toLowerCase().split(/\s+/).filter(Boolean);
}

export function filterConsole(lines: readonly ConsoleLine[], filter: ConsoleFilter): ConsoleLine[] {
  const words = filterWords(filter);
  return lines.filter((line) => matchesConsole(line, filter, words));
}

/**
 * Console lines as a plain-text file: one line each, `<ISO time> [<server>] <level> <text>`
 * (the server only on lines that carry one). The caller redacts (registerInspector: once more,
 * with the secrets known now).
 */
export function formatConsoleExport(lines: readonly ConsoleLine[]): string {
  return lines.map((l) => `${new Date(l.at).toISOString()} ${l.server !== undefined ? `[${l.server}] ` : ''}${l.level} ${l.text}\n`).join('');
}
