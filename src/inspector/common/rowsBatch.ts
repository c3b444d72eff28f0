/**
 * When and what the Inspector's host sends its page as the log changes: changes are coalesced
 * (at most one message per BATCH_MS, and never later than that after the first change: a
 * steady flood still shows every BATCH_MS), and a message carries only what changed since the
 * last one (rowsDelta.ts), unless that would be no smaller than every row.
 */
import type { InspectorRow } from './inspectorRows';
import { countRows, diffRows, isEmptyDelta, type RowsDelta } from './rowsDelta';

/** About three frames: a flood shows as it comes, and the page draws each batch once. */
export const BATCH_MS = 50;
/**
 * A flush that took long (rows rebuilt over a big log on a busy machine) waits this many times
 * its own time before the next, so the panel takes about a sixth of the extension host's thread
 * at most and the calls that flood it keep their pace; but never longer than MAX_GAP_MS (the
 * old panel's fixed pace), so a flood still shows as it comes.
 */
export const LOAD_FACTOR = 5;
export const MAX_GAP_MS = 200;

export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * A throttle: `schedule()` runs `flush` once, `intervalMs` after the previous flush started (at
 * once when that is past), or LOAD_FACTOR times that flush's own time when that is longer (up
 * to MAX_GAP_MS).
 */
export class Coalescer {
  private timer: unknown;
  private last = -Infinity;
  private gap = 0;

  constructor(
    private readonly flush: () => void,
    private readonly intervalMs = BATCH_MS,
    private readonly clock: Clock = realClock,
  ) {}

  get pending(): boolean {
    return this.timer !== undefined;
  }

  schedule(): void {
    if (this.timer !== undefined) return;
    const wait = Math.max(0, this.last + Math.max(this.intervalMs, this.gap) - this.clock.now());
    this.timer = this.clock.setTimeout(() => this.run(), wait);
  }

  /** Flushes now (a full send, a selection): a scheduled flush is dropped, and the interval counts from here. */
  run(): void {
    this.cancel();
    this.last = this.clock.now();
    try {
      this.flush();
    } finally {
      this.gap = Math.min(MAX_GAP_MS, (this.clock.now() - this.last) * LOAD_FACTOR);
    }
  }

  cancel(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** What to send for the rows `next` when the page holds `previous` (undefined: it holds nothing yet). */
export type RowsMessagePlan = { kind: 'all' } | { kind: 'delta'; delta: RowsDelta } | { kind: 'none' };

export function planRowsMessage(previous: readonly InspectorRow[] | undefined, next: readonly InspectorRow[]): RowsMessagePlan {
  if (!previous) return { kind: 'all' };
  const delta = diffRows(previous, next);
  if (isEmptyDelta(delta)) return { kind: 'none' };
  // A delta that carries as many rows as there are (everything changed, e.g. a cleared log
  // refilled) is no cheaper for either side than all the rows.
  const total = countRows(next);
  return total > 0 && delta.rows.length >= total ? { kind: 'all' } : { kind: 'delta', delta };
}
