/**
 * All configured servers and their connections. Applies a new set of definitions as a diff:
 * added servers start, removed ones stop, changed ones restart, the rest are left alone.
 * No `vscode` import: policy (trust, inputs) comes in through `RegistryPolicy`. Definitions are
 * pushed in (`apply`) by the config service (src/configService/configService.ts), which owns
 * them: the registry never asks for them.
 */
import { Emitter, type Disposable } from '../shared/common/emitter';
import { diffDefinitions, type ServerDefinition } from '../config/common/launchDefinition';
import { McpServerConnection } from './connection/serverConnection';
import type { ConnectionHost, LaunchOverride, ServerLog } from './connection/connectionTypes';
import { CrashRestarts, DEFAULT_CRASH_RESTARTS, describeDuration, realClock, type RestartClock } from './crashRestarts';

export interface RegistryPolicy {
  /** Start servers when they appear (on activation and when added to config). */
  autoStart(): boolean;
  /** Why a server must not start now (e.g. untrusted workspace), or undefined. */
  blockedReason(def: ServerDefinition): string | undefined;
  /**
   * Asks the user for the inputs a definition still misses. Resolves true when values were
   * stored: whoever owns the definitions then applies them again, resolved with those values,
   * which starts the completed one as changed.
   */
  collectInputs(def: ServerDefinition): Promise<boolean>;
  /** Shows a failure of work nobody awaits (an automatic restart). */
  reportError(error: unknown): void;
  /** Start a crashed server again (with backoff). Default: yes. */
  autoRestart?(): boolean;
  /**
   * Why a server is not started on its own (auto-start), though the user may start it (e.g.
   * another host runs it), or undefined. Shown as its stopped reason.
   */
  heldBackReason?(def: ServerDefinition): string | undefined;
}

export class ServerRegistry {
  private readonly connections = new Map<string, McpServerConnection>();
  /** Servers the user (or auto-start) wants running; restarts follow config changes only for these. */
  private readonly wanted = new Set<string>();
  private readonly subscriptions = new Map<string, { dispose(): void }[]>();
  /** Servers added at run time (e.g. an inline debug configuration), not from config: reloads leave them alone. */
  private readonly transient = new Set<string>();

  private readonly onDidChangeEmitter = new Emitter<void>();
  /** Fires when servers are added/removed or any server changes state. */
  readonly onDidChange = this.onDidChangeEmitter.event;
  private readonly onDidAddEmitter = new Emitter<McpServerConnection>();
  readonly onDidAddConnection = this.onDidAddEmitter.event;
  private readonly onDidApplyEmitter = new Emitter<void>();
  /** Fires after each reload of config was applied, also when only fields outside the launch (labels, `dev`) changed. */
  readonly onDidApply = this.onDidApplyEmitter.event;
  private readonly onDidRemoveEmitter = new Emitter<McpServerConnection>();
  /** Fires when a connection leaves the registry (removed from config, transient removed, registry disposed). */
  readonly onDidRemoveConnection = this.onDidRemoveEmitter.event;

  /**
   * Config changes are applied in order, each once the one before was applied (`applied`), but
   * not after the servers it started have finished starting: a server slow to start (an `npx -y`
   * download, one that never answers `initialize` until its connect timeout) must not hold back
   * the next change of config. `stopped` is when the stops applied so far are done (applyHeldBack
   * reads whether a server is stopped, which one whose stop is under way is not yet), and
   * `settled` when everything applied so far has finished.
   */
  private applied: Promise<void> = Promise.resolve();
  private stopped: Promise<void> = Promise.resolve();
  private settled: Promise<void> = Promise.resolve();
  /** Crash history per server, for the backoff of automatic restarts. */
  private readonly crashes = new Map<string, CrashRestarts>();
  /** The held-back reason a server shows, so that only that reason is cleared when it no longer applies. */
  private readonly heldBackShown = new Map<string, string>();
  /**
   * Servers applyHeldBack stopped because they were held back. Remembered apart from the reason
   * shown: when what is held back flips back while the stop is still under way (the user chose
   * "VS Code runs them", then at once "MCP Workbench runs them"), the stop ends with no reason
   * to show, and without this the server stayed stopped for good.
   */
  private readonly heldBackStopped = new Set<string>();
  /** Cancels the restart a crashed server waits for. */
  private readonly pendingRestarts = new Map<string, () => void>();

  constructor(
    private readonly host: ConnectionHost,
    private readonly createLog: (def: ServerDefinition) => ServerLog,
    private readonly policy: RegistryPolicy,
    private readonly clock: RestartClock = realClock,
  ) {}

  all(): McpServerConnection[] {
    return [...this.connections.values()];
  }

  get(id: string): McpServerConnection | undefined {
    return this.connections.get(id);
  }

  /** Finds a server by id, label or name (for commands and tests). */
  find(key: string): McpServerConnection | undefined {
    return this.connections.get(key) ?? this.all().find((c) => c.definition.label === key) ?? this.all().find((c) => c.definition.name === key);
  }

  /**
   * Runs `setup` for every connection, now and as they are added, and disposes what it returned
   * when that connection leaves the registry: a feature's per-connection listeners live exactly
   * as long as the connection. Disposing the result disposes all of them.
   */
  forEachConnection(setup: (connection: McpServerConnection) => Disposable | Disposable[] | void): Disposable {
    const scopes = new Map<McpServerConnection, Disposable[]>();
    const add = (c: McpServerConnection) => {
      if (scopes.has(c)) return;
      const owned = setup(c);
      scopes.set(c, owned ? (Array.isArray(owned) ? owned : [owned]) : []);
    };
    const drop = (c: McpServerConnection) => {
      scopes.get(c)?.forEach((d) => d.dispose());
      scopes.delete(c);
    };
    this.all().forEach(add);
    const subscriptions = [this.onDidAddConnection(add), this.onDidRemoveConnection(drop)];
    return {
      dispose: () => {
        subscriptions.forEach((s) => s.dispose());
        [...scopes.keys()].forEach(drop);
      },
    };
  }

  /** Whether a crashed server waits for its automatic restart. */
  restartPending(id: string): boolean {
    return this.pendingRestarts.has(id);
  }

  /**
   * Applies a new set of definitions from config as a difference; resolves when the servers it
   * starts, stops or restarts have done so. The differences are applied in order (see `applied`).
   */
  apply(next: ServerDefinition[]): Promise<void> {
    return this.inOrder(this.applied, () => this.applyNow(next));
  }

  /**
   * Runs `applyChange` once `before` has resolved, as the newest link of the chains (see
   * `applied`); resolves when the work it began is done. The chains never reject (a failure is
   * the caller's, through the promise returned).
   */
  private inOrder(before: Promise<unknown>, applyChange: () => AppliedChange): Promise<void> {
    const started = before.then(applyChange);
    const done = started.then(({ work }) => work);
    this.applied = started.then(noop, noop);
    this.stopped = Promise.all([this.stopped, started.then(({ stops }) => stops).catch(noop)]).then(noop);
    this.settled = Promise.all([this.settled, done.catch(noop)]).then(noop);
    return done;
  }

  /** Applies the difference now. */
  private applyNow(next: ServerDefinition[]): AppliedChange {
    const previous = this.all()
      .filter((c) => !this.transient.has(c.definition.id))
      .map((c) => c.definition);
    const diff = diffDefinitions(previous, next);
    const work: Promise<unknown>[] = [];
    const stops: Promise<unknown>[] = [];
    for (const def of diff.removed) {
      // Said in the server's log: a server that stops on its own is otherwise a mystery.
      this.createLog(def).log('info', `Stopped: no longer in the configuration (${whereDefined(def)}).`);
      const connection = this.connections.get(def.id)!;
      this.connections.delete(def.id);
      this.wanted.delete(def.id);
      this.heldBackStopped.delete(def.id);
      this.subscriptions.get(def.id)?.forEach((s) => s.dispose());
      this.subscriptions.delete(def.id);
      this.onDidRemoveEmitter.fire(connection);
      work.push(connection.dispose());
    }
    for (const def of diff.unchanged) this.connections.get(def.id)!.updateDefinition(def);
    for (const def of diff.changed) {
      const connection = this.connections.get(def.id)!;
      const wasDisabled = connection.definition.disabled;
      // A server disabled in config stops; one enabled again starts as if it were new.
      const shouldRun = !def.disabled && (this.wanted.has(def.id) || (wasDisabled && this.startsOnItsOwn(def)));
      if (shouldRun) this.wanted.add(def.id);
      else this.wanted.delete(def.id);
      this.createLog(def).log('info', `Its launch changed in the configuration (${whereDefined(def)})${shouldRun ? ': restarting' : ''}.`);
      const stop = connection.stop().then(() => {
        connection.updateDefinition(def);
        if (!shouldRun) this.markIdle(connection);
      });
      stops.push(stop);
      work.push(shouldRun ? stop.then(() => this.startConnection(connection)) : stop);
    }
    for (const def of diff.added) {
      const connection = new McpServerConnection(def, this.host, this.createLog(def));
      this.connections.set(def.id, connection);
      this.subscriptions.set(def.id, this.watch(connection));
      this.onDidAddEmitter.fire(connection);
      if (this.startsOnItsOwn(def)) {
        this.wanted.add(def.id);
        work.push(this.startConnection(connection));
      } else {
        this.markIdle(connection);
      }
    }
    if (diff.added.length || diff.removed.length || diff.changed.length) this.onDidChangeEmitter.fire();
    this.onDidApplyEmitter.fire();
    return { work: Promise.all(work).then(noop), stops: Promise.all(stops).then(noop) };
  }

  /** Starts a server on the user's request. Resolves when it runs or has failed. */
  async start(id: string): Promise<void> {
    const connection = this.connections.get(id);
    if (!connection) return;
    this.wanted.add(id);
    this.heldBackStopped.delete(id);
    this.forgetCrashes(id);
    await this.startConnection(connection);
  }

  async stop(id: string): Promise<void> {
    this.wanted.delete(id);
    this.heldBackStopped.delete(id);
    // A user's Stop is never followed by an automatic restart.
    this.forgetCrashes(id);
    const connection = this.connections.get(id);
    await connection?.stop();
    // Why it would not start on its own (another host runs it) is still worth saying.
    if (connection) this.markIdle(connection);
  }

  async restart(id: string): Promise<void> {
    const connection = this.connections.get(id);
    if (!connection) return;
    this.wanted.add(id);
    this.heldBackStopped.delete(id);
    this.forgetCrashes(id);
    await connection.stop();
    await this.startConnection(connection);
  }

  /**
   * Runs a server with another launch (e.g. under a debugger) until cleared: the connection
   * restarts with the override; clearing it stops that process and starts the configured
   * launch again if the server was wanted. Resolves when the new start has run or failed.
   */
  async overrideLaunch(id: string, override: LaunchOverride | undefined, options: { restoreRunning?: boolean } = {}): Promise<void> {
    const connection = this.connections.get(id);
    if (!connection) return;
    connection.setLaunchOverride(override);
    await connection.stop();
    if (override) {
      await this.startConnection(connection);
    } else if (options.restoreRunning ?? this.wanted.has(id)) {
      this.wanted.add(id);
      await this.startConnection(connection);
    }
  }

  /** Adds a server that is not in config (kept across reloads until `removeTransient`). */
  addTransient(def: ServerDefinition): McpServerConnection {
    const existing = this.connections.get(def.id);
    if (existing) return existing;
    const connection = new McpServerConnection(def, this.host, this.createLog(def));
    this.transient.add(def.id);
    this.connections.set(def.id, connection);
    this.subscriptions.set(def.id, this.watch(connection));
    this.onDidAddEmitter.fire(connection);
    this.onDidChangeEmitter.fire();
    return connection;
  }

  async removeTransient(id: string): Promise<void> {
    if (!this.transient.delete(id)) return;
    const connection = this.connections.get(id);
    this.connections.delete(id);
    this.wanted.delete(id);
    this.subscriptions.get(id)?.forEach((s) => s.dispose());
    this.subscriptions.delete(id);
    if (connection) this.onDidRemoveEmitter.fire(connection);
    this.onDidChangeEmitter.fire();
    await connection?.dispose();
  }

  async restartAll(): Promise<void> {
    await Promise.all(
      this.all()
        .filter((c) => !this.policy.blockedReason(c.definition))
        // A server held back (another host runs it) is restarted only if the user started it here.
        .filter((c) => this.wanted.has(c.definition.id) || !this.policy.heldBackReason?.(c.definition))
        .map((c) => this.restart(c.definition.id)),
    );
  }

  /**
   * Applies a change of what is held back (`policy.heldBackReason`): servers now held back stop
   * and show why; servers no longer held back start as auto-start would have started them.
   */
  applyHeldBack(): Promise<void> {
    // In order with the reloads of config (both change the same connections), once the stops
    // before it are done (it reads whether a server is stopped), but not after the starts before
    // it: the servers the chat models' answer releases must not wait for a slow one.
    return this.inOrder(Promise.all([this.applied, this.stopped]), () => this.applyHeldBackNow());
  }

  private applyHeldBackNow(): AppliedChange {
    const work: Promise<unknown>[] = [];
    const stops: Promise<unknown>[] = [];
    for (const connection of this.all()) {
      const def = connection.definition;
      if (this.transient.has(def.id)) continue;
      const reason = this.policy.heldBackReason?.(def);
      if (reason) {
        const wasWanted = this.wanted.delete(def.id);
        this.forgetCrashes(def.id);
        if (wasWanted) this.heldBackStopped.add(def.id);
        const stop = (wasWanted ? connection.stop() : Promise.resolve()).then(() => this.markIdle(connection));
        stops.push(stop);
        work.push(stop);
      } else if (
        connection.state.kind === 'stopped' &&
        (this.heldBackStopped.has(def.id) || (connection.state.reason !== undefined && connection.state.reason === this.heldBackShown.get(def.id)))
      ) {
        this.heldBackShown.delete(def.id);
        this.heldBackStopped.delete(def.id);
        connection.setBlocked(undefined);
        if (this.startsOnItsOwn(def)) {
          this.wanted.add(def.id);
          work.push(this.startConnection(connection));
        } else {
          this.markIdle(connection);
        }
      }
    }
    return { work: Promise.all(work).then(noop), stops: Promise.all(stops).then(noop) };
  }

  /** Whether auto-start starts this server (when added, or enabled again in config). */
  private startsOnItsOwn(def: ServerDefinition): boolean {
    return this.policy.autoStart() && !def.disabled && !this.policy.heldBackReason?.(def);
  }

  /** Starts every wanted server that is not running (e.g. after trust was granted). */
  async startWanted(): Promise<void> {
    await Promise.all(
      this.all()
        .filter((c) => this.wanted.has(c.definition.id) && c.state.kind !== 'running' && c.state.kind !== 'starting')
        .map((c) => this.startConnection(c)),
    );
  }

  async stopAll(): Promise<void> {
    for (const id of this.connections.keys()) this.forgetCrashes(id);
    await Promise.all(this.all().map((c) => c.stop()));
  }

  async dispose(): Promise<void> {
    await this.settled;
    for (const cancel of this.pendingRestarts.values()) cancel();
    this.pendingRestarts.clear();
    const all = this.all();
    this.connections.clear();
    for (const subs of this.subscriptions.values()) subs.forEach((s) => s.dispose());
    this.subscriptions.clear();
    all.forEach((c) => this.onDidRemoveEmitter.fire(c));
    await Promise.all(all.map((c) => c.dispose()));
    this.onDidChangeEmitter.dispose();
    this.onDidAddEmitter.dispose();
    this.onDidRemoveEmitter.dispose();
    this.onDidApplyEmitter.dispose();
  }

  /**
   * `afterCrash`: an automatic restart, whose failure counts as another crash. Any start that
   * fails because the server died during it (not a config error) is retried the same way.
   */
  private async startConnection(connection: McpServerConnection, options: { afterCrash?: boolean } = {}): Promise<void> {
    const def = connection.definition;
    const blocked = this.policy.blockedReason(def);
    if (blocked) {
      connection.setBlocked(blocked);
      return;
    }
    if (def.missingInputs?.length) {
      connection.setBlocked(`waiting for input ${def.missingInputs.map((i) => `"${i}"`).join(', ')}`);
      const provided = await this.policy.collectInputs(def);
      if (!provided) {
        connection.setBlocked(`needs input ${def.missingInputs.map((i) => `"${i}"`).join(', ')}; start it again to enter it`);
        return;
      }
      // New input values change the resolved definition: its owner applies it again, which
      // restarts it as "changed" (see RegistryPolicy.collectInputs).
      return;
    }
    await connection.start();
    const state = connection.state;
    const id = def.id;
    if (state.kind === 'error' && (options.afterCrash || connection.crashedOnStart) && this.connections.get(id) === connection && this.wanted.has(id)) {
      this.crashed(connection, state.message);
    }
  }

  private watch(connection: McpServerConnection): Disposable[] {
    return [connection.onDidChangeState(() => this.onDidChangeEmitter.fire()), connection.onDidCrash((message) => this.crashed(connection, message))];
  }

  /**
   * A running server went away without a stop: start it again after a growing delay, unless
   * the user no longer wants it, turned restarts off, or it keeps crashing.
   */
  private crashed(connection: McpServerConnection, message: string): void {
    const id = connection.definition.id;
    if (!this.wanted.has(id) || this.policy.autoRestart?.() === false) {
      connection.explainFailure(`${message} Use Restart to start it again.`);
      return;
    }
    // Under the debugger (a launch override): a restart would start another paused
    // `--inspect-brk` process that no debug session attaches to, left behind (seen in CI after
    // the debuggee's V8 aborted). The debug session owns this process; the user debugs again.
    if (connection.launchOverride) {
      connection.explainFailure(`${message} It ran under the debugger: start debugging again.`);
      return;
    }
    let history = this.crashes.get(id);
    if (!history) this.crashes.set(id, (history = new CrashRestarts(this.clock)));
    const verdict = history.crashed();
    if (!verdict.restart) {
      connection.explainFailure(
        `${message} It crashed ${verdict.crashes} times in ${describeDuration(DEFAULT_CRASH_RESTARTS.windowMs)}, so it stays stopped: check its log, then use Restart.`,
      );
      return;
    }
    connection.explainFailure(`${message} Restarting in ${describeDuration(verdict.delayMs)}.`);
    this.pendingRestarts.get(id)?.();
    this.pendingRestarts.set(
      id,
      this.clock.schedule(() => {
        this.pendingRestarts.delete(id);
        // Anything the user did meanwhile (stop, start, config change) wins over this restart.
        if (this.connections.get(id) !== connection || !this.wanted.has(id) || connection.state.kind !== 'error') return;
        // A restart that fails (it dies again during the handshake) counts as another crash.
        this.startConnection(connection, { afterCrash: true }).catch((error) => this.policy.reportError(error));
      }, verdict.delayMs),
    );
  }

  private forgetCrashes(id: string): void {
    this.pendingRestarts.get(id)?.();
    this.pendingRestarts.delete(id);
    this.crashes.get(id)?.reset();
  }

  private markIdle(connection: McpServerConnection): void {
    const def = connection.definition;
    const heldBack = this.policy.heldBackReason?.(def);
    const reason = this.policy.blockedReason(def) ?? (def.disabled ? 'disabled in config' : undefined) ?? heldBack;
    if (heldBack && reason === heldBack) this.heldBackShown.set(def.id, heldBack);
    if (reason) connection.setBlocked(reason);
  }
}

/** A change applied to the connections: what it began, under way. */
interface AppliedChange {
  /** Its servers' stops and starts. */
  work: Promise<void>;
  /** Its stops only (and the held-back reasons shown after them). */
  stops: Promise<void>;
}

/** "mcp.json of folder-b": where a server's definition was read, for its log. */
function whereDefined(def: ServerDefinition): string {
  return def.source.folder ? `${def.source.label} of ${def.source.folder}` : def.source.label;
}

function noop(): void {}
