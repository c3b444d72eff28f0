/**
 * A config file as the language server sees it: the jsonc tree with the nodes every feature
 * needs (server entries and their fields, inputs, every `${…}` with its offsets), plus what
 * the extension's own parser makes of it. Pure: no I/O, no `vscode`.
 */
import * as jsonc from 'jsonc-parser';
import { parseJsonTree } from '../../config/common/jsonNesting';
import { parseConfigText, type ConfigFormat, type ParsedConfig } from '../../config/common/serverConfig';

export interface ServerNode {
  name: string;
  /** The property node (`"name": { … }`). */
  property: jsonc.Node;
  keyNode: jsonc.Node;
  valueNode: jsonc.Node;
}

export interface InputNode {
  id: string;
  node: jsonc.Node;
  type?: unknown;
  description?: string;
  password: boolean;
}

/** One `${…}` inside a string value. Offsets are into the file text and cover `${` to `}`. */
export interface VariableRef {
  name: string;
  start: number;
  end: number;
  stringNode: jsonc.Node;
  server: string;
}

export interface ConfigModel {
  text: string;
  root: jsonc.Node | undefined;
  /** Format of the file name (`.vscode/mcp.json` is VS Code's, every other covered file `mcpServers`). */
  fileFormat: ConfigFormat;
  parsed: ParsedConfig;
  /** The `servers` / `mcpServers` property in use. */
  mapProperty: jsonc.Node | undefined;
  mapKey: 'servers' | 'mcpServers' | undefined;
  servers: ServerNode[];
  inputsNode: jsonc.Node | undefined;
  inputs: InputNode[];
  variables: VariableRef[];
  /** The profiles of the top-level `samplingMocks`, with their key nodes. */
  samplingMocks: { name: string; keyNode: jsonc.Node; valueNode: jsonc.Node }[];
}

const VARIABLE = /\$\{([^}]*)\}/g;

/** Files of VS Code's format; every other covered file (`.mcp.json`, Cursor, Claude Desktop) uses `mcpServers`. */
export function formatForPath(path: string): ConfigFormat {
  return /(^|[\\/])\.vscode[\\/]mcp\.json$/.test(path) ? 'vscode' : 'mcpServers';
}

export function buildModel(text: string, fileFormat: ConfigFormat): ConfigModel {
  const parsed = parseConfigText(text, fileFormat);
  const root = parseJsonTree(text, [], { allowTrailingComma: true, disallowComments: false });
  const model: ConfigModel = {
    text,
    root,
    fileFormat,
    parsed,
    mapProperty: undefined,
    mapKey: undefined,
    servers: [],
    inputsNode: undefined,
    inputs: [],
    variables: [],
    samplingMocks: [],
  };
  if (!root || root.type !== 'object') return model;
  const mapKey = parsed.format === 'mcpServers' ? 'mcpServers' : parsed.format === 'vscode' ? 'servers' : undefined;
  const mapValue = mapKey ? jsonc.findNodeAtLocation(root, [mapKey]) : undefined;
  model.mapKey = mapKey;
  model.mapProperty = mapValue?.parent;
  if (mapValue?.type === 'object') {
    for (const property of mapValue.children ?? []) {
      const [keyNode, valueNode] = property.children ?? [];
      if (!keyNode || !valueNode) continue;
      const server: ServerNode = { name: String(keyNode.value), property, keyNode, valueNode };
      model.servers.push(server);
      collectVariables(text, valueNode, server.name, model.variables);
    }
  }
  model.inputsNode = jsonc.findNodeAtLocation(root, ['inputs']);
  if (model.inputsNode?.type === 'array') {
    for (const child of model.inputsNode.children ?? []) {
      const value = jsonc.getNodeValue(child) as Record<string, unknown> | null;
      if (!value || typeof value !== 'object' || typeof value.id !== 'string') continue;
      model.inputs.push({
        id: value.id,
        node: child,
        type: value.type,
        description: typeof value.description === 'string' ? value.description : undefined,
        password: value.password === true,
      });
    }
  }
  const mocks = jsonc.findNodeAtLocation(root, ['samplingMocks']);
  for (const property of mocks?.type === 'object' ? (mocks.children ?? []) : []) {
    const [keyNode, valueNode] = property.children ?? [];
    if (keyNode && valueNode) model.samplingMocks.push({ name: String(keyNode.value), keyNode, valueNode });
  }
  return model;
}

/** The string node of a server's `sampling.mock` when it names a profile. */
export function samplingMockRef(server: ServerNode): jsonc.Node | undefined {
  const sampling = serverField(server, 'sampling');
  const mock = sampling?.value.type === 'object' ? jsonc.findNodeAtLocation(sampling.value, ['mock']) : undefined;
  return mock?.type === 'string' ? mock : undefined;
}

function collectVariables(text: string, node: jsonc.Node, server: string, out: VariableRef[]): void {
  if (node.type === 'string') {
    const raw = text.slice(node.offset + 1, node.offset + node.length - 1);
    for (const m of raw.matchAll(VARIABLE)) {
      const start = node.offset + 1 + m.index!;
      out.push({ name: m[1], start, end: start + m[0].length, stringNode: node, server });
    }
    return;
  }
  if (node.type === 'property') {
    // Keys are names, not values: only the value side can hold variables.
    const value = node.children?.[1];
    if (value) collectVariables(text, value, server, out);
    return;
  }
  for (const child of node.children ?? []) collectVariables(text, child, server, out);
}

/** A field of a server entry: the property's key and value nodes. */
export function serverField(server: ServerNode, key: string): { key: jsonc.Node; value: jsonc.Node } | undefined {
  if (server.valueNode.type !== 'object') return undefined;
  for (const property of server.valueNode.children ?? []) {
    const [k, v] = property.children ?? [];
    if (k && v && k.value === key) return { key: k, value: v };
  }
  return undefined;
}

/** The string value of a server field, if it is a string. */
export function serverString(server: ServerNode, key: string): { value: string; node: jsonc.Node } | undefined {
  const field = serverField(server, key);
  return field?.value.type === 'string' ? { value: String(field.value.value), node: field.value } : undefined;
}

/** The innermost server entry containing an offset. */
export function serverAt(model: ConfigModel, offset: number): ServerNode | undefined {
  return model.servers.find((s) => offset >= s.property.offset && offset <= s.property.offset + s.property.length);
}

export function variableAt(model: ConfigModel, offset: number): VariableRef | undefined {
  return model.variables.find((v) => offset >= v.start && offset <= v.end);
}

/** Lowercase slug usable as an input id: `API_KEY` → `api-key`. */
export function slug(text: string): string {
  return (
    text
      .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'value'
  );
}

/** An input id not taken yet in this file, based on `base`. */
export function freeInputId(model: ConfigModel, base: string): string {
  const taken = new Set(model.inputs.map((i) => i.id));
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  return id;
}
