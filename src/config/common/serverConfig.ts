/**
 * The MCP server configuration model and its parser. Pure: no `vscode`, no I/O.
 *
 * Two file dialects are read:
 *  - VS Code's `.vscode/mcp.json`: `{ "servers": { name: entry }, "inputs": [...] }`
 *  - Claude Code / Claude Desktop / Cursor `.mcp.json`: `{ "mcpServers": { name: entry } }`
 * The `mcpWorkbench.servers` setting uses the entry shape of either (a map of name → entry).
 *
 * Files are parsed with jsonc-parser (comments, trailing commas), keeping offsets so every
 * problem can point at the line the user has to fix.
 */
import * as jsonc from 'jsonc-parser';
import { excessiveNesting, MAX_NESTING } from './jsonNesting';
import { parseOAuth, type OAuthSettings } from './oauthConfig';
import { parseSamplingMocks, parseSamplingSettings, type SamplingMockProfile, type SamplingSettings } from './samplingMockConfig';
import { parseDev, parseSandbox, parseToolLists, type DevSettings, type SandboxSettings, type ToolLists } from './entryPolicy';

export type { DevSettings, OAuthSettings, SamplingMockProfile, SamplingSettings, SandboxSettings };
import { misspeltKeys } from './keySuggestions';
import { parseTimeouts, type TimeoutSettings } from './ownKeys/timeouts';

export { DEFAULT_TIMEOUTS, mergeTimeouts, type TimeoutSettings } from './ownKeys/timeouts';

export type TransportType = 'stdio' | 'http' | 'sse';

/**
 * Which MCP protocol era a server is spoken to in: `modern` is 2026-07-28 (stateless,
 * `server/discover`, multi-round-trip requests), `legacy` the 2025-11-25 `initialize` handshake,
 * `auto` tries modern first and falls back to legacy for servers that do not know it.
 */
export type ProtocolEraSetting = 'auto' | 'modern' | 'legacy';
export const PROTOCOL_ERAS: readonly ProtocolEraSetting[] = ['auto', 'modern', 'legacy'];

/** A setting's value as an era; anything else (unset, a typo) is `auto`. */
export function protocolEraSetting(value: unknown): ProtocolEraSetting {
  return PROTOCOL_ERAS.includes(value as ProtocolEraSetting) ? (value as ProtocolEraSetting) : 'auto';
}

/** A server entry as written in config, before variables are resolved. */
export interface ServerEntry {
  type: TransportType;
  command?: string;
  args?: string[];
  /** `null` values remove the variable from the inherited environment. */
  env?: Record<string, string | null>;
  envFile?: string;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  disabled?: boolean;
  timeouts?: Partial<TimeoutSettings>;
  /** The MCP protocol era to speak (default: the `mcpWorkbench.protocolEra` setting, `auto`). */
  protocolEra?: ProtocolEraSetting;
  /** OAuth client settings for a protected `http`/`sse` server (MCP authorization). */
  oauth?: OAuthSettings;
  /** Development settings (VS Code's `dev` field): used by the `mcp` debug type. */
  dev?: DevSettings;
  /** Sampling settings: `mock` names a profile of the file's `samplingMocks` (or is one) that answers sampling requests. */
  sampling?: SamplingSettings;
  /** VS Code's key: run this stdio server sandboxed (see sandboxConfig.ts). */
  sandboxEnabled?: boolean;
  /** Older VS Code builds' place for the sandbox (now the file's top level); the entry's wins. */
  sandbox?: SandboxSettings;
  /** `includeTools` / `excludeTools` (and other hosts' spellings): tools hidden from chat (entryPolicy.ts). */
  toolLists?: ToolLists;
}

export interface InputDefinition {
  id: string;
  type: 'promptString' | 'pickString';
  description?: string;
  default?: string;
  password?: boolean;
  options?: string[];
}

export type ConfigFormat = 'vscode' | 'mcpServers';

export type ProblemSeverity = 'error' | 'warning' | 'info';

export interface ConfigProblem {
  severity: ProblemSeverity;
  message: string;
  /** Character offsets into the file text. */
  offset: number;
  length: number;
  /** For an unknown key that looks like a misspelt known one: the known key (the quick fix renames it). */
  suggestion?: string;
}

export interface ParsedServer {
  name: string;
  /** As far as it could be read; for a broken entry only a placeholder of what was understood. */
  entry: ServerEntry;
  /**
   * Why the entry cannot start (no `command`, unknown `type`, not an object, …): it is still
   * listed, as a broken server with this reason, rather than silently left out.
   */
  broken?: string;
  /** Offset and length of the entry's key in the file, so "open config" can jump to it. */
  offset: number;
  length: number;
}

export interface ParsedConfig {
  format: ConfigFormat | undefined;
  servers: ParsedServer[];
  inputs: InputDefinition[];
  /** The file's top-level `samplingMocks`: named sampling mock profiles its servers may use. */
  samplingMocks?: SamplingMockProfile[];
  /** The file's top-level `sandbox` (VS Code's): what its servers with `sandboxEnabled` may do. */
  sandbox?: SandboxSettings;
  problems: ConfigProblem[];
  /** The text nests deeper than MAX_NESTING: it was not parsed at all (see `parseJsonTree`). */
  tooDeep?: true;
  /** The text is not valid JSON(C): what was read of it is a guess (a file mid-edit or mid-write). */
  syntaxError?: true;
}

/** The problem reported for a text that nests too deep. */
export function nestingProblem(offset: number): ConfigProblem {
  return { severity: 'error', message: `The JSON is nested more than ${MAX_NESTING} levels deep; it is not read.`, offset, length: 1 };
}

const TYPE_DIALECTS: Record<string, TransportType> = {
  streamableHttp: 'http',
  'streamable-http': 'http',
  streamable_http: 'http',
  streamablehttp: 'http',
  'http-streamable': 'http',
};

/**
 * Parses an MCP configuration file. Never throws: everything wrong becomes a problem with
 * a position, and every entry that can be understood is still returned.
 */
export function parseConfigText(text: string, preferredFormat?: ConfigFormat): ParsedConfig {
  const deep = excessiveNesting(text);
  if (deep) return { format: undefined, servers: [], inputs: [], problems: [nestingProblem(deep.offset)], tooDeep: true };
  const problems: ConfigProblem[] = [];
  const syntaxErrors: jsonc.ParseError[] = [];
  const root = jsonc.parseTree(text, syntaxErrors, { allowTrailingComma: true, disallowComments: false });
  for (const e of syntaxErrors) {
    problems.push({
      severity: 'error',
      message: `JSON syntax error: ${jsonc.printParseErrorCode(e.error)}`,
      offset: e.offset,
      length: Math.max(e.length, 1),
    });
  }
  const result: ParsedConfig = { format: undefined, servers: [], inputs: [], problems, ...(syntaxErrors.length ? { syntaxError: true as const } : {}) };
  if (!root) return result;
  if (root.type !== 'object') {
    problems.push(problemAt(root, 'error', 'The configuration must be a JSON object.'));
    return result;
  }
  const serversNode = jsonc.findNodeAtLocation(root, ['servers']);
  const mcpServersNode = jsonc.findNodeAtLocation(root, ['mcpServers']);
  let mapNode: jsonc.Node | undefined;
  if (serversNode && mcpServersNode) {
    const chosen = preferredFormat === 'mcpServers' ? mcpServersNode : serversNode;
    result.format = chosen === serversNode ? 'vscode' : 'mcpServers';
    const ignored = chosen === serversNode ? mcpServersNode : serversNode;
    problems.push(
      problemAt(
        ignored.parent ?? ignored,
        'warning',
        `Both "servers" and "mcpServers" are present; "${result.format === 'vscode' ? 'servers' : 'mcpServers'}" is used and the other is ignored.`,
      ),
    );
    mapNode = chosen;
  } else if (serversNode) {
    result.format = 'vscode';
    mapNode = serversNode;
  } else if (mcpServersNode) {
    result.format = 'mcpServers';
    mapNode = mcpServersNode;
  }
  if (mapNode) {
    result.servers = parseServerMap(mapNode, problems);
  }
  const inputsNode = jsonc.findNodeAtLocation(root, ['inputs']);
  if (inputsNode) {
    result.inputs = parseInputs(inputsNode, problems);
  }
  const mocksNode = jsonc.findNodeAtLocation(root, ['samplingMocks']);
  if (mocksNode) result.samplingMocks = parseSamplingMocks(mocksNode, problems);
  const sandboxNode = jsonc.findNodeAtLocation(root, ['sandbox']);
  if (sandboxNode) result.sandbox = parseSandbox(sandboxNode, '"sandbox"', problems);
  return result;
}

/** Parses an `inputs` list given as a plain value (the `mcpWorkbench.inputs` setting, the inputs of `mcpWorkbench.servers`). */
export function parseInputsValue(value: unknown): { inputs: InputDefinition[]; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  let text: string;
  try {
    text = JSON.stringify(value ?? []);
  } catch {
    return { inputs: [], problems: [nestingProblem(0)] };
  }
  const deep = excessiveNesting(text);
  if (deep) return { inputs: [], problems: [nestingProblem(deep.offset)] };
  const node = jsonc.parseTree(text);
  return { inputs: node ? parseInputs(node, problems) : [], problems };
}

/** Parses a `{ name: entry }` map given as a plain value (the `mcpWorkbench.servers` setting). */
export function parseServerMapValue(value: unknown): { servers: ParsedServer[]; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  let text: string;
  try {
    text = JSON.stringify(value ?? {});
  } catch {
    // Only a value nested deep enough to exhaust the stack gets here (settings cannot hold cycles).
    return { servers: [], problems: [nestingProblem(0)] };
  }
  const deep = excessiveNesting(text);
  if (deep) return { servers: [], problems: [nestingProblem(deep.offset)] };
  const node = jsonc.parseTree(text);
  if (!node) return { servers: [], problems };
  return { servers: parseServerMap(node, problems), problems };
}

function parseServerMap(mapNode: jsonc.Node, problems: ConfigProblem[]): ParsedServer[] {
  if (mapNode.type !== 'object') {
    problems.push(problemAt(mapNode, 'error', 'The server list must be an object mapping server names to entries.'));
    return [];
  }
  const servers: ParsedServer[] = [];
  for (const property of mapNode.children ?? []) {
    const [keyNode, valueNode] = property.children ?? [];
    if (!keyNode || !valueNode) continue;
    const name = String(keyNode.value);
    if (name.trim() === '') {
      problems.push(problemAt(keyNode, 'error', 'A server name must not be empty.'));
      continue;
    }
    const { entry, broken } = parseServerEntry(name, valueNode, problems);
    servers.push({ name, entry, offset: keyNode.offset, length: keyNode.length, ...(broken ? { broken } : {}) });
  }
  return servers;
}

function parseServerEntry(name: string, node: jsonc.Node, problems: ConfigProblem[]): { entry: ServerEntry; broken?: string } {
  if (node.type !== 'object') {
    const message = `Server "${name}" must be an object such as { "command": "node", "args": ["server.js"] }.`;
    problems.push(problemAt(node, 'error', message));
    return { entry: { type: 'stdio' }, broken: message };
  }
  const value = jsonc.getNodeValue(node) as Record<string, unknown>;
  const field = (key: string) => jsonc.findNodeAtLocation(node, [key]);
  const entry: Partial<ServerEntry> = {};
  const typos = misspeltKeys(node);
  for (const t of typos)
    problems.push({
      ...problemAt(t.keyNode, 'warning', `Unknown key "${t.key}" in server "${name}"; did you mean "${t.suggestion}"?`),
      suggestion: t.suggestion,
    });
  /** `missing` is the field without which it cannot start; a misspelling of it is the likely cause and named first. */
  const broken = (missing: 'command' | 'url', message: string) => {
    const typo = typos.find((t) => t.suggestion === missing);
    const reason = typo ? `"${typo.key}" is not a known key: did you mean "${missing}"? Without "${missing}" server "${name}" cannot start.` : message;
    problems.push(problemAt(node.parent?.children?.[0] ?? node, 'error', reason));
    return { entry: { ...entry, type: entry.type ?? 'stdio' } as ServerEntry, broken: reason };
  };

  const str = (key: keyof ServerEntry): string | undefined => {
    const v = value[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') {
      problems.push(problemAt(field(key)!, 'error', `"${key}" of server "${name}" must be a string.`));
      return undefined;
    }
    return v;
  };

  entry.command = str('command');
  entry.url = str('url');
  entry.cwd = str('cwd');
  entry.envFile = str('envFile');

  let type: TransportType | undefined;
  const rawType = value.type;
  if (rawType !== undefined) {
    if (rawType === 'stdio' || rawType === 'http' || rawType === 'sse') {
      type = rawType;
    } else if (typeof rawType === 'string' && TYPE_DIALECTS[rawType]) {
      type = TYPE_DIALECTS[rawType];
      problems.push(
        problemAt(
          field('type')!,
          'warning',
          `"type": "${rawType}" is another host's spelling; it is read as "http" (Streamable HTTP). Write "http" to silence this.`,
        ),
      );
    } else {
      const message = `Unknown "type" ${JSON.stringify(rawType)} for server "${name}": use "stdio", "http" or "sse".`;
      problems.push(problemAt(field('type')!, 'error', message));
      return { entry: { ...entry, type: 'stdio' } as ServerEntry, broken: message };
    }
  }
  if (!type) {
    // Entries without a type are inferred the way every host does: a URL means remote.
    type = entry.url !== undefined && entry.command === undefined ? 'http' : 'stdio';
  }
  entry.type = type;

  if (value.args !== undefined) {
    if (Array.isArray(value.args) && value.args.every((a) => typeof a === 'string' || typeof a === 'number' || typeof a === 'boolean')) {
      entry.args = (value.args as unknown[]).map(String);
    } else {
      problems.push(problemAt(field('args')!, 'error', `"args" of server "${name}" must be an array of strings.`));
    }
  }
  entry.env = stringMap(value, 'env', name, field, problems, true) as Record<string, string | null> | undefined;
  entry.headers = stringMap(value, 'headers', name, field, problems, false) as Record<string, string> | undefined;

  Object.assign(entry, readOwnKeys(value, name, field, problems));
  if (value.oauth !== undefined && value.oauth !== null) {
    entry.oauth = parseOAuth(value.oauth, name, field('oauth')!, problems);
  }

  if (value.dev !== undefined && value.dev !== null) {
    entry.dev = parseDev(value.dev, name, field('dev')!, problems);
  }
  if (typeof value.sandboxEnabled === 'boolean') entry.sandboxEnabled = value.sandboxEnabled;
  else if (value.sandboxEnabled !== undefined)
    problems.push(problemAt(field('sandboxEnabled')!, 'error', `"sandboxEnabled" of server "${name}" must be true or false.`));
  if (value.sandbox !== undefined && value.sandbox !== null) entry.sandbox = parseSandbox(field('sandbox')!, `"sandbox" of server "${name}"`, problems);

  if (type === 'stdio') {
    if (!entry.command) {
      return broken('command', `Server "${name}" needs a "command" to start (or a "url" and "type": "http" for a remote server).`);
    }
    if (entry.url !== undefined) {
      problems.push(problemAt(field('url')!, 'warning', `"url" is ignored for the stdio server "${name}".`));
    }
  } else {
    if (entry.sandboxEnabled)
      problems.push(problemAt(field('sandboxEnabled')!, 'warning', `"sandboxEnabled" applies to stdio servers only; "${name}" runs elsewhere.`));
    if (!entry.url) {
      return broken('url', `Server "${name}" of type "${type}" needs a "url".`);
    }
    if (entry.command !== undefined) {
      problems.push(problemAt(field('command')!, 'warning', `"command" is ignored for the ${type} server "${name}".`));
    }
  }
  return { entry: entry as ServerEntry };
}

/**
 * The keys of an entry that are MCP Workbench's own (ownKeys/workbenchFile.ts): read from the entry
 * and, for `.vscode/mcp.json`, from its `mcp-workbench.json` beside it.
 */
export function readOwnKeys(
  value: Record<string, unknown>,
  name: string,
  field: (key: string) => jsonc.Node | undefined,
  problems: ConfigProblem[],
): Partial<ServerEntry> {
  const entry: Partial<ServerEntry> = {};
  if (value.disabled !== undefined) {
    if (typeof value.disabled === 'boolean') entry.disabled = value.disabled;
    else problems.push(problemAt(field('disabled')!, 'error', `"disabled" of server "${name}" must be true or false.`));
  }
  if (value.timeouts !== undefined) {
    entry.timeouts = parseTimeouts(value.timeouts, name, field('timeouts')!, problems);
  }
  if (value.protocolEra !== undefined) {
    if (PROTOCOL_ERAS.includes(value.protocolEra as ProtocolEraSetting)) entry.protocolEra = value.protocolEra as ProtocolEraSetting;
    else
      problems.push(
        problemAt(
          field('protocolEra')!,
          'error',
          `"protocolEra" of server "${name}" must be "auto", "modern" (2026-07-28 only) or "legacy" (2025-11-25 handshake only).`,
        ),
      );
  }
  if (value.sampling !== undefined && value.sampling !== null) entry.sampling = parseSamplingSettings(field('sampling')!, name, problems);
  const toolLists = parseToolLists(value, name, field, problems);
  if (toolLists) entry.toolLists = toolLists;
  return entry;
}

function stringMap(
  value: Record<string, unknown>,
  key: 'env' | 'headers',
  name: string,
  field: (key: string) => jsonc.Node | undefined,
  problems: ConfigProblem[],
  allowNull: boolean,
): Record<string, string | null> | undefined {
  const raw = value[key];
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push(problemAt(field(key)!, 'error', `"${key}" of server "${name}" must be an object of strings.`));
    return undefined;
  }
  const out: Record<string, string | null> = {};
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    if (v === null && allowNull) out[k] = null;
    else if (typeof v === 'string') out[k] = v;
    else if (typeof v === 'number' || typeof v === 'boolean') out[k] = String(v);
    else {
      const node = jsonc.findNodeAtLocation(field(key)!, [k]);
      problems.push(
        problemAt(node ?? field(key)!, 'error', `"${key}.${k}" of server "${name}" must be a string${allowNull ? ' (or null to remove it)' : ''}.`),
      );
    }
  }
  return out;
}

function parseInputs(node: jsonc.Node, problems: ConfigProblem[]): InputDefinition[] {
  if (node.type !== 'array') {
    problems.push(problemAt(node, 'error', '"inputs" must be an array.'));
    return [];
  }
  const inputs: InputDefinition[] = [];
  const seen = new Set<string>();
  for (const child of node.children ?? []) {
    const v = jsonc.getNodeValue(child) as Record<string, unknown>;
    if (typeof v !== 'object' || v === null || typeof v.id !== 'string' || v.id === '') {
      problems.push(problemAt(child, 'error', 'Each input needs a string "id".'));
      continue;
    }
    const type = v.type ?? 'promptString';
    if (type !== 'promptString' && type !== 'pickString') {
      problems.push(problemAt(child, 'error', `Input "${v.id}" has type ${JSON.stringify(type)}; use "promptString" or "pickString".`));
      continue;
    }
    if (seen.has(v.id)) {
      problems.push(problemAt(child, 'warning', `Input "${v.id}" is defined twice; the first definition is used.`));
      continue;
    }
    seen.add(v.id);
    inputs.push({
      id: v.id,
      type,
      description: typeof v.description === 'string' ? v.description : undefined,
      default: typeof v.default === 'string' ? v.default : undefined,
      password: v.password === true,
      options: Array.isArray(v.options) ? v.options.filter((o): o is string => typeof o === 'string') : undefined,
    });
  }
  return inputs;
}

function problemAt(node: jsonc.Node, severity: ProblemSeverity, message: string): ConfigProblem {
  return { severity, message, offset: node.offset, length: node.length };
}

/** 0-based line and character of an offset, for diagnostics and "open at line". */
export function positionAt(text: string, offset: number): { line: number; character: number } {
  let line = 0;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, character: offset - lineStart };
}
