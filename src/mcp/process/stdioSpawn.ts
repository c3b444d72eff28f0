/**
 * How a stdio launch becomes a process: the environment (the host's, then `envFile`, then
 * `env`, where null removes a variable), a check of `cwd`, and the executable resolved the way
 * the OS will (PATH, PATHEXT, `.cmd` shims through `cmd /c`). Shared by MCP connections and by
 * the debugger's HTTP debuggees, so both start a command identically. No `vscode` import.
 */
import * as fs from 'node:fs/promises';
import { parseEnvFile, type StdioLaunch } from '../../config/common/launchDefinition';
import { describeMissingCommand, resolveCommand } from './commandResolution';

export interface StdioSpawnPlan {
  command: string;
  args: string[];
  /** Removed variables are absent or undefined (child_process skips undefined values). */
  env: Record<string, string | undefined>;
  cwd: string | undefined;
  /** The absolute path of the executable the command resolved to. */
  resolved: string;
  pathValue: string;
}

/** A start that cannot happen, with what a user needs to fix it. */
export class SpawnError extends Error {
  constructor(message: string, readonly detail?: string) {
    super(message);
    this.name = 'SpawnError';
  }
}

/** `who` names the server in messages, e.g. `server "weather"`; `where` the config to fix. */
export async function planStdioSpawn(launch: StdioLaunch, baseEnv: Record<string, string | undefined>, who: string, where?: string): Promise<StdioSpawnPlan> {
  const env: Record<string, string | undefined> = { ...baseEnv };
  if (launch.envFile) {
    let text: string;
    try {
      text = await fs.readFile(launch.envFile, 'utf8');
    } catch (error) {
      throw new SpawnError(`The envFile "${launch.envFile}" of ${who} cannot be read: ${error instanceof Error ? error.message : String(error)}.`);
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
  const found = resolveCommand(launch.command, { pathValue, pathExt: env.PATHEXT, cwd: launch.cwd });
  if (!found.resolved) {
    throw new SpawnError(`Cannot start ${who}: ${describeMissingCommand(launch.command, found)}`, `command: ${launch.command}\nPATH: ${pathValue}`);
  }
  return {
    command: found.needsShell ? (env.ComSpec ?? 'cmd.exe') : found.resolved,
    args: found.needsShell ? ['/d', '/s', '/c', found.resolved, ...launch.args] : launch.args,
    env,
    cwd: launch.cwd,
    resolved: found.resolved,
    pathValue,
  };
}
