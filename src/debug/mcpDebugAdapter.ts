/**
 * The inline debug adapter of the `mcp` type: a launcher. It starts the server through the
 * registry with the runtime's debugger listening (a launch override, so the tree, tool runs
 * and prompts use the debuggee), starts a child session of VS Code's JavaScript or Python
 * debugger that attaches to it, mirrors the server's protocol trace and stderr to the Debug
 * Console, restarts on `restart` and watched file changes, and restores the normal
 * connection when the session ends.
 *
 * A server that serves HTTP (an inline configuration with `url`, or a configured `http`/`sse`
 * server given a `command`) is started by the adapter itself: the process runs under the
 * debugger, the child session attaches (the process waits for it), then the URL is polled
 * until it answers and the connection goes there over HTTP. The process's output goes to the
 * Debug Console and the server's log; stopping kills the process.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  DEFAULT_URL_TIMEOUT_S, DebugLaunchError, normalizeWatch, planDebugLaunch, splitWatchGlob, Throttle, waitForUrl, type DebugPlan, type RuntimeSetting,
} from './common/debugLaunch';
import type { HttpLaunch, Launch, ServerDefinition, StdioLaunch } from '../config/common/launchDefinition';
import { redactText } from '../shared/common/redact';
import { DEFAULT_TIMEOUTS, type TimeoutSettings } from '../config/common/serverConfig';
import { formatTrace } from '../mcp/trace';
import { resolveCommand } from '../mcp/process/commandResolution';
import { DebuggeeProcess, type ProcessExit } from './common/debuggeeProcess';
import type { McpServerConnection } from '../mcp/connection/serverConnection';
import type { Workbench } from '../workbench';
import type { McpDebugConfiguration } from './debugConfigurationProvider';

/** Timeouts while under the debugger: a debuggee paused at a breakpoint answers late. */
const DEBUG_TIMEOUTS = { connect: 300, request: 3600, maxTotal: 0 };
const WATCH_DELAY_MS = 400;
/** Marks the child session's configuration so the adapter finds its own child. */
const CHILD_MARKER = '__mcpWorkbenchParent';
export const PYTHON_DEBUGGER_EXTENSION = 'ms-python.debugpy';

/** A server the adapter starts itself and reaches over HTTP. */
interface HttpTarget {
  /** What the connection uses meanwhile. */
  launch: HttpLaunch;
  /** The command that starts the server (before the debugger's rewriting). */
  process: StdioLaunch;
  /** Whether the configured connection runs again afterwards (it ran before the session). */
  restoreRunning: boolean;
}

interface DapMessage {
  seq: number;
  type: 'request' | 'response' | 'event';
  command?: string;
  arguments?: Record<string, unknown>;
}

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export class McpDebugAdapter implements vscode.DebugAdapter {
  private readonly messageEmitter = new vscode.EventEmitter<vscode.DebugProtocolMessage>();
  readonly onDidSendMessage = this.messageEmitter.event;
  private seq = 1;
  private connection: McpServerConnection | undefined;
  private transientId: string | undefined;
  private child: vscode.DebugSession | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly watchers: vscode.Disposable[] = [];
  private throttle: Throttle | undefined;
  private relaunching = false;
  private ended = false;
  private launchCount = 0;
  private http: HttpTarget | undefined;
  private process: DebuggeeProcess | undefined;
  /** True while a start runs: its own errors report a process that exits early. */
  private starting = false;

  constructor(private readonly session: vscode.DebugSession, private readonly workbench: Workbench) {}

  handleMessage(message: vscode.DebugProtocolMessage): void {
    const request = message as DapMessage;
    if (request.type !== 'request') return;
    void this.dispatch(request);
  }

  private async dispatch(request: DapMessage): Promise<void> {
    try {
      switch (request.command) {
        case 'initialize':
          this.respond(request, {
            supportsConfigurationDoneRequest: false,
            supportsTerminateRequest: true,
            supportsRestartRequest: true,
          });
          // No `initialized` event: this session has no breakpoints of its own (the child has).
          break;
        case 'launch':
          await this.launch(request.arguments as unknown as McpDebugConfiguration);
          this.respond(request);
          break;
        case 'restart':
          await this.relaunch('restart');
          this.respond(request);
          break;
        case 'terminate':
          await this.end();
          this.respond(request);
          // VS Code waits for this before it sends `disconnect` and ends the session.
          this.event('terminated');
          break;
        case 'disconnect':
          await this.end();
          this.respond(request);
          break;
        case 'threads':
          this.respond(request, { threads: [] });
          break;
        default:
          this.respond(request);
      }
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      this.respondError(request, text);
      if (request.command === 'launch' || request.command === 'restart') await this.end();
    }
  }

  private async launch(config: McpDebugConfiguration): Promise<void> {
    const registry = this.workbench.registry;
    let def: ServerDefinition;
    if (config.server !== undefined) {
      const connection = registry.find(config.server);
      if (!connection) throw new Error(vscode.l10n.t('There is no MCP server "{0}" in the configuration.', config.server));
      this.connection = connection;
      def = connection.definition;
      if (def.launch.type !== 'stdio') {
        if (!config.command) throw new Error(vscode.l10n.t('MCP server "{0}" is a remote ({1}) server: add "command" (and "args") that start it, and it is debugged at its url.', config.server, def.launch.type));
        this.http = {
          launch: { ...def.launch, url: config.url ?? def.launch.url },
          process: processLaunch(config, this.session),
          restoreRunning: connection.state.kind === 'running',
        };
      }
    } else {
      def = inlineDefinition(config, this.session);
      if (def.launch.type !== 'stdio') this.http = { launch: def.launch, process: processLaunch(config, this.session), restoreRunning: false };
      this.transientId = def.id;
      this.connection = registry.addTransient(def);
    }
    const connection = this.connection;
    this.subscriptions.push(
      this.workbench.onTrace(({ server, record }) => {
        if (server.id === def.id) this.output('console', formatTrace(server.label, record, 'messages', this.workbench.secretsOf(server)) + '\n');
      }),
      toVscode(connection.onDidWriteStderr((line) => this.output('stderr', line + '\n'))),
      toVscode(connection.onDidChangeState((state) => {
        if (state.kind === 'error' && !this.relaunching && !this.ended) {
          this.output('stderr', `${redactText(state.message, this.workbench.secretsOf(def))}\n`);
          void this.end().then(() => this.event('terminated'));
        }
      })),
    );
    await this.start(config, def);
    this.startWatching(config, def);
  }

  /** Starts the debuggee and the child session that attaches to it. */
  private async start(config: McpDebugConfiguration, def: ServerDefinition): Promise<void> {
    this.starting = true;
    try {
      await this.startOnce(config, def);
    } finally {
      this.starting = false;
    }
  }

  private async startOnce(config: McpDebugConfiguration, def: ServerDefinition): Promise<void> {
    const base = this.http?.process ?? (def.launch as StdioLaunch);
    const port = await freePort();
    const runtime: RuntimeSetting = config.runtime ?? devRuntime(def) ?? 'auto';
    let plan: DebugPlan;
    try {
      plan = planDebugLaunch(base, {
        runtime,
        port,
        name: `${def.label} (${++this.launchCount > 1 ? `run ${this.launchCount}` : 'debuggee'})`,
        readFirstLine: (command) => readFirstLine(command, base.cwd),
        sourceMaps: config.sourceMaps,
        outFiles: config.outFiles,
      });
    } catch (error) {
      if (error instanceof DebugLaunchError) throw new Error(error.message);
      throw error;
    }
    if (plan.runtime === 'python' && !vscode.extensions.getExtension(PYTHON_DEBUGGER_EXTENSION)) {
      throw new Error(vscode.l10n.t('Debugging the Python MCP server "{0}" needs the Python Debugger extension ({1}). Install it and start debugging again.', def.label, PYTHON_DEBUGGER_EXTENSION));
    }
    this.output('console', `Starting ${plan.launch.command} ${plan.launch.args.join(' ')} with the ${plan.runtime === 'node' ? 'Node.js inspector' : 'debugpy'} on ${String(plan.attach.port ?? port)} (${plan.method}).\n`);
    const connection = this.connection!;
    const timeouts = { ...DEBUG_TIMEOUTS, resetOnProgress: DEFAULT_TIMEOUTS.resetOnProgress };
    if (this.http) {
      await this.startHttp(config, def, plan, port, this.http, timeouts);
      return;
    }
    const started = this.workbench.registry.overrideLaunch(connection.definition.id, { launch: plan.launch, timeouts });
    await this.attach(plan, port);
    await started;
    this.checkRunning(def);
  }

  /**
   * An HTTP server: start its process under the debugger, attach (the runtime waits for the
   * debugger before running any code), wait for the URL to answer, then connect over HTTP.
   */
  private async startHttp(config: McpDebugConfiguration, def: ServerDefinition, plan: DebugPlan, port: number, http: HttpTarget, timeouts: Partial<TimeoutSettings>): Promise<void> {
    const proc = await DebuggeeProcess.start(plan.launch, await this.workbench.baseEnv(), def.label);
    this.process = proc;
    const log = this.workbench.outputs.logFor(def);
    proc.onLine(({ stream, line }) => {
      const text = redactText(line, this.workbench.secretsOf(def));
      log.stderr(text);
      this.output(stream, text + '\n');
    });
    void proc.exit.then((exit) => {
      // Exits during a start are reported by the start; a stop or restart ends the process itself.
      if (this.process !== proc || this.ended || this.relaunching || this.starting) return;
      this.output('stderr', `The server process exited (${describeExit(exit)}).\n`);
      void this.end().then(() => this.event('terminated'));
    });
    await this.attach(plan, port);
    const url = http.launch.url;
    const seconds = config.urlTimeout ?? DEFAULT_URL_TIMEOUT_S;
    this.output('console', `Waiting up to ${seconds} s for ${url} to answer…\n`);
    try {
      await waitForUrl(url, {
        timeoutMs: seconds * 1000,
        abort: () => {
          if (this.ended) return 'the debug session ended';
          const exit = proc.exited;
          return exit && `the server process exited (${describeExit(exit)})${proc.tail.length ? `. Last output:\n${proc.tail.join('\n')}` : ''}`;
        },
      });
    } catch (error) {
      throw new Error(error instanceof DebugLaunchError ? error.message : String(error));
    }
    await this.workbench.registry.overrideLaunch(this.connection!.definition.id, { launch: http.launch, timeouts });
    this.checkRunning(def);
  }

  private checkRunning(def: ServerDefinition): void {
    const connection = this.connection!;
    if (connection.state.kind !== 'running') {
      const state = connection.state;
      throw new Error(state.kind === 'error' ? state.message : vscode.l10n.t('The server did not start ({0}).', state.kind));
    }
    this.output('console', `MCP server "${def.label}" runs under the debugger${this.http ? ` (connected to ${this.http.launch.url})` : ''}.\n`);
  }

  /** Starts the child session of the runtime's debugger that attaches to the debuggee. */
  private async attach(plan: DebugPlan, port: number): Promise<void> {
    const childStarted = new Promise<vscode.DebugSession | undefined>((resolve) => {
      const sub = vscode.debug.onDidStartDebugSession((s) => {
        if (s.configuration[CHILD_MARKER] === this.session.id && s.configuration.port === plan.attach.port && s.configuration.name === plan.attach.name) {
          sub.dispose();
          resolve(s);
        }
      });
      setTimeout(() => {
        sub.dispose();
        resolve(undefined);
      }, 30000);
    });
    const ok = await vscode.debug.startDebugging(this.session.workspaceFolder, { ...plan.attach, [CHILD_MARKER]: this.session.id, port: plan.attach.port ?? port }, {
      parentSession: this.session,
      lifecycleManagedByParent: true,
      compact: true,
      consoleMode: vscode.DebugConsoleMode.MergeWithParent,
    });
    if (!ok) throw new Error(vscode.l10n.t('The {0} debugger did not start.', plan.attach.type));
    this.child = await childStarted;
  }

  /** Restart (toolbar or watch): a new debuggee and a new child session; breakpoints are VS Code's, so they stay. */
  private async relaunch(reason: string): Promise<void> {
    if (this.ended || !this.connection) return;
    this.relaunching = true;
    try {
      this.output('console', `Restarting (${reason})…\n`);
      await this.stopChild();
      if (this.http) {
        // End the HTTP session while the server still answers, then the process.
        await this.connection.stop();
        await this.stopProcess();
      }
      const config = this.session.configuration as McpDebugConfiguration;
      await this.start(config, this.connection.definition);
    } finally {
      this.relaunching = false;
    }
  }

  private startWatching(config: McpDebugConfiguration, def: ServerDefinition): void {
    const globs = config.watch !== undefined ? normalizeWatch(config.watch) : normalizeWatch(def.entry?.dev?.watch);
    if (!globs.length) return;
    const folder = this.session.workspaceFolder?.uri.fsPath ?? (def.source.file ? path.dirname(path.dirname(def.source.file)) : undefined);
    const cwd = (this.http?.process ?? (def.launch as StdioLaunch)).cwd ?? folder ?? process.cwd();
    this.throttle = new Throttle(() => this.relaunch('files changed'), WATCH_DELAY_MS, (error) => {
      if (!this.ended) this.output('stderr', `Restarting after the change failed: ${error instanceof Error ? error.message : String(error)}\n`);
    });
    for (const glob of globs) {
      const { base, pattern } = splitWatchGlob(glob, cwd, { workspaceFolder: folder, cwd });
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(base), pattern));
      const fire = () => this.throttle?.trigger();
      this.watchers.push(watcher, watcher.onDidChange(fire), watcher.onDidCreate(fire), watcher.onDidDelete(fire));
    }
    this.output('console', `Watching ${globs.join(', ')}: a change restarts the server.\n`);
  }

  private async stopChild(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child) return;
    // Not stopDebugging(child): with lifecycleManagedByParent that would stop this session.
    await Promise.resolve(child.customRequest('disconnect', { restart: false, terminateDebuggee: false })).catch(() => undefined);
  }

  private async stopProcess(): Promise<void> {
    const proc = this.process;
    this.process = undefined;
    await proc?.kill();
  }

  /** Ends everything once: watchers, the child session, the process, the override (or the inline server). */
  private async end(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    this.throttle?.dispose();
    this.watchers.splice(0).forEach((w) => w.dispose());
    this.subscriptions.splice(0).forEach((s) => s.dispose());
    await this.stopChild();
    if (this.http) {
      await this.connection?.stop();
      await this.stopProcess();
    }
    const registry = this.workbench.registry;
    if (this.transientId) {
      await registry.removeTransient(this.transientId);
    } else if (this.connection) {
      await registry.overrideLaunch(this.connection.definition.id, undefined, this.http ? { restoreRunning: this.http.restoreRunning } : {});
    }
  }

  private respond(request: DapMessage, body?: unknown): void {
    this.messageEmitter.fire({ seq: this.seq++, type: 'response', request_seq: request.seq, success: true, command: request.command, body } as vscode.DebugProtocolMessage);
  }

  private respondError(request: DapMessage, message: string): void {
    this.messageEmitter.fire({
      seq: this.seq++, type: 'response', request_seq: request.seq, success: false, command: request.command, message,
      body: { error: { id: 1, format: message, showUser: true } },
    } as vscode.DebugProtocolMessage);
  }

  private event(event: string, body?: unknown): void {
    this.messageEmitter.fire({ seq: this.seq++, type: 'event', event, body } as vscode.DebugProtocolMessage);
  }

  /** Everything the Debug Console shows is redacted, like the server log (URLs, commands and errors carry secrets). */
  private output(category: 'console' | 'stdout' | 'stderr', output: string): void {
    const def = this.connection?.definition;
    this.event('output', { category, output: def ? redactText(output, this.workbench.secretsOf(def)) : output });
  }

  dispose(): void {
    void this.end();
    this.messageEmitter.dispose();
  }
}

function toVscode(d: { dispose(): void }): vscode.Disposable {
  return new vscode.Disposable(() => d.dispose());
}

function devRuntime(def: ServerDefinition): RuntimeSetting | undefined {
  const type = def.entry?.dev?.debug?.type;
  return type === 'node' ? 'node' : type === 'debugpy' ? 'python' : undefined;
}

function describeExit(exit: ProcessExit): string {
  if (exit.error) return exit.error;
  return exit.signal ? `signal ${exit.signal}` : `code ${String(exit.code)}`;
}

/** The command of a launch configuration (`command`, `args`, `env`, `envFile`, `cwd`). */
function processLaunch(config: McpDebugConfiguration, session: vscode.DebugSession): StdioLaunch {
  const folder = session.workspaceFolder?.uri.fsPath;
  const cwd = config.cwd ? path.resolve(folder ?? process.cwd(), config.cwd) : folder;
  return {
    type: 'stdio',
    command: config.command!,
    args: config.args ?? [],
    env: config.env ?? {},
    cwd,
    ...(config.envFile ? { envFile: path.resolve(cwd ?? process.cwd(), config.envFile) } : {}),
  };
}

/** The definition of a server written inline in the launch configuration (not in mcp.json). */
function inlineDefinition(config: McpDebugConfiguration, session: vscode.DebugSession): ServerDefinition {
  const dev = config.watch ? { dev: { watch: normalizeWatch(config.watch) } } : {};
  const launch: Launch = config.url ? { type: 'http', url: config.url, headers: {} } : processLaunch(config, session);
  return {
    id: `debug::${session.id}`,
    name: config.name,
    label: config.name,
    source: { scope: 'user', label: 'launch configuration', folder: session.workspaceFolder?.name },
    disabled: false,
    timeouts: { ...DEFAULT_TIMEOUTS },
    launch,
    secrets: [],
    entry: config.url
      ? { type: 'http', url: config.url, ...dev }
      : { type: 'stdio', command: config.command, args: config.args, ...dev },
  };
}

/** First line of the file a command names (for shebangs), looked up like the server's own start. */
function readFirstLine(command: string, cwd: string | undefined): string | undefined {
  try {
    const found = resolveCommand(command, { pathValue: process.env.PATH ?? '', pathExt: process.env.PATHEXT, cwd });
    const file = found.resolved;
    if (!file) return undefined;
    const fd = fs.openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(256);
      const n = fs.readSync(fd, buffer, 0, buffer.length, 0);
      return buffer.subarray(0, n).toString('utf8').split(/\r?\n/)[0];
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
}
