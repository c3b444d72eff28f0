/**
 * Keys of a server entry about what the server may do and how it is launched, beyond its
 * command or URL: VS Code's sandbox keys and its `dev` field. Pure: no `vscode`, no I/O.
 *
 * The sandbox is read the way VS Code reads it.
 * Shapes (microsoft/vscode, src/vs/platform/mcp/common/mcpPlatformTypes.ts and
 * src/vs/workbench/contrib/mcp/common/mcpSandboxService.ts):
 *  - a stdio entry's `"sandboxEnabled": true` runs that server sandboxed;
 *  - the file's top-level `"sandbox"` (beside `servers` and `inputs`) says what the sandboxed
 *    servers of that file may do: `{ "filesystem": { "allowWrite", "denyWrite", "denyRead" },
 *    "network": { "allowedDomains", "deniedDomains" } }`, each a list of strings. Older VS Code
 *    builds wrote `sandbox` inside the entry; VS Code strips it from there when it writes the
 *    file, and this reads it there too (the entry's wins over the file's).
 * VS Code adds the launch's working directory and `~/.npm` to `allowWrite` and
 * `registry.npmjs.org` to `allowedDomains`; how this extension runs them is src/mcp/process/sandbox.ts.
 */
import * as jsonc from 'jsonc-parser';

/** A problem at a place in the file (the shape of serverConfig's ConfigProblem, which imports this file). */
interface ConfigProblem {
  severity: 'error' | 'warning' | 'info';
  message: string;
  offset: number;
  length: number;
}

export interface SandboxSettings {
  filesystem?: { allowWrite?: string[]; denyWrite?: string[]; denyRead?: string[] };
  network?: { allowedDomains?: string[]; deniedDomains?: string[] };
}

const FIELDS = { filesystem: ['allowWrite', 'denyWrite', 'denyRead'], network: ['allowedDomains', 'deniedDomains'] } as const;

/** The keys a `sandbox` object may have, for completions. */
export const SANDBOX_KEYS = Object.keys(FIELDS);

/** Reads a `sandbox` object (`where` names it in messages, e.g. `"sandbox"` or `"sandbox" of server "x"`). */
export function parseSandbox(node: jsonc.Node, where: string, problems: ConfigProblem[]): SandboxSettings | undefined {
  const at = (n: jsonc.Node, severity: ConfigProblem['severity'], message: string) => problems.push({ severity, message, offset: n.offset, length: n.length });
  if (node.type !== 'object') {
    at(node, 'error', `${where} must be an object such as { "filesystem": { "allowWrite": ["\${workspaceFolder}/out"] } }.`);
    return undefined;
  }
  const out: SandboxSettings = {};
  for (const property of node.children ?? []) {
    const [keyNode, valueNode] = property.children ?? [];
    if (!keyNode || !valueNode) continue;
    const group = String(keyNode.value);
    if (!(group in FIELDS)) {
      at(keyNode, 'warning', `Unknown key "${group}" in ${where}: use "filesystem" or "network".`);
      continue;
    }
    const names = FIELDS[group as keyof typeof FIELDS] as readonly string[];
    if (valueNode.type !== 'object') {
      at(valueNode, 'error', `"${group}" of ${where} must be an object with ${names.map((n) => `"${n}"`).join(', ')}.`);
      continue;
    }
    const lists: Record<string, string[]> = {};
    for (const child of valueNode.children ?? []) {
      const [k, v] = child.children ?? [];
      if (!k || !v) continue;
      const name = String(k.value);
      if (!names.includes(name)) {
        at(k, 'warning', `Unknown key "${name}" in "${group}" of ${where}: use ${names.map((n) => `"${n}"`).join(', ')}.`);
        continue;
      }
      const value = jsonc.getNodeValue(v) as unknown;
      if (!Array.isArray(value) || !value.every((s) => typeof s === 'string')) {
        at(v, 'error', `"${group}.${name}" of ${where} must be a list of strings.`);
        continue;
      }
      lists[name] = value as string[];
    }
    (out as Record<string, Record<string, string[]>>)[group] = lists;
  }
  return out;
}

/**
 * The file's sandbox with the entry's over it, every path made absolute: `~` and `~/…` are the
 * home folder, a relative path is relative to `base` (the server's folder). `resolve` expands
 * `${…}` variables first.
 */
export function resolveSandbox(
  file: SandboxSettings | undefined,
  entry: SandboxSettings | undefined,
  resolve: (text: string) => string,
  home: string,
  absolute: (p: string) => string,
): SandboxSettings {
  const pick = (group: 'filesystem' | 'network', name: string): string[] | undefined => {
    const own = (entry?.[group] as Record<string, string[] | undefined> | undefined)?.[name];
    return own ?? (file?.[group] as Record<string, string[] | undefined> | undefined)?.[name];
  };
  const path = (p: string) => {
    const r = resolve(p);
    return absolute(r === '~' ? home : r.startsWith('~/') ? home + r.slice(1) : r);
  };
  const paths = (name: string) => (pick('filesystem', name) ?? []).map(path);
  return {
    filesystem: { allowWrite: paths('allowWrite'), denyWrite: paths('denyWrite'), denyRead: paths('denyRead') },
    network: { allowedDomains: (pick('network', 'allowedDomains') ?? []).map(resolve), deniedDomains: (pick('network', 'deniedDomains') ?? []).map(resolve) },
  };
}

/** `dev` of a stdio server: files whose change restarts it under the debugger, and the debugger to use. */
export interface DevSettings {
  watch?: string[];
  debug?: { type?: 'node' | 'debugpy' };
}

export function parseDev(raw: unknown, name: string, node: jsonc.Node, problems: ConfigProblem[]): DevSettings | undefined {
  const problemAt = (n: jsonc.Node, severity: ConfigProblem['severity'], message: string): ConfigProblem => ({
    severity,
    message,
    offset: n.offset,
    length: n.length,
  });
  if (typeof raw !== 'object' || Array.isArray(raw) || raw === null) {
    problems.push(problemAt(node, 'error', `"dev" of server "${name}" must be an object.`));
    return undefined;
  }
  const dev: DevSettings = {};
  const { watch, debug } = raw as { watch?: unknown; debug?: unknown };
  if (typeof watch === 'string') dev.watch = [watch];
  else if (Array.isArray(watch) && watch.every((w) => typeof w === 'string')) dev.watch = watch as string[];
  else if (watch !== undefined)
    problems.push(problemAt(jsonc.findNodeAtLocation(node, ['watch']) ?? node, 'error', `"dev.watch" of server "${name}" must be a glob or a list of globs.`));
  if (debug !== undefined) {
    const type = (debug as { type?: unknown } | null)?.type;
    if (type === 'node' || type === 'debugpy') dev.debug = { type };
    else
      problems.push(problemAt(jsonc.findNodeAtLocation(node, ['debug']) ?? node, 'error', `"dev.debug.type" of server "${name}" must be "node" or "debugpy".`));
  }
  return dev;
}

/**
 * Which of a server's tools chat may use, as the entry says. Ours is Gemini CLI's spelling:
 * `includeTools` (only these) and `excludeTools` (never these; wins over `includeTools`). Other
 * hosts' spellings are read as the same lists: GitHub Copilot's `tools` (only these, `"*"` for
 * all) as `includeTools`, Cline's and Roo Code's `disabledTools` as `excludeTools`. `"*"` in
 * either list means every tool. The lists hide tools from chat only: Run Tool and the
 * Inspector still reach them.
 */
export interface ToolLists {
  include?: string[];
  exclude?: string[];
}

/** The entry keys read as tool lists, ours first. */
export const TOOL_LIST_KEYS = { include: ['includeTools', 'tools'], exclude: ['excludeTools', 'disabledTools'] } as const;

export function parseToolLists(
  value: Record<string, unknown>,
  name: string,
  field: (key: string) => jsonc.Node | undefined,
  problems: ConfigProblem[],
): ToolLists | undefined {
  const lists: ToolLists = {};
  for (const side of ['include', 'exclude'] as const) {
    for (const key of TOOL_LIST_KEYS[side]) {
      const raw = value[key];
      if (raw === undefined || raw === null) continue;
      if (!Array.isArray(raw) || !raw.every((t) => typeof t === 'string')) {
        const node = field(key)!;
        problems.push({ severity: 'error', message: `"${key}" of server "${name}" must be a list of tool names.`, offset: node.offset, length: node.length });
        continue;
      }
      // Two allow lists (ours and Copilot's): ours is used. Deny lists add up.
      if (side === 'include') lists.include ??= raw as string[];
      else lists.exclude = [...(lists.exclude ?? []), ...(raw as string[])];
    }
  }
  return lists.include || lists.exclude ? lists : undefined;
}

/** Why the config hides `tool` from chat (the key that does), or undefined when it does not. */
export function toolHiddenByConfig(lists: ToolLists | undefined, tool: string): 'excludeTools' | 'includeTools' | undefined {
  if (!lists) return undefined;
  if (lists.exclude?.some((t) => t === '*' || t === tool)) return 'excludeTools';
  if (lists.include && !lists.include.some((t) => t === '*' || t === tool)) return 'includeTools';
  return undefined;
}
