/**
 * Completions and checks for saved tests (`*.mcptest.json`) that the JSON schema cannot give,
 * from the servers the extension knows (ServerCatalogParams): the `server` name, the tool a
 * `callTool` step names and its arguments, the prompt of a `getPrompt` step and its arguments,
 * the resource of a `readResource` step. Keys, shapes and `list` values stay the schema's
 * (schemas/mcp-test.schema.json), so nothing here repeats what it says.
 *
 * A server whose lists the extension has not fetched yet gets nothing: no completion and no
 * check, rather than a guess. Pure: offsets in, offsets out; the language server turns them
 * into LSP items.
 */
import * as jsonc from 'jsonc-parser';
import * as l10n from '@vscode/l10n';
import { excessiveNesting } from '../../config/common/jsonNesting';
import type { CatalogServer, CatalogTool } from './languageMessages';
import { resolveCatalogServer } from './serverCatalog';

export interface TestFileContext {
  /** The servers the extension sent; undefined before it sent any (then nothing is said). */
  servers: readonly CatalogServer[] | undefined;
  /** The name of the workspace folder holding the file: a server of that folder comes first. */
  folder?: string;
}

export interface TestCompletion {
  label: string;
  kind: 'server' | 'tool' | 'argument' | 'prompt' | 'resource' | 'value';
  detail?: string;
  documentation?: string;
  /** The text replaced (offsets): the string under the cursor, or an empty range at it. */
  start: number;
  end: number;
  insertText: string;
  /** `insertText` is a snippet (tab stops for the value of an inserted key). */
  snippet?: boolean;
  filterText: string;
}

/** Codes of these diagnostics (tests and quick fixes find them by code, never by text). */
export const TestDiagnosticCode = {
  serverUnknown: 'mcp.test-server-unknown',
  toolUnknown: 'mcp.test-tool-unknown',
  argumentUnknown: 'mcp.test-argument-unknown',
  argumentMissing: 'mcp.test-argument-missing',
  promptUnknown: 'mcp.test-prompt-unknown',
} as const;

export interface TestDiagnostic {
  start: number;
  end: number;
  severity: 'error' | 'warning';
  code: (typeof TestDiagnosticCode)[keyof typeof TestDiagnosticCode];
  message: string;
}

const PARSE_OPTIONS: jsonc.ParseOptions = { allowTrailingComma: true, disallowComments: false };
/** How many names a message lists before it says how many there are in all. */
const LISTED_NAMES = 10;

/** `tests[i].steps[j]` followed by the step's action: the path of a step's field. */
function stepAction(path: jsonc.JSONPath): { step: jsonc.JSONPath; action: string; rest: jsonc.JSONPath } | undefined {
  if (path.length < 5 || path[0] !== 'tests' || typeof path[1] !== 'number' || path[2] !== 'steps' || typeof path[3] !== 'number') return undefined;
  return { step: path.slice(0, 4), action: String(path[4]), rest: path.slice(5) };
}

function parse(text: string): jsonc.Node | undefined {
  // jsonc-parser recurses: a file nested deeper than any real one gets nothing rather than a stack overflow.
  if (excessiveNesting(text)) return undefined;
  const root = jsonc.parseTree(text, [], PARSE_OPTIONS);
  return root?.type === 'object' ? root : undefined;
}

/** The catalog entry the file's `server` names, when it names one by a string. */
function namedServer(root: jsonc.Node, ctx: TestFileContext): CatalogServer | undefined {
  const node = jsonc.findNodeAtLocation(root, ['server']);
  return node?.type === 'string' && ctx.servers ? resolveCatalogServer(ctx.servers, String(node.value), ctx.folder) : undefined;
}

function stringAt(root: jsonc.Node, path: jsonc.JSONPath): string | undefined {
  const node = jsonc.findNodeAtLocation(root, path);
  return node?.type === 'string' ? String(node.value) : undefined;
}

export function completeTestFile(text: string, offset: number, ctx: TestFileContext): TestCompletion[] {
  if (!ctx.servers) return [];
  const root = parse(text);
  if (!root) return [];
  const location = jsonc.getLocation(text, offset);
  const node = location.previousNode;
  // jsonc-parser gives a key being typed as a `property` node spanning the key's string.
  const stringToken = node?.type === 'string' || (location.isAtPropertyKey && node?.type === 'property');
  const inString = !!node && stringToken && offset > node.offset && offset <= node.offset + node.length;
  // Only a string under the cursor, or nothing typed yet, is replaced: a number or `true` there is left alone.
  if (node && !inString) return [];
  const range = inString ? { start: node!.offset, end: node!.offset + node!.length } : { start: offset, end: offset };
  const value = (label: string, kind: TestCompletion['kind'], detail?: string, documentation?: string): TestCompletion => ({
    label,
    kind,
    ...(detail ? { detail } : {}),
    ...(documentation ? { documentation } : {}),
    ...range,
    insertText: JSON.stringify(label),
    filterText: JSON.stringify(label),
  });
  const path = location.path;

  if (!location.isAtPropertyKey && path.length === 1 && path[0] === 'server') {
    const where = new Map<string, string[]>();
    for (const s of ctx.servers) where.set(s.name, [...(where.get(s.name) ?? []), s.where]);
    return [...where].map(([name, places]) => value(name, 'server', places.join(', ')));
  }

  const at = stepAction(path);
  if (!at) return [];
  const server = namedServer(root, ctx);
  if (!server) return [];

  if (at.action === 'callTool' && server.tools) {
    if (!location.isAtPropertyKey && at.rest.length === 1 && at.rest[0] === 'name') {
      return server.tools.map((t) => value(t.name, 'tool', t.title, t.description));
    }
    const tool = server.tools.find((t) => t.name === stringAt(root, [...at.step, 'callTool', 'name']));
    if (!tool || at.rest[0] !== 'arguments' || at.rest.length !== 2) return [];
    if (location.isAtPropertyKey) {
      const taken = presentKeys(root, [...at.step, 'callTool', 'arguments'], inString ? node : undefined);
      return tool.arguments
        .filter((a) => !taken.has(a.name))
        .map((a) => keyItem(text, range, inString, a.name, 'argument', argumentDetail(tool, a.name, a.type), a.description, valueSnippet(a.type, a.enum)));
    }
    const argument = tool.arguments.find((a) => a.name === at.rest[1]);
    return (argument?.enum ?? []).map((v) => ({ ...value(JSON.stringify(v), 'value'), insertText: JSON.stringify(v), filterText: JSON.stringify(v) }));
  }

  if (at.action === 'getPrompt' && server.prompts) {
    if (!location.isAtPropertyKey && at.rest.length === 1 && at.rest[0] === 'name') {
      return server.prompts.map((p) => value(p.name, 'prompt', p.title, p.description));
    }
    const prompt = server.prompts.find((p) => p.name === stringAt(root, [...at.step, 'getPrompt', 'name']));
    if (!prompt || !location.isAtPropertyKey || at.rest[0] !== 'arguments' || at.rest.length !== 2) return [];
    const taken = presentKeys(root, [...at.step, 'getPrompt', 'arguments'], inString ? node : undefined);
    return prompt.arguments
      .filter((a) => !taken.has(a.name))
      .map((a) => keyItem(text, range, inString, a.name, 'argument', a.required ? l10n.t('string, required') : l10n.t('string'), a.description, '"$1"'));
  }

  if (at.action === 'readResource' && server.resources && !location.isAtPropertyKey && at.rest.length === 1 && at.rest[0] === 'uri') {
    return server.resources.map((r) => value(r.uri, 'resource', r.name, r.description));
  }
  return [];
}

/** The keys an object already has, but the one being typed. */
function presentKeys(root: jsonc.Node, path: jsonc.JSONPath, typing: jsonc.Node | undefined): Set<string> {
  const object = jsonc.findNodeAtLocation(root, path);
  const keys = new Set<string>();
  for (const property of object?.type === 'object' ? (object.children ?? []) : []) {
    const key = property.children?.[0];
    if (key && key !== typing && !(typing && key.offset === typing.offset)) keys.add(String(key.value));
  }
  return keys;
}

function argumentDetail(tool: CatalogTool, name: string, type: string | undefined): string {
  const required = tool.required.includes(name);
  return type ? (required ? l10n.t('{0}, required', type) : type) : required ? l10n.t('required') : '';
}

/** A snippet for an argument's value by its schema type: `"…"`, `0`, `false`, `{…}`, `[…]`, or its first enum value. */
function valueSnippet(type: string | undefined, values: unknown[] | undefined): string {
  if (values?.length) return `\${1:${escapeSnippet(JSON.stringify(values[0]))}}`;
  switch (type) {
    case 'string':
      return '"$1"';
    case 'number':
    case 'integer':
      return '${1:0}';
    case 'boolean':
      return '${1:false}';
    case 'object':
      return '{$1}';
    case 'array':
      return '[$1]';
    default:
      return '$1';
  }
}

function escapeSnippet(text: string): string {
  return text.replace(/[$}\\]/g, '\\$&');
}

/**
 * A property key: the key alone when a `:` already follows the one typed, else key, colon and a
 * value to fill in, with a comma when another property follows.
 */
function keyItem(
  text: string,
  range: { start: number; end: number },
  inString: boolean,
  name: string,
  kind: TestCompletion['kind'],
  detail: string,
  documentation: string | undefined,
  snippetValue: string,
): TestCompletion {
  const after = text.slice(range.end).match(/^\s*(.)/)?.[1];
  const key = escapeSnippet(JSON.stringify(name));
  const insertText = inString && after === ':' ? key : `${key}: ${snippetValue}${after === '"' ? ',' : ''}`;
  return {
    label: name,
    kind,
    ...(detail ? { detail } : {}),
    ...(documentation ? { documentation } : {}),
    ...range,
    insertText,
    snippet: true,
    filterText: JSON.stringify(name),
  };
}

/** `a, b, c` of at most LISTED_NAMES names, then how many there are in all. */
function listNames(names: readonly string[]): string {
  const shown = names.slice(0, LISTED_NAMES).join(', ');
  return names.length > LISTED_NAMES ? l10n.t('{0}, … ({1} in all)', shown, names.length) : shown;
}

export function checkTestFile(text: string, ctx: TestFileContext): TestDiagnostic[] {
  const out: TestDiagnostic[] = [];
  const root = ctx.servers && parse(text);
  const serverNode = root && jsonc.findNodeAtLocation(root, ['server']);
  // An inline launch, a missing or an empty name: the schema says what is wrong, if anything.
  if (!root || !ctx.servers || serverNode?.type !== 'string' || String(serverNode.value) === '') return out;
  const add = (node: jsonc.Node, severity: TestDiagnostic['severity'], code: TestDiagnostic['code'], message: string) =>
    out.push({ start: node.offset, end: node.offset + node.length, severity, code, message });
  const name = String(serverNode.value);
  const server = resolveCatalogServer(ctx.servers, name, ctx.folder);
  if (!server) {
    const names = [...new Set(ctx.servers.map((s) => s.name))];
    add(
      serverNode,
      'error',
      TestDiagnosticCode.serverUnknown,
      names.length
        ? l10n.t('No server "{0}" is configured in this workspace; configured: {1}.', name, listNames(names))
        : l10n.t('No server "{0}" is configured in this workspace: add it to .vscode/mcp.json or .mcp.json, or launch one inline.', name),
    );
    return out;
  }
  const tests = jsonc.findNodeAtLocation(root, ['tests']);
  for (const test of tests?.type === 'array' ? (tests.children ?? []) : []) {
    const steps = test.type === 'object' ? jsonc.findNodeAtLocation(test, ['steps']) : undefined;
    for (const step of steps?.type === 'array' ? (steps.children ?? []) : []) {
      if (step.type !== 'object') continue;
      checkCallTool(server, step, add);
      checkGetPrompt(server, step, add);
    }
  }
  return out;
}

type Add = (node: jsonc.Node, severity: TestDiagnostic['severity'], code: TestDiagnostic['code'], message: string) => void;

/** A step's action field: its name node and its arguments, with the `"arguments"` key to underline. */
function action(step: jsonc.Node, key: string): { nameNode: jsonc.Node; args?: jsonc.Node; argsKey?: jsonc.Node } | undefined {
  const call = jsonc.findNodeAtLocation(step, [key]);
  const nameNode = call?.type === 'object' ? jsonc.findNodeAtLocation(call, ['name']) : undefined;
  if (!call || nameNode?.type !== 'string') return undefined;
  const args = jsonc.findNodeAtLocation(call, ['arguments']);
  return { nameNode, args, argsKey: args?.parent?.children?.[0] };
}

function checkCallTool(server: CatalogServer, step: jsonc.Node, add: Add): void {
  const call = action(step, 'callTool');
  if (!call || !server.tools) return;
  const name = String(call.nameNode.value);
  const tool = server.tools.find((t) => t.name === name);
  if (!tool) {
    const names = server.tools.map((t) => t.name);
    add(
      call.nameNode,
      'warning',
      TestDiagnosticCode.toolUnknown,
      names.length
        ? l10n.t('Server "{0}" had no tool "{1}" when last listed; its tools: {2}.', server.name, name, listNames(names))
        : l10n.t('Server "{0}" had no tools when last listed, so it has no tool "{1}".', server.name, name),
    );
    return;
  }
  // Arguments that are not an object are the schema's to report.
  if (call.args && call.args.type !== 'object') return;
  const given = new Map((call.args?.children ?? []).flatMap((p) => (p.children?.[0] ? [[String(p.children[0].value), p.children[0]] as const] : [])));
  if (tool.closed) {
    const known = tool.arguments.map((a) => a.name);
    for (const [arg, keyNode] of given) {
      if (known.includes(arg)) continue;
      add(
        keyNode,
        'warning',
        TestDiagnosticCode.argumentUnknown,
        known.length
          ? l10n.t('Tool "{0}" takes no argument "{1}" (its inputSchema allows no others); it takes: {2}.', tool.name, arg, listNames(known))
          : l10n.t('Tool "{0}" takes no arguments, and its inputSchema allows no others: remove "{1}".', tool.name, arg),
      );
    }
  }
  for (const required of tool.required) {
    if (given.has(required)) continue;
    add(
      call.argsKey ?? call.nameNode,
      'warning',
      TestDiagnosticCode.argumentMissing,
      l10n.t('Tool "{0}" needs the argument "{1}", which this step does not give.', tool.name, required),
    );
  }
}

function checkGetPrompt(server: CatalogServer, step: jsonc.Node, add: Add): void {
  const call = action(step, 'getPrompt');
  if (!call || !server.prompts) return;
  const name = String(call.nameNode.value);
  const prompt = server.prompts.find((p) => p.name === name);
  if (!prompt) {
    const names = server.prompts.map((p) => p.name);
    add(
      call.nameNode,
      'warning',
      TestDiagnosticCode.promptUnknown,
      names.length
        ? l10n.t('Server "{0}" had no prompt "{1}" when last listed; its prompts: {2}.', server.name, name, listNames(names))
        : l10n.t('Server "{0}" had no prompts when last listed, so it has no prompt "{1}".', server.name, name),
    );
    return;
  }
  if (call.args && call.args.type !== 'object') return;
  const given = new Set((call.args?.children ?? []).map((p) => String(p.children?.[0]?.value)));
  for (const a of prompt.arguments) {
    if (!a.required || given.has(a.name)) continue;
    add(
      call.argsKey ?? call.nameNode,
      'warning',
      TestDiagnosticCode.argumentMissing,
      l10n.t('Prompt "{0}" needs the argument "{1}", which this step does not give.', prompt.name, a.name),
    );
  }
}
