/**
 * Inspector recordings as JSON Lines: a header line, then one line per exchange. Export reads
 * each exchange's `request`/`response` through the activity log's getters, which redact with the
 * server's secrets (the one redaction path): nothing unredacted can reach the file. Import
 * checks every line and keeps what has the shape of an exchange, so a hand-edited or truncated
 * file still opens with a note of what was skipped.
 */
import type { InspectorRecord } from './inspectorRows';
import type { HttpExchangeView } from '../../traffic/common/httpExchange';
import { isHttpView } from './inspectorProtocol';
import { oneLineNote } from '../../traffic/common/exchangeFacts';

export const RECORDING_FORMAT = 'mcp-workbench-recording';
export const RECORDING_VERSION = 1;

/**
 * The JSONL text of these exchanges, oldest first. `httpOf` gives an exchange's HTTP exchanges
 * (already redacted views), written as its `http` field; `replayOf` the replay mark of a live
 * exchange (the seq of the exchange it replays), so an import shows the ↻ mark and its link.
 */
export function exportRecording(
  records: readonly InspectorRecord[],
  exportedAt = Date.now(),
  options: {
    httpOf?: (record: InspectorRecord) => readonly HttpExchangeView[] | undefined;
    replayOf?: (seq: number) => number | undefined;
  } = {},
): string {
  const { httpOf, replayOf = () => undefined } = options;
  const lines = [JSON.stringify({ format: RECORDING_FORMAT, version: RECORDING_VERSION, exportedAt })];
  for (const r of [...records].sort((a, b) => a.seq - b.seq)) {
    lines.push(
      JSON.stringify({
        seq: r.seq,
        serverId: r.serverId,
        serverLabel: r.serverLabel,
        method: r.method,
        kind: r.kind,
        id: r.id,
        direction: r.direction,
        startedAt: r.startedAt,
        endedAt: r.endedAt,
        status: r.status,
        requestSize: r.requestSize,
        responseSize: r.responseSize,
        round: r.round,
        originSeq: r.originSeq,
        parentSeq: r.parentSeq,
        inputRequired: r.inputRequired,
        // Our own note on a request (how a handshake's era was decided); a notification's note
        // is read from its message again on import.
        note: r.kind === 'request' ? r.note : undefined,
        replayOf: replayOf(r.seq) ?? r.replayOf,
        request: r.request,
        response: r.response,
        http: nonEmpty(httpOf?.(r)),
      }),
    );
  }
  return lines.join('\n') + '\n';
}

const nonEmpty = <T>(list: readonly T[] | undefined) => (list?.length ? list : undefined);

export interface ImportedRecording {
  records: InspectorRecord[];
  /** Lines that were not exchanges (1-based line numbers), for a one-line note. */
  skipped: number[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const optionalNumber = (v: unknown) => v === undefined || isNumber(v);

/** Parses a recording; throws (with a one-line message) only when the file is not one at all. */
export function importRecording(text: string): ImportedRecording {
  const lines = text.split(/\r?\n/);
  const records: InspectorRecord[] = [];
  const skipped: number[] = [];
  let sawHeader = false;
  lines.forEach((line, index) => {
    if (!line.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      skipped.push(index + 1);
      return;
    }
    if (isRecord(value) && value.format === RECORDING_FORMAT) {
      sawHeader = true;
      return;
    }
    const record = recordOf(value);
    if (record) records.push(record);
    else skipped.push(index + 1);
  });
  if (!sawHeader && !records.length) throw new Error('This file is not an MCP Workbench recording (JSON Lines exported from the Inspector).');
  return { records, skipped };
}

function statusOf(v: unknown): InspectorRecord['status'] | undefined {
  if (!isRecord(v)) return undefined;
  switch (v.kind) {
    case 'pending':
      return { kind: 'pending' };
    case 'ok':
      return { kind: 'ok' };
    case 'error':
      return { kind: 'error', message: typeof v.message === 'string' ? v.message : 'error', ...(isNumber(v.code) ? { code: v.code } : {}) };
    case 'cancelled':
      return { kind: 'cancelled', ...(typeof v.reason === 'string' ? { reason: v.reason } : {}) };
    default:
      return undefined;
  }
}

function recordOf(v: unknown): InspectorRecord | undefined {
  if (!isRecord(v)) return undefined;
  const status = statusOf(v.status);
  if (
    !isNumber(v.seq) ||
    typeof v.serverId !== 'string' ||
    typeof v.serverLabel !== 'string' ||
    typeof v.method !== 'string' ||
    (v.kind !== 'request' && v.kind !== 'notification') ||
    (v.direction !== 'send' && v.direction !== 'receive') ||
    !isNumber(v.startedAt) ||
    !isNumber(v.requestSize) ||
    !status ||
    !optionalNumber(v.endedAt) ||
    !optionalNumber(v.responseSize) ||
    !optionalNumber(v.round) ||
    !optionalNumber(v.originSeq) ||
    !optionalNumber(v.parentSeq) ||
    !optionalNumber(v.replayOf) ||
    (v.id !== undefined && typeof v.id !== 'string' && !isNumber(v.id))
  )
    return undefined;
  return {
    seq: v.seq,
    serverId: v.serverId,
    serverLabel: v.serverLabel,
    method: v.method,
    kind: v.kind,
    ...(v.id !== undefined ? { id: v.id as string | number } : {}),
    direction: v.direction,
    startedAt: v.startedAt,
    ...(v.endedAt !== undefined ? { endedAt: v.endedAt as number } : {}),
    status,
    requestSize: v.requestSize,
    ...(v.responseSize !== undefined ? { responseSize: v.responseSize as number } : {}),
    ...(v.round !== undefined ? { round: v.round as number } : {}),
    ...(v.originSeq !== undefined ? { originSeq: v.originSeq as number } : {}),
    ...(v.parentSeq !== undefined ? { parentSeq: v.parentSeq as number } : {}),
    ...(v.inputRequired === true ? { inputRequired: true } : {}),
    // Shown as plain text, one line, as the log's own notes (a hand-edited file's is cut).
    ...(v.kind === 'request' && typeof v.note === 'string' && v.note ? { note: oneLineNote(v.note) } : {}),
    ...(Array.isArray(v.http) && v.http.length && v.http.every(isHttpView) ? { http: v.http } : {}),
    ...(v.replayOf !== undefined ? { replayOf: v.replayOf as number } : {}),
    request: v.request,
    ...(v.response !== undefined ? { response: v.response } : {}),
  };
}
