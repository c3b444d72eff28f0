/**
 * Protocol trace records and their text form. The transport wrapper in src/mcp produces
 * records; this module turns them into readable, redacted lines.
 */
import { redactValue } from '../shared/common/redact';

export type TraceLevel = 'off' | 'messages' | 'verbose';

export interface TraceRecord {
  /** `send` = client → server, `receive` = server → client. */
  direction: 'send' | 'receive';
  kind: 'request' | 'response' | 'error' | 'notification';
  method?: string;
  id?: string | number;
  /** For responses and errors: time since the matching request. */
  latencyMs?: number;
  errorCode?: number;
  errorMessage?: string;
  message: unknown;
}

export function formatTrace(server: string, record: TraceRecord, level: TraceLevel, secrets: readonly string[]): string {
  const arrow = record.direction === 'send' ? '→' : '←';
  let line = `[${server}] ${arrow} ${record.kind}`;
  if (record.method) line += ` ${record.method}`;
  if (record.id !== undefined) line += ` #${record.id}`;
  if (record.latencyMs !== undefined) line += ` (${record.latencyMs} ms)`;
  if (record.kind === 'error') line += `: ${record.errorCode} ${record.errorMessage ?? ''}`.trimEnd();
  if (level === 'verbose') line += ` ${JSON.stringify(redactValue(record.message, secrets))}`;
  return line;
}
