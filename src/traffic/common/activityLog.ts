/**
 * The Activity view's model: JSON-RPC trace records of every server, paired into entries
 * (request + response, or a lone notification) and kept in a ring buffer of bounded size.
 * Pure: no `vscode`; the view subscribes to `onDidChange` and throttles its own refresh.
 *
 * Recording is on the path of every message, so it is lazy: `record()` only queues the trace
 * record, and the queue is taken in as a batch FLUSH_DELAY_MS later (a timer: between calls,
 * not inside one), when the log is read, or when MAX_QUEUED wait, whichever comes first; the
 * caller of a tool does not wait for it. A message is then kept as its JSON text (one `JSON.stringify`, its
 * exact size too, and a snapshot that later changes to the message object cannot reach) and is
 * parsed and redacted only when read: `request` and `response` are getters that redact on every
 * read, with the server's secrets as they are then, so there is no way to read an unredacted
 * message.
 */
import { Emitter } from '../../shared/common/emitter';
import { formatBytes, formatDuration } from '../../shared/common/durations';
import { redactedJsonPrefix, redactText } from '../../shared/common/redact';
import type { TraceRecord } from '../../mcp/trace';

import type { ActivityEntry, ActivityStatus } from './activityEntry';
import { ExchangeIndex } from './exchangeIndex';
import { noteOf } from './exchangeFacts';
import { RecordedEntry, STATUS_OK, secretsNow, type ActivityServer, type RerunSource, type StoredMessage } from './recordedEntry';

export type { ActivityEntry, ActivityStatus, ActivityServer };

/**
 * What one change of the log did (onDidChange): entries taken in, entries that changed (a
 * response, a cancel, a closed connection), entries evicted; `cleared`: everything went. A view
 * that keeps its own copy patches it with this instead of reading every entry again.
 */
export interface LogChange {
  readonly added: readonly ActivityEntry[];
  readonly updated: readonly ActivityEntry[];
  readonly removed: readonly ActivityEntry[];
  readonly cleared: boolean;
}

/** Messages bigger than this are stored as a truncated preview (sizes stay exact). */
export const MAX_STORED_BYTES = 1024 * 1024;
/**
 * Re-run keeps a tool call's arguments whole (a preview cannot be sent again), so they are kept
 * only up to this size: a full log (1000 entries by default) then holds at most ~64 MB of them.
 */
export const MAX_RERUN_BYTES = 64 * 1024;
const PREVIEW_CHARS = 64 * 1024;
/** Records queued before they are taken in at once, whatever the event loop does. */
const MAX_QUEUED = 1000;
/** How long a recorded message may wait to be taken in (any read takes it in at once). */
const FLUSH_DELAY_MS = 20;
/** In-flight requests at the old end of a full log that eviction passes over (see `push`). */
const MAX_KEPT_IN_FLIGHT = 16;

function inFlight(entry: ActivityEntry): boolean {
  return entry.kind === 'request' && entry.status.kind === 'pending';
}

/** Notifications that report on a request in flight: they are nested under it (`parentSeq`). */
const REQUEST_NOTIFICATIONS = new Set(['notifications/progress', 'notifications/message']);

/** A server's requests that a progress or log notification may report on. */
interface Reporting {
  /** Sent requests still in flight, pings aside (a ping does no work to report on). */
  inFlight: Set<ActivityEntry>;
  /** Sent requests by their `_meta.progressToken` (a Map tells 1 from "1"); the entry keeps its own token (`progressToken`). */
  byToken: Map<string | number, RecordedEntry>;
}

/** The JSON text of a value (undefined for undefined), or null when it cannot be serialized. */
function jsonOf(value: unknown): string | undefined | null {
  try {
    return JSON.stringify(value);
  } catch {
    return null;
  }
}

export function durationOf(entry: ActivityEntry): number | undefined {
  return entry.endedAt === undefined ? undefined : entry.endedAt - entry.startedAt;
}

export { formatBytes, formatDuration };

/** Case-insensitive; every whitespace-separated word must occur in the server label or method. */
export function matchesFilter(entry: ActivityEntry, filter: string | undefined): boolean {
  const words = (filter ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return true;
  const hay = `${entry.serverLabel} ${entry.method}`.toLowerCase();
  return words.every((w) => hay.includes(w));
}

/** What is kept for a message JSON.stringify throws on (a cycle, a BigInt). */
const UNSERIALIZABLE_VALUE = { unserializable: true };

export class ActivityLog {
  private buffer: (ActivityEntry | undefined)[] = [];
  private capacity = 1;
  /** Where the bound comes from until it is first needed (see the constructor). */
  private capacityOf: (() => number) | undefined;
  private start = 0;
  private count = 0;
  private nextSeq = 1;
  /** Requests waiting for their response, by server + request direction + id. */
  private readonly pending = new ExchangeIndex<RecordedEntry>();
  /** First rounds of multi-round-trip requests, by server + direction + JSON-RPC id, for their later rounds. */
  private readonly origins = new ExchangeIndex<ActivityEntry>();
  /** What a notification received now may be nested under, by server. */
  private readonly reporting = new Map<string, Reporting>();
  /** Kept notifications nested under a request, counted by the request's seq: eviction keeps the request while they are kept. */
  private readonly nested = new Map<number, number>();
  /** Records waiting to be taken in, flat (server, record, at, server, …): `record()` is on every message's path and makes no object. */
  private queued: unknown[] = [];
  private flushScheduled = false;
  /** What changed since the last onDidChange. */
  private change = { added: [] as ActivityEntry[], updated: [] as ActivityEntry[], removed: [] as ActivityEntry[], cleared: false };
  private readonly onDidChangeEmitter = new Emitter<LogChange>();
  /** Fires on every change with what changed; listeners must throttle (this can fire per message). */
  readonly onDidChange = this.onDidChangeEmitter.event;

  /**
   * @param capacity the bound, or where to read it when the log is first used (a record taken
   * in, a read): the extension reads it from a setting, and no setting is read in activate()
   * (the first read builds VS Code's merged configuration, issue 30).
   */
  constructor(capacity: number | (() => number)) {
    if (typeof capacity === 'number') this.allocate(capacity);
    else this.capacityOf = capacity;
  }

  private allocate(capacity: number): void {
    this.capacity = Math.max(1, Math.floor(capacity));
    this.buffer = new Array(this.capacity);
  }

  /** Reads the bound the constructor was given as a function, once, before the buffer is first used. */
  private bound(): void {
    const capacityOf = this.capacityOf;
    if (!capacityOf) return;
    this.capacityOf = undefined;
    this.allocate(capacityOf());
  }

  get size(): number {
    this.flush();
    return this.count;
  }

  get maxEntries(): number {
    this.bound();
    return this.capacity;
  }

  /** Changes the bound, keeping the newest entries. */
  setMaxEntries(capacity: number): void {
    this.flush();
    const next = Math.max(1, Math.floor(capacity));
    if (next === this.capacity) return;
    const kept = this.oldestFirst().slice(-next);
    for (const e of this.oldestFirst().slice(0, Math.max(0, this.count - next))) this.forget(e);
    this.capacity = next;
    this.buffer = new Array(next);
    kept.forEach((e, i) => (this.buffer[i] = e));
    this.start = 0;
    this.count = kept.length;
    this.fireChange();
  }

  /** Newest first, optionally filtered (see matchesFilter). */
  entries(filter?: string): ActivityEntry[] {
    this.flush();
    const out: ActivityEntry[] = [];
    for (let i = this.count - 1; i >= 0; i--) {
      const e = this.buffer[(this.start + i) % this.capacity]!;
      if (matchesFilter(e, filter)) out.push(e);
    }
    return out;
  }

  /**
   * What the view lists at the top, newest first: every entry except the later rounds of a
   * multi-round-trip request whose first round is still kept (those are under it, see `rounds`).
   */
  topLevel(filter?: string): ActivityEntry[] {
    this.flush();
    const kept = new Set(this.oldestFirst().map((e) => e.seq));
    return this.entries(filter).filter((e) => e.originSeq === undefined || !kept.has(e.originSeq));
  }

  /** The later rounds of a first round, in order. */
  rounds(origin: ActivityEntry): ActivityEntry[] {
    this.flush();
    return this.oldestFirst().filter((e) => e.originSeq === origin.seq);
  }

  find(seq: number): ActivityEntry | undefined {
    this.flush();
    return this.oldestFirst().find((e) => e.seq === seq);
  }

  clear(): void {
    this.bound();
    this.queued = [];
    this.buffer = new Array(this.capacity);
    this.start = 0;
    this.count = 0;
    this.pending.clear();
    this.origins.clear();
    this.reporting.clear();
    this.nested.clear();
    this.change = { added: [], updated: [], removed: [], cleared: true };
    this.fireChange();
  }

  private fireChange(): void {
    const change = this.change;
    this.change = { added: [], updated: [], removed: [], cleared: false };
    this.onDidChangeEmitter.fire(change);
  }

  /**
   * Queues one trace record, taken in at the latest FLUSH_DELAY_MS later (or at the next read,
   * or when MAX_QUEUED are waiting). The message object is held until then: a snapshot of it is taken there.
   */
  record(server: ActivityServer, record: TraceRecord, at: number): void {
    // A burst within one turn (a flood read in one chunk) is taken in before it grows large.
    if (this.queued.push(server, record, at) >= MAX_QUEUED * 3) this.flush();
    else if (!this.flushScheduled) {
      this.flushScheduled = true;
      // In batches, a little later: a burst of calls pays the bookkeeping once, between calls
      // rather than inside one; far below the view's own refresh throttle (250 ms).
      setTimeout(() => this.flush(), FLUSH_DELAY_MS).unref?.();
    }
  }

  /** Takes in the queued records now. */
  flush(): void {
    this.flushScheduled = false;
    this.bound();
    if (!this.queued.length) return;
    const q = this.queued;
    this.queued = [];
    let changed = false;
    for (let i = 0; i < q.length; i += 3) if (this.take(q[i] as ActivityServer, q[i + 1] as TraceRecord, q[i + 2] as number)) changed = true;
    // One change for the batch: listeners throttle anyway, and this runs per message otherwise.
    if (changed) this.fireChange();
  }

  /** Takes one trace record now; returns the entry it created or completed, if any. */
  add(server: ActivityServer, record: TraceRecord, at: number): ActivityEntry | undefined {
    this.flush();
    const entry = this.take(server, record, at);
    if (entry) this.fireChange();
    return entry;
  }

  /** Takes one trace record without telling the listeners. */
  private take(server: ActivityServer, record: TraceRecord, at: number): ActivityEntry | undefined {
    const raw = record.message as {
      id?: string | number;
      method?: string;
      params?: Record<string, unknown>;
      result?: unknown;
      error?: { code?: number; message?: string };
    };
    if (record.kind === 'request' || record.kind === 'notification') {
      const stored = this.store(record.message, server.secrets);
      const method = record.method ?? raw.method ?? '(unknown)';
      const kind = record.kind;
      const isToolCall = kind === 'request' && record.direction === 'send' && method === 'tools/call' && typeof raw.params?.name === 'string';
      let rerun: RerunSource | undefined;
      let rerunUnavailable: string | undefined;
      if (isToolCall && typeof stored === 'string' && stored.length * 3 <= MAX_RERUN_BYTES) {
        // The arguments are part of the kept request and no larger than it: Re-run reads them
        // from there, so they are neither serialized nor kept a second time.
        rerun = raw.params!.name as string;
      } else if (isToolCall) {
        const argsJson = jsonOf(raw.params!.arguments);
        // Bytes are at most 3 per UTF-16 unit: most arguments are known to fit without counting.
        const argsBytes =
          argsJson === undefined
            ? 0
            : argsJson === null
              ? Infinity
              : argsJson.length * 3 <= MAX_RERUN_BYTES
                ? argsJson.length
                : Buffer.byteLength(argsJson, 'utf8');
        if (argsBytes <= MAX_RERUN_BYTES) rerun = { name: raw.params!.name as string, arguments: argsJson ?? undefined };
        else
          rerunUnavailable = `The arguments of this call (${formatBytes(argsBytes)}) were too large to keep for Re-run; call the tool again from the Run Tool panel.`;
      }
      const entry = new RecordedEntry(
        this.nextSeq++,
        server,
        method,
        kind,
        kind === 'request' ? (record.id ?? raw.id) : undefined,
        record.direction,
        at,
        stored,
        rerun,
        rerunUnavailable,
      );
      if (kind === 'request' && record.round !== undefined && record.round >= 2 && record.originId !== undefined)
        this.roundOf(entry, server.id, record.round, record.originId);
      if (kind === 'notification' && record.direction === 'receive' && REQUEST_NOTIFICATIONS.has(method)) this.nest(entry, raw.params, server.secrets);
      this.push(entry);
      this.change.added.push(entry);
      if (entry.kind === 'request' && entry.id !== undefined) this.pending.set(server.id, entry.direction, entry.id, entry);
      if (kind === 'request' && record.direction === 'send' && method !== 'ping') this.reports(entry, raw.params);
      if (method === 'notifications/cancelled') this.cancel(server.id, record.direction, raw.params, at);
      return entry;
    }
    // A response travels the other way from its request.
    const id = record.id ?? raw.id;
    if (id === undefined) return undefined;
    const requestDirection = record.direction === 'send' ? 'receive' : 'send';
    const entry = this.pending.get(server.id, requestDirection, id);
    if (!entry) return undefined;
    this.pending.delete(server.id, requestDirection, id);
    this.reporting.get(server.id)?.inFlight.delete(entry);
    this.change.updated.push(entry);
    entry.respond(this.store(record.message, server.secrets));
    if (record.inputRequired) {
      entry.inputRequired = true;
      if (entry.round === undefined) entry.round = 1;
      if (entry.originSeq === undefined && entry.id !== undefined) this.origins.set(server.id, requestDirection, id, entry);
    }
    if (entry.status.kind !== 'cancelled') {
      entry.endedAt = at;
      // The status is plain text kept as it is (not parsed on read like the messages): redacted
      // now. A transport's failure quotes the URL it could not reach, credentials included.
      entry.status =
        record.kind === 'error'
          ? {
              kind: 'error',
              code: record.errorCode ?? raw.error?.code,
              message: redactText(record.errorMessage ?? raw.error?.message ?? 'error', secretsNow(server.secrets)),
            }
          : STATUS_OK;
    }
    return entry;
  }

  /** Ends the pending requests of a server whose connection went away. */
  abandon(serverId: string, at: number, message = 'no response: the connection closed'): void {
    this.flush();
    let changed = false;
    for (const entry of this.pending.take(serverId)) {
      if (entry.status.kind === 'pending') {
        entry.status = { kind: 'error', message };
        entry.endedAt = at;
        this.change.updated.push(entry);
      }
      this.reporting.get(serverId)?.inFlight.delete(entry);
      changed = true;
    }
    if (changed) this.fireChange();
  }

  /** Sets our own note on an entry (a handshake's era decision, issue 30) and tells the listeners. */
  annotate(entry: ActivityEntry, note: string): void {
    if (entry.note === note) return;
    entry.note = note;
    this.change.updated.push(entry);
    this.fireChange();
  }

  dispose(): void {
    this.queued = [];
    this.onDidChangeEmitter.dispose();
  }

  private cancel(serverId: string, direction: 'send' | 'receive', params: Record<string, unknown> | undefined, at: number): void {
    const requestId = params?.requestId as string | number | undefined;
    if (requestId === undefined) return;
    // The side that sent the request is the side that cancels it; a late response still attaches.
    const entry = this.pending.get(serverId, direction, requestId);
    if (!entry || entry.status.kind !== 'pending') return;
    const reason = typeof params?.reason === 'string' ? params.reason : undefined;
    entry.status = { kind: 'cancelled', ...(reason ? { reason } : {}) };
    entry.endedAt = at;
    this.reporting.get(serverId)?.inFlight.delete(entry);
    this.change.updated.push(entry);
  }

  /** A sent request (not a ping) that notifications may report on while it is in flight, or by its progress token. */
  private reports(entry: RecordedEntry, params: Record<string, unknown> | undefined): void {
    let reporting = this.reporting.get(entry.serverId);
    if (!reporting) this.reporting.set(entry.serverId, (reporting = { inFlight: new Set(), byToken: new Map() }));
    reporting.inFlight.add(entry);
    const meta = params?._meta as Record<string, unknown> | undefined;
    const token = meta?.progressToken;
    if (typeof token === 'string' || typeof token === 'number') {
      reporting.byToken.set(token, entry);
      entry.progressToken = token;
    }
  }

  /**
   * Finds the request a progress or log notification reports on, now that it arrives: the one
   * with its progress token, else the server's one request in flight (with none or several, it
   * stands alone). Read from the message as it comes in: the token is only matched, never shown.
   */
  private nest(entry: RecordedEntry, params: Record<string, unknown> | undefined, secrets: ActivityServer['secrets']): void {
    // Its note too, read from the params as they came (redacted): the Inspector's row shows it without parsing the message again.
    entry.note = (params && noteOf(entry.method, params, secretsNow(secrets))) || '';
    const reporting = this.reporting.get(entry.serverId);
    const token = params?.progressToken;
    const byToken = typeof token === 'string' || typeof token === 'number' ? reporting?.byToken.get(token) : undefined;
    const parent = byToken ?? (reporting?.inFlight.size === 1 ? reporting.inFlight.values().next().value : undefined);
    entry.parentSeq = parent?.seq ?? 0;
    if (parent) this.nested.set(parent.seq, (this.nested.get(parent.seq) ?? 0) + 1);
  }

  /** Eviction passes over a request in flight, and over one whose notifications are still kept under it. */
  private keeps(entry: ActivityEntry): boolean {
    return inFlight(entry) || (entry.kind === 'request' && this.nested.has(entry.seq));
  }

  private push(entry: ActivityEntry): void {
    if (this.count === this.capacity) {
      // The oldest entry goes, unless it is a request still in flight or one whose notifications
      // are still kept under it: a tool call that sends thousands of notifications keeps its row
      // while they come in and while they are shown (its oldest notifications go first, not the
      // call: they would be left without it). The oldest entry after those leading ones goes
      // instead; they (at most MAX_KEPT_IN_FLIGHT; all of the log when everything is kept) move up one place.
      const at = (i: number) => this.buffer[(this.start + i) % this.capacity]!;
      const limit = Math.min(MAX_KEPT_IN_FLIGHT, this.count - 1);
      let skip = 0;
      while (skip < limit && this.keeps(at(skip))) skip++;
      if (this.keeps(at(skip))) skip = 0; // everything looked at is kept: the oldest goes after all
      this.forget(at(skip));
      for (let i = skip; i > 0; i--) this.buffer[(this.start + i) % this.capacity] = this.buffer[(this.start + i - 1) % this.capacity];
      this.buffer[this.start] = undefined;
      this.start = (this.start + 1) % this.capacity;
      this.buffer[(this.start + this.count - 1) % this.capacity] = entry;
    } else {
      this.buffer[(this.start + this.count) % this.capacity] = entry;
      this.count++;
    }
  }

  private forget(entry: ActivityEntry): void {
    this.change.removed.push(entry);
    if (entry.parentSeq) {
      const left = (this.nested.get(entry.parentSeq) ?? 0) - 1;
      if (left > 0) this.nested.set(entry.parentSeq, left);
      else this.nested.delete(entry.parentSeq);
    }
    if (entry.kind === 'request') {
      this.nested.delete(entry.seq);
      const reporting = this.reporting.get(entry.serverId);
      if (reporting) {
        // Only a request still in flight is in the set (its answer, a cancel or a closed connection took the others out).
        if (entry.endedAt === undefined) reporting.inFlight.delete(entry);
        const token = (entry as RecordedEntry).progressToken;
        if (token !== undefined && reporting.byToken.get(token) === entry) reporting.byToken.delete(token);
      }
    }
    if (entry.kind === 'request' && entry.id !== undefined) {
      // Looked up only where it can be: pending until answered or closed (a cancelled one waits for a late answer); an origin only if it got input_required.
      const { serverId, direction, id } = entry;
      const waits = entry.status.kind === 'pending' || entry.status.kind === 'cancelled';
      if (waits && this.pending.get(serverId, direction, id) === entry) this.pending.delete(serverId, direction, id);
      if (entry.inputRequired && this.origins.get(serverId, direction, id) === entry) this.origins.delete(serverId, direction, id);
    }
  }

  /** Marks a retried request with its round and the entry of its first round. */
  private roundOf(entry: RecordedEntry, serverId: string, round: number, originId: string | number): void {
    entry.round = round;
    const origin = this.origins.get(serverId, entry.direction, originId);
    if (origin) entry.originSeq = origin.seq;
  }

  private oldestFirst(): ActivityEntry[] {
    const out: ActivityEntry[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.buffer[(this.start + i) % this.capacity]!);
    return out;
  }

  private store(message: unknown, secrets: ActivityServer['secrets']): StoredMessage {
    const serialized = jsonOf(message);
    if (serialized === null) return { value: UNSERIALIZABLE_VALUE, size: 0 };
    const json = serialized ?? 'null';
    // Bytes are at most 3 per UTF-16 unit: only a message that may be large is counted here.
    if (json.length * 3 <= MAX_STORED_BYTES) return json;
    const size = Buffer.byteLength(json, 'utf8');
    if (size <= MAX_STORED_BYTES) return { json, size };
    // Rare: the preview is redacted once, here, walking only as much of the message as it shows.
    const preview = redactedJsonPrefix(message, secretsNow(secrets), PREVIEW_CHARS);
    return { value: { truncated: `message of ${formatBytes(size)}; the first ${PREVIEW_CHARS / 1024} KB of its JSON follow`, preview }, size };
  }
}
