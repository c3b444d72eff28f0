/**
 * Finds and reads every MCP config source (workspace files, the user setting and, with
 * discovery on, other apps' config files), reports their problems as diagnostics, and fires
 * when any of them changes.
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { IndentPreference } from '../config/common/configEdit';
import type { ConfigDocument } from '../config/common/definitionBuilder';
import { INPUTS_SETTING, SERVERS_SETTING } from '../config/common/launchDefinition';
import { readsProfileMcpJson } from '../coexistence/common/builtinHost';
import { userLevelValue } from '../shared/common/userSettings';
import {
  adaptDiscoveredText,
  copilotUserConfigPath,
  COPILOT_USER_LABEL,
  CURSOR_WORKSPACE_FILE,
  folderWatchGlob,
  GITHUB_MCP_FILE,
  DISCOVERY_SETTING,
  DISCOVERY_SOURCES,
  discoveryEnvironment,
  PROFILE_MCP_LABEL,
  profileMcpJsonPath,
  userDiscoveryFiles,
  VSCODE_MCP_SETTING,
  VSCODE_SETTING_MCP_LABEL,
  parseCopilotConfig,
  type DiscoveryFile,
} from '../config/common/discoverySources';
import {
  parseConfigText,
  parseInputsValue,
  parseServerMapValue,
  positionAt,
  type ConfigFormat,
  type ConfigProblem,
  type ParsedConfig,
} from '../config/common/serverConfig';
import { DisposableStore } from '../shared/common/disposables';
import { parseWorkbenchFile, withWorkbenchFile, WORKBENCH_FILE_PATH } from '../config/common/ownKeys/workbenchFile';

/**
 * Workspace config files, in the order they are listed (the tree and "open config" use it).
 * `copilot`: GitHub Copilot's place, in its spellings (`"type": "local"`, `${VAR}`), read by VS
 * Code 1.140+'s Copilot agent host and not by VS Code's own MCP host.
 */
export const WORKSPACE_CONFIG_FILES: ReadonlyArray<{ path: string; format: ConfigFormat; copilot?: boolean }> = [
  { path: '.vscode/mcp.json', format: 'vscode' },
  { path: '.mcp.json', format: 'mcpServers' },
  { path: GITHUB_MCP_FILE, format: 'mcpServers', copilot: true },
];

/** The user profile's `mcp.json` (VS Code's own user-level MCP servers), found from the extension's global storage. */
export function profileMcpJson(globalStorageUri: vscode.Uri): vscode.Uri | undefined {
  const path = profileMcpJsonPath(globalStorageUri.path);
  return path ? globalStorageUri.with({ path }) : undefined;
}

export class ConfigSources implements vscode.Disposable {
  private readonly disposables = new DisposableStore();
  private readonly folderWatchers = new DisposableStore();
  /** Whether watchFolders() ran: on the first load(), not at activation. */
  private folderWatchersMade = false;
  private readonly discoveryWatchers = new DisposableStore();
  /** Whether watchDiscovered() ran: on the first load(), not at activation (it reads a setting). */
  private discoveryWatchersMade = false;
  /** The Copilot user file being watched: its path follows `COPILOT_HOME`, re-read on each load. */
  private copilotWatch: { path: string; disposables: vscode.Disposable[] } | undefined;
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('mcp-config');
  private readonly onDidChangeEmitter = new vscode.EventEmitter<void>();
  /** Fires (debounced) when a config file or the servers setting changes. */
  readonly onDidChange = this.onDidChangeEmitter.event;
  private debounce: NodeJS.Timeout | undefined;
  /** The last load's diagnostics per file, so they can be republished when documents open or close. */
  private lastDiagnostics = new Map<string, { uri: vscode.Uri; diagnostics: vscode.Diagnostic[]; keptNote?: vscode.Diagnostic }>();
  /** Each file's last read that was valid JSON: what its servers are while a later read is not (see `steady`). */
  private readonly lastValid = new Map<string, { text: string; parsed: ParsedConfig }>();
  /**
   * Set by the config language client while it runs: documents it covers get their diagnostics
   * (these parse problems included) from the language server while they are open, so they are
   * not published twice. Closed files keep the diagnostics of the last load.
   */
  coveredByLanguageServer: ((doc: vscode.TextDocument) => boolean) | undefined;

  /**
   * @param profileFile the user profile's `mcp.json`: its servers show with the others (VS Code's
   * own host runs them too; src/coexistence decides whether we start them on our own).
   */
  constructor(private readonly profileFile?: vscode.Uri) {
    this.disposables.push(this.diagnostics, this.onDidChangeEmitter);
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(SERVERS_SETTING) || e.affectsConfiguration(INPUTS_SETTING) || e.affectsConfiguration(VSCODE_MCP_SETTING)) this.changed();
        if (e.affectsConfiguration(DISCOVERY_SETTING)) {
          if (this.folderWatchersMade) this.watchFolders();
          this.watchDiscovered();
          this.changed();
        }
      }),
    );
    this.disposables.push(
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.watchFolders();
        this.watchDiscovered();
        this.changed();
      }),
    );
    // Saves are seen directly too: file watching can lag or be unavailable on remote file systems.
    this.disposables.push(
      vscode.workspace.onDidSaveTextDocument((doc) => {
        if (
          this.isConfigFile(doc.uri) ||
          doc.uri.toString() === this.profileFile?.toString() ||
          doc.uri.toString() === this.copilotUserFile().toString() ||
          (this.discoveryEnabled() && this.discoveryFiles().some((f) => f.uri.toString() === doc.uri.toString()))
        )
          this.changed();
      }),
    );
    this.disposables.push(
      vscode.workspace.onDidOpenTextDocument(() => this.publishDiagnostics()),
      vscode.workspace.onDidCloseTextDocument(() => this.publishDiagnostics()),
    );
    // The folders' watchers come with the first load(), which reads the files after they exist:
    // creating them here cost activate() 30-80 ms in VS Code 1.100 (issue 30), and no change
    // before that first read can be missed. Other apps' files too: whether to watch them is a
    // setting, and the first settings read of an extension host builds VS Code's merged
    // configuration (10-20 ms of activate() in VS Code 1.100). The two files below are still
    // watched from here: watching them from the first load() was tried and reverted (a
    // Discovery test then missed a new file).
    this.watchCopilotUserFile();
    if (profileFile) this.disposables.push(...watchFile(profileFile, () => this.changed()));
  }

  /** GitHub Copilot's user file, `$COPILOT_HOME/mcp-config.json` (default `~/.copilot`). */
  copilotUserFile(): vscode.Uri {
    return vscode.Uri.file(copilotUserConfigPath(discoveryEnvironment(process.platform, os.homedir(), process.env), process.env));
  }

  /** Watches the Copilot user file where `COPILOT_HOME` says it is now (again when that changed). */
  private watchCopilotUserFile(): void {
    const uri = this.copilotUserFile();
    if (this.copilotWatch?.path === uri.fsPath) return;
    this.copilotWatch?.disposables.forEach((d) => d.dispose());
    this.copilotWatch = { path: uri.fsPath, disposables: watchFile(uri, () => this.changed()) };
  }

  /** Whether servers from other apps' config files are shown (`mcpWorkbench.discovery.enabled`). */
  discoveryEnabled(): boolean {
    return vscode.workspace.getConfiguration().get<boolean>(DISCOVERY_SETTING, false);
  }

  /** Other apps' config files that may hold servers: user-level ones, then each folder's `.cursor/mcp.json`. */
  discoveryFiles(): (DiscoveryFile & { uri: vscode.Uri; folder?: vscode.WorkspaceFolder })[] {
    const env = discoveryEnvironment(process.platform, os.homedir(), process.env);
    return [
      ...userDiscoveryFiles(env).map((f) => ({ ...f, uri: vscode.Uri.file(f.path) })),
      ...(vscode.workspace.workspaceFolders ?? []).map((folder) => {
        const uri = vscode.Uri.joinPath(folder.uri, CURSOR_WORKSPACE_FILE);
        return { source: DISCOVERY_SOURCES.cursorWorkspace, path: uri.fsPath, uri, folder };
      }),
    ];
  }

  /** The discoverable files that exist, whether or not discovery is on (for the one-time question). */
  async existingDiscoveryFiles(): Promise<(DiscoveryFile & { uri: vscode.Uri })[]> {
    const files = this.discoveryFiles();
    const there = await Promise.all(files.map((file) => exists(file.uri)));
    return files.filter((_, i) => there[i]);
  }

  isConfigFile(uri: vscode.Uri): boolean {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder) return false;
    const relative = vscode.workspace.asRelativePath(uri, false).replace(/\\/g, '/');
    return relative === WORKBENCH_FILE_PATH || WORKSPACE_CONFIG_FILES.some((f) => relative === f.path);
  }

  /** Existing config files of the workspace. */
  async existingFiles(): Promise<{ uri: vscode.Uri; folder: vscode.WorkspaceFolder; path: string }[]> {
    const found: { uri: vscode.Uri; folder: vscode.WorkspaceFolder; path: string }[] = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      for (const file of WORKSPACE_CONFIG_FILES) {
        const uri = vscode.Uri.joinPath(folder.uri, file.path);
        if (await exists(uri)) found.push({ uri, folder, path: file.path });
      }
    }
    return found;
  }

  /** A config file's text, or '' when it does not exist yet (wizard, install and import then create it). */
  readText(uri: vscode.Uri): Promise<string> {
    return readConfigTextOrEmpty(uri);
  }

  /** How a config file at `uri` without indentation of its own is written: as the editor indents JSON there. */
  indentFor(uri: vscode.Uri): IndentPreference {
    return editorIndent(uri);
  }

  /**
   * Reads every source; updates diagnostics as a side effect. The files are read at once, not
   * one after another: at a window's start the extension host is busy activating extensions, and
   * each sequential read waited its turn behind them (20 reads took 1.4 s before any server
   * started, in a fresh VS Code 1.139.1 window). The documents keep their order.
   */
  async load(): Promise<ConfigDocument[]> {
    if (!this.folderWatchersMade) this.watchFolders();
    if (!this.discoveryWatchersMade) this.watchDiscovered();
    this.lastDiagnostics.clear();
    const places = (vscode.workspace.workspaceFolders ?? []).flatMap((folder) =>
      WORKSPACE_CONFIG_FILES.map((file) => ({ folder, file, uri: vscode.Uri.joinPath(folder.uri, file.path) })),
    );
    const [workspace, profile, copilot, discovered] = await Promise.all([
      Promise.all(places.map(({ folder, file, uri }) => this.loadWorkspaceFile(folder, file, uri))),
      this.loadProfile(),
      this.loadCopilotUser(),
      this.discoveryEnabled() ? this.loadDiscovered() : [],
    ]);
    const docs = workspace.filter((doc): doc is ConfigDocument => doc !== undefined);
    if (profile) docs.push(profile);
    if (copilot) docs.push(copilot);
    const vscodeSetting = loadVscodeSetting();
    if (vscodeSetting) docs.push(vscodeSetting);
    docs.push(...discovered);
    this.publishDiagnostics();
    // The setting is application-scoped (see package.json): workspaces cannot define commands through it.
    const settingValue = vscode.workspace.getConfiguration().get<unknown>(SERVERS_SETTING) ?? {};
    const fromSetting = parseServerMapValue(settingValue);
    // Its `${input:…}` are defined in mcpWorkbench.inputs (application-scoped too), read at user level only.
    const inputs = parseInputsValue(userLevelValue(vscode.workspace.getConfiguration().inspect<unknown>(INPUTS_SETTING), []));
    docs.push({
      source: { scope: 'user', label: `Settings (${SERVERS_SETTING})`, userSettings: true },
      parsed: { format: 'vscode', servers: fromSetting.servers, inputs: inputs.inputs, problems: [...fromSetting.problems, ...inputs.problems] },
    });
    return docs;
  }

  /** One workspace folder's config file, or undefined when it is not there. */
  private async loadWorkspaceFile(
    folder: vscode.WorkspaceFolder,
    file: (typeof WORKSPACE_CONFIG_FILES)[number],
    uri: vscode.Uri,
  ): Promise<ConfigDocument | undefined> {
    let text = await this.readSource(uri);
    if (text === undefined) return undefined; // not there
    let parsed: ReturnType<typeof parseConfigText>;
    if (file.copilot) ({ text, parsed } = parseCopilotConfig(text));
    else parsed = parseConfigText(text, file.format);
    ({ text, parsed } = this.steady(uri, text, parsed));
    if (file.format === 'vscode' && !file.copilot) parsed = await this.withOwnKeysBeside(folder, parsed);
    return {
      source: { scope: 'workspace', label: file.path, file: uri.fsPath, folder: folder.name, ...(file.copilot ? { copilotPlace: true } : {}) },
      parsed,
      text,
      folderPath: folder.uri.fsPath,
    };
  }

  /**
   * Records a file's diagnostics and says what its servers are. A read that is not valid JSON is a
   * file mid-edit (auto-save while typing) or mid-write (a tool truncates, then writes): the
   * tolerant parser's guess at it would stop the servers it cannot see and restart those whose
   * entry it cut. Until the file is valid again its servers stay as last read, and its
   * diagnostics say so beside the syntax error. A file never read valid is used as parsed.
   */
  private steady(uri: vscode.Uri, text: string, parsed: ParsedConfig): { text: string; parsed: ParsedConfig } {
    const key = uri.toString();
    const kept = parsed.syntaxError ? this.lastValid.get(key) : undefined;
    const keptNote = kept ? toDiagnostic(text, keptServersNote(parsed.problems)) : undefined;
    this.lastDiagnostics.set(key, { uri, diagnostics: [...parsed.problems.map((p) => toDiagnostic(text, p)), ...(keptNote ? [keptNote] : [])], keptNote });
    if (!parsed.syntaxError) this.lastValid.set(key, { text, parsed });
    return kept ?? { text, parsed };
  }

  /** A config source's text, or undefined when it is not there (then its last valid read is forgotten too). */
  private async readSource(uri: vscode.Uri): Promise<string | undefined> {
    try {
      return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    } catch {
      this.lastValid.delete(uri.toString());
      return undefined;
    }
  }

  /** `.vscode/mcp.json` with MCP Workbench's own keys from `.vscode/mcp-workbench.json` beside it (ownKeys/workbenchFile.ts); that file's problems are its diagnostics. */
  private async withOwnKeysBeside(folder: vscode.WorkspaceFolder, parsed: ReturnType<typeof parseConfigText>): Promise<ReturnType<typeof parseConfigText>> {
    const uri = vscode.Uri.joinPath(folder.uri, WORKBENCH_FILE_PATH);
    let text: string;
    try {
      text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    } catch {
      return parsed; // not there: the keys, if any, are in mcp.json itself
    }
    const read = withWorkbenchFile(parsed, parseWorkbenchFile(text));
    this.lastDiagnostics.set(uri.toString(), { uri, diagnostics: read.problems.map((p) => toDiagnostic(text, p)) });
    return read.parsed;
  }

  /** The user profile's `mcp.json`, in VS Code's format; its servers run from the home directory. */
  private async loadProfile(): Promise<ConfigDocument | undefined> {
    const uri = this.profileFile;
    if (!uri) return undefined;
    const read = await this.readSource(uri);
    if (read === undefined) return undefined; // not there: no user-level MCP servers in VS Code, or a VS Code before 1.102
    const { text, parsed } = this.steady(uri, read, parseConfigText(read, 'vscode'));
    return {
      source: { scope: 'user', label: PROFILE_MCP_LABEL, file: uri.fsPath, vscodeProfile: true },
      parsed,
      text,
      cwd: os.homedir(),
    };
  }

  /** The Copilot user file, in Copilot's format; its servers run from the home directory, as the Copilot CLI runs them. */
  private async loadCopilotUser(): Promise<ConfigDocument | undefined> {
    this.watchCopilotUserFile();
    const uri = this.copilotUserFile();
    const raw = await this.readSource(uri);
    if (raw === undefined) return undefined; // not there: no Copilot CLI servers
    const read = parseCopilotConfig(raw);
    const { text, parsed } = this.steady(uri, read.text, read.parsed);
    return {
      source: { scope: 'user', label: COPILOT_USER_LABEL, file: uri.fsPath, copilotPlace: true },
      parsed,
      text,
      cwd: discoveryEnvironment(process.platform, os.homedir(), process.env).home,
    };
  }

  private async loadDiscovered(): Promise<ConfigDocument[]> {
    const files = this.discoveryFiles();
    const raws = await Promise.all(files.map((file) => this.readSource(file.uri)));
    const docs: ConfigDocument[] = [];
    files.forEach((file, i) => {
      const raw = raws[i];
      if (raw === undefined) return;
      const adapted = adaptDiscoveredText(raw);
      const { text, parsed } = this.steady(file.uri, adapted, parseConfigText(adapted, 'mcpServers'));
      docs.push({
        source: { scope: file.source.scope, label: file.source.label, file: file.uri.fsPath, folder: file.folder?.name, discovered: file.source.id },
        parsed,
        text,
        // Cursor's project file means its folder; user-level files run from the home directory, as VS Code runs them.
        folderPath: file.folder?.uri.fsPath,
        cwd: file.folder ? undefined : discoveryEnvironment(process.platform, os.homedir(), process.env).home,
      });
    });
    return docs;
  }

  /** Publishes the last load's diagnostics, leaving out documents the language server covers while open. */
  publishDiagnostics(): void {
    const covered = this.coveredByLanguageServer;
    const open = new Set(vscode.workspace.textDocuments.filter((d) => covered?.(d)).map((d) => d.uri.toString()));
    this.diagnostics.clear();
    for (const [key, { uri, diagnostics, keptNote }] of this.lastDiagnostics) {
      // An open file's problems come from the language server; that its servers are kept as last read is ours to say.
      if (!open.has(key)) this.diagnostics.set(uri, diagnostics);
      else if (keptNote) this.diagnostics.set(uri, [keptNote]);
    }
  }

  /**
   * Each folder's config files, and with discovery on its Cursor file: a pattern based at the
   * WorkspaceFolder is served by VS Code's watcher of the workspace, which sees a file made in a
   * folder that did not exist yet (`.vscode/mcp.json`, `.cursor/mcp.json`). A watcher based at such
   * a folder itself missed the file in 1.139.1 (finalX): it never fired. The folders above the
   * files are in the pattern too: under load, the workspace's watcher can miss a file written just
   * after its new folder, never the folder (folderWatchGlob).
   */
  private watchFolders(): void {
    this.folderWatchersMade = true;
    this.folderWatchers.clear();
    const paths = [...WORKSPACE_CONFIG_FILES.map((f) => f.path), WORKBENCH_FILE_PATH, ...(this.discoveryEnabled() ? [CURSOR_WORKSPACE_FILE] : [])];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, folderWatchGlob(paths)));
      watcher.onDidChange(() => this.changed());
      watcher.onDidCreate(() => this.changed());
      watcher.onDidDelete(() => this.changed());
      this.folderWatchers.push(watcher);
    }
  }

  /** Watches other apps' files only while discovery is on; they live outside the workspace. */
  private watchDiscovered(): void {
    this.discoveryWatchersMade = true;
    this.discoveryWatchers.clear();
    if (!this.discoveryEnabled()) return;
    // A workspace folder's files are in the folders' watchers (watchFolders).
    for (const file of this.discoveryFiles()) if (!file.folder) this.discoveryWatchers.push(...watchFile(file.uri, () => this.changed()));
  }

  private changed(): void {
    clearTimeout(this.debounce);
    this.debounce = setTimeout(() => this.onDidChangeEmitter.fire(), 150);
  }

  dispose(): void {
    clearTimeout(this.debounce);
    this.folderWatchers.dispose();
    this.discoveryWatchers.dispose();
    this.copilotWatch?.disposables.forEach((d) => d.dispose());
    this.disposables.dispose();
  }
}

/**
 * VS Code's user-level `mcp` setting, where VS Code 1.99 – 1.101 kept the user's MCP servers (in
 * the format of `.vscode/mcp.json`). Read at user level only: a workspace value is the
 * workspace's, and `.vscode/mcp.json` is its place. Not read from 1.102 on, which moves the
 * setting into the profile's `mcp.json` (read above) and no longer reads it. Its servers run from
 * the home directory, as VS Code runs them.
 */
function loadVscodeSetting(): ConfigDocument | undefined {
  if (readsProfileMcpJson(vscode.version)) return undefined;
  // The user's value only: VS Code 1.99 – 1.101's default value of `mcp` is an example server
  // (`mcp-server-time`, run with python), which nobody configured.
  const value = vscode.workspace.getConfiguration().inspect<unknown>(VSCODE_MCP_SETTING)?.globalValue;
  if (value === undefined || value === null) return undefined;
  const record = typeof value === 'object' && !Array.isArray(value) ? (value as { servers?: unknown; inputs?: unknown }) : {};
  const servers = parseServerMapValue(record.servers ?? {});
  const inputs = parseInputsValue(record.inputs ?? []);
  return {
    source: { scope: 'user', label: VSCODE_SETTING_MCP_LABEL, vscodeSetting: true },
    parsed: { format: 'vscode', servers: servers.servers, inputs: inputs.inputs, problems: [...servers.problems, ...inputs.problems] },
    cwd: os.homedir(),
  };
}

/** Watches one file outside the workspace (its folder, non-recursively). */
function watchFile(uri: vscode.Uri, changed: () => void): vscode.Disposable[] {
  const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.joinPath(uri, '..'), uri.path.split('/').pop()!));
  return [watcher, watcher.onDidChange(changed), watcher.onDidCreate(changed), watcher.onDidDelete(changed)];
}

/** Beside a syntax error: the file's servers are those of its last valid read (`steady`). */
function keptServersNote(problems: readonly ConfigProblem[]): ConfigProblem {
  const first = problems.find((p) => p.severity === 'error') ?? problems[0];
  return {
    severity: 'info',
    message: vscode.l10n.t('The servers of this file are kept as they were last read until its JSON syntax error is fixed.'),
    offset: first?.offset ?? 0,
    length: first?.length ?? 1,
  };
}

function toDiagnostic(text: string, problem: ConfigProblem): vscode.Diagnostic {
  const start = positionAt(text, problem.offset);
  const end = positionAt(text, problem.offset + problem.length);
  const severity =
    problem.severity === 'error'
      ? vscode.DiagnosticSeverity.Error
      : problem.severity === 'warning'
        ? vscode.DiagnosticSeverity.Warning
        : vscode.DiagnosticSeverity.Information;
  const diagnostic = new vscode.Diagnostic(new vscode.Range(start.line, start.character, end.line, end.character), problem.message, severity);
  diagnostic.source = 'MCP Workbench';
  return diagnostic;
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/** A config file's text, or '' when it does not exist yet (wizard and import then create it). */
async function readConfigTextOrEmpty(uri: vscode.Uri): Promise<string> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return '';
  }
}

/** How the editor indents a JSON file at `uri`: what a config file without indentation of its own is written with. */
function editorIndent(uri: vscode.Uri): IndentPreference {
  const editor = vscode.workspace.getConfiguration('editor', { uri, languageId: 'jsonc' });
  const tabSize = editor.get<number | string>('tabSize');
  return { insertSpaces: editor.get<boolean>('insertSpaces') ?? true, tabSize: typeof tabSize === 'number' && tabSize > 0 ? tabSize : 2 };
}
