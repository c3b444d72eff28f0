/**
 * Adds a server entry to the text of a config file, keeping the user's comments and
 * formatting (jsonc-parser edits). Pure.
 */
import * as jsonc from 'jsonc-parser';
import { excessiveNesting, MAX_NESTING } from './jsonNesting';
import type { ConfigFormat, InputDefinition, ServerEntry } from './serverConfig';

/** What a file without indentation of its own (new, empty or on one line) is written with. */
export interface IndentPreference {
  insertSpaces: boolean;
  tabSize: number;
}

const DEFAULT_INDENT: IndentPreference = { insertSpaces: true, tabSize: 2 };

/**
 * The indentation and line ends a file already uses, so an edit blends in: tabs when most
 * indented lines start with one, else the most common step between the indentation of
 * neighbouring lines (VS Code's own guess works the same way); `fallback` when nothing is indented.
 */
export function detectFormatting(text: string, fallback: IndentPreference = DEFAULT_INDENT): jsonc.FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  let tabLines = 0;
  let spaceLines = 0;
  let previous = 0;
  const steps = new Map<number, number>();
  for (const line of text.split(/\r?\n/)) {
    const indent = /^([ \t]*)\S/.exec(line)?.[1];
    if (indent === undefined) continue;
    if (indent.startsWith('\t')) tabLines++;
    else if (indent.length > 0) spaceLines++;
    if (!indent.includes('\t')) {
      const step = Math.abs(indent.length - previous);
      if (step > 0 && step <= 8) steps.set(step, (steps.get(step) ?? 0) + 1);
      previous = indent.length;
    }
  }
  if (tabLines > spaceLines) return { insertSpaces: false, tabSize: 1, eol };
  if (spaceLines === 0) return { ...fallback, eol };
  // The most frequent step; on a tie the smaller one.
  const [tabSize] = [...steps.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0] ?? [fallback.tabSize];
  return { insertSpaces: true, tabSize, eol };
}

/** The text of a new config file with the given indentation. */
function emptyConfig(format: ConfigFormat, f: jsonc.FormattingOptions): string {
  const value = format === 'vscode' ? { servers: {}, inputs: [] } : { mcpServers: {} };
  return JSON.stringify(value, null, f.insertSpaces ? ' '.repeat(f.tabSize ?? 2) : '\t').replace(/\n/g, f.eol ?? '\n') + (f.eol ?? '\n');
}

/** jsonc-parser edits parse recursively; a file nested deep enough would overflow the stack. */
function assertEditable(text: string): void {
  if (excessiveNesting(text)) throw new Error(`The config file is nested more than ${MAX_NESTING} levels deep; fix it before adding to it.`);
}

/** `indent`: how to indent a file that has no indentation of its own yet (the editor's settings). */
export function addServerToConfigText(
  text: string,
  format: ConfigFormat,
  name: string,
  entry: Partial<ServerEntry> & Record<string, unknown>,
  indent?: IndentPreference,
): string {
  assertEditable(text);
  const formattingOptions = detectFormatting(text, indent);
  const base = text.trim() === '' ? emptyConfig(format, formattingOptions) : text;
  const key = format === 'vscode' ? 'servers' : 'mcpServers';
  const edits = jsonc.modify(base, [key, name], entry, { formattingOptions });
  return jsonc.applyEdits(base, edits);
}

/** Appends input definitions to `inputs` of a `.vscode/mcp.json` text (creating the array), keeping comments. */
export function addInputsToConfigText(text: string, inputs: readonly InputDefinition[], indent?: IndentPreference): string {
  assertEditable(text);
  const FORMAT = detectFormatting(text, indent);
  let out = text;
  for (const input of inputs) {
    const root = jsonc.parseTree(out);
    const existing = root && jsonc.findNodeAtLocation(root, ['inputs']);
    const clean = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
    const edits =
      existing?.type === 'array'
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
    const pkg = value
      .trim()
      .split(/\s+/)[0]
      .replace(/^@[^/]+\//, '')
      .replace(/@[^@]*$/, '')
      .replace(/==.*$/, '');
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
