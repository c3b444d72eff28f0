/**
 * The queue of requests waiting for the user (sampling and elicitation, across servers),
 * with each request's state machine. Pure: the host owns timers and the UI; the queue says
 * what may happen next and settles each request exactly once.
 *
 * Sampling:   review → generating → response → (approved)
 *                ↑__________|   (failed or stopped generation goes back to review)
 * Any state → settled (approved / denied / timedOut / cancelled by the server / failed).
 * Elicitation: waiting → settled (accept / decline / cancel / timedOut).
 */
import { Emitter } from '../../shared/common/emitter';

/** JSON-RPC code for a request that ran out of time or was cancelled (the v2 SDK keeps its own timeouts local). */
export const REQUEST_TIMEOUT = -32001;

export type SamplingStage = 'review' | 'generating' | 'response';

export type Settlement<R> = { kind: 'resolved'; value: R } | { kind: 'rejected'; code: number; message: string };

export interface QueueEntry<T, R> {
  readonly id: string;
  readonly data: T;
  readonly receivedAt: number;
  readonly deadline: number | undefined;
  stage: SamplingStage;
  settled?: Settlement<R>;
}

export class ApprovalQueue<T, R = unknown> {
  private readonly entries: QueueEntry<T, R>[] = [];
  private readonly waiters = new Map<string, (s: Settlement<R>) => void>();
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  private next = 0;

  constructor(private readonly prefix = 'req') {}

  /** Adds a request; the promise settles once (resolve, reject, timeout or server cancel). */
  add(data: T, now: number, timeoutMs: number | undefined): { entry: QueueEntry<T, R>; settled: Promise<Settlement<R>> } {
    const entry: QueueEntry<T, R> = {
      id: `${this.prefix}-${++this.next}`,
      data,
      receivedAt: now,
      deadline: timeoutMs && timeoutMs > 0 ? now + timeoutMs : undefined,
      stage: 'review',
    };
    const settled = new Promise<Settlement<R>>((resolve) => this.waiters.set(entry.id, resolve));
    this.entries.push(entry);
    this.changed.fire();
    return { entry, settled };
  }

  get(id: string): QueueEntry<T, R> | undefined {
    return this.entries.find((e) => e.id === id);
  }

  /** Pending entries, oldest first. */
  pending(): QueueEntry<T, R>[] {
    return [...this.entries];
  }

  get size(): number {
    return this.entries.length;
  }

  /** Moves a pending entry to another stage if the transition is allowed. */
  transition(id: string, to: SamplingStage): boolean {
    const entry = this.get(id);
    if (!entry) return false;
    const allowed: Record<SamplingStage, SamplingStage[]> = { review: ['generating'], generating: ['response', 'review'], response: ['generating', 'review'] };
    if (!allowed[entry.stage].includes(to)) return false;
    entry.stage = to;
    this.changed.fire();
    return true;
  }

  /** Settles and removes an entry; false if it was already settled (a late answer). */
  settle(id: string, settlement: Settlement<R>): boolean {
    const index = this.entries.findIndex((e) => e.id === id);
    if (index < 0) return false;
    const [entry] = this.entries.splice(index, 1);
    entry.settled = settlement;
    this.waiters.get(id)?.(settlement);
    this.waiters.delete(id);
    this.changed.fire();
    return true;
  }

  /** Ids of entries whose deadline has passed. */
  expired(now: number): string[] {
    return this.entries.filter((e) => e.deadline !== undefined && now >= e.deadline).map((e) => e.id);
  }

  /** Marks a change made to an entry's data (drafts), for listeners. */
  touch(): void {
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
