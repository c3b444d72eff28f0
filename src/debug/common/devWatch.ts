/**
 * The `dev.watch` policy shared by the `mcp` debug type (restarts while debugging) and the dev
 * loop outside a debug session: which globs, watched from which folder, how a burst of file
 * events becomes one restart, and whether a server's state lets a change restart it. Pure.
 */

/** How long a burst of file events may last before the restart it causes (the debug type's and the dev loop's). */
export const WATCH_DELAY_MS = 300;

/**
 * Marks a session the dev loop started for a changed `dev.watch` file (its value is that
 * file): the session opens no view and no console, since restarts never take focus.
 */
export const DEV_RESTART_MARKER = '__mcpWorkbenchDevRestart';

/** `watch` globs: one string or a list; empty and non-string entries dropped. */
export function normalizeWatch(value: unknown): string[] {
  if (typeof value === 'string') return value.trim() ? [value] : [];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string' && v.trim() !== '');
  return [];
}

/**
 * Splits a watch glob into the folder to watch and the pattern below it: `src/**\/*.ts` →
 * (`<base>/src`, `**\/*.ts`); absolute globs keep their own folder; `${workspaceFolder}` and
 * `${cwd}` are replaced first.
 */
export function splitWatchGlob(glob: string, base: string, vars: { workspaceFolder?: string; cwd?: string } = {}): { base: string; pattern: string } {
  let g = glob
    .replace(/\$\{workspaceFolder\}/g, vars.workspaceFolder ?? base)
    .replace(/\$\{cwd\}/g, vars.cwd ?? base)
    .replace(/\\/g, '/');
  const absolute = g.startsWith('/') || /^[A-Za-z]:\//.test(g);
  if (!absolute) g = `${base.replace(/\\/g, '/').replace(/\/$/, '')}/${g.replace(/^\.\//, '')}`;
  const parts = g.split('/');
  const firstGlob = parts.findIndex((p) => /[*?[{]/.test(p));
  if (firstGlob < 0) {
    // A plain file path: watch its folder for that one name.
    return { base: parts.slice(0, -1).join('/') || '/', pattern: parts[parts.length - 1] };
  }
  return { base: parts.slice(0, firstGlob).join('/') || '/', pattern: parts.slice(firstGlob).join('/') };
}

/** Where relative globs start: the server's `cwd`, else its workspace folder, else the host's cwd. */
export function watchRoots(where: { cwd?: string; workspaceFolder?: string; fallback: string }): { cwd: string; workspaceFolder?: string } {
  return { cwd: where.cwd ?? where.workspaceFolder ?? where.fallback, workspaceFolder: where.workspaceFolder };
}

/**
 * The folders and patterns to watch for a server's globs, each from its deepest plain folder
 * (see splitWatchGlob): `src/*.ts` is a flat watch of `src`, only `**` watches recursively.
 * (Watching from the cwd instead, with `src/*.ts` below it, made VS Code watch the whole cwd
 * recursively, and those watchers missed events in the real-VS-Code tests.)
 */
export function watchTargets(globs: readonly string[], roots: { cwd: string; workspaceFolder?: string }): { base: string; pattern: string }[] {
  return globs.map((glob) => splitWatchGlob(glob, roots.cwd, { workspaceFolder: roots.workspaceFolder, cwd: roots.cwd }));
}

/**
 * A changed file as the tree and the log name it: relative to the first of `roots` that holds
 * it (the server's cwd, then its workspace folder), else the full path. `/` separators.
 */
export function displayPath(file: string, roots: readonly (string | undefined)[]): string {
  const f = file.replace(/\\/g, '/');
  for (const root of roots) {
    if (!root) continue;
    const r = root.replace(/\\/g, '/').replace(/\/$/, '');
    if (f.startsWith(r + '/')) return f.slice(r.length + 1);
  }
  return f;
}

/** What a watched change does to a server, by its state (outside a debug session). */
export type ChangeAction =
  /** Restart it (running, starting, or failed: the save may be the fix). */
  | 'restart'
  /** A debug session runs it and restarts it on its own watch. */
  | 'debugSession'
  /** Stopped (by the user, or blocked): a save does not start it. */
  | 'stopped';

export function actionOnChange(state: 'stopped' | 'starting' | 'running' | 'error' | 'needsAuth', underDebugger: boolean): ChangeAction {
  if (underDebugger) return 'debugSession';
  return state === 'stopped' || state === 'needsAuth' ? 'stopped' : 'restart';
}

/**
 * Calls `run` once `delayMs` after the last of a burst of triggers (a save often touches
 * several files, and an editor may write one file twice), with the value of the last trigger
 * and how many came. A trigger while `run` is in progress queues exactly one more run, after
 * it, with the latest value. A failed run goes to `onError`: nobody awaits it, and the user
 * must learn that the restart failed.
 */
export class Throttle<T = void> {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | undefined;
  private pending: { value: T; count: number } | undefined;
  private disposed = false;

  /** `delayMs` may be a function: it is read at each trigger. */
  constructor(
    private readonly run: (value: T, count: number) => Promise<void>,
    private readonly delayMs: number | (() => number),
    private readonly onError: (error: unknown) => void,
  ) {}

  private get delay(): number {
    return typeof this.delayMs === 'function' ? this.delayMs() : this.delayMs;
  }

  /** Whether a run is in progress or waits for its delay. */
  get busy(): boolean {
    return this.running !== undefined || this.timer !== undefined;
  }

  trigger(value: T): void {
    if (this.disposed) return;
    this.pending = { value, count: (this.pending?.count ?? 0) + 1 };
    if (this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.fire(), this.delay);
  }

  private async fire(): Promise<void> {
    this.timer = undefined;
    const burst = this.pending;
    this.pending = undefined;
    if (!burst || this.disposed) return;
    this.running = this.run(burst.value, burst.count).catch((error) => this.onError(error));
    await this.running;
    this.running = undefined;
    // Changes during the run: one more run, after the usual delay (more saves may follow).
    if (this.pending && !this.disposed) this.timer = setTimeout(() => void this.fire(), this.delay);
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = undefined;
  }
}
