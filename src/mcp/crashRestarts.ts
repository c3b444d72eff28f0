/**
 * When a crashed server is started again: exponential backoff (1 s, 2 s, 4 s … up to 30 s), and
 * no more restarts once it crashed 5 times within 3 minutes, since a server that keeps dying
 * only floods the log and the user's CPU. Pure: the clock and the timers are injected so the
 * policy is unit-tested without waiting.
 */

/** Time and timers, injectable so tests run without real waits. */
export interface RestartClock {
  now(): number;
  /** Runs `fn` after `ms`; the result cancels it. */
  schedule(fn: () => void, ms: number): () => void;
}

export const realClock: RestartClock = {
  now: () => Date.now(),
  schedule: (fn, ms) => {
    const timer = setTimeout(fn, ms);
    // A pending restart must not keep a host (test runner, CLI) alive.
    timer.unref?.();
    return () => clearTimeout(timer);
  },
};

export interface CrashRestartOptions {
  firstDelayMs: number;
  maxDelayMs: number;
  /** This many crashes within `windowMs` and the server stays down. */
  maxCrashes: number;
  windowMs: number;
}

export const DEFAULT_CRASH_RESTARTS: CrashRestartOptions = { firstDelayMs: 1000, maxDelayMs: 30_000, maxCrashes: 5, windowMs: 180_000 };

export type CrashVerdict = { restart: true; delayMs: number } | { restart: false; crashes: number };

/** The crash history of one server. */
export class CrashRestarts {
  private crashes: number[] = [];

  constructor(
    private readonly clock: Pick<RestartClock, 'now'>,
    private readonly options: CrashRestartOptions = DEFAULT_CRASH_RESTARTS,
  ) {}

  /** Records a crash now and says whether (and when) to restart. */
  crashed(): CrashVerdict {
    const now = this.clock.now();
    // Only recent crashes count: a server that ran fine for a while starts again at 1 s.
    this.crashes = this.crashes.filter((t) => now - t < this.options.windowMs);
    this.crashes.push(now);
    const n = this.crashes.length;
    if (n >= this.options.maxCrashes) return { restart: false, crashes: n };
    return { restart: true, delayMs: Math.min(this.options.firstDelayMs * 2 ** (n - 1), this.options.maxDelayMs) };
  }

  /** The user started or stopped the server: earlier crashes no longer hold it back. */
  reset(): void {
    this.crashes = [];
  }
}

/** "1 s", "30 s", "3 minutes": how messages name a duration. */
export function describeDuration(ms: number): string {
  return ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000} minutes` : `${Math.round(ms / 100) / 10} s`;
}
