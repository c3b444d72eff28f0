/**
 * One entry of the Activity log as it is kept: its messages as JSON text in true private fields,
 * parsed and redacted on every read. Split from activityLog.ts, which pairs and bounds the
 * entries: this file is the one place that holds message text, so what can read it unredacted
 * is visible in one screen.
 */
import { redactValue } from '../../shared/common/redact';

import type { ActivityEntry, ActivityStatus } from './activityEntry';

export interface ActivityServer {
  id: string;
  label: string;
  /** What to redact; a function is asked at read time, so secrets learnt later are hidden too. */
  secrets: readonly string[] | (() => readonly string[]);
}

/**
 * A message as kept: its JSON text (a bare string: one object fewer kept per message), the text
 * with its bytes already counted (a large one), or (past MAX_STORED_BYTES) an already redacted
 * preview and its bytes.
 */
export type StoredMessage = string | { json: string; size: number } | { value: unknown; size: number };

/** The JSON text of a kept message (undefined for a preview). */
function jsonOfStored(stored: StoredMessage): string | undefined {
  return typeof stored === 'string' ? stored : 'json' in stored ? stored.json : undefined;
}

/**
 * The two statuses without details, shared by every entry (one is set per message): a status is
 * never changed in place, only replaced, so sharing one object is safe; frozen so it stays so.
 */
export const STATUS_OK: ActivityStatus = Object.freeze({ kind: 'ok' });
const STATUS_PENDING: ActivityStatus = Object.freeze({ kind: 'pending' });

export function secretsNow(secrets: ActivityServer['secrets']): readonly string[] {
  return typeof secrets === 'function' ? secrets() : secrets;
}

/** Parses and redacts on every read: the one way out of the log for a message. */
function readStored(stored: StoredMessage | undefined, secrets: ActivityServer['secrets']): unknown {
  if (stored === undefined) return undefined;
  const json = jsonOfStored(stored);
  if (json === undefined) return (stored as { value: unknown }).value;
  return redactValue(JSON.parse(json) as unknown, secretsNow(secrets));
}

/** A kept message with its bytes counted: counted from its JSON when first asked for (sizes are shown, not recorded). */
function sized(stored: StoredMessage): Exclude<StoredMessage, string> {
  return typeof stored === 'string' ? { json: stored, size: Buffer.byteLength(stored, 'utf8') } : stored;
}

/**
 * An entry whose messages are kept as JSON in true private fields: not enumerable, not in
 * `JSON.stringify(entry)` (its `toJSON` gives the redacted view), readable only through the
 * redacting getters. Built field by field (one is made per message, so no spreads), and its
 * byte sizes are counted from the kept JSON when first read.
 */
/**
 * Where Re-run finds a tool call's arguments: their own JSON with the tool's name, or (the name
 * alone, a string: nothing more is kept per call) in the kept request.
 */
export type RerunSource = string | { name: string; arguments?: string };

export class RecordedEntry implements ActivityEntry {
  readonly seq: number;
  readonly serverId: string;
  readonly serverLabel: string;
  readonly method: string;
  readonly kind: 'request' | 'notification';
  readonly id?: string | number;
  readonly direction: 'send' | 'receive';
  readonly startedAt: number;
  endedAt?: number;
  status: ActivityStatus;
  round?: number;
  originSeq?: number;
  parentSeq?: number;
  note?: string;
  inputRequired?: boolean;
  readonly rerunUnavailable?: string;
  #request: StoredMessage;
  #response: StoredMessage | undefined;
  readonly #secrets: ActivityServer['secrets'];
  /**
   * A tool call's name and the JSON of its arguments, unredacted: Re-run sends them again (never
   * shown). A string: the name alone, the arguments are read from the kept request itself (see `take`).
   */
  readonly #rerun: RerunSource | undefined;
  /** A sent request's `_meta.progressToken`, which the log finds it by: only matched, never shown (so not an own field). */
  #progressToken: string | number | undefined;

  constructor(
    seq: number,
    server: ActivityServer,
    method: string,
    kind: 'request' | 'notification',
    id: string | number | undefined,
    direction: 'send' | 'receive',
    at: number,
    request: StoredMessage,
    rerun: RerunSource | undefined,
    rerunUnavailable: string | undefined,
  ) {
    this.seq = seq;
    this.serverId = server.id;
    this.serverLabel = server.label;
    this.method = method;
    this.kind = kind;
    if (id !== undefined) this.id = id;
    this.direction = direction;
    this.startedAt = at;
    if (kind === 'notification') {
      this.endedAt = at;
      this.status = STATUS_OK;
    } else {
      this.status = STATUS_PENDING;
    }
    if (rerunUnavailable !== undefined) this.rerunUnavailable = rerunUnavailable;
    this.#request = request;
    this.#secrets = server.secrets;
    this.#rerun = rerun;
  }

  get requestSize(): number {
    return (this.#request = sized(this.#request)).size;
  }

  get responseSize(): number | undefined {
    if (this.#response === undefined) return undefined;
    return (this.#response = sized(this.#response)).size;
  }

  get request(): unknown {
    return readStored(this.#request, this.#secrets);
  }

  get response(): unknown {
    return readStored(this.#response, this.#secrets);
  }

  get progressToken(): string | number | undefined {
    return this.#progressToken;
  }

  set progressToken(token: string | number | undefined) {
    this.#progressToken = token;
  }

  /** Sets the response when it arrives. */
  respond(stored: StoredMessage): void {
    this.#response = stored;
  }

  get rerun(): { name: string; arguments?: Record<string, unknown> } | undefined {
    const rerun = this.#rerun;
    if (rerun === undefined) return undefined;
    if (typeof rerun === 'string') {
      const json = jsonOfStored(this.#request);
      const request = json === undefined ? undefined : (JSON.parse(json) as { params?: { arguments?: Record<string, unknown> } });
      return { name: rerun, arguments: request?.params?.arguments };
    }
    const { name, arguments: args } = rerun;
    return { name, arguments: args === undefined ? undefined : (JSON.parse(args) as Record<string, unknown>) };
  }

  /** The redacted view (own fields, sizes, messages); Re-run's arguments are left out. */
  toJSON(): Omit<ActivityEntry, 'rerun'> {
    return { ...this, requestSize: this.requestSize, responseSize: this.responseSize, request: this.request, response: this.response };
  }
}
