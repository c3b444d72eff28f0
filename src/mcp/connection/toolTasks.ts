/**
 * The tool calls of one connection that run as tasks (MCP tasks: the 2025-11-25 experimental
 * feature; on 2026-07-28 the `io.modelcontextprotocol/tasks` extension): their state as the
 * user sees it, kept per launch, with the pure rules for reading a task from the wire and for
 * how long to wait before the next `tasks/get`. No `vscode` import.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { Emitter } from '../../shared/common/emitter';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

const STATUSES: readonly TaskStatus[] = ['working', 'input_required', 'completed', 'failed', 'cancelled'];

/** A task as the tree and Run Tool show it. */
export interface ToolTask {
  taskId: string;
  status: TaskStatus;
  /** The server's words on the current state: progress while working, the reason when it failed. */
  statusMessage?: string;
  /** The tool that started it, when this window started it (`tasks/list` does not say). */
  toolName?: string;
  createdAt?: string;
  lastUpdatedAt?: string;
  /** The server's suggested polling interval. */
  pollIntervalMs?: number;
  /** How long the server keeps it, from creation; null: unlimited. */
  ttlMs?: number | null;
  /** The final result, once fetched. */
  result?: CallToolResult;
  /** Why it could not finish, when the failure was a JSON-RPC error. */
  error?: string;
}

export function isTerminal(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/**
 * A task from a server message: the 2025-11-25 shape (`ttl`, `pollInterval`) or the
 * extension's (`ttlMs`, `pollIntervalMs`). Undefined when it is not a task.
 */
export function taskFromWire(raw: unknown): Omit<ToolTask, 'toolName' | 'result' | 'error'> | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  if (typeof r.taskId !== 'string' || !STATUSES.includes(r.status as TaskStatus)) return undefined;
  const poll = numberOr(r.pollIntervalMs, r.pollInterval);
  const ttl = r.ttlMs === null || r.ttl === null ? null : numberOr(r.ttlMs, r.ttl);
  return {
    taskId: r.taskId,
    status: r.status as TaskStatus,
    ...(typeof r.statusMessage === 'string' ? { statusMessage: r.statusMessage } : {}),
    ...(typeof r.createdAt === 'string' ? { createdAt: r.createdAt } : {}),
    ...(typeof r.lastUpdatedAt === 'string' ? { lastUpdatedAt: r.lastUpdatedAt } : {}),
    ...(poll !== undefined ? { pollIntervalMs: poll } : {}),
    ...(ttl !== undefined ? { ttlMs: ttl } : {}),
  };
}

function numberOr(...values: unknown[]): number | undefined {
  return values.find((v): v is number => typeof v === 'number' && Number.isFinite(v));
}

/** When the server suggests no interval. */
export const DEFAULT_POLL_MS = 1000;
/** A server suggesting 0 ms would have us poll in a busy loop. */
export const MIN_POLL_MS = 100;
/** A server suggesting an hour would leave the user staring at a stale state. */
export const MAX_POLL_MS = 30_000;

/** Milliseconds to wait before the next `tasks/get`: the server's suggestion, within sane bounds. */
export function pollDelay(task: Pick<ToolTask, 'pollIntervalMs'>): number {
  const suggested = task.pollIntervalMs ?? DEFAULT_POLL_MS;
  return Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, suggested));
}

const STATUS_LABEL: Record<TaskStatus, string> = {
  working: 'working',
  input_required: 'waiting for input',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** One line for the tree and Run Tool: "working: step 2 of 5". Server text: escape before markdown. */
export function describeTask(task: Pick<ToolTask, 'status' | 'statusMessage' | 'error'>): string {
  const detail = task.error ?? task.statusMessage;
  return detail ? `${STATUS_LABEL[task.status]}: ${detail}` : STATUS_LABEL[task.status];
}

/**
 * The tasks of one launch, newest first. A stopped server's tasks are dropped with its
 * session: their ids mean nothing to the next process.
 */
export class TaskTracker {
  private readonly byId = new Map<string, ToolTask>();
  private readonly onDidChangeEmitter = new Emitter<ToolTask | undefined>();
  /** Fires with the task that changed, or undefined when the whole set changed. */
  readonly onDidChange = this.onDidChangeEmitter.event;

  list(): ToolTask[] {
    return [...this.byId.values()].reverse();
  }

  get(taskId: string): ToolTask | undefined {
    return this.byId.get(taskId);
  }

  /**
   * Merges what a server said about a task. A terminal state is final (the spec forbids
   * leaving it), so a late `working` answer cannot resurrect a cancelled task.
   */
  update(change: Partial<ToolTask> & { taskId: string }): ToolTask {
    const known = this.byId.get(change.taskId);
    const next: ToolTask = { status: 'working', ...known, ...change };
    if (known && isTerminal(known.status) && next.status !== known.status) next.status = known.status;
    this.byId.set(change.taskId, next);
    this.onDidChangeEmitter.fire(next);
    return next;
  }

  clear(): void {
    if (this.byId.size === 0) return;
    this.byId.clear();
    this.onDidChangeEmitter.fire(undefined);
  }

  dispose(): void {
    this.onDidChangeEmitter.dispose();
  }
}
