/**
 * The extension's one context object: builds the registry of server connections, connects the
 * config service to it (which pushes the definitions in) and wires it to VS Code (settings,
 * trust, workspace folders).
 * Features register against it; everything it creates or is handed is disposed in `dispose()`.
 * The services it carries (config sources, inputs, the config service that owns the server
 * definitions and pushes them into the registry, chat tool settings, VS Code's host, server
 * logs) and those its connections need from features (sampling and elicitation, OAuth) are
 * built before it by the composition root (src/extension.ts) and handed to its constructor.
 */
import * as vscode from 'vscode';
import type { ConfigDocument } from './config/common/definitionBuilder';
import type { IndentPreference } from './config/common/configEdit';
import type { DiscoveryFile } from './config/common/discoverySources';
import type { ServerDefinition } from './config/common/launchDefinition';
import type { McpLogLevel } from './shared/common/logLevels';
import type { InputDefinition } from './config/common/serverConfig';
import { Emitter, type Event } from './shared/common/emitter';
import { formatTrace, type TraceLevel, type TraceRecord } from './mcp/trace';
import type { HttpRecord } from './mcp/connection/httpRecording';
import type { ActivityServer } from './traffic/common/activityLog';
import { mergePaths } from './mcp/process/commandResolution';
import { LoginShellPath } from './mcp/process/loginShellPath';
import type { ClientFeatures, ConnectionAuthHost, ConnectionHost, ServerLog } from './mcp/connection/connectionTypes';
import { ServerRegistry } from './mcp/serverRegistry';
import { MementoEraVerdictStore } from './mcp/connection/eraVerdicts';
import { workspaceRoots } from './shared/common/urlSafety';
import { userLevelCap, userLevelValue } from './shared/common/userSettings';
import { UriRouter } from './shared/uriRouter';
import { DisposableStore } from './shared/common/disposables';

/** What the Workbench's connections need from features, built before it (see the constructor). */
export interface WorkbenchConnectionFeatures {
  readonly clientFeatures: ClientFeatures;
  readonly auth: ConnectionAuthHost;
}

/**
 * The services the Workbench carries to every feature. The composition root builds them and
 * hands them in; the Workbench owns them from then on and disposes them after its servers
 * stopped (a server's last lines still reach its log). Their classes are feature glue, a floor
 * above this file, so each is named here by what is used of it through the Workbench.
 */
export interface WorkbenchServices {
  readonly sources: ConfigFiles;
  /** Owns the server definitions, built from `sources` and `inputs`. */
  readonly config: ServerDefinitions;
  readonly inputs: InputValues;
  /** Tools kept out of chat per workspace: the chat participant and the tree both read it. */
  readonly chatTools: ChatToolChoices;
  /** VS Code's own MCP host: which servers of the files both read it runs in our place. */
  readonly builtinHost: BuiltinHostView;
  readonly outputs: ServerChannels;
}

/** Every MCP config source, with their diagnostics (src/configService/configSources.ts). */
export interface ConfigFiles extends vscode.Disposable {
  /** Fires (debounced) when a config file or the servers setting changes. */
  readonly onDidChange: vscode.Event<void>;
  load(): Promise<ConfigDocument[]>;
  existingFiles(): Promise<{ uri: vscode.Uri; folder: vscode.WorkspaceFolder; path: string }[]>;
  discoveryEnabled(): boolean;
  existingDiscoveryFiles(): Promise<(DiscoveryFile & { uri: vscode.Uri })[]>;
  /** Set by the config language client while it runs: the open documents whose diagnostics it publishes. */
  coveredByLanguageServer: ((doc: vscode.TextDocument) => boolean) | undefined;
  publishDiagnostics(): void;
  /** A config file's text, or '' when it does not exist yet (wizard, install and import then create it). */
  readText(uri: vscode.Uri): Promise<string>;
  /** How a config file at `uri` without indentation of its own is written. */
  indentFor(uri: vscode.Uri): IndentPreference;
}

/** Where the config service pushes each new set of definitions: the server registry. */
export interface DefinitionTarget {
  apply(definitions: ServerDefinition[]): Promise<void>;
}

/**
 * The config service (src/configService/configService.ts): owns the server definitions, reads
 * them again when config changes and pushes them into the registry; the registry never asks.
 */
export interface ServerDefinitions extends vscode.Disposable {
  /** Connects the registry the definitions are pushed into (the Workbench does, once it built it). */
  pushTo(target: DefinitionTarget): void;
  /** Reads config again and resolves once the definitions were applied. Calls are serialised. */
  reload(): Promise<void>;
  /** The same, in the background: a failure is shown, never left unhandled. */
  reloadInBackground(): void;
  /** Shows that config could not be applied, with the reason. */
  reportReloadError(error: unknown): void;
  /** Asks for the inputs a server misses (RegistryPolicy.collectInputs); once given, the completed definitions are pushed. */
  collectInputs(def: ServerDefinition): Promise<boolean>;
}

/** The values given for `${input:…}`, secret ones in secret storage (src/configService/inputStore.ts). */
export interface InputValues {
  load(): Promise<void>;
  get(key: string): string | undefined;
  valueFor(key: string, target: string): string | undefined;
  /** Asks the user for one input a server needs; resolves false when they dismiss it. */
  prompt(key: string, input: InputDefinition, serverLabel: string, target: string): Promise<boolean>;
  set(key: string, value: string, secret: boolean, target: string): Promise<void>;
  clear(): Promise<void>;
}

/** Which tools are kept out of chat (src/chat/chatToolSettings.ts). */
export interface ChatToolChoices extends vscode.Disposable {
  readonly onDidChange: vscode.Event<{ serverName: string; toolName: string }>;
  isDisabled(serverName: string, toolName: string): boolean;
  /** Resolves to the keys of the tools disabled after the change. */
  setEnabled(serverName: string, toolName: string, enabled: boolean): Promise<string[]>;
}

/** VS Code's own MCP host as this window sees it (src/coexistence/builtinHost.ts; coexistence is handed the whole of it). */
export interface BuiltinHostView extends vscode.Disposable {
  readonly onDidChange: Event<void>;
  /** Resolves once the chat models were looked at: the first start waits for it. */
  readonly ready: Promise<void>;
  /** Why we do not start this server on our own (VS Code runs it), or undefined. */
  heldBackReason(def: ServerDefinition): string | undefined;
  needsChoice(definitions: readonly ServerDefinition[]): boolean;
  canOfferAutostartNever(): boolean;
  /** Whether VS Code's Copilot agent host may run its own copy of this server (1.140+, GitHub Copilot's places). */
  agentHostMayRunCopy(def: ServerDefinition): boolean;
  /** Starting a server VS Code runs warns once per window that it may run its own copy. */
  warnedAboutSecondCopy: boolean;
}

/** What a server wrote that the Inspector's Console shows: a stderr line, or a log message with its MCP level. */
export interface ServerOutput {
  server: ServerDefinition;
  level: 'stderr' | string;
  /** Redacted. */
  text: string;
}

/** One log channel per server, every line redacted with its secrets (src/servers/serverOutputs.ts). */
export interface ServerChannels extends vscode.Disposable {
  /** Every stderr line and log message of every server, redacted (the Inspector's Console records them). */
  readonly onDidOutput: Event<ServerOutput>;
  logFor(def: ServerDefinition): ServerLog;
  show(def: ServerDefinition): void;
}

export const UNTRUSTED_REASON = 'the workspace is not trusted; servers defined by the workspace start only in a trusted workspace';

export class Workbench implements vscode.Disposable {
  /** Secrets learnt at run time (OAuth tokens and client secrets, see src/auth), hidden like config secrets. */
  private readonly runtimeSecrets = new Set<string>();
  readonly outputs: ServerChannels;
  readonly sources: ConfigFiles;
  readonly config: ServerDefinitions;
  readonly inputs: InputValues;
  readonly chatTools: ChatToolChoices;
  readonly builtinHost: BuiltinHostView;
  readonly registry: ServerRegistry;
  private readonly disposables = new DisposableStore();
  /**
   * `mcpWorkbench.trace` and `serverLogLevel`, read when first needed (a server's first message)
   * and again on change; not in the constructor: the first settings read of an extension host
   * builds VS Code's merged configuration, 10-20 ms of activate() in VS Code 1.100 (issue 30).
   */
  private logSettingsRead: LogSettings | undefined;
  private readonly onTraceEmitter = new Emitter<{ server: ServerDefinition; record: TraceRecord; at: number }>();
  /** Every JSON-RPC message of every server, whatever the trace setting (the Activity view listens). */
  readonly onTrace = this.onTraceEmitter.event;
  private readonly onHttpEmitter = new Emitter<{ server: ServerDefinition; record: HttpRecord }>();
  /** Every HTTP exchange of an HTTP server, raw (see ConnectionHost.http): redact when shown. */
  readonly onHttp = this.onHttpEmitter.event;
  private readonly loginShellPath: LoginShellPath;
  private readonly onDidChangeSpawnPathEmitter = new Emitter<void>();
  /** Fires when `knownSpawnPath()` may have changed: the login shell answered, or its setting changed. */
  readonly onDidChangeSpawnPath = this.onDidChangeSpawnPathEmitter.event;
  /** Resolves when the first load of config has been applied (servers started or blocked). */
  readonly ready: Promise<void>;
  /** The extension's URI handler: features register the link paths they take (registered in extension.ts). */
  readonly uris = new UriRouter();
  private readonly onDidChangeServersBadgeEmitter = new Emitter<vscode.ViewBadge | undefined>();
  /** The badge the MCP Servers view shows (pending approval requests); registerServerTree applies it. */
  readonly onDidChangeServersBadge = this.onDidChangeServersBadgeEmitter.event;
  setServersBadge(badge: vscode.ViewBadge | undefined): void {
    this.onDidChangeServersBadgeEmitter.fire(badge);
  }

  /** Servers restarting because a `dev.watch` file changed: server id → the file, as shown. */
  private readonly devRestarts = new Map<string, string>();
  private readonly onDidChangeDevRestartingEmitter = new Emitter<string>();
  /** Fires with a server's id when it starts or ends a restart for a changed file (the tree shows it). */
  readonly onDidChangeDevRestarting = this.onDidChangeDevRestartingEmitter.event;
  private readonly onDidDevRestartEmitter = new vscode.EventEmitter<{ serverName: string; serverId: string; changedFile: string }>();
  /**
   * Fires when a server restarted for a changed `dev.watch` file runs again (outside or inside
   * a debug session). `serverName` is its name in config, `changedFile` the full path of the
   * last file changed in the burst that caused the restart.
   */
  readonly onDidDevRestart: vscode.Event<{ serverName: string; serverId: string; changedFile: string }> = this.onDidDevRestartEmitter.event;

  /** The changed file a server restarts for (as the tree names it), if it restarts for one. */
  devRestarting(serverId: string): string | undefined {
    return this.devRestarts.get(serverId);
  }

  /** Marks (or, with undefined, unmarks) a server as restarting because `shownFile` changed. */
  setDevRestarting(serverId: string, shownFile: string | undefined): void {
    if (shownFile === undefined) this.devRestarts.delete(serverId);
    else this.devRestarts.set(serverId, shownFile);
    this.onDidChangeDevRestartingEmitter.fire(serverId);
  }

  fireDevRestart(def: ServerDefinition, changedFile: string): void {
    this.onDidDevRestartEmitter.fire({ serverName: def.name, serverId: def.id, changedFile });
  }

  /**
   * `connections`: what every connection gets from features: sampling and elicitation (the
   * approval service of src/approval, installed on every new client) and OAuth (src/auth).
   * `services`: what it carries to features, now its own to dispose (see WorkbenchServices).
   */
  constructor(
    readonly context: vscode.ExtensionContext,
    connections: WorkbenchConnectionFeatures,
    services: WorkbenchServices,
  ) {
    this.outputs = services.outputs;
    this.sources = services.sources;
    this.config = services.config;
    this.inputs = services.inputs;
    this.chatTools = services.chatTools;
    this.builtinHost = services.builtinHost;
    this.loginShellPath = new LoginShellPath(context.globalState);
    this.loginShellPath.onDidAnswer(() => this.onDidChangeSpawnPathEmitter.fire());
    const host: ConnectionHost = {
      clientInfo: { name: 'mcp-workbench', version: String(context.extension.packageJSON.version ?? '0.0.0') },
      roots: () => this.roots(),
      baseEnv: (options) => this.baseEnv(options),
      pingIntervalMs: () => vscode.workspace.getConfiguration('mcpWorkbench').get<number>('pingIntervalSeconds', 30) * 1000,
      sandboxSettings: () => {
        const config = vscode.workspace.getConfiguration('mcpWorkbench');
        return {
          bwrapPath: userLevelValue(config.inspect<string>('sandbox.bwrapPath'), 'bwrap'),
          allowUnsandboxed: userLevelValue(config.inspect<boolean>('sandbox.allowUnsandboxed'), false) === true,
          networkWithDomains: userLevelValue(config.inspect<string>('sandbox.networkWithDomains'), 'refuse') === 'all' ? 'all' : 'refuse',
        };
      },
      maxMessageBytes: () => userLevelCap('maxMessageSizeMB', vscode.workspace.getConfiguration('mcpWorkbench').inspect('maxMessageSizeMB')) * 1024 * 1024,
      // Asked on every request to a 2026-07-28 server: read once and on change, not per call.
      serverLogLevel: () => this.logSettings.serverLogLevel,
      trace: (def, record) => {
        this.onTraceEmitter.fire({ server: def, record, at: Date.now() });
        const { traceLevel } = this.logSettings;
        if (traceLevel !== 'off') this.outputs.logFor(def).log('info', formatTrace(def.label, record, traceLevel, this.secretsOf(def)));
      },
      http: (def, record) => this.onHttpEmitter.fire({ server: def, record }),
      clientFeatures: connections.clientFeatures,
      auth: connections.auth,
      // Per launch, across sessions: a start of a server seen before spawns it once (eraVerdicts.ts).
      eraVerdicts: new MementoEraVerdictStore(context.globalState),
    };
    this.registry = new ServerRegistry(host, (def) => this.outputs.logFor(def), {
      autoStart: () => vscode.workspace.getConfiguration('mcpWorkbench').get<boolean>('autoStart', true),
      autoRestart: () => vscode.workspace.getConfiguration('mcpWorkbench').get<boolean>('autoRestart', true),
      blockedReason: (def) => (def.source.scope === 'workspace' && !vscode.workspace.isTrusted ? UNTRUSTED_REASON : undefined),
      collectInputs: (def) => this.config.collectInputs(def),
      heldBackReason: (def) => this.builtinHost.heldBackReason(def),
      reportError: (error) => this.config.reportReloadError(error),
    });
    this.config.pushTo(this.registry);

    this.disposables.push(
      this.outputs,
      this.config,
      this.sources,
      this.builtinHost,
      this.builtinHost.onDidChange(() => this.registry.applyHeldBack().catch((e) => this.config.reportReloadError(e))),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('mcpWorkbench.trace') || e.affectsConfiguration('mcpWorkbench.serverLogLevel')) this.logSettingsRead = readLogSettings();
        if (e.affectsConfiguration('mcpWorkbench.serverLogLevel')) {
          for (const c of this.registry.all()) void c.applyLogLevel();
        }
        if (e.affectsConfiguration('mcpWorkbench.useLoginShellPath')) {
          this.loginShellPath.reset();
          this.onDidChangeSpawnPathEmitter.fire();
        }
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        for (const c of this.registry.all()) void c.notifyRootsChanged();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        this.config
          .reload()
          .then(() => this.registry.startWanted())
          .catch((e) => this.config.reportReloadError(e));
      }),
    );
    // Config is read and servers start at once. Only a server whose runner depends on whether
    // VS Code's agent could use it (a chat model, coexistence/common/builtinHost.ts) waits for the
    // models to be looked at, up to 3 s; `ready` includes that answer, applied.
    this.ready = this.inputs
      .load()
      .then(() => this.config.reload())
      .then(() => this.builtinHost.ready)
      .then(() => this.registry.applyHeldBack());
  }

  /**
   * Everything that must never be shown around a server: the secrets of every configured server
   * (collected by the definition builder, envFile values included; a model may carry one
   * server's secret into another's tool call) and those learnt at run time, current ones always
   * (a log created before an input was entered must hide it too). Logs, traces, Activity
   * records, state messages and copied JSON are redacted with this.
   */
  secretsOf(def: ServerDefinition): string[] {
    const all = new Set(def.secrets);
    for (const c of this.registry.all()) for (const secret of c.definition.secrets) all.add(secret);
    for (const secret of this.runtimeSecrets) all.add(secret);
    return [...all];
  }

  private readonly recordedServers = new WeakMap<ServerDefinition, ActivityServer>();

  /**
   * The server as the Activity log and the HTTP log record it: one object per definition, not
   * one per message (recording is on every message's path); its secrets are asked for when an
   * entry is read.
   */
  recordedServer(def: ServerDefinition): ActivityServer {
    let known = this.recordedServers.get(def);
    if (!known) this.recordedServers.set(def, (known = { id: def.id, label: def.label, secrets: () => this.secretsOf(def) }));
    return known;
  }

  /**
   * Records MCP Apps traffic (an app's frame ⇄ the host, src/apps) for the Activity view, as its
   * own kind: under the pseudo server `<label> (app)`, so ui/* messages never mix with the
   * server's own JSON-RPC. `receive` = app → host, `send` = host → app.
   */
  traceApp(def: ServerDefinition, record: TraceRecord): void {
    this.onTraceEmitter.fire({ server: { ...def, id: `${def.id}#app`, label: vscode.l10n.t('{0} (app)', def.label) }, record, at: Date.now() });
  }

  /** Adds a value learnt at run time (an OAuth token) to what is redacted everywhere. */
  addRuntimeSecret(value: string | undefined): void {
    if (value && value.length >= 4) this.runtimeSecrets.add(value);
  }

  /** Folders already reported as not offered to servers (each is logged once). */
  private readonly skippedRoots = new Set<string>();

  /** The workspace folders as roots: file: URIs only; a folder left out is said in every server log once. */
  private roots(): { uri: string; name: string }[] {
    const { roots, skipped } = workspaceRoots((vscode.workspace.workspaceFolders ?? []).map((f) => ({ uri: f.uri.toString(), name: f.name })));
    for (const folder of skipped.filter((f) => !this.skippedRoots.has(f.uri))) {
      this.skippedRoots.add(folder.uri);
      for (const c of this.registry.all()) {
        this.outputs
          .logFor(c.definition)
          .log('warn', `The workspace folder "${folder.name}" (${folder.uri}) is not offered as a root: MCP roots must be file: URIs.`);
      }
    }
    return roots;
  }

  private get logSettings(): LogSettings {
    return (this.logSettingsRead ??= readLogSettings());
  }

  /**
   * The environment stdio servers inherit: the extension host's, with the login shell's PATH
   * merged in on macOS/Linux when it has directories the host lacks (GUI launches miss them).
   * That PATH is the one kept from the last read, so a start does not wait for a login shell;
   * `fresh` waits for this session's read (src/mcp/process/loginShellPath.ts).
   */
  async baseEnv(options: { fresh?: boolean } = {}): Promise<Record<string, string | undefined>> {
    const env = { ...process.env };
    if (this.usesLoginShellPath()) {
      env.PATH = mergePaths(env.PATH ?? '', await (options.fresh ? this.loginShellPath.fresh() : this.loginShellPath.get()));
    }
    return env;
  }

  /**
   * The PATH of `baseEnv()` as known now, without waiting for a login shell (the config language
   * server checks commands on it). The shell is asked in the background if this session has not
   * yet; `onDidChangeSpawnPath` says when to read it again.
   */
  knownSpawnPath(): string {
    const hostPath = process.env.PATH ?? '';
    if (!this.usesLoginShellPath()) return hostPath;
    void this.loginShellPath.fresh();
    return mergePaths(hostPath, this.loginShellPath.known());
  }

  private usesLoginShellPath(): boolean {
    return process.platform !== 'win32' && vscode.workspace.getConfiguration('mcpWorkbench').get<boolean>('useLoginShellPath', true);
  }

  /** Stops every server (awaiting their shutdown) before the channels they log to go away. */
  async dispose(): Promise<void> {
    await this.registry.dispose();
    this.disposables.dispose();
    this.onTraceEmitter.dispose();
    this.onHttpEmitter.dispose();
    this.onDidChangeSpawnPathEmitter.dispose();
    this.chatTools.dispose();
    this.onDidChangeServersBadgeEmitter.dispose();
    this.onDidChangeDevRestartingEmitter.dispose();
    this.onDidDevRestartEmitter.dispose();
  }
}

interface LogSettings {
  traceLevel: TraceLevel;
  serverLogLevel: McpLogLevel | undefined;
}

function readLogSettings(): LogSettings {
  const config = vscode.workspace.getConfiguration('mcpWorkbench');
  const level = config.get<string>('serverLogLevel', 'info');
  return { traceLevel: config.get<TraceLevel>('trace', 'off'), serverLogLevel: level === 'off' ? undefined : (level as McpLogLevel) };
}
