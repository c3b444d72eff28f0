/**
 * Where MCP Workbench's own keys live for VS Code's `mcp.json`. Pure: no `vscode`, no I/O.
 *
 * VS Code validates `.vscode/mcp.json` against its own JSON schema, which allows no key it does
 * not define: on the top level, on a server entry (1.100 and 1.139 alike; microsoft/vscode,
 * src/vs/workbench/contrib/mcp/common/mcpConfiguration.ts, `additionalProperties: false`), so
 * every key of ours there shows "Property … is not allowed". No place in that file is left
 * alone by both versions, so our keys live beside it, in `mcp-workbench.json` (for a workspace
 * `.vscode/mcp-workbench.json`), which mirrors its shape:
 *
 *   { "servers": { "<name in mcp.json>": { "sampling": …, "includeTools": […] } }, "samplingMocks": { … } }
 *
 * The old spelling, the same keys in `mcp.json` itself, is still read (the config language server
 * offers to move it); for a key written in both places, the file beside it wins, except that
 * `excludeTools` lists add up (hiding a tool is never undone by the other place).
 * Other files (`.mcp.json`, the `mcpWorkbench.servers` setting) are not VS Code's: keys stay inline there.
 */
import * as jsonc from 'jsonc-parser';
import { parseSamplingMocks } from '../samplingMockConfig';
import { readOwnKeys, type ConfigProblem, type ParsedConfig, type ServerEntry } from '../serverConfig';

/** The file name, in the folder of the `mcp.json` it belongs to. */
export const WORKBENCH_FILE_NAME = 'mcp-workbench.json';
/** A workspace folder's file, beside `.vscode/mcp.json`. */
export const WORKBENCH_FILE_PATH = `.vscode/${WORKBENCH_FILE_NAME}`;

/**
 * Keys of a server entry that are ours and that VS Code's schema for `mcp.json` does not allow.
 * (`oauth` is VS Code's too since 1.10x, with `clientId`; `dev`, `cwd`, `sandboxEnabled` are VS Code's own keys.)
 */
export const OWN_ENTRY_KEYS = ['disabled', 'timeouts', 'protocolEra', 'sampling', 'includeTools', 'excludeTools'] as const;
export type OwnEntryKey = (typeof OWN_ENTRY_KEYS)[number];
/** Top-level keys of ours in `mcp.json`. */
export const OWN_TOP_KEYS = ['samplingMocks'] as const;

export function isOwnEntryKey(key: string): key is OwnEntryKey {
  return (OWN_ENTRY_KEYS as readonly string[]).includes(key);
}

/** One server's part of the file. */
export interface WorkbenchServer {
  name: string;
  keyNode: jsonc.Node;
  /** The own keys it sets (only the known ones). */
  keys: OwnEntryKey[];
  settings: Partial<ServerEntry>;
}

export interface WorkbenchFile {
  servers: WorkbenchServer[];
  samplingMocks?: ParsedConfig['samplingMocks'];
  /** Names of the profiles its `samplingMocks` defines (also those with problems). */
  samplingMockNames: string[];
  problems: ConfigProblem[];
}

const at = (node: jsonc.Node, severity: ConfigProblem['severity'], message: string): ConfigProblem => ({
  severity,
  message,
  offset: node.offset,
  length: node.length,
});

/** Reads `mcp-workbench.json`. Never throws: everything wrong is a problem with its place. */
export function parseWorkbenchFile(text: string): WorkbenchFile {
  const problems: ConfigProblem[] = [];
  const errors: jsonc.ParseError[] = [];
  const root = jsonc.parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  for (const e of errors)
    problems.push({ severity: 'error', message: `JSON syntax error: ${jsonc.printParseErrorCode(e.error)}`, offset: e.offset, length: Math.max(e.length, 1) });
  const file: WorkbenchFile = { servers: [], samplingMockNames: [], problems };
  if (!root) return file;
  if (root.type !== 'object') {
    problems.push(at(root, 'error', `${WORKBENCH_FILE_NAME} must be a JSON object such as { "servers": { "name": { "includeTools": ["search"] } } }.`));
    return file;
  }
  for (const property of root.children ?? []) {
    const [keyNode, valueNode] = property.children ?? [];
    if (!keyNode || !valueNode) continue;
    const key = String(keyNode.value);
    if (key === 'servers') file.servers = parseServers(valueNode, problems);
    else if (key === 'samplingMocks') {
      file.samplingMocks = parseSamplingMocks(valueNode, problems);
      if (valueNode.type === 'object') file.samplingMockNames = (valueNode.children ?? []).map((p) => String(p.children?.[0]?.value));
    } else if (key !== '$schema') problems.push(at(keyNode, 'warning', `Unknown key "${key}" in ${WORKBENCH_FILE_NAME}: use "servers" or "samplingMocks".`));
  }
  return file;
}

function parseServers(node: jsonc.Node, problems: ConfigProblem[]): WorkbenchServer[] {
  if (node.type !== 'object') {
    problems.push(at(node, 'error', `"servers" of ${WORKBENCH_FILE_NAME} must map server names (as in mcp.json) to their settings.`));
    return [];
  }
  const servers: WorkbenchServer[] = [];
  for (const property of node.children ?? []) {
    const [keyNode, valueNode] = property.children ?? [];
    if (!keyNode || !valueNode) continue;
    const name = String(keyNode.value);
    if (valueNode.type !== 'object') {
      problems.push(at(valueNode, 'error', `Server "${name}" of ${WORKBENCH_FILE_NAME} must be an object such as { "includeTools": ["search"] }.`));
      continue;
    }
    const value: Record<string, unknown> = {};
    const keys: OwnEntryKey[] = [];
    for (const p of valueNode.children ?? []) {
      const [k, v] = p.children ?? [];
      if (!k || !v) continue;
      const key = String(k.value);
      if (isOwnEntryKey(key)) {
        value[key] = jsonc.getNodeValue(v);
        keys.push(key);
      } else
        problems.push(
          at(
            k,
            'warning',
            `"${key}" does not belong in ${WORKBENCH_FILE_NAME}: it holds MCP Workbench's own keys (${OWN_ENTRY_KEYS.join(', ')}); the server itself is defined in mcp.json.`,
          ),
        );
    }
    const settings = readOwnKeys(value, name, (key) => jsonc.findNodeAtLocation(valueNode, [key]), problems);
    servers.push({ name, keyNode, keys, settings });
  }
  return servers;
}

/**
 * `mcp.json` as read with the file beside it: each server gets the keys the file sets for it;
 * `problems` are the file's (a server it names that `mcp.json` does not define, among them).
 */
export function withWorkbenchFile(parsed: ParsedConfig, file: WorkbenchFile): { parsed: ParsedConfig; problems: ConfigProblem[] } {
  const problems = [...file.problems];
  const servers = parsed.servers.map((server) => {
    const own = file.servers.find((s) => s.name === server.name);
    return own ? { ...server, entry: mergeEntry(server.entry, own.settings) } : server;
  });
  for (const own of file.servers) {
    if (!parsed.servers.some((s) => s.name === own.name))
      problems.push(
        at(own.keyNode, 'warning', `No server "${own.name}" is defined in mcp.json: these settings apply to nothing. Use the server's name as written there.`),
      );
  }
  const beside = file.samplingMocks ?? [];
  const inline = (parsed.samplingMocks ?? []).filter((p) => !beside.some((b) => b.name === p.name));
  const samplingMocks = file.samplingMocks || parsed.samplingMocks ? [...beside, ...inline] : undefined;
  return { parsed: { ...parsed, servers, ...(samplingMocks ? { samplingMocks } : {}) }, problems };
}

function mergeEntry(entry: ServerEntry, own: Partial<ServerEntry>): ServerEntry {
  const merged: ServerEntry = { ...entry };
  for (const [key, value] of Object.entries(own) as [keyof ServerEntry, unknown][]) {
    if (value !== undefined && key !== 'toolLists') (merged as unknown as Record<string, unknown>)[key] = value;
  }
  if (own.toolLists) {
    // The file's allow list wins; deny lists add up, like two hosts' deny lists in one entry.
    const include = own.toolLists.include ?? entry.toolLists?.include;
    const exclude =
      own.toolLists.exclude || entry.toolLists?.exclude ? [...new Set([...(own.toolLists.exclude ?? []), ...(entry.toolLists?.exclude ?? [])])] : undefined;
    merged.toolLists = { ...(include ? { include } : {}), ...(exclude ? { exclude } : {}) };
  }
  return merged;
}
