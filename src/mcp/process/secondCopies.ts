/**
 * Copies of a server's launch that someone else started under this extension host: VS Code's own
 * MCP host spawns stdio servers from the extension host process (the same process as this
 * extension), so a server VS Code starts as well runs as a second child of it, twice the work
 * and twice the restarts. Found by reading the process table and matching command lines.
 * No `vscode` import.
 */
import * as fs from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { descendants } from './processTree';

export interface ProcessInfo {
  pid: number;
  ppid: number;
  /** The command line; on Linux exact (/proc), elsewhere split on spaces (`ps`). */
  argv: string[];
  /** The working directory, where it can be read (Linux). */
  cwd?: string;
  /** The environment, where it can be read (Linux, our own user's processes). */
  env?: Record<string, string>;
}

/**
 * Every process with its parent and command line, or with `below` only the processes below that
 * pid (what secondCopies looks at); empty where it cannot be read (Windows). On Linux every
 * process's parent is read from /proc (one small file each), and the command line, folder and
 * environment only for the processes asked for: the watch runs every 20 s on machines with
 * hundreds of processes.
 */
export async function processTable(below?: number): Promise<ProcessInfo[]> {
  if (process.platform === 'linux') {
    const pids = (await fs.readdir('/proc').catch(() => [] as string[])).filter((n) => /^\d+$/.test(n)).map(Number);
    const parents = new Map<number, number>();
    await Promise.all(
      pids.map(async (pid) => {
        try {
          const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
          // The name in parentheses may hold spaces and parentheses: the ppid is the second field after the last ')'.
          parents.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
        } catch {
          // gone meanwhile
        }
      }),
    );
    const wanted = below === undefined ? [...parents.keys()] : descendants(parents, below);
    const rows = await Promise.all(
      wanted.map(async (pid): Promise<ProcessInfo | undefined> => {
        try {
          const argv = (await fs.readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').filter((a, i, all) => a !== '' || i < all.length - 1);
          const cwd = await fs.readlink(`/proc/${pid}/cwd`).catch(() => undefined);
          const environ = await fs.readFile(`/proc/${pid}/environ`, 'utf8').catch(() => undefined);
          const env =
            environ === undefined
              ? undefined
              : Object.fromEntries(
                  environ
                    .split('\0')
                    .filter(Boolean)
                    .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
                );
          return { pid, ppid: parents.get(pid)!, argv, ...(cwd ? { cwd } : {}), ...(env ? { env } : {}) };
        } catch {
          return undefined; // gone meanwhile
        }
      }),
    );
    return rows.filter((r): r is ProcessInfo => r !== undefined);
  }
  if (process.platform === 'win32') return [];
  const table = await new Promise<string>((resolve) =>
    execFile('ps', ['-A', '-o', 'pid=', '-o', 'ppid=', '-o', 'args='], { timeout: 2000, maxBuffer: 8 * 1024 * 1024 }, (error, stdout) =>
      resolve(error ? '' : stdout),
    ),
  );
  const rows: ProcessInfo[] = table.split('\n').flatMap((line) => {
    const [pid, ppid, ...argv] = line.trim().split(/\s+/);
    return pid && ppid ? [{ pid: Number(pid), ppid: Number(ppid), argv }] : [];
  });
  if (below === undefined) return rows;
  const keep = new Set(descendants(new Map(rows.map((r) => [r.pid, r.ppid])), below));
  return rows.filter((r) => keep.has(r.pid));
}

/**
 * The pids below `host` that run `command args` and are not `own` (our server processes) nor
 * below them. The command matches by its file name (VS Code may give `node` where we resolved
 * `/usr/bin/node`), the arguments exactly, and where they can be read the working directory and
 * the entry's own `env`: two configured servers may run the same command line in other folders
 * or with other variables.
 */
export function secondCopies(
  table: readonly ProcessInfo[],
  host: number,
  own: readonly number[],
  launch: { command: string; args: readonly string[]; cwd?: string; env?: Record<string, string | null> },
): number[] {
  const children = new Map<number, ProcessInfo[]>();
  for (const p of table) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  // Either separator: the table may come from another platform than the launch's spelling.
  const name = (file: string) => (file.split(/[\\/]/).pop() ?? '').replace(/\.(exe|cmd|bat)$/i, '').toLowerCase();
  const found: number[] = [];
  const queue = (children.get(host) ?? []).filter((p) => !own.includes(p.pid));
  while (queue.length) {
    const p = queue.shift()!;
    const [command, ...args] = p.argv;
    const sameCwd = p.cwd === undefined || launch.cwd === undefined || p.cwd === launch.cwd;
    const sameEnv = !p.env || Object.entries(launch.env ?? {}).every(([k, v]) => (v === null ? !(k in p.env!) : p.env![k] === v));
    if (
      command !== undefined &&
      sameCwd &&
      sameEnv &&
      name(command) === name(launch.command) &&
      args.length === launch.args.length &&
      args.every((a, i) => a === launch.args[i])
    ) {
      found.push(p.pid);
      continue; // its own children are part of the copy
    }
    queue.push(...(children.get(p.pid) ?? []).filter((c) => !own.includes(c.pid)));
  }
  return found;
}
