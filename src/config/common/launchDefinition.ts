/**
 * What it takes to start one server once every variable is resolved, and how two sets of
 * them differ. Pure. The registry diffs these to restart only the servers whose resolved
 * definition changed when a config file is edited.
 */
import type { OAuthSettings, ProtocolEraSetting, SamplingMockProfile, SandboxSettings, ServerEntry, TimeoutSettings } from './serverConfig';
import type { ToolLists } from './entryPolicy';

export interface StdioLaunch {
  type: 'stdio';
  command: string;
  args: string[];
  /** Variables set (string) or removed (null) on top of the host's environment. */
  env: Record<string, string | null>;
  /** Absolute; defaults to the config's workspace folder. */
  cwd: string | undefined;
  envFile?: string;
  /**
   * Set when the entry has `"sandboxEnabled": true`: what the sandboxed process may write and
   * reach, paths absolute (see entryPolicy.ts; run by src/mcp/process/sandbox.ts).
   */
  sandbox?: SandboxSettings;
}

export interface HttpLaunch {
  /** `http` tries Streamable HTTP and falls back to legacy SSE; `sse` goes to SSE directly. */
  type: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
  /** OAuth client settings from config; credentials themselves live in the host's store. */
  oauth?: OAuthSettings;
}

export type Launch = StdioLaunch | HttpLaunch;

/** Another app's config file that discovery reads (see discoverySources.ts). */
export type DiscoverySourceId = 'claudeDesktop' | 'cursorGlobal' | 'cursorWorkspace' | 'windsurf';

/** The user setting whose servers are a source of their own (`userSettings`); application-scoped. */
export const SERVERS_SETTING = 'mcpWorkbench.servers';
/** The inputs (`${input:…}` definitions) of the servers in SERVERS_SETTING. */
export const INPUTS_SETTING = 'mcpWorkbench.inputs';

/** Where a definition came from, for the UI ("open config at the server's line"). */
export interface ServerSource {
  /** `workspace` sources need workspace trust; `user` sources (settings) do not. */
  scope: 'workspace' | 'user';
  /** Human label such as `.vscode/mcp.json` or `Settings (mcpWorkbench.servers)`. */
  label: string;
  /** Absolute path of the config file, if the source is a file. */
  file?: string;
  /** 0-based line of the server's key in that file. */
  line?: number;
  /** Name of the workspace folder the file belongs to. */
  folder?: string;
  /** Set when the file is another app's config found by discovery (`mcpWorkbench.discovery.enabled`). */
  discovered?: DiscoverySourceId;
  /** Set for the user profile's `mcp.json`: VS Code's own user-level MCP config (VS Code 1.102+). */
  vscodeProfile?: boolean;
  /** Set for VS Code's user-level `mcp` setting: where VS Code 1.99 – 1.101 kept the user's MCP servers. */
  vscodeSetting?: boolean;
  /**
   * Set for GitHub Copilot's config places (`.github/mcp.json`, the Copilot user `mcp-config.json`):
   * VS Code 1.140+'s Copilot agent host reads them natively; VS Code's own MCP host does not.
   */
  copilotPlace?: boolean;
  /** Set for the user setting `mcpWorkbench.servers`. */
  userSettings?: boolean;
}

export interface ServerDefinition {
  /** Stable identity across config edits: source + name. */
  id: string;
  name: string;
  /** Name shown in UI: the name, with the source added when two servers share a name. */
  label: string;
  source: ServerSource;
  disabled: boolean;
  timeouts: TimeoutSettings;
  /** The protocol era to speak (the entry's `protocolEra`, else the setting); absent means `auto`. */
  protocolEra?: ProtocolEraSetting;
  /** Set when the definition could not be fully resolved (e.g. unknown variable). */
  error?: string;
  /** `${input:id}` values not known yet; the user is asked for them before the start. */
  missingInputs?: string[];
  launch: Launch;
  /**
   * What the entry runs or connects to as configured (see launchTarget.ts): stored input values
   * are bound to it, sampling policies keyed by it. Absent for servers not built from config.
   */
  target?: string;
  /** Values that must never be written to logs or traces. */
  secrets: string[];
  /**
   * The sampling mock profile that answers this server's sampling requests (`sampling.mock`),
   * or why the named one cannot be used. Not part of the launch: a change applies without a restart.
   */
  samplingMock?: { name: string; profile?: SamplingMockProfile; problem?: string };
  /**
   * The entry's tool lists (`includeTools` / `excludeTools`): the tools they leave out are not
   * offered to chat. Not part of the launch: a change applies without a restart.
   */
  toolLists?: ToolLists;
  /** The entry as written in config, variables unresolved ("copy as JSON" shares this, not secrets). */
  entry?: ServerEntry;
}

/**
 * A stable text of everything that needs a restart to take effect. Label, line and timeouts
 * are left out: they apply to a running connection in place.
 */
export function launchKey(def: ServerDefinition): string {
  return JSON.stringify(
    sortKeys({
      launch: def.launch,
      disabled: def.disabled,
      error: def.error ?? null,
      missingInputs: def.missingInputs ?? [],
      protocolEra: def.protocolEra ?? 'auto',
    }),
  );
}

export interface DefinitionDiff {
  added: ServerDefinition[];
  removed: ServerDefinition[];
  changed: ServerDefinition[];
  /** Same launch key, but maybe a new label or line: update in place, do not restart. */
  unchanged: ServerDefinition[];
}

export function diffDefinitions(previous: readonly ServerDefinition[], next: readonly ServerDefinition[]): DefinitionDiff {
  const before = new Map(previous.map((d) => [d.id, d]));
  const diff: DefinitionDiff = { added: [], removed: [], changed: [], unchanged: [] };
  const seen = new Set<string>();
  for (const def of next) {
    seen.add(def.id);
    const old = before.get(def.id);
    if (!old) diff.added.push(def);
    else if (launchKey(old) !== launchKey(def)) diff.changed.push(def);
    else diff.unchanged.push(def);
  }
  for (const def of previous) if (!seen.has(def.id)) diff.removed.push(def);
  return diff;
}

/** Gives servers that share a name a label that tells them apart. */
export function assignLabels(defs: ServerDefinition[]): void {
  const count = new Map<string, number>();
  for (const d of defs) count.set(d.name, (count.get(d.name) ?? 0) + 1);
  for (const d of defs) {
    d.label = count.get(d.name)! > 1 ? `${d.name} (${d.source.folder ? d.source.folder + ': ' : ''}${d.source.label})` : d.name;
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** Parses a dotenv file: `KEY=value`, `export KEY=value`, quotes, `#` comments. */
export function parseEnvFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    let value = m[2];
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) {
      value = value.slice(1, -1).replace(/\\n/g, '\n').replace(/\\"/g, '"');
    } else if (value.startsWith("'") && value.endsWith("'") && value.length >= 2) {
      value = value.slice(1, -1);
    } else {
      const hash = value.indexOf(' #');
      if (hash >= 0) value = value.slice(0, hash).trimEnd();
    }
    env[m[1]] = value;
  }
  return env;
}
