/**
 * A minimal `vscode` module for running the extension's bundle in plain Node: the benchmark
 * activates the real extension (dist/extension.js) and drives it through the API it returns.
 *
 * This is the one boundary of the benchmark that cannot be real: `vscode` exists only inside
 * an extension host. What the code under test does with it is kept as cheap as VS Code's own
 * side in the extension host and no cheaper where it is on a measured path:
 * - TreeItem, MarkdownString (appendText escapes and appendCodeblock fences as VS Code's do),
 *   ThemeIcon, ThemeColor, Uri, EventEmitter, Disposable are small real implementations;
 * - settings come from package.json defaults plus what the benchmark sets (`settings`);
 * - output channels count their lines and drop them (VS Code would send them to the renderer:
 *   that IPC is not measured); tree views, status bar items, webviews and everything else
 *   are inert objects (see `anything`), and each such member touched is listed in
 *   `fallbacks` so the report can say what was faked.
 * What VS Code itself does with the results (rendering trees, serialising tree items over
 * IPC) is outside every measurement here.
 */
import Module from 'node:module';
import * as fs from 'node:fs';
import * as path from 'node:path';

type Listener<T> = (e: T) => unknown;

export class Disposable {
  static from(...items: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => items.forEach((d) => d.dispose()));
  }
  constructor(private readonly callOnDispose: () => unknown) {}
  dispose(): void {
    this.callOnDispose();
  }
}

export class EventEmitter<T> {
  private listeners: Listener<T>[] = [];
  readonly event = (listener: Listener<T>, thisArg?: unknown, disposables?: { dispose(): unknown }[]): Disposable => {
    const bound: Listener<T> = thisArg ? listener.bind(thisArg) : listener;
    this.listeners.push(bound);
    const d = new Disposable(() => {
      this.listeners = this.listeners.filter((l) => l !== bound);
    });
    disposables?.push(d);
    return d;
  };
  fire(data: T): void {
    for (const l of [...this.listeners]) l(data);
  }
  dispose(): void {
    this.listeners = [];
  }
}

export class Uri {
  private constructor(readonly scheme: string, readonly authority: string, readonly path: string, readonly query: string, readonly fragment: string) {}
  static file(p: string): Uri {
    return new Uri('file', '', path.resolve(p).split(path.sep).join('/'), '', '');
  }
  static parse(value: string): Uri {
    const u = new URL(value);
    return new Uri(u.protocol.replace(/:$/, ''), u.host, decodeURIComponent(u.pathname), u.search.replace(/^\?/, ''), u.hash.replace(/^#/, ''));
  }
  static from(c: { scheme: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(c.scheme, c.authority ?? '', c.path ?? '', c.query ?? '', c.fragment ?? '');
  }
  static joinPath(base: Uri, ...segments: string[]): Uri {
    return base.with({ path: path.posix.join(base.path, ...segments) });
  }
  get fsPath(): string {
    return this.path.split('/').join(path.sep);
  }
  with(change: { scheme?: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(change.scheme ?? this.scheme, change.authority ?? this.authority, change.path ?? this.path, change.query ?? this.query, change.fragment ?? this.fragment);
  }
  toString(): string {
    return `${this.scheme}://${this.authority}${this.path}${this.query ? `?${this.query}` : ''}${this.fragment ? `#${this.fragment}` : ''}`;
  }
  toJSON(): unknown {
    return { scheme: this.scheme, authority: this.authority, path: this.path, query: this.query, fragment: this.fragment };
  }
}

export enum TreeItemCollapsibleState { None = 0, Collapsed = 1, Expanded = 2 }

export class TreeItem {
  id?: string;
  description?: string | boolean;
  tooltip?: string | MarkdownString;
  iconPath?: unknown;
  contextValue?: string;
  command?: unknown;
  accessibilityInformation?: unknown;
  resourceUri?: Uri;
  label?: unknown;
  constructor(labelOrUri: string | Uri, public collapsibleState: TreeItemCollapsibleState = TreeItemCollapsibleState.None) {
    if (typeof labelOrUri === 'string') this.label = labelOrUri;
    else this.resourceUri = labelOrUri;
  }
}

/** As VS Code's (src/vs/base/common/htmlContent.ts): the escaping is part of what a tooltip costs. */
export class MarkdownString {
  isTrusted?: boolean;
  supportHtml?: boolean;
  constructor(public value = '', public supportThemeIcons = false) {}
  appendText(value: string): MarkdownString {
    this.value += (this.supportThemeIcons ? value.replace(/\$\([^)]*\)/g, (m) => `\\${m}`) : value)
      .replace(/[\\`*_{}[\]()#+\-!~]/g, '\\$&')
      .replace(/([ \t]+)/g, (_, g1: string) => '&nbsp;'.repeat(g1.length))
      .replace(/>/gm, '\\>')
      .replace(/\n/g, '\n\n');
    return this;
  }
  appendMarkdown(value: string): MarkdownString {
    this.value += value;
    return this;
  }
  appendCodeblock(code: string, language = ''): MarkdownString {
    this.value += '\n```' + language + '\n' + code + '\n```\n';
    return this;
  }
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

export class ThemeIcon {
  static readonly File = new ThemeIcon('file');
  static readonly Folder = new ThemeIcon('folder');
  constructor(readonly id: string, readonly color?: ThemeColor) {}
}

class Position {
  constructor(readonly line: number, readonly character: number) {}
}
class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(a: number | Position, b: number | Position, c?: number, d?: number) {
    this.start = typeof a === 'number' ? new Position(a, b as number) : a;
    this.end = typeof a === 'number' ? new Position(c!, d!) : (b as Position);
  }
}

/** What the extension registers with `window.registerWebviewViewProvider`. */
export interface StubWebviewViewProvider {
  resolveWebviewView(view: unknown, context: unknown, token: unknown): unknown;
}

/** What the benchmark reads back from the stub. */
export interface StubControl {
  /** Settings by full key (`mcpWorkbench.servers`); package.json defaults apply to the rest. */
  readonly settings: Map<string, unknown>;
  /** Fires onDidChangeConfiguration for the keys (the extension then reacts as in VS Code). */
  changeSettings(values: Record<string, unknown>): void;
  /** Lines written to output channels, by level (`info`, `stderr`, …). */
  readonly outputLines: Map<string, number>;
  /** Registered commands (the benchmark calls `_mcpWorkbench.activityLog`). */
  readonly commands: Map<string, (...args: unknown[]) => unknown>;
  /** Registered webview view providers by view id (the inspector scenario resolves the Inspector's with a counting webview). */
  readonly webviewViews: Map<string, StubWebviewViewProvider>;
  /** Members of `vscode` served by the inert fallback, in the order first touched. */
  readonly fallbacks: Set<string>;
  /** A fake ExtensionContext for activate(). */
  context(extensionRoot: string): unknown;
}

/**
 * An inert value for any API the benchmark does not model: callable, constructible, every
 * property is another such value (kept, so writes like `view.description = …` stick); never a
 * thenable, iterates as empty.
 */
function anything(name: string, fallbacks: Set<string>): unknown {
  const target = function stub() {} as unknown as Record<string | symbol, unknown>;
  return new Proxy(target, {
    get(t, prop) {
      if (prop === 'then') return undefined;
      if (prop === Symbol.iterator) return function* empty() {};
      if (prop === Symbol.toPrimitive) return () => `[stub ${name}]`;
      if (prop in t) return t[prop];
      const childName = `${name}.${String(prop)}`;
      fallbacks.add(childName);
      const child = anything(childName, fallbacks);
      t[prop] = child;
      return child;
    },
    // Plain writes (`item.name = …`) must stick even where a function's own property is read-only.
    set(t, prop, value) {
      Object.defineProperty(t, prop, { value, writable: true, configurable: true, enumerable: true });
      return true;
    },
    apply: () => anything(`${name}()`, fallbacks),
    construct: () => anything(`new ${name}`, fallbacks) as object,
  });
}

/** An object with the given members whose other members fall back to `anything`. */
function withFallback<T extends object>(name: string, members: T, fallbacks: Set<string>): T {
  const proto = new Proxy({}, {
    get(_t, prop, receiver) {
      if (prop === 'then' || prop === '__esModule' || typeof prop === 'symbol') return undefined;
      const value = anything(`${name}.${prop}`, fallbacks);
      fallbacks.add(`${name}.${prop}`);
      Object.defineProperty(receiver, prop, { value, configurable: true, writable: true });
      return value;
    },
  });
  return Object.setPrototypeOf(members, proto);
}

function format(message: string, args: unknown[]): string {
  return message.replace(/\{(\d+)\}/g, (m, i: string) => (args[Number(i)] === undefined ? m : String(args[Number(i)])));
}

class Memento {
  private readonly values = new Map<string, unknown>();
  get<T>(key: string, defaultValue?: T): T | undefined {
    return this.values.has(key) ? (this.values.get(key) as T) : defaultValue;
  }
  update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
    return Promise.resolve();
  }
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  setKeysForSync(): void {}
}

export function createVscodeStub(packageJsonPath: string): { api: Record<string, unknown>; control: StubControl } {
  const fallbacks = new Set<string>();
  const packageJson = JSON.parse(fs.readFileSync(packageJsonPath, 'utf8')) as {
    contributes?: { configuration?: { properties?: Record<string, { default?: unknown }> } | { properties?: Record<string, { default?: unknown }> }[] };
  };
  const defaults = new Map<string, unknown>();
  const configs = packageJson.contributes?.configuration;
  for (const section of Array.isArray(configs) ? configs : configs ? [configs] : []) {
    for (const [key, prop] of Object.entries(section.properties ?? {})) if ('default' in prop) defaults.set(key, prop.default);
  }
  const settings = new Map<string, unknown>();
  const outputLines = new Map<string, number>();
  const commands = new Map<string, (...args: unknown[]) => unknown>();
  const webviewViews: StubControl['webviewViews'] = new Map();
  const onDidChangeConfiguration = new EventEmitter<{ affectsConfiguration(section: string): boolean }>();
  const countLine = (level: string) => () => outputLines.set(level, (outputLines.get(level) ?? 0) + 1);
  const disposable = () => new Disposable(() => undefined);
  const event = () => (() => disposable()) as unknown;

  const read = (key: string): unknown => (settings.has(key) ? settings.get(key) : defaults.get(key));
  const getConfiguration = (section?: string) => {
    const full = (key: string) => (section ? `${section}.${key}` : key);
    return withFallback('WorkspaceConfiguration', {
      get: <T>(key: string, defaultValue?: T): T | undefined => {
        const value = read(full(key));
        return value === undefined ? defaultValue : structuredClone(value as T);
      },
      has: (key: string) => read(full(key)) !== undefined,
      inspect: (key: string) => ({ key: full(key), defaultValue: defaults.get(full(key)), globalValue: settings.get(full(key)) }),
      update: async (key: string, value: unknown) => control.changeSettings({ [full(key)]: value }),
    }, fallbacks);
  };

  const outputChannel = (name: string) => withFallback('LogOutputChannel', {
    name,
    logLevel: 2,
    trace: countLine('trace'),
    debug: countLine('debug'),
    info: countLine('info'),
    warn: countLine('warn'),
    error: countLine('error'),
    append: countLine('append'),
    appendLine: countLine('stderr'),
    replace: () => undefined,
    clear: () => undefined,
    show: () => undefined,
    hide: () => undefined,
    dispose: () => undefined,
    onDidChangeLogLevel: event(),
  }, fallbacks);

  const window = withFallback('window', {
    createOutputChannel: outputChannel,
    createTreeView: () => withFallback('TreeView', {
      visible: true,
      selection: [],
      reveal: () => Promise.resolve(),
      dispose: () => undefined,
      onDidChangeVisibility: event(),
      onDidChangeSelection: event(),
      onDidExpandElement: event(),
      onDidCollapseElement: event(),
    }, fallbacks),
    registerTreeDataProvider: disposable,
    registerUriHandler: disposable,
    registerWebviewPanelSerializer: disposable,
    registerWebviewViewProvider: (id: string, provider: StubWebviewViewProvider) => {
      webviewViews.set(id, provider);
      return new Disposable(() => webviewViews.delete(id));
    },
    showErrorMessage: () => Promise.resolve(undefined),
    showWarningMessage: () => Promise.resolve(undefined),
    showInformationMessage: () => Promise.resolve(undefined),
    setStatusBarMessage: disposable,
    onDidChangeActiveTextEditor: event(),
    onDidChangeVisibleTextEditors: event(),
    visibleTextEditors: [],
    activeTextEditor: undefined,
  }, fallbacks);

  const workspace = withFallback('workspace', {
    workspaceFolders: undefined,
    textDocuments: [],
    isTrusted: true,
    getConfiguration,
    getWorkspaceFolder: () => undefined,
    onDidChangeConfiguration: onDidChangeConfiguration.event,
    onDidChangeWorkspaceFolders: event(),
    onDidGrantWorkspaceTrust: event(),
    onDidOpenTextDocument: event(),
    onDidCloseTextDocument: event(),
    onDidSaveTextDocument: event(),
    onDidChangeTextDocument: event(),
    registerTextDocumentContentProvider: disposable,
    registerFileSystemProvider: disposable,
    createFileSystemWatcher: () => withFallback('FileSystemWatcher', { onDidCreate: event(), onDidChange: event(), onDidDelete: event(), dispose: () => undefined }, fallbacks),
    fs: withFallback('workspace.fs', {
      readFile: async (uri: Uri) => fs.promises.readFile(uri.fsPath),
      stat: async (uri: Uri) => fs.promises.stat(uri.fsPath).then((s) => ({ type: s.isDirectory() ? 2 : 1, size: s.size, ctime: s.ctimeMs, mtime: s.mtimeMs })),
    }, fallbacks),
  }, fallbacks);

  const api = withFallback('vscode', {
    version: '1.100.0',
    Disposable,
    EventEmitter,
    Uri,
    TreeItem,
    TreeItemCollapsibleState,
    MarkdownString,
    ThemeIcon,
    ThemeColor,
    Position,
    Range,
    RelativePattern: class RelativePattern { constructor(readonly base: unknown, readonly pattern: string) {} },
    CancellationTokenSource: class CancellationTokenSource {
      private readonly emitter = new EventEmitter<void>();
      readonly token = { isCancellationRequested: false, onCancellationRequested: this.emitter.event };
      cancel(): void { this.token.isCancellationRequested = true; this.emitter.fire(); }
      dispose(): void { this.emitter.dispose(); }
    },
    ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
    StatusBarAlignment: { Left: 1, Right: 2 },
    ViewColumn: { Active: -1, Beside: -2, One: 1, Two: 2 },
    ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
    DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
    FileType: { Unknown: 0, File: 1, Directory: 2, SymbolicLink: 64 },
    FileChangeType: { Changed: 1, Created: 2, Deleted: 3 },
    FilePermission: { Readonly: 1 },
    QuickPickItemKind: { Separator: -1, Default: 0 },
    ExtensionMode: { Production: 1, Development: 2, Test: 3 },
    l10n: withFallback('l10n', {
      // English, as VS Code has it: no bundle (a fallback here would be an object that grows the
      // keys l10n.t of @vscode/l10n looks up, and a webview's HTML would then try to carry it).
      bundle: undefined,
      uri: undefined,
      t: (message: string | { message: string; args?: unknown[] }, ...args: unknown[]) =>
        typeof message === 'string' ? format(message, args) : format(message.message, message.args ?? []),
    }, fallbacks),
    window,
    workspace,
    commands: withFallback('commands', {
      registerCommand: (id: string, handler: (...args: unknown[]) => unknown) => {
        commands.set(id, handler);
        return new Disposable(() => commands.delete(id));
      },
      executeCommand: async (id: string, ...args: unknown[]) => commands.get(id)?.(...args),
      getCommands: async () => [...commands.keys()],
    }, fallbacks),
    languages: withFallback('languages', {
      match: () => 0,
      registerCodeLensProvider: disposable,
    }, fallbacks),
    extensions: withFallback('extensions', { getExtension: () => undefined, all: [] }, fallbacks),
    env: withFallback('env', { appName: 'Visual Studio Code', uriScheme: 'vscode', language: 'en', machineId: 'bench', sessionId: 'bench' }, fallbacks),
  }, fallbacks);

  giveFullSurface(api, fallbacks);

  const control: StubControl = {
    settings,
    outputLines,
    commands,
    webviewViews,
    fallbacks,
    changeSettings(values) {
      for (const [key, value] of Object.entries(values)) {
        if (value === undefined) settings.delete(key);
        else settings.set(key, value);
      }
      const keys = Object.keys(values);
      onDidChangeConfiguration.fire({ affectsConfiguration: (section) => keys.some((k) => k === section || k.startsWith(`${section}.`) || section.startsWith(`${k}.`)) });
    },
    context(extensionRoot) {
      const extensionUri = Uri.file(extensionRoot);
      const secrets = new Map<string, string>();
      const onDidChangeSecrets = new EventEmitter<{ key: string }>();
      const storage = Uri.file(path.join(extensionRoot, '.bench-storage'));
      return withFallback('ExtensionContext', {
        subscriptions: [] as { dispose(): unknown }[],
        extensionUri,
        extensionPath: extensionRoot,
        extensionMode: 1,
        extension: { id: 'mcp-workbench.mcp-workbench', extensionUri, extensionPath: extensionRoot, packageJSON: JSON.parse(fs.readFileSync(packageJsonPath, 'utf8')) },
        globalState: new Memento(),
        workspaceState: new Memento(),
        secrets: {
          get: async (key: string) => secrets.get(key),
          store: async (key: string, value: string) => { secrets.set(key, value); onDidChangeSecrets.fire({ key }); },
          delete: async (key: string) => { secrets.delete(key); onDidChangeSecrets.fire({ key }); },
          onDidChange: onDidChangeSecrets.event,
        },
        globalStorageUri: storage,
        storageUri: undefined,
        logUri: storage,
        asAbsolutePath: (p: string) => path.join(extensionRoot, p),
      }, fallbacks);
    },
  };
  return { api, control };
}

/**
 * The real API object has an own property for every name of @types/vscode (and the proposals),
 * and what the bundle pays at load depends on it: esbuild's module interop copies every own
 * name. A stub with only the modelled names made activation look cheaper than it is (issue 30);
 * so every top-level value of @types/vscode is an own property here too, the unmodelled ones
 * inert (`anything`, which lists what of them is used).
 */
function giveFullSurface(api: Record<string, unknown>, fallbacks: Set<string>): void {
  const types = path.join(path.dirname(require.resolve('@types/vscode/package.json')), 'index.d.ts');
  const names = new Set([...fs.readFileSync(types, 'utf8').matchAll(/^\texport (?:namespace|class|enum|const|let|function) (\w+)/gm)].map((m) => m[1]));
  for (const name of names) {
    if (!Object.prototype.hasOwnProperty.call(api, name)) {
      Object.defineProperty(api, name, { value: anything(`vscode.${name}`, fallbacks), enumerable: true, configurable: true, writable: true });
    }
  }
}

/**
 * Makes `require('vscode')` return `api` in this process, for the bundle and for files compiled
 * one by one alike. Returns a function that removes the hook.
 */
export function installVscodeStub(api: unknown): () => void {
  const id = path.join(__dirname, '<vscode stub>');
  const stubModule = new Module(id);
  stubModule.exports = api;
  stubModule.loaded = true;
  require.cache[id] = stubModule;
  const loader = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const original = loader._resolveFilename;
  loader._resolveFilename = function resolve(request: string, ...rest: unknown[]) {
    return request === 'vscode' ? id : original.call(this, request, ...rest);
  };
  return () => {
    loader._resolveFilename = original;
    delete require.cache[id];
  };
}
