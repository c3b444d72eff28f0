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
 * A message as kept: its JSON text, or (past MAX_STORED_BYTES) an already redacted preview;
 * `size` is its bytes, once counted.
 */
export type StoredMessage = { json: string; size?: number } | { value: unknown; size: number };

export function secretsNow(secrets: ActivityServer['secrets']): readonly string[] {
  return typeof secrets === 'function' ? secrets() : secrets;
}

/** Parses and redacts on every read: the one way out of the log for a message. */
function readStored(stored: StoredMessage | undefined, secrets: ActivityServer['secrets']): unknown {
  if (stored === undefined) return undefined;
  if ('value' in stored) return stored.value;
  return redactValue(JSON.parse(stored.json) as unknown, secretsNow(secrets));
}

/** Bytes of a kept message, counted from its JSON when first asked for. */
function sizeOf(stored: StoredMessage): number {
  if (stored.size === undefined) stored.size = 'json' in stored ? Buffer.byteLength(stored.json, 'utf8') : 0;
  return stored.size;
}

/**
 * An entry whose messages are kept as JSON in true private fields: not enumerable, not in
 * `JSON.stringify(entry)` (its `toJSON` gives the redacted view), readable only through the
 * redacting getters. Built field by field (one is made per message, so no spreads), and its
 * byte sizes are counted from the kept JSON when first read.
 */
/** Where Re-run finds a tool call's arguments: their own JSON, or the kept request's. */
export type RerunSource = { name: string; arguments?: string; inRequest?: true };

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
  readonly #request: StoredMessage;
  #response: StoredMessage | undefined;
  readonly #secrets: ActivityServer['secrets'];
  /**
   * A tool call's name and the JSON of its arguments, unredacted: Re-run sends them again (never
   * shown). `inRequest`: the arguments are read from the kept request itself (see `take`).
   */
  readonly #rerun: RerunSource | undefined;

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
      this.status = { kind: 'ok' };
    } else {
      this.status = { kind: 'pending' };
    }
    if (rerunUnavailable !== undefined) this.rerunUnavailable = rerunUnavailable;
    this.#request = request;
    this.#secrets = server.secrets;
    this.#rerun = rerun;
  }

  get requestSize(): number {
    return sizeOf(this.#request);
  }

  get responseSize(): number | undefined {
    return this.#response && sizeOf(this.#response);
  }

  get request(): unknown {
    return readStored(this.#request, this.#secrets);
  }

  get response(): unknown {
    return readStored(this.#response, this.#secrets);
  }

  /** Sets the response when it arrives. */
  respond(stored: StoredMessage): void {
    this.#response = stored;
  }

  get rerun(): { name: string; arguments?: Record<string, unknown> } | undefined {
    if (!this.#rerun) return undefined;
    const { name, arguments: args } = this.#rerun;
    if (this.#rerun.inRequest && 'json' in this.#request) {
      const request = JSON.parse(this.#request.json) as { params?: { arguments?: Record<string, unknown> } };
      return { name, arguments: request.params?.arguments };
    }
    return { name, arguments: args === undefined ? undefined : (JSON.parse(args) as Record<string, unknown>) };
  }

  /** The redacted view (own fields, sizes, messages); Re-run's arguments are left out. */
  toJSON(): Omit<ActivityEntry, 'rerun'> {
    return { ...this, requestSize: this.requestSize, responseSize: this.responseSize, request: this.request, response: this.response };
  }
}
