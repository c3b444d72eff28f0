/**
 * What the user reads when a connection fails: a start that did not get through `initialize`
 * (describeConnectError) and a running server that went away (describeLoss). Apart from
 * connection/connectionTransports.ts, which opens the sessions, because these messages change
 * for other reasons (a new failure users met, clearer wording) than the transports do. Here in
 * src/mcp rather than src/mcp/connection, which is at the folder cap of 14 files, beside
 * crashRestarts.ts (what follows a loss). No `vscode` import.
 */
import { OAuthError, SdkError, SdkErrorCode, SdkHttpError, SseError } from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../config/common/launchDefinition';
import { errorMessage } from '../shared/common/errors';
import { CredentialBindingError } from './auth/credentialBinding';
import { lastWords } from './process/lastWords';
import { OwnedStdioTransport } from './process/ownedStdioTransport';
import { MAX_MESSAGE_SETTING, ServerCrashedOnStart, ServerError, type ProtocolEraSetting } from './connection/connectionTypes';

/**
 * What the messages read of a session. Written out rather than imported from
 * connectionTransports' Session, which would make the two files import each other.
 */
interface FailedSession {
  kind: 'stdio' | 'http' | 'sse';
  transport: unknown;
  stderrTail: string[];
  oversized?: number;
  exit?: { code: number | null; signal: string | null };
}

/** What the messages read of the connection: its name, where it is configured, its era setting. */
export interface FailureOwner {
  definition(): ServerDefinition;
  protocolEra(): ProtocolEraSetting;
}

/**
 * A failed start as a ServerError that says what to check: refused connections, a server of the
 * wrong era, HTTP 401, a command that cannot be spawned, a process that died during the handshake,
 * an incompatible `initialize` answer. The SDK's own text goes to the detail.
 */
export function describeConnectError(error: unknown, session: FailedSession, target: string, owner: FailureOwner): Error {
  const name = owner.definition().name;
  const text = errorMessage(error);
  const tail = session.stderrTail.length ? `Last output:\n${session.stderrTail.join('\n')}` : undefined;
  const code = (error as { code?: unknown })?.code ?? (error as { cause?: { code?: unknown } })?.cause?.code;
  if (code === 'ECONNREFUSED' || /ECONNREFUSED|fetch failed/.test(text)) {
    return new ServerError(`Cannot reach ${target}: the connection was refused or failed. Is the server running and the "url" right?`, text, error);
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed && owner.protocolEra() === 'modern') {
    return new ServerError(
      `Server "${name}" does not speak MCP 2026-07-28, and "protocolEra" is "modern". Set it to "auto" or "legacy" in ${owner.definition().source.label}.`,
      text,
      error,
    );
  }
  const launch = owner.definition().launch;
  if (launch.type !== 'stdio' && /\bHTTP 401\b|\b401 Unauthorized\b/i.test(text)) {
    // Reached only when sign-in is not possible: the server offers no OAuth (or its registration refused us).
    const sent = Object.keys(launch.headers).some((h) => /^(authorization|x-api-key|api-key)$/i.test(h));
    return new ServerError(
      sent
        ? `${target} refused the credentials in "headers" (HTTP 401). Check the token it expects.`
        : `${target} requires authorization (HTTP 401). Add the credentials it expects to "headers", e.g. "Authorization": "Bearer \${input:token}".`,
      text,
      error,
    );
  }
  const spawnCode = /^spawn \S.* (E[A-Z]+)$/.exec(text)?.[1];
  if (launch.type === 'stdio' && spawnCode) {
    const why =
      spawnCode === 'ENOENT'
        ? ': it, or the interpreter on its "#!" line, does not exist'
        : spawnCode === 'EACCES'
          ? ': it is not executable (permission denied)'
          : '';
    return new ServerError(`"${launch.command}" could not be started (${spawnCode})${why}.`, text, error);
  }
  if (error instanceof SdkHttpError || error instanceof SseError) {
    return new ServerError(`${target} answered with an error: ${text}`, tail, error);
  }
  const closed = error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed;
  const exit = closed && session.transport instanceof OwnedStdioTransport ? session.transport.exit : undefined;
  if (exit) {
    // The process died before the handshake finished: how it ended says more than "closed".
    const last = lastWords(session.stderrTail);
    const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
    return new ServerCrashedOnStart(`Server "${name}" ${how} during start${last ? `: ${last}` : ''}.`, tail, error);
  }
  if (closed) {
    return new ServerCrashedOnStart(
      `Server "${name}" closed the connection during the handshake (${target}).${tail ? ' Its last output is in the server log.' : ''}`,
      tail,
      error,
    );
  }
  const version = /protocol version is not supported: (.+)$/.exec(text);
  if (version) {
    return new ServerError(
      `Server "${name}" answered with protocol version "${version[1].trim()}", which this client does not support: update the server.`,
      text,
      error,
    );
  }
  if (error instanceof OAuthError) {
    return new ServerError(
      `The authorization server refused the token request of server "${name}" (${error.code}): ${error.message}. Check "oauth" of the server in ${owner.definition().source.label}.`,
      text,
      error,
    );
  }
  if (error instanceof CredentialBindingError) {
    return new ServerError(`Server "${name}": ${text}`, undefined, error);
  }
  const invalid = /^Invalid result for (initialize|server\/discover): ([\s\S]*)$/.exec(text);
  if (invalid) {
    // The SDK's schema check dumps JSON; the user needs the fields, the dump goes to the detail.
    return new ServerError(
      `Server "${name}" answered ${invalid[1]} without a valid ${invalidFields(invalid[2])}, so it is not a compatible MCP server: update it or check its ${session.kind === 'stdio' ? 'command' : 'url'}.`,
      text,
      error,
    );
  }
  return new ServerError(`Server "${name}" failed to start: ${text}`, tail, error);
}

/** The fields a schema-validation dump names: `"protocolVersion"`, or "result" when unreadable. */
function invalidFields(dump: string): string {
  try {
    const issues = JSON.parse(dump) as { path?: (string | number)[] }[];
    const fields = [...new Set(issues.map((i) => (i.path ?? []).join('.')).filter(Boolean))];
    if (fields.length) return fields.map((f) => `"${f}"`).join(', ');
  } catch {
    // Not the JSON the SDK usually gives.
  }
  return 'result';
}

/**
 * One line on how a running server went away: the exit code or signal and its stderr line that
 * says why (lastWords.ts; the SDK only says "Connection closed", which tells the user nothing).
 */
export function describeLoss(name: string, session: Omit<FailedSession, 'transport'>): string {
  if (session.kind !== 'stdio') return `The connection to server "${name}" was closed.`;
  if (session.oversized) {
    return `Server "${name}" sent a message larger than ${Math.round(session.oversized / 1048576)} MB, so it was stopped; raise "${MAX_MESSAGE_SETTING}" if that is expected.`;
  }
  const how = session.exit?.signal
    ? `was killed by ${session.exit.signal}`
    : session.exit?.code != null
      ? `exited with code ${session.exit.code}`
      : 'exited unexpectedly';
  const last = lastWords(session.stderrTail);
  return `Server "${name}" ${how}${last ? `: ${last}` : ''}.`;
}
