/**
 * A server process the `mcp` debug type starts itself: an HTTP server run by a command under
 * a debugger (the MCP connection then goes over HTTP, so nobody else owns the process).
 * Environment, working directory and command lookup work as for a stdio server; output comes
 * line by line; `kill` ends the whole process tree. No `vscode` import.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as readline from 'node:readline';
import type { StdioLaunch } from '../../config/common/launchDefinition';
import { Emitter } from '../../shared/common/emitter';
import { planStdioSpawn, SpawnError } from '../../mcp/process/stdioSpawn';
import { endWithThisProcess } from '../../mcp/process/processTree';

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not be spawned at all. */
  error?: string;
}

/** How long `kill` waits after SIGTERM before SIGKILL. */
const KILL_GRACE_MS = 3000;

export class DebuggeeProcess {
  private readonly onLineEmitter = new Emitter<{ stream: 'stdout' | 'stderr'; line: string }>();
  /** Each line the process writes, as it comes. */
  readonly onLine = this.onLineEmitter.event;
  /** The last lines of output, for error messages. */
  readonly tail: string[] = [];
  /** Resolves once the process has exited (or failed to spawn). */
  readonly exit: Promise<ProcessExit>;
  private exitInfo: ProcessExit | undefined;

  private constructor(
    private readonly child: ChildProcess,
    readonly commandLine: string,
  ) {
    // A debuggee paused in the debugger would outlive VS Code closing otherwise (processTree.ts).
    const forget = child.pid !== undefined ? endWithThisProcess(child.pid, process.platform !== 'win32') : () => undefined;
    this.exit = new Promise((resolve) => {
      child.once('error', (error) => {
        this.exitInfo ??= { code: null, signal: null, error: error.message };
        resolve(this.exitInfo);
      });
      child.once('exit', (code, signal) => {
        this.exitInfo ??= { code, signal };
        resolve(this.exitInfo);
      });
    });
    void this.exit.then(forget);
    for (const stream of ['stdout', 'stderr'] as const) {
      const input = child[stream];
      if (!input) continue;
      readline.createInterface({ input }).on('line', (line) => {
        this.tail.push(line);
        if (this.tail.length > 20) this.tail.shift();
        this.onLineEmitter.fire({ stream, line });
      });
    }
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** How the process ended, or undefined while it runs. */
  get exited(): ProcessExit | undefined {
    return this.exitInfo;
  }

  /**
   * Starts `launch` with `baseEnv` (the environment stdio servers get), `envFile`, then `env`
   * on top. Throws an Error a user can act on when the command or `cwd` is missing.
   */
  static async start(launch: StdioLaunch, baseEnv: Record<string, string | undefined>, label: string): Promise<DebuggeeProcess> {
    const {
      spawn: how,
      env,
      resolved,
    } = await planStdioSpawn(launch, baseEnv, `"${label}"`).catch((error: unknown) => {
      // Server notifications name the server already; a debug session's error does not.
      if (error instanceof SpawnError && !error.message.startsWith('The working directory'))
        throw new SpawnError(`Cannot start "${label}": ${error.message}`, error.detail, error.missingCommand);
      throw error;
    });
    const child = spawn(how.command, how.args, {
      windowsVerbatimArguments: how.windowsVerbatimArguments,
      cwd: launch.cwd,
      env: env as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group on POSIX, so `kill` also ends what a wrapper (npx, npm run) started.
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    return new DebuggeeProcess(child, [resolved, ...launch.args].join(' '));
  }

  /** SIGTERM to the process tree, SIGKILL after a grace period; resolves once it has exited. */
  async kill(graceMs = KILL_GRACE_MS): Promise<void> {
    if (this.exitInfo || this.child.pid === undefined) return;
    this.signal('SIGTERM');
    const timer = setTimeout(() => this.signal('SIGKILL'), graceMs);
    await this.exit;
    clearTimeout(timer);
    // The group may outlive its leader (a wrapper's child): end the rest.
    if (process.platform !== 'win32') this.signal('SIGKILL');
    this.onLineEmitter.dispose();
  }

  private signal(signal: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      if (process.platform === 'win32') {
        spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
      } else {
        process.kill(-pid, signal);
      }
    } catch {
      try {
        this.child.kill(signal);
      } catch {
        // already gone
      }
    }
  }
}
