/**
 * Adds a server entry to the text of a config file, keeping the user's comments and
 * formatting (jsonc-parser edits). Pure.
 */
import * as jsonc from 'jsonc-parser';
import { excessiveNesting, MAX_NESTING } from './jsonNesting';
import type { ConfigFormat, InputDefinition, ServerEntry } from './serverConfig';

const FORMAT: jsonc.FormattingOptions = { insertSpaces: false, tabSize: 1, eol: '\n' };

/** jsonc-parser edits parse recursively; a file nested deep enough would overflow the stack. */
function assertEditable(text: string): void {
  if (excessiveNesting(text)) throw new Error(`The config file is nested more than ${MAX_NESTING} levels deep; fix it before adding to it.`);
}

export function addServerToConfigText(text: string, format: ConfigFormat, name: string, entry: Partial<ServerEntry> & Record<string, unknown>): string {
  assertEditable(text);
  const base = text.trim() === '' ? (format === 'vscode' ? '{\n\t"servers": {},\n\t"inputs": []\n}\n' : '{\n\t"mcpServers": {}\n}\n') : text;
  const key = format === 'vscode' ? 'servers' : 'mcpServers';
  const edits = jsonc.modify(base, [key, name], entry, { formattingOptions: FORMAT });
  return jsonc.applyEdits(base, edits);
}

/** Appends input definitions to `inputs` of a `.vscode/mcp.json` text (creating the array), keeping comments. */
export function addInputsToConfigText(text: string, inputs: readonly InputDefinition[]): string {
  assertEditable(text);
  let out = text;
  for (const input of inputs) {
    const root = jsonc.parseTree(out);
    const existing = root && jsonc.findNodeAtLocation(root, ['inputs']);
    const clean = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
    const edits = existing?.type === 'array'
      ? jsonc.modify(out, ['inputs', existing.children?.length ?? 0], clean, { isArrayInsertion: true, formattingOptions: FORMAT })
      : jsonc.modify(out, ['inputs'], [clean], { formattingOptions: FORMAT });
    out = jsonc.applyEdits(out, edits);
  }
  return out;
}

/** A name not yet used in the map, from a suggestion ("weather", "weather-2", …). */
export function uniqueServerName(existing: readonly string[], suggestion: string): string {
  const base = suggestion.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^-+|-+$/g, '') || 'server';
  if (!existing.includes(base)) return base;
  for (let i = 2; ; i++) if (!existing.includes(`${base}-${i}`)) return `${base}-${i}`;
}

/** A server name suggested by what the user typed: package name without scope/version, host name, or command. */
export function suggestServerName(kind: 'command' | 'npm' | 'pypi' | 'http', value: string): string {
  if (kind === 'http') {
    try {
      return new URL(value).hostname.split('.').filter((p) => p !== 'www' && p !== 'mcp')[0] ?? 'remote';
    } catch {
      return 'remote';
    }
  }
  if (kind === 'npm' || kind === 'pypi') {
    const pkg = value.trim().split(/\s+/)[0].replace(/^@[^/]+\//, '').replace(/@[^@]*$/, '').replace(/==.*$/, '');
    return pkg.replace(/^(mcp-server-|server-)/, '').replace(/(-mcp-server|-mcp)$/, '') || pkg;
  }
  return value.trim().split(/\s+/)[0].split(/[\\/]/).pop() ?? 'server';
}

/** Splits a command line on spaces, keeping "quoted parts" together. */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(m[1] ?? m[2] ?? m[3]);
  return words;
}
