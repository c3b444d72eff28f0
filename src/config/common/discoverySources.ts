/**
 * Discovery of MCP servers configured for other apps (Claude Desktop, Cursor, Windsurf), and
 * the conversion of their entries into VS Code's `.vscode/mcp.json` shape. Pure: paths are
 * computed from an injected platform, home and environment; nothing here reads files.
 *
 * Paths are the ones VS Code's own discovery uses (`contrib/mcp/common/discovery/
 * nativeMcpDiscoveryAdapters.ts`, `workspaceMcpDiscoveryAdapter.ts`) and the apps document.
 */
import * as path from 'node:path';
import * as jsonc from 'jsonc-parser';
import type { DiscoverySourceId, Launch } from './launchDefinition';
import { SECRET_ENV, SECRET_HEADER } from './secretNames';
import { parseJsonTree } from './jsonNesting';
import { parseConfigText, type InputDefinition, type ParsedConfig, type ServerEntry } from './serverConfig';

type LaunchDefinitionLike = { launch: Launch };

export interface DiscoverySourceInfo {
  id: DiscoverySourceId;
  /** Shown in the tree and tooltips: where the server comes from. */
  label: string;
  /** `workspace` files come with the folder and need workspace trust; `user` files are the user's own. */
  scope: 'user' | 'workspace';
}

export const DISCOVERY_SOURCES: Readonly<Record<DiscoverySourceId, DiscoverySourceInfo>> = {
  claudeDesktop: { id: 'claudeDesktop', label: 'Claude Desktop', scope: 'user' },
  cursorGlobal: { id: 'cursorGlobal', label: 'Cursor (global)', scope: 'user' },
  cursorWorkspace: { id: 'cursorWorkspace', label: 'Cursor (workspace)', scope: 'workspace' },
  windsurf: { id: 'windsurf', label: 'Windsurf', scope: 'user' },
};

export const DISCOVERY_SETTING = 'mcpWorkbench.discovery.enabled';

/**
 * For tests only: a directory used as the home directory of discovery (with no `APPDATA` /
 * `XDG_CONFIG_HOME`), so a test can point discovery at a fixture home.
 */
export const DISCOVERY_HOME_ENV = 'MCPWB_DISCOVERY_HOME';

/** What the paths depend on. */
export interface DiscoveryEnvironment {
  platform: string;
  home: string;
  /** `%APPDATA%` on Windows (default `<home>\AppData\Roaming`). */
  appData?: string;
  /** `$XDG_CONFIG_HOME` on Linux (default `<home>/.config`). */
  xdgConfigHome?: string;
}

export function discoveryEnvironment(platform: string, homedir: string, env: Readonly<Record<string, string | undefined>>): DiscoveryEnvironment {
  const testHome = env[DISCOVERY_HOME_ENV];
  if (testHome) return { platform, home: testHome };
  return { platform, home: homedir, appData: env.APPDATA || undefined, xdgConfigHome: env.XDG_CONFIG_HOME || undefined };
}

export interface DiscoveryFile {
  source: DiscoverySourceInfo;
  path: string;
}

function pathFor(platform: string): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

/** The user-level config files of other apps on this platform, in the order they are listed. */
export function userDiscoveryFiles(env: DiscoveryEnvironment): DiscoveryFile[] {
  const p = pathFor(env.platform);
  const claude =
    env.platform === 'win32'
      ? p.join(env.appData ?? p.join(env.home, 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json')
      : env.platform === 'darwin'
        ? p.join(env.home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json')
        : p.join(env.xdgConfigHome ?? p.join(env.home, '.config'), 'Claude', 'claude_desktop_config.json');
  return [
    { source: DISCOVERY_SOURCES.claudeDesktop, path: claude },
    { source: DISCOVERY_SOURCES.cursorGlobal, path: p.join(env.home, '.cursor', 'mcp.json') },
    { source: DISCOVERY_SOURCES.windsurf, path: p.join(env.home, '.codeium', 'windsurf', 'mcp_config.json') },
  ];
}

/** How the tree, tooltips and messages name the user profile's `mcp.json`. */
export const PROFILE_MCP_LABEL = 'VS Code user mcp.json';

/** VS Code's own `mcp` setting (`{ "servers": {…}, "inputs": […] }`), read at user level only. */
export const VSCODE_MCP_SETTING = 'mcp';
/** How the tree, tooltips and messages name it. */
export const VSCODE_SETTING_MCP_LABEL = 'VS Code user settings';

/**
 * The path of the user profile's `mcp.json` (where VS Code 1.102+ keeps the user's MCP servers),
 * from the path of an extension's global storage: `<profile>/globalStorage/<extension id>`, with
 * `<profile>` the `User` folder or `User/profiles/<id>` (VS Code's `IUserDataProfile.location`,
 * whose `mcpResource` is `<profile>/mcp.json`). Undefined for any other layout. Posix paths
 * (URI paths), as `Uri.path` gives them.
 */
export function profileMcpJsonPath(globalStoragePath: string): string | undefined {
  const parts = globalStoragePath.replace(/\/+$/, '').split('/');
  if (parts.length < 3 || parts[parts.length - 2] !== 'globalStorage') return undefined;
  return [...parts.slice(0, -2), 'mcp.json'].join('/');
}

/**
 * GitHub Copilot's MCP config places (the Copilot CLI's, which VS Code 1.140+'s Copilot agent host
 * reads natively too): the user's `$COPILOT_HOME/mcp-config.json` (default `~/.copilot`) and a
 * repository's `.github/mcp.json`, both `{ "mcpServers": { … } }` (GitHub's docs: "Adding MCP
 * servers for GitHub Copilot CLI", "CLI configuration directory").
 */
export const COPILOT_HOME_ENV = 'COPILOT_HOME';
export const GITHUB_MCP_FILE = '.github/mcp.json';
/** How the tree, tooltips and messages name the Copilot user file. */
export const COPILOT_USER_LABEL = 'Copilot mcp-config.json';

/**
 * The Copilot user file: `$COPILOT_HOME/mcp-config.json`, else `<home>/.copilot/mcp-config.json`.
 * A relative `COPILOT_HOME` means a folder relative to wherever the CLI was started, which we
 * cannot know: it is not followed (the default is read).
 */
export function copilotUserConfigPath(env: DiscoveryEnvironment, vars: Readonly<Record<string, string | undefined>>): string {
  const p = pathFor(env.platform);
  const dir = vars[COPILOT_HOME_ENV];
  return p.join(dir && p.isAbsolute(dir) ? dir : p.join(env.home, '.copilot'), 'mcp-config.json');
}

/** Keys of a Copilot entry that are Copilot's, so they get no "unknown key" warning (`tools` is read as the entry's allow list, entryPolicy.ts). */
const COPILOT_ONLY_KEYS = ['tools', 'timeout', 'oauthClientId', 'oauthPublicClient', 'oidc', 'filterMapping', 'disableToolCache'];

/**
 * Copilot's spellings read as ours before parsing, keeping every line where it is: `"type":
 * "local"` is `"stdio"` (same length), and `$VAR` / `${VAR}` in `env` and `headers` values (the
 * Copilot CLI expands them there) are `${env:VAR}`. `${VAR:-default}` is left as written, so
 * it is reported as a variable we do not know instead of silently meaning something else.
 */
export function adaptCopilotText(text: string): string {
  const root = parseJsonTree(text, [], { allowTrailingComma: true });
  const servers = root && jsonc.findNodeAtLocation(root, ['mcpServers']);
  if (servers?.type !== 'object') return text;
  const edits: { offset: number; length: number; text: string }[] = [];
  for (const property of servers.children ?? []) {
    const entry = property.children?.[1];
    if (entry?.type !== 'object') continue;
    const type = jsonc.findNodeAtLocation(entry, ['type']);
    if (type?.type === 'string' && type.value === 'local') edits.push({ offset: type.offset, length: type.length, text: '"stdio"' });
    for (const key of ['env', 'headers']) {
      const map = jsonc.findNodeAtLocation(entry, [key]);
      if (map?.type !== 'object') continue;
      for (const value of (map.children ?? []).map((c) => c.children?.[1])) {
        if (value?.type !== 'string') continue;
        const raw = text.slice(value.offset, value.offset + value.length);
        const adapted = raw.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (whole, braced?: string, bare?: string) => {
          const name = braced ?? bare!;
          return braced !== undefined && (name === 'workspaceFolder' || name === 'userHome') ? whole : `\${env:${name}}`;
        });
        if (adapted !== raw) edits.push({ offset: value.offset, length: value.length, text: adapted });
      }
    }
  }
  let out = text;
  for (const e of edits.sort((a, b) => b.offset - a.offset)) out = out.slice(0, e.offset) + e.text + out.slice(e.offset + e.length);
  return out;
}

/** Leaves out the "unknown key" warnings for keys Copilot defines (`tools`, `timeout`, …): they are Copilot's, not typos. */
export function withoutCopilotKeyWarnings<P extends { severity: string; offset: number; length: number }>(text: string, problems: readonly P[]): P[] {
  const keys = new Set(COPILOT_ONLY_KEYS.map((k) => JSON.stringify(k)));
  return problems.filter((p) => p.severity === 'error' || !keys.has(text.slice(p.offset, p.offset + p.length)));
}

/** Reads a Copilot config text: its spellings as ours, its own keys not taken for typos. `text` is what offsets and lines refer to. */
export function parseCopilotConfig(raw: string): { text: string; parsed: ParsedConfig } {
  const text = adaptCopilotText(raw);
  const parsed = parseConfigText(text, 'mcpServers');
  return { text, parsed: { ...parsed, problems: withoutCopilotKeyWarnings(text, parsed.problems) } };
}

/** Cursor's per-project file, relative to a workspace folder. */
export const CURSOR_WORKSPACE_FILE = '.cursor/mcp.json';

/**
 * The glob a workspace folder's watcher uses for config files at `paths` (relative to the
 * folder): the files and every folder above them. A file made together with its folder (an app
 * writing `.cursor/mcp.json` in a folder that had no `.cursor`) may never fire an event of its
 * own: VS Code's watcher starts watching the new folder only after it sees it, and a file written
 * before that is missed (2 of 25 such writes in VS Code 1.100.3 under load), and a folder moved in
 * with its file, or deleted with it, fires no event for the file at all. The folder's own event
 * is seen, and the read it triggers finds the file (or its absence).
 */
export function folderWatchGlob(paths: readonly string[]): string {
  const entries = new Set<string>();
  for (const path of paths) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) entries.add(parts.slice(0, i).join('/'));
    entries.add(path);
  }
  return `{${[...entries].join(',')}}`;
}

/**
 * Other apps' spellings read as ours before parsing: Windsurf writes a remote server's URL as
 * `serverUrl`. Only the key is renamed, so lines (for "open at the server's line") stay put.
 */
export function adaptDiscoveredText(text: string): string {
  const root = parseJsonTree(text, [], { allowTrailingComma: true });
  const servers = root && jsonc.findNodeAtLocation(root, ['mcpServers']);
  if (servers?.type !== 'object') return text;
  const renames: jsonc.Node[] = [];
  for (const property of servers.children ?? []) {
    const entry = property.children?.[1];
    if (entry?.type !== 'object' || jsonc.findNodeAtLocation(entry, ['url'])) continue;
    const key = entry.children?.find((p) => p.children?.[0]?.value === 'serverUrl')?.children?.[0];
    if (key) renames.push(key);
  }
  let out = text;
  for (const key of renames.reverse()) out = out.slice(0, key.offset) + '"url"' + out.slice(key.offset + key.length);
  return out;
}

/** The keys of a `.vscode/mcp.json` entry in the order VS Code's docs write them. */
const ENTRY_KEY_ORDER: readonly (keyof ServerEntry)[] = [
  'type',
  'command',
  'args',
  'env',
  'envFile',
  'cwd',
  'url',
  'headers',
  'disabled',
  'timeouts',
  'oauth',
  'dev',
];

export interface ImportedEntry {
  /** The entry in `servers` shape (with `type`), secrets replaced by `${input:…}`. */
  entry: Record<string, unknown>;
  /** Input definitions to add to the file's `inputs`. */
  inputs: InputDefinition[];
  /** Values of those inputs, to keep in secret storage so the server starts without asking. */
  values: Record<string, string>;
}

/**
 * Converts a parsed `mcpServers` entry into the `servers` shape of `.vscode/mcp.json`: `type`
 * made explicit, keys in the usual order, and literal secrets (token-like `env` names,
 * `Authorization`-like headers) moved into password inputs, because a workspace file is
 * often committed while the other app's file never is.
 */
export function toWorkspaceEntry(name: string, entry: ServerEntry, existingInputIds: readonly string[] = []): ImportedEntry {
  const out: Record<string, unknown> = {};
  const inputs: InputDefinition[] = [];
  const values: Record<string, string> = {};
  const taken = new Set(existingInputIds);
  const secretInput = (key: string, value: string, what: string): string => {
    let id = `${name}-${key}`.replace(/[^A-Za-z0-9_.-]+/g, '-');
    for (let i = 2; taken.has(id); i++) id = `${name}-${key}-${i}`.replace(/[^A-Za-z0-9_.-]+/g, '-');
    taken.add(id);
    inputs.push({ id, type: 'promptString', description: `${what} for MCP server "${name}"`, password: true });
    values[id] = value;
    return `\${input:${id}}`;
  };
  const literal = (v: string) => v !== '' && !v.includes('${');
  for (const key of ENTRY_KEY_ORDER) {
    const value = entry[key];
    if (value === undefined) continue;
    if (key === 'command' && entry.type !== 'stdio') continue;
    if (key === 'url' && entry.type === 'stdio') continue;
    if (key === 'args' && Array.isArray(value) && value.length === 0) continue;
    if (key === 'disabled' && value === false) continue;
    if (key === 'env' && entry.env) {
      out.env = Object.fromEntries(
        Object.entries(entry.env).map(([k, v]) => [k, typeof v === 'string' && SECRET_ENV.test(k) && literal(v) ? secretInput(k, v, k) : v]),
      );
      continue;
    }
    if (key === 'headers' && entry.headers) {
      out.headers = Object.fromEntries(
        Object.entries(entry.headers).map(([k, v]) => {
          if (!SECRET_HEADER.test(k) || !literal(v)) return [k, v];
          const bearer = /^Bearer\s+(.+)$/i.exec(v);
          return [k, bearer ? `Bearer ${secretInput(k, bearer[1], `${k} token`)}` : secretInput(k, v, k)];
        }),
      );
      continue;
    }
    out[key] = value;
  }
  return { entry: out, inputs, values };
}

/** The parts of a resolved launch that make two servers the same process or endpoint. */
export function launchIdentity(def: LaunchDefinitionLike): string {
  const l = def.launch;
  return l.type === 'stdio' ? JSON.stringify(['stdio', l.command, l.args, sortedEntries(l.env)]) : JSON.stringify([l.type, l.url, sortedEntries(l.headers)]);
}

function sortedEntries(map: Readonly<Record<string, unknown>>): [string, unknown][] {
  return Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Leaves out discovered servers that the user's own config already has (same name and the
 * same command/URL, e.g. after "Import into .vscode/mcp.json"), so one server is not started twice.
 */
export function withoutDuplicateDiscoveries<T extends LaunchDefinitionLike & { name: string; source: { discovered?: DiscoverySourceId } }>(
  defs: readonly T[],
): T[] {
  const own = new Set(defs.filter((d) => !d.source.discovered).map((d) => `${d.name}\u0000${launchIdentity(d)}`));
  return defs.filter((d) => !d.source.discovered || !own.has(`${d.name}\u0000${launchIdentity(d)}`));
}

/** Whether to ask once if servers of other apps should be shown. */
export function shouldOfferDiscovery(state: { settingConfigured: boolean; alreadyAsked: boolean; foundSources: readonly string[] }): boolean {
  return !state.settingConfigured && !state.alreadyAsked && state.foundSources.length > 0;
}

/** The one question, naming the apps whose configs were found ("Claude Desktop and Cursor"). */
export function discoveryPromptMessage(foundSources: readonly string[]): string {
  const apps = [...new Set(foundSources.map((s) => s.replace(/ \((global|workspace)\)$/, '')))];
  const list = apps.length <= 1 ? apps.join('') : `${apps.slice(0, -1).join(', ')} and ${apps[apps.length - 1]}`;
  return `MCP servers are configured for ${list}. Show them in MCP Workbench too? They start like your other servers.`;
}

export const DISCOVERY_ACCEPT = 'Show Servers from Other Apps';
export const DISCOVERY_DECLINE = 'No';

/**
 * What an answer to the question does. Any answer, closing the notification included, is
 * remembered: the question is asked once. Only the accept button turns discovery on.
 */
export function discoveryPromptOutcome(answer: string | undefined): { enable: boolean; remember: boolean } {
  return { enable: answer === DISCOVERY_ACCEPT, remember: true };
}
