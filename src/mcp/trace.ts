/**
 * Protocol trace records and their text form. The transport wrapper in src/mcp produces
 * records; this module turns them into readable, redacted lines.
 */
import { redactValue } from '../shared/common/redact';
import { formatDuration } from '../shared/common/durations';

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
  /**
   * Multi-round-trip requests (2026-07-28): the round of a request that the client sent again
   * with the answers to an `input_required` result (2, 3, …), and on its response; 1 on an
   * `input_required` response to a first round.
   */
  round?: number;
  /** The id of the first round of such a request, which the later rounds belong to. */
  originId?: string | number;
  /** A response that asks the client for input (`resultType: "input_required"`) instead of completing. */
  inputRequired?: boolean;
  message: unknown;
}

export function formatTrace(server: string, record: TraceRecord, level: TraceLevel, secrets: readonly string[]): string {
  const arrow = record.direction === 'send' ? '→' : '←';
  let line = `[${server}] ${arrow} ${record.kind}`;
  if (record.method) line += ` ${record.method}`;
  if (record.id !== undefined) line += ` #${record.id}`;
  if (record.round !== undefined && record.originId !== undefined && (record.round > 1 || record.inputRequired))
    line += ` [round ${record.round} of #${record.originId}]`;
  if (record.inputRequired) line += ' input_required';
  if (record.latencyMs !== undefined) line += ` (${formatDuration(record.latencyMs)})`;
  if (record.kind === 'error') line += `: ${record.errorCode} ${record.errorMessage ?? ''}`.trimEnd();
  if (level === 'verbose') line += ` ${JSON.stringify(redactValue(record.message, secrets))}`;
  return line;
}
