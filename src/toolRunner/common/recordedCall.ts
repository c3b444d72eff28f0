/**
 * A `tools/call` the Inspector recorded, as a Run Tool history entry: so Save as Test writes an
 * Inspector row with the same writer as a Run Tool run. Only the recorded (redacted) message is
 * read, never the unredacted `rerun` copy: a secret sent as an argument is in the recording as
 * «redacted», and an argument holding one becomes `${input:<name>}` (a top-level one) or is left
 * out (a nested one), as Run Tool does for its secret fields. Pure: no `vscode`.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { REDACTED } from '../../shared/common/redact';
import type { ActivityEntry } from '../../traffic/common/activityEntry';
import type { HistoryEntry } from './runRecords';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const hasRedacted = (v: unknown): boolean =>
  typeof v === 'string' ? v.includes(REDACTED) : Array.isArray(v) ? v.some(hasRedacted) : isObject(v) ? Object.values(v).some(hasRedacted) : false;

/** The tool's name and the history entry of a recorded client `tools/call`; undefined for any other exchange. */
export function historyEntryOfRecordedCall(e: ActivityEntry): { toolName: string; entry: HistoryEntry } | undefined {
  if (e.method !== 'tools/call' || e.kind !== 'request' || e.direction !== 'send') return undefined;
  const params = (e.request as { params?: unknown } | undefined)?.params;
  if (!isObject(params) || typeof params.name !== 'string') return undefined;
  const recorded = isObject(params.arguments) ? params.arguments : {};
  const args: Record<string, unknown> = {};
  const secretArgs: string[] = [];
  for (const [name, value] of Object.entries(recorded)) {
    if (!hasRedacted(value)) args[name] = value;
    else if (typeof value === 'string' || typeof value === 'number') secretArgs.push(name);
  }
  const secretsOmitted = Object.keys(args).length < Object.keys(recorded).length;
  const base: HistoryEntry = {
    id: `inspector-${e.seq}`,
    time: e.startedAt,
    durationMs: e.endedAt === undefined ? 0 : e.endedAt - e.startedAt,
    args,
    status: 'ok',
    ...(secretsOmitted ? { secretsOmitted: true as const } : {}),
    ...(secretArgs.length ? { secretArgs } : {}),
  };
  const response = e.response as { result?: unknown; truncated?: unknown } | undefined;
  const result = isObject(response?.result) ? (response.result as CallToolResult) : undefined;
  let entry: HistoryEntry;
  if (e.status.kind === 'ok' && result) entry = { ...base, status: result.isError === true ? 'toolError' : 'ok', result };
  else if (e.status.kind === 'ok' && response?.truncated !== undefined) entry = { ...base, omitted: String(response.truncated) };
  else if (e.status.kind === 'error') entry = { ...base, status: 'protocolError', error: { code: e.status.code, message: e.status.message } };
  else if (e.status.kind === 'cancelled') entry = { ...base, status: 'cancelled' };
  else entry = { ...base, status: 'failure', error: { message: 'no answer yet' } };
  return { toolName: params.name, entry };
}
