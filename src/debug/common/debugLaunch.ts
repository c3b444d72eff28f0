/**
 * How a stdio server is started under a debugger: which runtime it is (Node family or
 * Python), how its command line or environment is rewritten so the runtime's debugger
 * listens on a given port, and the attach configuration a child debug session uses. Pure:
 * the port, the shebang reader and the platform come in as arguments.
 */
import type { StdioLaunch } from '../../config/common/launchDefinition';

export type DebugRuntime = 'node' | 'python';
export type RuntimeSetting = 'auto' | DebugRuntime;

/** The loopback host every debugger listens on; never exposed beyond this machine. */
export const DEBUG_HOST = '127.0.0.1';

export interface DebugLaunchOptions {
  /** `auto` detects from the command; `node`/`python` force the runtime. */
  runtime?: RuntimeSetting;
  /** The free port the debugger listens on. */
  port: number;
  /** First line of a script file, or undefined if it is not a readable file. For shebangs. */
  readFirstLine?: (command: string) => string | undefined;
  /** Session name shown for the child session. */
  name: string;
  /** Passed to the JavaScript debugger. */
  sourceMaps?: boolean;
  outFiles?: string[];
  /** Extra attributes merged into the attach configuration (`skipFiles`, `justMyCode`, …). */
  attachOverrides?: Record<string, unknown>;
}

/** A launch rewritten to run under a debugger, and how to attach to it. */
export interface DebugPlan {
  runtime: DebugRuntime;
  /** How the rewriting was done, for the log: `flag`, `NODE_OPTIONS`, `npm node-options`, `debugpy`. */
  method: string;
  launch: StdioLaunch;
  attach: AttachConfiguration;
}

export interface AttachConfiguration {
  type: 'pwa-node' | 'debugpy';
  request: 'attach';
  name: string;
  [key: string]: unknown;
}

export class DebugLaunchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DebugLaunchError';
  }
}

/** The command's name without directory and Windows extension, lower-cased: `node`, `python3`. */
export function commandName(command: string): string {
  const base = command.split(/[\\/]/).pop() ?? command;
  return base.replace(/\.(exe|cmd|bat|ps1)$/i, '').toLowerCase();
}

const NODE_COMMANDS = new Set(['node', 'nodejs']);
const PYTHON_COMMAND = /^(python(\d+(\.\d+)?)?|py|pythonw)$/;
/** Python options that take their value as the next argument. */
const PYTHON_VALUE_FLAGS = new Set(['-W', '-X', '--check-hash-based-pycs']);
/** `npx` options that take a value. */
const NPX_VALUE_FLAGS = new Set(['-p', '--package', '-c', '--call', '--cache', '--registry', '--prefix', '-w', '--workspace']);
/** `uv run` / `uvx` options that take a value. */
const UV_VALUE_FLAGS = new Set([
  '--with',
  '--with-editable',
  '--with-requirements',
  '--python',
  '-p',
  '--directory',
  '--project',
  '--package',
  '--extra',
  '--group',
  '--only-group',
  '--no-group',
  '--index',
  '--default-index',
  '--index-url',
  '--extra-index-url',
  '--find-links',
  '-f',
  '--env-file',
  '--from',
  '--config-file',
  '--cache-dir',
  '--index-strategy',
  '--resolution',
  '--prerelease',
  '--exclude-newer',
  '--refresh-package',
  '--reinstall-package',
  '--upgrade-package',
  '-P',
  '--link-mode',
  '--color',
  '--script',
  '--module',
  '-m',
]);

/** Removes inspector flags a user may have left in (they would clash with ours). */
function withoutInspectFlags(args: string[]): string[] {
  return args.filter((a) => !/^--inspect(-brk|-wait)?(=.*)?$/.test(a) && !/^--debug(-brk)?(=.*)?$/.test(a));
}

function inspectFlag(port: number): string {
  return `--inspect-brk=${DEBUG_HOST}:${port}`;
}

/** Index of the first positional argument (not an option nor an option's value), or args.length. */
function firstPositional(args: string[], valueFlags: Set<string>, from = 0): number {
  for (let i = from; i < args.length; i++) {
    const a = args[i];
    if (a === '--') return i + 1;
    if (!a.startsWith('-') || a === '-') return i;
    if (!a.includes('=') && valueFlags.has(a)) i++;
  }
  return args.length;
}

/** Appends a flag to NODE_OPTIONS, keeping what the user (or the inherited environment) set. */
function appendNodeOptions(existing: string | null | undefined, flag: string): string {
  const kept = (existing ?? '').split(/\s+/).filter((o) => o && !/^--inspect/.test(o));
  return [...kept, flag].join(' ');
}

/** The interpreter a shebang names: `#!/usr/bin/env node`, `#!/usr/bin/env -S node --x`, `#!/usr/local/bin/python3`. */
export function parseShebang(firstLine: string | undefined): { interpreter: string; args: string[] } | undefined {
  if (!firstLine?.startsWith('#!')) return undefined;
  const parts = firstLine.slice(2).trim().split(/\s+/).filter(Boolean);
  if (!parts.length) return undefined;
  if (commandName(parts[0]) === 'env') {
    parts.shift();
    while (parts[0]?.startsWith('-')) parts.shift();
  }
  const [interpreter, ...args] = parts;
  return interpreter ? { interpreter: commandName(interpreter), args } : undefined;
}

/** Which runtime a launch uses, or undefined when it cannot be told from the command. */
export function detectRuntime(
  launch: Pick<StdioLaunch, 'command' | 'args'>,
  readFirstLine?: (command: string) => string | undefined,
): DebugRuntime | undefined {
  const name = commandName(launch.command);
  if (NODE_COMMANDS.has(name) || name === 'tsx' || name === 'ts-node' || name === 'ts-node-esm' || name === 'bun') return 'node';
  if (name === 'npm' || name === 'pnpm' || name === 'yarn') return 'node';
  if (name === 'npx') return 'node';
  if (PYTHON_COMMAND.test(name) || name === 'uvx' || name === 'uv' || name === 'debugpy') return 'python';
  const shebang = parseShebang(readFirstLine?.(launch.command));
  if (shebang) {
    if (NODE_COMMANDS.has(shebang.interpreter) || shebang.interpreter === 'tsx' || shebang.interpreter === 'bun') return 'node';
    if (PYTHON_COMMAND.test(shebang.interpreter)) return 'python';
  }
  if (/\.(c|m)?(j|t)s$/.test(launch.command)) return 'node';
  if (/\.py$/.test(launch.command)) return 'python';
  return undefined;
}

/**
 * Rewrites a stdio launch so the runtime's debugger listens on `options.port` and waits for
 * a client, and builds the attach configuration. Throws DebugLaunchError with a message a
 * user can act on when the command cannot be debugged.
 */
export function planDebugLaunch(launch: StdioLaunch, options: DebugLaunchOptions): DebugPlan {
  const setting = options.runtime ?? 'auto';
  const detected = detectRuntime(launch, options.readFirstLine);
  const runtime = setting === 'auto' ? detected : setting;
  if (!runtime) {
    throw new DebugLaunchError(`Cannot tell which runtime "${launch.command}" uses. Set "runtime": "node" or "python" in the launch configuration.`);
  }
  return runtime === 'node' ? planNode(launch, options) : planPython(launch, options);
}

function planNode(launch: StdioLaunch, options: DebugLaunchOptions): DebugPlan {
  const flag = inspectFlag(options.port);
  const name = commandName(launch.command);
  const args = withoutInspectFlags(launch.args);
  const result = (method: string, next: Partial<StdioLaunch>): DebugPlan => ({
    runtime: 'node',
    method,
    launch: { ...launch, ...next },
    attach: nodeAttach(options, launch.cwd),
  });
  const viaNodeOptions = () => result('NODE_OPTIONS', { args, env: { ...launch.env, NODE_OPTIONS: appendNodeOptions(launch.env.NODE_OPTIONS, flag) } });

  // node, tsx and bun take the flag before the script (tsx hands node flags to the node it starts).
  if (NODE_COMMANDS.has(name) || name === 'tsx' || name === 'bun') return result('flag', { args: [flag, ...args] });
  // ts-node runs the script in its own process: NODE_OPTIONS reaches exactly that process.
  if (name === 'ts-node' || name === 'ts-node-esm') return viaNodeOptions();
  if (name === 'npx') {
    const at = firstPositional(args, NPX_VALUE_FLAGS);
    const tool = args[at];
    if (tool && /^tsx(@.*)?$/.test(tool)) return result('flag', { args: [...args.slice(0, at + 1), flag, ...args.slice(at + 1)] });
    if (tool && commandName(tool) === 'node') return result('flag', { args: [...args.slice(0, at + 1), flag, ...args.slice(at + 1)] });
    // npx itself is a node process; npm's `node-options` reaches what it starts, not npx.
    return result('npm node-options', { args, env: { ...launch.env, npm_config_node_options: appendNodeOptions(launch.env.npm_config_node_options, flag) } });
  }
  if (name === 'npm' || name === 'pnpm' || name === 'yarn') {
    // `npm run x` runs the script through a shell: the flag cannot be placed, and NODE_OPTIONS
    // would stop npm itself; npm's `node-options` config is handed to the script only.
    if (name === 'npm') {
      return result('npm node-options', { args, env: { ...launch.env, npm_config_node_options: appendNodeOptions(launch.env.npm_config_node_options, flag) } });
    }
    return viaNodeOptions();
  }
  const shebang = parseShebang(options.readFirstLine?.(launch.command));
  if (shebang && (NODE_COMMANDS.has(shebang.interpreter) || shebang.interpreter === 'tsx' || shebang.interpreter === 'bun')) {
    // Run the script's interpreter directly so the flag lands in the right process.
    return result('flag', { command: shebang.interpreter, args: [flag, ...shebang.args, launch.command, ...args] });
  }
  if (/\.(c|m)?js$/.test(launch.command)) return result('flag', { command: 'node', args: [flag, launch.command, ...args] });
  return viaNodeOptions();
}

function nodeAttach(options: DebugLaunchOptions, cwd: string | undefined): AttachConfiguration {
  return {
    type: 'pwa-node',
    request: 'attach',
    name: options.name,
    address: DEBUG_HOST,
    port: options.port,
    continueOnAttach: true,
    sourceMaps: options.sourceMaps ?? true,
    ...(options.outFiles ? { outFiles: options.outFiles } : {}),
    ...(cwd ? { cwd } : {}),
    skipFiles: ['<node_internals>/**'],
    ...options.attachOverrides,
  };
}

/** `python -m debugpy --listen host:port --wait-for-client` */
function debugpyArgs(port: number): string[] {
  return ['-m', 'debugpy', '--listen', `${DEBUG_HOST}:${port}`, '--wait-for-client'];
}

/**
 * Python code that runs a console script (an entry point) by name, so `uvx tool` and
 * `uv run tool` can run under debugpy, which only runs files, modules and code.
 */
export function entryPointCode(script: string): string {
  return [
    'import sys',
    'from importlib.metadata import entry_points',
    `eps = [e for e in entry_points(group="console_scripts") if e.name == ${JSON.stringify(script)}]`,
    `sys.exit("No console script named ${script.replace(/["\\]/g, '')} is installed") if not eps else None`,
    `sys.argv[0] = ${JSON.stringify(script)}`,
    'sys.exit(eps[0].load()())',
  ].join('\n');
}

/** debugpy's arguments for "run this target": a .py file, `-m module`, or a console script. */
function debugpyTarget(target: string[], valueFlags = PYTHON_VALUE_FLAGS): { interpreterOptions: string[]; rest: string[] } {
  const at = firstPositional(target, valueFlags);
  let interpreterOptions = target.slice(0, at);
  let rest = target.slice(at);
  // `python -m module` and `python -c code`: debugpy accepts both after its own options.
  const m = interpreterOptions.findIndex((a) => a === '-m' || a === '-c');
  if (m >= 0) {
    rest = [...interpreterOptions.slice(m), ...rest];
    interpreterOptions = interpreterOptions.slice(0, m);
  }
  return { interpreterOptions, rest };
}

function planPython(launch: StdioLaunch, options: DebugLaunchOptions): DebugPlan {
  const name = commandName(launch.command);
  const listen = debugpyArgs(options.port);
  const result = (next: Partial<StdioLaunch>): DebugPlan => ({
    runtime: 'python',
    method: 'debugpy',
    launch: { ...launch, ...next },
    attach: pythonAttach(options, launch.cwd),
  });
  if (PYTHON_COMMAND.test(name)) {
    // Python's own -m/-c options end option parsing, so they are split off for debugpy.
    const split = splitPythonArgs(launch.args);
    if (split.target[0] === '-m' && split.target[1] === 'debugpy') {
      throw new DebugLaunchError("The command already runs debugpy; remove it from the server's arguments.");
    }
    return result({ args: [...split.options, ...listen, ...split.target] });
  }
  if (name === 'uv' || name === 'uvx') {
    const isUvx = name === 'uvx';
    let args = [...launch.args];
    let prefix: string[] = [];
    if (!isUvx) {
      const sub = firstPositional(args, UV_VALUE_FLAGS);
      const verb = args[sub];
      if (verb === 'tool' && args[sub + 1] === 'run') {
        prefix = args.slice(0, sub + 2);
        args = args.slice(sub + 2);
      } else if (verb === 'run') {
        prefix = args.slice(0, sub + 1);
        args = args.slice(sub + 1);
      } else {
        throw new DebugLaunchError(`Only "uv run …" and "uv tool run …" can be debugged, not "uv ${verb ?? ''}".`);
      }
    }
    const at = firstPositional(args, UV_VALUE_FLAGS);
    const uvOptions = args.slice(0, at);
    const tool = args[at];
    const toolArgs = args.slice(at + 1);
    if (!tool) throw new DebugLaunchError(`"${launch.command} ${launch.args.join(' ')}" names no program to run.`);
    const withDebugpy = ['--with', 'debugpy'];
    const toolName = commandName(tool);
    const toolLaunch = (cmd: string[]): DebugPlan => result({ args: [...prefix, ...withDebugpy, ...uvOptions, ...cmd] });
    if (PYTHON_COMMAND.test(toolName)) {
      const split = splitPythonArgs(toolArgs);
      return toolLaunch([tool, ...split.options, ...listen, ...split.target]);
    }
    if (/\.py$/.test(tool)) return toolLaunch(['python', ...listen, tool, ...toolArgs]);
    // A console script: with uvx, the package is the tool name (minus a version) unless --from says otherwise.
    const script = tool.replace(/(@|==|>=|<=|~=).*$/, '').replace(/\[.*\]$/, '');
    const hasFrom = uvOptions.some((o) => o === '--from' || o.startsWith('--from='));
    const from = (isUvx || prefix.includes('tool')) && !hasFrom && script !== tool ? ['--from', tool] : [];
    return result({ args: [...prefix, ...withDebugpy, ...uvOptions, ...from, 'python', ...listen, '-c', entryPointCode(script), ...toolArgs] });
  }
  const shebang = parseShebang(options.readFirstLine?.(launch.command));
  if (shebang && PYTHON_COMMAND.test(shebang.interpreter)) {
    return result({ command: shebang.interpreter, args: [...shebang.args, ...listen, launch.command, ...launch.args] });
  }
  if (/\.py$/.test(launch.command)) return result({ command: 'python', args: [...listen, launch.command, ...launch.args] });
  throw new DebugLaunchError(`Cannot run "${launch.command}" under debugpy: use "python", "uv run" or "uvx" as the command.`);
}

/** Splits `python` arguments into interpreter options and the target (`file …`, `-m mod …`, `-c code …`). */
function splitPythonArgs(args: string[]): { options: string[]; target: string[] } {
  const { interpreterOptions, rest } = debugpyTarget(args);
  return { options: interpreterOptions, target: rest };
}

function pythonAttach(options: DebugLaunchOptions, cwd: string | undefined): AttachConfiguration {
  return {
    type: 'debugpy',
    request: 'attach',
    name: options.name,
    connect: { host: DEBUG_HOST, port: options.port },
    justMyCode: true,
    ...(cwd ? { pathMappings: [{ localRoot: cwd, remoteRoot: cwd }] } : {}),
    ...options.attachOverrides,
  };
}

/** How long a debuggee started for an HTTP server may take before its URL answers (seconds). */
export const DEFAULT_URL_TIMEOUT_S = 60;

/** Is this an `http:`/`https:` URL a debuggee's server can be reached at? */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The part of `fetch` waitForUrl uses (injected in tests). */
export type ProbeFetch = (url: string, init: { method: string; signal: AbortSignal; headers: Record<string, string> }) => Promise<{ status: number }>;

export interface WaitForUrlOptions {
  timeoutMs: number;
  /** Pause between attempts. */
  intervalMs?: number;
  /** Longest a single attempt may take. */
  attemptMs?: number;
  fetch?: ProbeFetch;
  /** A reason to stop waiting (the process exited, the session ended), checked between attempts. */
  abort?: () => string | undefined;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Polls `url` until it answers with any HTTP status (a 400 or 405 to a bare GET still means
 * the server listens) and resolves with that status. Rejects with a DebugLaunchError naming
 * the URL and the timeout, or the abort reason.
 */
export async function waitForUrl(url: string, options: WaitForUrlOptions): Promise<number> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const probe: ProbeFetch = options.fetch ?? ((u, init) => fetch(u, init));
  const interval = options.intervalMs ?? 250;
  const deadline = now() + options.timeoutMs;
  let lastError: string | undefined;
  for (;;) {
    const reason = options.abort?.();
    if (reason) throw new DebugLaunchError(`Stopped waiting for ${url} to answer: ${reason}.`);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), Math.max(1, Math.min(options.attemptMs ?? 2000, deadline - now())));
    try {
      // Aborting after the status line also drops a streamed body (a GET may open an SSE stream).
      const response = await probe(url, { method: 'GET', signal: controller.signal, headers: { accept: 'application/json, text/event-stream' } });
      return response.status;
    } catch (error) {
      lastError = probeErrorText(error);
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
    if (now() >= deadline) {
      const seconds = Math.round(options.timeoutMs / 100) / 10;
      throw new DebugLaunchError(
        `The server did not answer at ${url} within ${seconds} s${lastError ? ` (last attempt: ${lastError})` : ''}. Check "url" (host, port and path) in the launch configuration, or raise "urlTimeout".`,
      );
    }
    await sleep(Math.min(interval, Math.max(0, deadline - now())));
  }
}

function probeErrorText(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'AbortError') return 'no answer';
  return e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(error);
}
