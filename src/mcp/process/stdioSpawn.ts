/**
 * How a stdio launch becomes a process: the environment (the host's, then `envFile`, then
 * `env`, where null removes a variable), a check of `cwd`, and the executable resolved the way
 * the OS will (PATH, PATHEXT, `.cmd` shims through `cmd /c` with cmd.exe quoting). Shared by MCP connections and by
 * the debugger's HTTP debuggees, so both start a command identically. No `vscode` import.
 */
import * as fs from 'node:fs/promises';
import { parseEnvFile, type StdioLaunch } from '../../config/common/launchDefinition';
import { cmdCommandLine, describeMissingCommand, describeSearchedPath, resolveCommand } from './commandResolution';
import { errorMessage } from '../../shared/common/errors';

export interface StdioSpawnPlan {
  /**
   * For the MCP SDK's StdioClientTransport, which spawns through cross-spawn: a `.cmd`/`.bat`
   * is given as it is, and cross-spawn runs it as `cmd /d /s /c "…"` with cmd.exe quoting.
   */
  command: string;
  args: string[];
  /**
   * For Node.js's own child_process.spawn: a `.cmd`/`.bat` runs as `cmd /d /s /c "…"`, quoted
   * here per cmd.exe rules (commandResolution.ts) and passed verbatim.
   */
  spawn: { command: string; args: string[]; windowsVerbatimArguments?: true };
  /** Removed variables are absent or undefined (child_process skips undefined values). */
  env: Record<string, string | undefined>;
  cwd: string | undefined;
  /** The absolute path of the executable the command resolved to. */
  resolved: string;
  pathValue: string;
}

/** A start that cannot happen, with what a user needs to fix it. */
export class SpawnError extends Error {
  constructor(
    message: string,
    readonly detail?: string,
    /** The command was not found on the PATH searched. */
    readonly missingCommand = false,
  ) {
    super(message);
    this.name = 'SpawnError';
  }
}

/** The environment servers start with; `fresh` waits for this session's login-shell PATH (loginShellPath.ts). */
export type BaseEnv = (options?: { fresh?: boolean }) => Promise<Record<string, string | undefined>>;

/**
 * Runs a start (`attempt`) with the environment servers start with. Its login-shell PATH may be
 * the one kept from an earlier session, older than a tool installed since: a command it does not
 * find is tried once more with the shell's answer of this session before the start fails.
 * `onRetry` is told first (the caller says so in its log: the start may wait for the shell).
 */
export async function withFreshPathOnMissingCommand<T>(
  baseEnv: BaseEnv,
  attempt: (env: Record<string, string | undefined>) => Promise<T>,
  onRetry?: () => void,
): Promise<T> {
  try {
    return await attempt(await baseEnv());
  } catch (error) {
    if (!(error instanceof SpawnError && error.missingCommand)) throw error;
    onRetry?.();
    return attempt(await baseEnv({ fresh: true }));
  }
}

/** What a start's log says when its command is looked for again (withFreshPathOnMissingCommand). */
export const lookingAgainMessage = (command: string): string => `"${command}" is not on the PATH kept from the login shell; reading the shell's PATH again.`;

/** For tests: another platform's rules, and which files are executables there. */
export interface PlanOptions {
  platform?: NodeJS.Platform;
  isExecutableFile?: (file: string) => boolean;
}

/** `who` names the server in messages, e.g. `server "weather"`; `where` the config to fix. */
export async function planStdioSpawn(
  launch: StdioLaunch,
  baseEnv: Record<string, string | undefined>,
  who: string,
  where?: string,
  options: PlanOptions = {},
): Promise<StdioSpawnPlan> {
  const env: Record<string, string | undefined> = { ...baseEnv };
  if (launch.envFile) {
    let text: string;
    try {
      text = await fs.readFile(launch.envFile, 'utf8');
    } catch (error) {
      throw new SpawnError(`The envFile "${launch.envFile}" of ${who} cannot be read: ${errorMessage(error)}.`);
    }
    Object.assign(env, parseEnvFile(text));
  }
  for (const [key, value] of Object.entries(launch.env)) {
    if (value === null) delete env[key];
    else env[key] = value;
  }
  if (launch.cwd) {
    const stat = await fs.stat(launch.cwd).catch(() => undefined);
    if (!stat?.isDirectory()) {
      throw new SpawnError(`The working directory "${launch.cwd}" of ${who} does not exist.${where ? ` Fix "cwd" in ${where}.` : ''}`);
    }
  }
  const pathValue = env.PATH ?? env.Path ?? '';
  const found = resolveCommand(launch.command, { pathValue, pathExt: env.PATHEXT, cwd: launch.cwd, ...options });
  if (!found.resolved) {
    // The line names the command and what to do; the directories searched go to the details only.
    throw new SpawnError(describeMissingCommand(launch.command, found), describeSearchedPath(launch.command, found), true);
  }
  let spawn: StdioSpawnPlan['spawn'] = { command: found.resolved, args: launch.args };
  if (found.needsShell) {
    // Passed as separate arguments, Node.js quoted them by the C runtime's rules, which cmd.exe
    // does not follow: `a&calc` started calc. The line is built for cmd.exe instead.
    let line: string;
    try {
      line = cmdCommandLine(found.resolved, launch.args);
    } catch (error) {
      throw new SpawnError(`Cannot start ${who}: ${errorMessage(error)}.`);
    }
    spawn = { command: env.ComSpec ?? 'cmd.exe', args: ['/d', '/s', '/c', line], windowsVerbatimArguments: true };
  }
  return {
    command: found.resolved,
    args: launch.args,
    spawn,
    env,
    cwd: launch.cwd,
    resolved: found.resolved,
    pathValue,
  };
}
