/**
 * The shape of one recorded exchange, apart from the log that records it: types only, free of
 * Node APIs, so the Inspector's webview code can name it too (src/inspector/common/inspectorRows).
 */
export type ActivityStatus = { kind: 'pending' } | { kind: 'ok' } | { kind: 'error'; code?: number; message: string } | { kind: 'cancelled'; reason?: string };

export interface ActivityEntry {
  /** Unique, increasing; the tree's item id. */
  readonly seq: number;
  readonly serverId: string;
  readonly serverLabel: string;
  readonly method: string;
  readonly kind: 'request' | 'notification';
  /** JSON-RPC id of requests. */
  readonly id?: string | number;
  /** `send` = client → server, `receive` = server → client. */
  readonly direction: 'send' | 'receive';
  readonly startedAt: number;
  endedAt?: number;
  status: ActivityStatus;
  /** Bytes of the message's JSON. */
  readonly requestSize: number;
  responseSize?: number;
  /** The message with secrets redacted (large ones truncated, see MAX_STORED_BYTES). */
  readonly request: unknown;
  response?: unknown;
  /**
   * Multi-round-trip requests (2026-07-28): this request's round (2, 3, …) when the client sent
   * it again with the answers to an `input_required` result; 1 on a first round that got one.
   */
  round?: number;
  /** The entry of the first round, which later rounds are shown under. */
  originSeq?: number;
  /**
   * A received progress or log notification: the seq of the request it reports on, found when it
   * was recorded (its progress token's request, else the server's one request in flight, pings
   * aside); 0 when there was none. Absent elsewhere, and on imported records (the Inspector then
   * looks for the request itself).
   */
  parentSeq?: number;
  /**
   * A received progress or log notification: its message in one line, redacted (exchangeFacts.ts
   * `noteOf`), read when it was recorded so the Inspector's row shows it without parsing the
   * message again; '' when it has none. On a session's handshake request (`initialize`,
   * `server/discover`): how its era was decided (ActivityLog.annotate). Absent elsewhere, and on
   * imported records.
   */
  note?: string;
  /** The response asked the client for input instead of completing (`resultType: "input_required"`). */
  inputRequired?: boolean;
  /** For client `tools/call` only: the unredacted name and arguments, so "Re-run" sends what was sent. Never shown. */
  readonly rerun?: { name: string; arguments?: Record<string, unknown> };
  /** Why a `tools/call` cannot be re-run (its arguments were too large to keep). */
  readonly rerunUnavailable?: string;
}
