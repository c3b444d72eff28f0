/**
 * The state of one server connection, as a discriminated union, with pure helpers the UI
 * uses. Only `running` carries what the handshake negotiated.
 */
import type { Client } from '@modelcontextprotocol/client';
import { redactText } from '../shared/common/redact';

export interface ServerInfo {
  name: string;
  version: string;
  title?: string;
}

export type ServerState =
  | { kind: 'stopped'; /** Why it is not running when it was not simply stopped by the user. */ reason?: string }
  | { kind: 'starting' }
  | {
      kind: 'running';
      protocolVersion: string;
      /** `modern`: 2026-07-28 (stateless, `server/discover`); `legacy`: the 2025 `initialize` handshake. */
      era: 'modern' | 'legacy';
      capabilities: Record<string, unknown>;
      serverInfo: ServerInfo;
      instructions?: string;
      transport: 'stdio' | 'http' | 'sse';
      /** Where `era` came from (set by the connection; absent in states built elsewhere). */
      eraSource?: EraSource;
    }
  | { kind: 'error'; message: string; detail?: string }
  /** A protected HTTP server that needs the user to sign in (OAuth) before it can start. */
  | { kind: 'needsAuth'; message: string; detail?: string };

/**
 * How the era of a running server was decided: probed by this start, remembered from an earlier
 * start's probe (`since`: epoch ms of that probe, see eraVerdicts.ts; `confirmed`: a `modern`
 * one, checked by this start on the session's own process), or set by config (`protocolEra`,
 * or a legacy SSE launch).
 */
export type EraSource = { kind: 'probed' } | { kind: 'remembered'; since: number; confirmed?: boolean } | { kind: 'configured' };

/** `probed now`, `remembered from 2026-11-20`, `set by config`: the log line's words (English, like the log). */
export function describeEraSource(source: EraSource): string {
  switch (source.kind) {
    case 'probed':
      return 'probed now';
    case 'remembered':
      return `remembered from ${new Date(source.since).toISOString().slice(0, 10)}${source.confirmed ? ', confirmed now' : ''}`;
    case 'configured':
      return 'set by config';
  }
}

export const STOPPED: ServerState = { kind: 'stopped' };

/** The `running` state of a session whose handshake finished: what the SDK client negotiated. */
export function runningStateOf(client: Client, transport: 'stdio' | 'http' | 'sse'): Extract<ServerState, { kind: 'running' }> {
  const serverVersion = client.getServerVersion();
  return {
    kind: 'running',
    protocolVersion: client.getNegotiatedProtocolVersion() ?? 'unknown',
    era: client.getProtocolEra() ?? 'legacy',
    capabilities: (client.getServerCapabilities() ?? {}) as Record<string, unknown>,
    serverInfo: { name: serverVersion?.name ?? '', version: serverVersion?.version ?? '', title: (serverVersion as { title?: string } | undefined)?.title },
    instructions: client.getInstructions(),
    transport,
  };
}

/**
 * The state as a user may see it: messages and details built from a URL or an error carry the
 * secrets of the server's config (a password input in the URL, a query key) otherwise.
 */
export function redactState<S extends ServerState>(state: S, secrets: readonly string[]): S {
  const s: ServerState = state;
  switch (s.kind) {
    case 'error':
    case 'needsAuth':
      return { ...s, message: redactText(s.message, secrets), ...(s.detail !== undefined ? { detail: redactText(s.detail, secrets) } : {}) } as S;
    case 'stopped':
      return (s.reason !== undefined ? { ...s, reason: redactText(s.reason, secrets) } : s) as S;
    default:
      return state;
  }
}

export function isRunning(state: ServerState): state is Extract<ServerState, { kind: 'running' }> {
  return state.kind === 'running';
}

/** A one-line description for status bars, quick picks and tooltips. */
export function describeState(state: ServerState): string {
  switch (state.kind) {
    case 'stopped':
      return state.reason ? `Stopped: ${state.reason}` : 'Stopped';
    case 'starting':
      return 'Starting…';
    case 'running':
      return `Running (${state.transport}, protocol ${state.protocolVersion}${state.era === 'modern' ? ', stateless' : ''})`;
    case 'error':
      return `Error: ${state.message}`;
    case 'needsAuth':
      return `Sign-in required: ${state.message}`;
  }
}

/** The protocol a running server speaks, for tooltips: `MCP 2026-07-28 (stateless)`. */
export function describeProtocol(state: Extract<ServerState, { kind: 'running' }>): string {
  return `MCP ${state.protocolVersion} (${state.era === 'modern' ? 'stateless' : 'initialize handshake'})`;
}

/** Codicon id for a state. */
export function stateIcon(state: ServerState): string {
  switch (state.kind) {
    case 'stopped':
      return 'debug-stop';
    case 'starting':
      return 'loading~spin';
    case 'running':
      return 'pass-filled';
    case 'error':
      return 'error';
    case 'needsAuth':
      return 'account';
  }
}

export interface StateCounts {
  running: number;
  starting: number;
  failed: number;
  stopped: number;
  /** Waiting for the user to sign in (also counted in `stopped`). */
  needsAuth: number;
}

export function countStates(states: Iterable<ServerState>): StateCounts {
  const counts: StateCounts = { running: 0, starting: 0, failed: 0, stopped: 0, needsAuth: 0 };
  for (const s of states) {
    if (s.kind === 'running') counts.running++;
    else if (s.kind === 'starting') counts.starting++;
    else if (s.kind === 'error') counts.failed++;
    else {
      counts.stopped++;
      if (s.kind === 'needsAuth') counts.needsAuth++;
    }
  }
  return counts;
}
