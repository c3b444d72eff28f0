/**
 * Finds the executable a stdio server's `command` names, the way the OS will when it is
 * spawned, so a failed start can say exactly what was searched. No `vscode` import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFile } from 'node:child_process';

export interface ResolveOptions {
  /** The PATH the child will be spawned with. */
  pathValue: string;
  /** Windows PATHEXT; ignored elsewhere. */
  pathExt?: string;
  platform?: NodeJS.Platform;
  /** Directory relative commands (`./server.js`) are resolved against. */
  cwd?: string;
  isExecutableFile?: (file: string) => boolean;
}

export interface ResolvedCommand {
  /** Absolute path of the executable, if found. */
  resolved?: string;
  /** The directories searched, in order (empty for a command given as a path). */
  searched: string[];
  /** On Windows, `.cmd`/`.bat` shims must run through `cmd /c`. */
  needsShell: boolean;
}

export function resolveCommand(command: string, options: ResolveOptions): ResolvedCommand {
  const platform = options.platform ?? process.platform;
  const p = platform === 'win32' ? path.win32 : path.posix;
  const isFile = options.isExecutableFile ?? ((f: string) => defaultIsExecutable(f, platform));
  const extensions =
    platform === 'win32'
      ? [
          '',
          ...(options.pathExt ?? '.COM;.EXE;.BAT;.CMD')
            .split(';')
            .filter(Boolean)
            .map((e) => e.toLowerCase()),
        ]
      : [''];
  const withExtensions = (base: string): string | undefined => {
    const hasExt = platform === 'win32' && p.extname(base) !== '';
    for (const ext of hasExt ? [''] : extensions) {
      const candidate = base + ext;
      if (platform === 'win32' && ext === '' && !hasExt) continue; // bare names need an extension on Windows
      if (isFile(candidate)) return candidate;
    }
    return undefined;
  };
  const finish = (resolved: string | undefined, searched: string[]): ResolvedCommand => ({
    resolved,
    searched,
    needsShell: platform === 'win32' && !!resolved && /\.(cmd|bat)$/i.test(resolved),
  });

  if (command.includes('/') || (platform === 'win32' && command.includes('\\'))) {
    const absolute = p.isAbsolute(command) ? command : p.resolve(options.cwd ?? process.cwd(), command);
    return finish(withExtensions(absolute), []);
  }
  const dirs = options.pathValue.split(platform === 'win32' ? ';' : ':').filter(Boolean);
  for (const dir of dirs) {
    const found = withExtensions(p.join(dir, command));
    if (found) return finish(found, dirs);
  }
  return finish(undefined, dirs);
}

function defaultIsExecutable(file: string, platform: NodeJS.Platform): boolean {
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) return false;
    if (platform === 'win32') return true;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** cmd.exe's metacharacters (https://qntm.org/cmd): each is escaped with ^. */
const CMD_META = /[()\][%!^"`<>&|;, *?]/g;

/**
 * One argument of a batch file started as `cmd /d /s /c "…"`: quoted for the C runtime's argv
 * rules (backslashes before a quote doubled), then every cmd.exe metacharacter escaped with ^,
 * twice: cmd.exe parses the command line, and the batch file (npx.cmd, npm.cmd…) parses its
 * `%*` again, so `&`, `|`, `<`, `>` and quotes must survive both without starting a command.
 */
export function quoteCmdArgument(arg: string): string {
  return `"${quoteForArgv(arg)}"`.replace(CMD_META, '^$&').replace(CMD_META, '^$&');
}

/**
 * The inside of a quoted C-runtime argument: a run of backslashes is doubled when a quote (which
 * gets one more backslash) or the closing quote follows it. A loop, not a regex, since a
 * config's argument can be a long run of backslashes (no backtracking).
 */
function quoteForArgv(arg: string): string {
  let out = '';
  let slashes = 0;
  for (const c of arg) {
    if (c === '\\') {
      slashes++;
      continue;
    }
    out += c === '"' ? `${'\\'.repeat(slashes * 2 + 1)}"` : `${'\\'.repeat(slashes)}${c}`;
    slashes = 0;
  }
  return out + '\\'.repeat(slashes * 2);
}

/**
 * The command line `cmd /d /s /c` runs: the batch file's path in quotes (a path holds no quote),
 * then the arguments, all in the outer quotes that `/s` removes. Spawn it verbatim
 * (windowsVerbatimArguments), or Node.js quotes it again. A line break cannot be passed through
 * cmd.exe at all.
 */
export function cmdCommandLine(batchFile: string, args: readonly string[]): string {
  const broken = args.find((a) => /[\r\n\0]/.test(a));
  if (broken !== undefined) throw new Error(`the argument ${JSON.stringify(broken)} contains a line break, which cmd.exe cannot pass to ${batchFile}`);
  return `"${[`"${batchFile}"`, ...args.map(quoteCmdArgument)].join(' ')}"`;
}

/** What to install for the commands MCP servers are usually started with. */
const INSTALLS: Record<string, string> = {
  npx: 'Node.js',
  npm: 'Node.js',
  node: 'Node.js',
  uvx: 'uv',
  uv: 'uv',
  python: 'Python',
  python3: 'Python',
  py: 'Python',
  pipx: 'pipx',
  docker: 'Docker',
  podman: 'Podman',
  bun: 'Bun',
  bunx: 'Bun',
  deno: 'Deno',
  pnpm: 'pnpm',
  pnpx: 'pnpm',
  yarn: 'Yarn',
  dotnet: 'the .NET SDK',
  java: 'a Java runtime',
  go: 'Go',
  cargo: 'Rust',
};

/**
 * One line for a command that was not found: what and what to do. The directories searched
 * are for the details (`describeSearchedPath`), never for the line a notification shows.
 */
export function describeMissingCommand(command: string, result: ResolvedCommand): string {
  if (result.searched.length === 0) {
    return `"${command}" does not exist or is not executable. Fix "command" (a relative path starts from "cwd").`;
  }
  const name = path
    .basename(command)
    .replace(/\.(exe|cmd|bat)$/i, '')
    .toLowerCase();
  const install = INSTALLS[name] ? `Install ${INSTALLS[name]}` : `Install ${command}`;
  return `"${command}" not found on PATH. ${install} or set "command" to its full path.`;
}

/** The details of a command not found: the directories searched, one a line. */
export function describeSearchedPath(command: string, result: ResolvedCommand): string {
  if (result.searched.length === 0) return `command: ${command}`;
  return [
    `command: ${command}`,
    `PATH searched (${result.searched.length} ${result.searched.length === 1 ? 'directory' : 'directories'}):`,
    ...result.searched.map((d) => `  ${d}`),
  ].join('\n');
}

/**
 * Reads PATH from the user's login shell (macOS/Linux). GUI-launched editors often miss
 * what nvm, fnm, asdf, mise or Homebrew add in shell profiles, so `npx` is "not found".
 */
export function readLoginShellPath(shell = process.env.SHELL, timeoutMs = 5000): Promise<string | undefined> {
  if (process.platform === 'win32' || !shell) return Promise.resolve(undefined);
  const marker = '__MCP_WORKBENCH_PATH__';
  return new Promise((resolve) => {
    // Braces matter: `$PATH__MARKER` would read a variable named PATH__MARKER.
    execFile(shell, ['-ilc', `printf '%s' "${marker}\${PATH}${marker}"`], { timeout: timeoutMs, env: process.env }, (error, stdout) => {
      if (error) return resolve(undefined);
      const m = new RegExp(`${marker}(.*)${marker}`).exec(stdout);
      resolve(m ? m[1] : undefined);
    });
  });
}

/**
 * The login shell's PATH in its own order (what the user's terminal runs), then host
 * entries it lacks. Returns the host PATH untouched when the shell adds nothing new.
 */
export function mergePaths(hostPath: string, shellPath: string | undefined): string {
  if (!shellPath) return hostPath;
  const host = hostPath.split(path.delimiter).filter(Boolean);
  const shell = shellPath.split(path.delimiter).filter(Boolean);
  if (shell.every((d) => host.includes(d))) return hostPath;
  return [...shell, ...host.filter((d) => !shell.includes(d))].join(path.delimiter);
}
