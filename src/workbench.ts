/**
 * The extension's one context object: builds the registry of server connections from the
 * config sources and wires it to VS Code (settings, trust, workspace folders, inputs).
 * Features register against it; everything it creates or is handed is disposed in `dispose()`.
 * The services it carries (config sources, inputs, chat tool settings, VS Code's host, server
 * logs) and those its connections need from features (sampling and elicitation, OAuth) are
 * built before it by the composition root (src/extension.ts) and handed to its constructor.
 */
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as vscode from 'vscode';
import { buildDefinitions, envFileSecrets, inputKey, type ConfigDocument } from './config/common/definitionBuilder';
import { withoutDuplicateDiscoveries, type DiscoveryFile } from './config/common/discoverySources';
import { assignLabels, type ServerDefinition } from './config/common/launchDefinition';
import type { McpLogLevel } from './shared/common/logLevels';
import { DEFAULT_TIMEOUTS, protocolEraSetting, type InputDefinition, type TimeoutSettings } from './config/common/serverConfig';
import { Emitter, type Event } from './shared/common/emitter';
import { formatTrace, type TraceLevel, type TraceRecord } from './mcp/trace';
import type { HttpRecord } from './mcp/connection/httpRecording';
import type { ActivityServer } from './traffic/common/activityLog';
import { mergePaths, readLoginShellPath } from './mcp/process/commandResolution';
import type { ClientFeatures, ConnectionAuthHost, ConnectionHost, ServerLog } from './mcp/connection/connectionTypes';
import { ServerRegistry } from './mcp/serverRegistry';
import { MementoEraVerdictStore } from './mcp/connection/eraVerdicts';
import { workspaceRoots } from './shared/common/urlSafety';
import { userLevelCap, userLevelValue } from './shared/common/userSettings';
import { showErrorMessage } from './shared/notifications';
import { UriRouter } from './shared/uriRouter';
import { errorMessage } from './shared/common/errors';

/** Larger than any dotenv file; bigger ones are not read for their secrets. */
const MAX_ENV_FILE_BYTES = 1024 * 1024;

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
  readonly inputs: InputValues;
  /** Tools kept out of chat per workspace: the chat participant and the tree both read it. */
  readonly chatTools: ChatToolChoices;
  /** VS Code's own MCP host: which servers of the files both read it runs in our place. */
  readonly builtinHost: BuiltinHostView;
  readonly outputs: ServerChannels;
}

/** Every MCP config source, with their diagnostics (src/config/configSources.ts). */
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
}

/** The values given for `${input:…}`, secret ones in secret storage (src/config/inputStore.ts). */
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
  readonly inputs: InputValues;
  readonly chatTools: ChatToolChoices;
  readonly builtinHost: BuiltinHostView;
  readonly registry: ServerRegistry;
  /** The config documents of the last load, for input prompts and "open config". */
  private documents: ConfigDocument[] = [];
  private readonly disposables: vscode.Disposable[] = [];
  private traceLevel: TraceLevel = 'off';
  private serverLogLevel: McpLogLevel | undefined;
  private readonly onTraceEmitter = new Emitter<{ server: ServerDefinition; record: TraceRecord; at: number }>();
  /** Every JSON-RPC message of every server, whatever the trace setting (the Activity view listens). */
  readonly onTrace = this.onTraceEmitter.event;
  private readonly onHttpEmitter = new Emitter<{ server: ServerDefinition; record: HttpRecord }>();
  /** Every HTTP exchange of an HTTP server, raw (see ConnectionHost.http): redact when shown. */
  readonly onHttp = this.onHttpEmitter.event;
  private loginShellPath: Promise<string | undefined> | undefined;
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
    this.inputs = services.inputs;
    this.chatTools = services.chatTools;
    this.builtinHost = services.builtinHost;
    const host: ConnectionHost = {
      clientInfo: { name: 'mcp-workbench', version: String(context.extension.packageJSON.version ?? '0.0.0') },
      roots: () => this.roots(),
      baseEnv: () => this.baseEnv(),
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
      serverLogLevel: () => this.serverLogLevel,
      trace: (def, record) => {
        this.onTraceEmitter.fire({ server: def, record, at: Date.now() });
        if (this.traceLevel !== 'off') this.outputs.logFor(def).log('info', formatTrace(def.label, record, this.traceLevel, this.secretsOf(def)));
      },
      http: (def, record) => this.onHttpEmitter.fire({ server: def, record }),
      clientFeatures: connections.clientFeatures,
      auth: connections.auth,
      // Per launch, across sessions: a start of a server seen before spawns it once (eraVerdicts.ts).
      eraVerdicts: new MementoEraVerdictStore(context.globalState),
    };
    this.registry = new ServerRegistry(
      host,
      (def) => this.outputs.logFor(def),
      {
        autoStart: () => vscode.workspace.getConfiguration('mcpWorkbench').get<boolean>('autoStart', true),
        autoRestart: () => vscode.workspace.getConfiguration('mcpWorkbench').get<boolean>('autoRestart', true),
        blockedReason: (def) => (def.source.scope === 'workspace' && !vscode.workspace.isTrusted ? UNTRUSTED_REASON : undefined),
        collectInputs: (def) => this.collectInputs(def),
        heldBackReason: (def) => this.builtinHost.heldBackReason(def),
        reportError: (error) => this.reportReloadError(error),
      },
      () => this.loadDefinitions(),
    );

    this.readSettings();
    this.disposables.push(
      this.outputs,
      this.sources,
      this.sources.onDidChange(() => this.reload()),
      this.builtinHost,
      this.builtinHost.onDidChange(() => this.registry.applyHeldBack().catch((e) => this.reportReloadError(e))),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('mcpWorkbench.trace') || e.affectsConfiguration('mcpWorkbench.serverLogLevel')) this.readSettings();
        if (e.affectsConfiguration('mcpWorkbench.serverLogLevel')) {
          for (const c of this.registry.all()) void c.applyLogLevel();
        }
        if (e.affectsConfiguration('mcpWorkbench.timeouts') || e.affectsConfiguration('mcpWorkbench.protocolEra')) this.reload();
        if (e.affectsConfiguration('mcpWorkbench.useLoginShellPath')) this.loginShellPath = undefined;
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        for (const c of this.registry.all()) void c.notifyRootsChanged();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        this.registry
          .reload()
          .then(() => this.registry.startWanted())
          .catch((e) => this.reportReloadError(e));
      }),
    );
    // The first start waits for the chat models to be looked at: whether VS Code's agent could
    // run the workspace's servers decides who starts them (coexistence/common/builtinHost.ts).
    this.ready = Promise.all([this.inputs.load(), this.builtinHost.ready]).then(() => this.registry.reload());
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

  /** Re-reads config in the background; a failure is shown, never left unhandled. */
  reload(): void {
    this.registry.reload().catch((e) => this.reportReloadError(e));
  }

  private reportReloadError(error: unknown): void {
    void showErrorMessage(vscode.l10n.t('MCP Workbench could not apply the configuration: {0}', errorMessage(error)));
  }

  private readSettings(): void {
    const config = vscode.workspace.getConfiguration('mcpWorkbench');
    this.traceLevel = config.get<TraceLevel>('trace', 'off');
    const level = config.get<string>('serverLogLevel', 'info');
    this.serverLogLevel = level === 'off' ? undefined : (level as McpLogLevel);
  }

  private async loadDefinitions(): Promise<ServerDefinition[]> {
    this.documents = await this.sources.load();
    const configured = vscode.workspace.getConfiguration('mcpWorkbench').get<Partial<TimeoutSettings>>('timeouts', {});
    const defs = buildDefinitions(this.documents, {
      workspaceFolders: (vscode.workspace.workspaceFolders ?? []).map((f) => ({ name: f.name, path: f.uri.fsPath })),
      userHome: os.homedir(),
      env: process.env,
      defaultTimeouts: { ...DEFAULT_TIMEOUTS, ...configured },
      defaultProtocolEra: protocolEraSetting(vscode.workspace.getConfiguration('mcpWorkbench').get<string>('protocolEra')),
      inputValue: (doc, input, target) => this.inputs.valueFor(inputKey(doc.source, input.id), target),
    });
    const kept = withoutDuplicateDiscoveries(defs);
    if (kept.length !== defs.length) assignLabels(kept);
    await Promise.all(kept.map((def) => this.addEnvFileSecrets(def)));
    return kept;
  }

  /**
   * The values of a stdio server's `envFile` reach its environment, and may be echoed in its
   * output: they are secrets like those of the config. (The file is read again at spawn time;
   * one that cannot be read here fails there, with the reason.)
   */
  private async addEnvFileSecrets(def: ServerDefinition): Promise<void> {
    if (def.launch.type !== 'stdio' || !def.launch.envFile) return;
    // Only for servers that may start (trust is granted with a reload), and only a plain file
    // of dotenv size: a hostile config could name /dev/zero.
    if (def.source.scope === 'workspace' && !vscode.workspace.isTrusted) return;
    const file = def.launch.envFile;
    const stat = await fs.stat(file).catch(() => undefined);
    if (!stat?.isFile() || stat.size > MAX_ENV_FILE_BYTES) return;
    const text = await fs.readFile(file, 'utf8').catch(() => undefined);
    if (text !== undefined) def.secrets = [...new Set([...def.secrets, ...envFileSecrets(text)])];
  }

  private async collectInputs(def: ServerDefinition): Promise<boolean> {
    const doc = this.documents.find((d) => d.source.file === def.source.file && d.source.label === def.source.label);
    if (!doc) return false;
    for (const id of def.missingInputs ?? []) {
      const input = doc.parsed.inputs.find((i) => i.id === id);
      if (!input) return false;
      if (!(await this.inputs.prompt(inputKey(doc.source, id), input, def.label, def.target ?? ''))) return false;
    }
    return true;
  }

  /**
   * The environment stdio servers inherit: the extension host's, with the login shell's PATH
   * merged in on macOS/Linux when it has directories the host lacks (GUI launches miss them).
   */
  async baseEnv(): Promise<Record<string, string | undefined>> {
    const env = { ...process.env };
    if (process.platform !== 'win32' && vscode.workspace.getConfiguration('mcpWorkbench').get<boolean>('useLoginShellPath', true)) {
      this.loginShellPath ??= readLoginShellPath();
      env.PATH = mergePaths(env.PATH ?? '', await this.loginShellPath);
    }
    return env;
  }

  /** Stops every server (awaiting their shutdown) before the channels they log to go away. */
  async dispose(): Promise<void> {
    await this.registry.dispose();
    this.disposables.forEach((d) => d.dispose());
    this.onTraceEmitter.dispose();
    this.onHttpEmitter.dispose();
    this.chatTools.dispose();
    this.onDidChangeServersBadgeEmitter.dispose();
    this.onDidChangeDevRestartingEmitter.dispose();
    this.onDidDevRestartEmitter.dispose();
  }
}
