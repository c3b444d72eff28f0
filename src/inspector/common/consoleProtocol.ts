/**
 * The Console tab's messages between the Inspector's host and its webview, apart from the
 * exchanges' protocol (inspectorProtocol.ts). The host feeds lines lazily: only for the server
 * the page watches, only while its Console tab is shown, throttled, and only what is new.
 */
import type { ConsoleLevel, ConsoleLine } from './consoleLog';

/** The server id of the Console's "All servers" choice (no real server id is a lone `*`). */
export const ALL_SERVERS = '*';

/** Host → webview. Lines are server text: the page sets them with `textContent` only. */
export type ConsoleToWebview =
  | { type: 'consoleServers'; servers: { id: string; label: string }[] }
  | {
      type: 'consoleLines';
      serverId: string;
      lines: ConsoleLine[];
      /** The page drops what it has for this server first (a new watch, or cleared). */
      reset: boolean;
      /** Older lines dropped to stay within the buffer's bounds. */
      dropped: number;
    };

/** Webview → host. */
export type ConsoleFromWebview =
  /** The Console tab shows this server (the host sends all its lines, then what is new); no serverId: the tab is hidden, stop feeding. */
  | { type: 'consoleWatch'; serverId?: string }
  | { type: 'consoleClear'; serverId: string }
  /** Save the watched server's lines (or every server's, ALL_SERVERS) to a file. */
  | { type: 'consoleExport'; serverId: string };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const LEVELS = new Set<string>(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency', 'stderr']);
const MAX_ID = 1000;

export function parseConsoleFromWebview(message: unknown): ConsoleFromWebview | undefined {
  if (!isRecord(message)) return undefined;
  if (message.type === 'consoleWatch') {
    if (message.serverId !== undefined && (typeof message.serverId !== 'string' || message.serverId.length > MAX_ID)) return undefined;
    return { type: 'consoleWatch', ...(message.serverId !== undefined ? { serverId: message.serverId } : {}) };
  }
  if (message.type === 'consoleClear' || message.type === 'consoleExport') {
    return typeof message.serverId === 'string' && message.serverId.length <= MAX_ID ? { type: message.type, serverId: message.serverId } : undefined;
  }
  return undefined;
}

const isLine = (v: unknown): v is ConsoleLine =>
  isRecord(v) &&
  Number.isSafeInteger(v.seq) &&
  typeof v.at === 'number' &&
  typeof v.level === 'string' &&
  LEVELS.has(v.level) &&
  typeof v.text === 'string' &&
  (v.server === undefined || typeof v.server === 'string');

/** The page's check of what the host sent. */
export function parseConsoleToWebview(message: unknown): ConsoleToWebview | undefined {
  if (!isRecord(message)) return undefined;
  if (message.type === 'consoleServers') {
    if (!Array.isArray(message.servers) || !message.servers.every((s) => isRecord(s) && typeof s.id === 'string' && typeof s.label === 'string'))
      return undefined;
    return { type: 'consoleServers', servers: (message.servers as { id: string; label: string }[]).map((s) => ({ id: s.id, label: s.label })) };
  }
  if (message.type === 'consoleLines') {
    if (typeof message.serverId !== 'string' || !Array.isArray(message.lines) || !message.lines.every(isLine) || typeof message.reset !== 'boolean')
      return undefined;
    return {
      type: 'consoleLines',
      serverId: message.serverId,
      reset: message.reset,
      dropped: typeof message.dropped === 'number' ? message.dropped : 0,
      lines: (message.lines as ConsoleLine[]).map((l) => ({
        seq: l.seq,
        at: l.at,
        level: l.level as ConsoleLevel,
        text: l.text,
        ...(l.server !== undefined ? { server: l.server } : {}),
      })),
    };
  }
  return undefined;
}
