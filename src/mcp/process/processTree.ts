/**
 * The processes a stdio server started itself (a `npx` wrapper's node, a shell's children, a
 * language server's workers). Stopping only the server's own process leaves them running as
 * orphans. Its process group (ownedStdioTransport.ts) ends most of them; one that left the
 * group (setsid, a daemon) is looked up here before the stop and killed after the spec's
 * close sequence, and on Windows, which has no groups, `taskkill /T` ends the tree.
 * No `vscode` import.
 */
import { execFile, spawnSync } from 'node:child_process';

/** The pids below `root` (children, grandchildren …), found with `ps` on POSIX. Empty when unknown. */
export async function descendantsOf(root: number): Promise<number[]> {
  if (process.platform === 'win32') return [];
  const table = await new Promise<string>((resolve) => {
    execFile('ps', ['-A', '-o', 'pid=', '-o', 'ppid='], { timeout: 2000 }, (error, stdout) => resolve(error ? '' : stdout));
  });
  const parents = new Map<number, number>();
  for (const line of table.split('\n')) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    if (!pid || ppid === undefined || Number.isNaN(ppid)) continue;
    parents.set(pid, ppid);
  }
  return descendants(parents, root);
}

/** The pids below `root` (children, grandchildren …) in a pid → parent map. */
export function descendants(parents: ReadonlyMap<number, number>, root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parents) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const found: number[] = [];
  const queue = [root];
  while (queue.length) {
    for (const child of children.get(queue.shift()!) ?? []) {
      if (child === root || found.includes(child)) continue;
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** SIGTERM, up to `graceMs` to exit, then SIGKILL: the spec's sequence, for the leftovers of a server. */
export async function killProcesses(pids: number[], graceMs = 1000): Promise<void> {
  const signal = (pid: number, sig: NodeJS.Signals) => {
    try {
      process.kill(pid, sig);
    } catch {
      // Already gone.
    }
  };
  pids.forEach((pid) => signal(pid, 'SIGTERM'));
  const deadline = Date.now() + graceMs;
  while (pids.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  pids.filter(alive).forEach((pid) => signal(pid, 'SIGKILL'));
}

/** Windows has no process groups to signal: `taskkill /T /F` ends the process and all it started. */
export function killTreeWindows(pid: number): Promise<void> {
  return new Promise((resolve) => {
    execFile('taskkill', ['/T', '/F', '/PID', String(pid)], { timeout: 5000, windowsHide: true }, () => resolve());
  });
}

/** Servers (their groups on POSIX) still running; ended when this process exits. */
const living = new Set<{ pid: number; group: boolean }>();
let reaping = false;

/**
 * Ends `pid` (its process group when `group`) if this process (the extension host) exits, or is
 * ended by SIGTERM or SIGHUP, while it runs; call the returned function once it has exited. Closing or reloading VS Code gives
 * `deactivate` a moment, and the spec's stop (stdin closed, then signals seconds later) may not
 * reach the signals; a server that never reads its stdin, such as a debuggee paused under
 * `--inspect-brk` or at a breakpoint, would then outlive VS Code in its own process group. What
 * is still running at the host's exit gets SIGKILL: a signal it could catch would wait behind a
 * paused debuggee, and there is no later moment to follow up.
 */
export function endWithThisProcess(pid: number, group: boolean): () => void {
  const entry = { pid, group };
  living.add(entry);
  if (!reaping) {
    reaping = true;
    process.once('exit', reapLiving);
    // A VS Code server ends its extension hosts with SIGTERM (a remote or the browser-hosted
    // VS Code closing): Node's default for it ends the process without 'exit', so the reaping
    // is done here too, and the host still dies of the signal, as it would have.
    for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
      process.once(signal, () => {
        reapLiving();
        // Someone else handles the signal (then the process does not die of it by default): theirs.
        if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
      });
    }
  }
  return () => living.delete(entry);
}

function reapLiving(): void {
  for (const { pid: p, group: g } of living) {
    try {
      if (process.platform === 'win32') spawnSync('taskkill', ['/T', '/F', '/PID', String(p)], { timeout: 2000, windowsHide: true });
      else process.kill(g ? -p : p, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  living.clear();
}
