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
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DEFAULT_URL_TIMEOUT_S, DebugLaunchError, planDebugLaunch, waitForUrl, type DebugPlan, type RuntimeSetting } from './common/debugLaunch';
import { DEV_RESTART_MARKER, displayPath, normalizeWatch, Throttle, WATCH_DELAY_MS, watchRoots, watchTargets } from './common/devWatch';
import type { HttpLaunch, ServerDefinition, StdioLaunch } from '../config/common/launchDefinition';
import { redactText } from '../shared/common/redact';
import { showErrorMessage } from '../shared/notifications';
import { oneLine } from '../servers/common/failureText';
import { DEFAULT_TIMEOUTS, type TimeoutSettings } from '../config/common/serverConfig';
import { formatTrace } from '../mcp/trace';
import { DebuggeeProcess, type ProcessExit } from './common/debuggeeProcess';
import { lookingAgainMessage, withFreshPathOnMissingCommand } from '../mcp/process/stdioSpawn';
import { freePort, inlineDefinition, processLaunch, readFirstLine } from './debuggeeLaunch';
import type { McpServerConnection } from '../mcp/connection/serverConnection';
import type { Workbench } from '../workbench';
import type { McpDebugConfiguration } from './debugConfigurationProvider';
import { watchDevFiles } from './devFileWatch';
import { errorMessage } from '../shared/common/errors';
import { attachChildSession } from './childSession';

/** Timeouts while under the debugger: a debuggee paused at a breakpoint answers late. */
const DEBUG_TIMEOUTS = { connect: 300, request: 3600, maxTotal: 0 };
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

export class McpDebugAdapter implements vscode.DebugAdapter {
  private readonly messageEmitter = new vscode.EventEmitter<vscode.DebugProtocolMessage>();
  readonly onDidSendMessage = this.messageEmitter.event;
  private seq = 1;
  private connection: McpServerConnection | undefined;
  private transientId: string | undefined;
  private child: vscode.DebugSession | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly watchers: vscode.Disposable[] = [];
  private throttle: Throttle<string> | undefined;
  private relaunching = false;
  private ended = false;
  private launchCount = 0;
  private http: HttpTarget | undefined;
  private process: DebuggeeProcess | undefined;
  /** True while a start runs: its own errors report a process that exits early. */
  private starting = false;

  constructor(
    private readonly session: vscode.DebugSession,
    private readonly workbench: Workbench,
  ) {}

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
      const text = errorMessage(error);
      if (this.session.configuration[DEV_RESTART_MARKER] !== undefined && request.command === 'launch') {
        // A dev-loop restart: the usual one-line notification instead of VS Code's modal dialog.
        this.respondError(request, text, false);
        this.reportDevFailure(text);
      } else {
        this.respondError(request, text);
      }
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
        if (!config.command)
          throw new Error(
            vscode.l10n.t(
              'MCP server "{0}" is a remote ({1}) server: add "command" (and "args") that start it, and it is debugged at its url.',
              config.server,
              def.launch.type,
            ),
          );
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
      toVscode(
        connection.onDidChangeState((state) => {
          if (state.kind === 'error' && !this.relaunching && !this.ended) {
            this.output('stderr', `${redactText(state.message, this.workbench.secretsOf(def))}\n`);
            void this.end().then(() => this.event('terminated'));
          }
        }),
      ),
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
      if (error instanceof DebugLaunchError) throw new Error(error.message, { cause: error });
      throw error;
    }
    if (plan.runtime === 'python' && !vscode.extensions.getExtension(PYTHON_DEBUGGER_EXTENSION)) {
      throw new Error(
        vscode.l10n.t(
          'Debugging the Python MCP server "{0}" needs the Python Debugger extension ({1}). Install it and start debugging again.',
          def.label,
          PYTHON_DEBUGGER_EXTENSION,
        ),
      );
    }
    this.output(
      'console',
      `Starting ${plan.launch.command} ${plan.launch.args.join(' ')} with the ${plan.runtime === 'node' ? 'Node.js inspector' : 'debugpy'} on ${String(plan.attach.port ?? port)} (${plan.method}).\n`,
    );
    const connection = this.connection!;
    const timeouts = { ...DEBUG_TIMEOUTS, resetOnProgress: DEFAULT_TIMEOUTS.resetOnProgress };
    if (this.http) {
      await this.startHttp(config, def, plan, port, this.http, timeouts);
      return;
    }
    const started = this.workbench.registry.overrideLaunch(connection.definition.id, { launch: plan.launch, timeouts });
    // If attaching fails, ending the session restores the launch; this start is abandoned.
    started.catch(() => undefined);
    await this.attach(plan, port);
    await started;
    this.checkRunning(def);
  }

  /**
   * An HTTP server: start its process under the debugger, attach (the runtime waits for the
   * debugger before running any code), wait for the URL to answer, then connect over HTTP.
   */
  private async startHttp(
    config: McpDebugConfiguration,
    def: ServerDefinition,
    plan: DebugPlan,
    port: number,
    http: HttpTarget,
    timeouts: Partial<TimeoutSettings>,
  ): Promise<void> {
    const proc = await withFreshPathOnMissingCommand(
      (options) => this.workbench.baseEnv(options),
      (env) => DebuggeeProcess.start(plan.launch, env, def.label),
      () => this.output('console', `${lookingAgainMessage(plan.launch.command)}\n`),
    );
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
      throw new Error(error instanceof DebugLaunchError ? error.message : String(error), { cause: error });
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
    this.child = await attachChildSession(
      this.session,
      plan,
      port,
      () => this.connection?.definition.label ?? '',
      (s) => {
        if (!this.child && !this.ended) this.child = s;
      },
    );
  }

  /** Restart (toolbar or watch): a new debuggee and a new child session; breakpoints are VS Code's, so they stay. */
  private async relaunch(reason: string): Promise<boolean> {
    if (this.ended || !this.connection) return false;
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
      return !this.ended;
    } finally {
      this.relaunching = false;
    }
  }

  /** A restart for a changed watched file: the tree says which, and the dev loop hears when it runs again. */
  private async relaunchForChange(file: string, shown: string): Promise<void> {
    const def = this.connection?.definition;
    if (!def) return;
    this.workbench.outputs.logFor(def).log('info', `${shown} changed: restarting the server under the debugger.`);
    this.workbench.setDevRestarting(def.id, shown);
    try {
      if ((await this.relaunch(`file changed: ${shown}`)) && this.connection?.state.kind === 'running') this.workbench.fireDevRestart(def, file);
    } finally {
      this.workbench.setDevRestarting(def.id, undefined);
    }
  }

  private startWatching(config: McpDebugConfiguration, def: ServerDefinition): void {
    const globs = config.watch !== undefined ? normalizeWatch(config.watch) : normalizeWatch(def.entry?.dev?.watch);
    if (!globs.length) return;
    const roots = watchRoots({
      cwd: (this.http?.process ?? (def.launch as StdioLaunch)).cwd,
      workspaceFolder: this.session.workspaceFolder?.uri.fsPath ?? (def.source.file ? path.dirname(path.dirname(def.source.file)) : undefined),
      fallback: process.cwd(),
    });
    this.throttle = new Throttle<string>(
      (file) => this.relaunchForChange(file, displayPath(file, [roots.cwd, roots.workspaceFolder])),
      WATCH_DELAY_MS,
      (error) => {
        if (!this.ended) this.output('stderr', `Restarting after the change failed: ${errorMessage(error)}\n`);
      },
    );
    this.watchers.push(...watchDevFiles(watchTargets(globs, roots), (file) => this.throttle?.trigger(file)));
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
    this.messageEmitter.fire({
      seq: this.seq++,
      type: 'response',
      request_seq: request.seq,
      success: true,
      command: request.command,
      body,
    } as vscode.DebugProtocolMessage);
  }

  private respondError(request: DapMessage, message: string, showUser = true): void {
    this.messageEmitter.fire({
      seq: this.seq++,
      type: 'response',
      request_seq: request.seq,
      success: false,
      command: request.command,
      message,
      body: { error: { id: 1, format: message, showUser } },
    } as vscode.DebugProtocolMessage);
  }

  private reportDevFailure(message: string): void {
    const def = this.connection?.definition;
    if (!def) return;
    const text = redactText(message, this.workbench.secretsOf(def));
    this.workbench.outputs.logFor(def).log('error', `Restarting under the debugger failed: ${text}`);
    const show = vscode.l10n.t('Show Log');
    void showErrorMessage(`MCP ${def.label}: ${oneLine(text)}`, show).then((answer) => {
      if (answer === show) this.workbench.outputs.show(def);
    });
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
