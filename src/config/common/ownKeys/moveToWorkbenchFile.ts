/**
 * Moves MCP Workbench's own keys out of VS Code's `mcp.json` into `mcp-workbench.json` beside
 * it (workbenchFile.ts says why), keeping the comments and formatting of both files. Pure: the
 * config language server turns the result into a quick fix.
 */
import * as jsonc from 'jsonc-parser';
import { detectFormatting } from '../configEdit';
import { excessiveNesting } from '../jsonNesting';
import { isOwnEntryKey, OWN_TOP_KEYS } from './workbenchFile';

/** One key of ours in `mcp.json`: on server `server`'s entry, or (no server) on the top level. */
export interface OwnKeyPlace {
  server?: string;
  key: string;
  keyNode: jsonc.Node;
}

/** The keys of ours written in a `mcp.json` of VS Code's format (`servers`), in file order. */
export function ownKeysInMcpJson(root: jsonc.Node | undefined): OwnKeyPlace[] {
  if (root?.type !== 'object') return [];
  const found: OwnKeyPlace[] = [];
  for (const property of root.children ?? []) {
    const [keyNode, valueNode] = property.children ?? [];
    if (!keyNode || !valueNode) continue;
    const key = String(keyNode.value);
    if ((OWN_TOP_KEYS as readonly string[]).includes(key)) found.push({ key, keyNode });
    if (key !== 'servers' || valueNode.type !== 'object') continue;
    for (const server of valueNode.children ?? []) {
      const [nameNode, entry] = server.children ?? [];
      if (!nameNode || entry?.type !== 'object') continue;
      for (const field of entry.children ?? []) {
        const fieldKey = field.children?.[0];
        if (fieldKey && isOwnEntryKey(String(fieldKey.value))) found.push({ server: String(nameNode.value), key: String(fieldKey.value), keyNode: fieldKey });
      }
    }
  }
  return found;
}

/** A replacement of `length` characters at `offset` by `content`. */
export interface TextChange {
  offset: number;
  length: number;
  content: string;
}

export interface MoveResult {
  /** The one change to `mcp.json` (the keys removed). */
  mcpJson: TextChange;
  /** The whole new text of `mcp-workbench.json`, and whether it differs from the old one. */
  workbenchFile: string;
  workbenchFileChanged: boolean;
  /** Places whose value was not copied because the file beside already sets that key (its value is the one in effect). */
  alreadySet: { server?: string; key: string }[];
}

/**
 * Moves `places` (from ownKeysInMcpJson) of `mcpText` into `workbenchText` (undefined or empty:
 * the file does not exist yet). A key the other file sets already keeps that file's value (the
 * one in effect); `excludeTools` lists are joined, as reading joins them. `samplingMocks`
 * profiles move one by one, those of a name the file defines already are dropped.
 */
export function moveToWorkbenchFile(mcpText: string, workbenchText: string | undefined, places: readonly { server?: string; key: string }[]): MoveResult {
  if (excessiveNesting(mcpText) || (workbenchText && excessiveNesting(workbenchText))) throw new Error('The file is nested too deep to edit.');
  const mcpRoot = jsonc.parseTree(mcpText, [], { allowTrailingComma: true });
  const mcpFormat = detectFormatting(mcpText);
  const existing = workbenchText && jsonc.parseTree(workbenchText)?.type === 'object' ? workbenchText : undefined;
  let target = existing ?? `{}${mcpFormat.eol ?? '\n'}`;
  const targetFormat = existing ? detectFormatting(existing, { insertSpaces: mcpFormat.insertSpaces ?? true, tabSize: mcpFormat.tabSize ?? 2 }) : mcpFormat;
  const set = (path: jsonc.JSONPath, value: unknown) => {
    target = jsonc.applyEdits(target, jsonc.modify(target, path, value, { formattingOptions: targetFormat }));
  };
  const alreadySet: MoveResult['alreadySet'] = [];
  let source = mcpText;
  for (const place of places) {
    const from = place.server === undefined ? [place.key] : ['servers', place.server, place.key];
    const node = mcpRoot && jsonc.findNodeAtLocation(mcpRoot, from);
    if (!node) continue;
    const value: unknown = jsonc.getNodeValue(node);
    const targetRoot = jsonc.parseTree(target);
    if (place.server === undefined) {
      // Top level: `samplingMocks`, profile by profile.
      const profiles = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
      for (const [name, profile] of Object.entries(profiles)) {
        if (targetRoot && jsonc.findNodeAtLocation(targetRoot, [place.key, name])) alreadySet.push({ key: `${place.key}.${name}` });
        else set([place.key, name], profile);
      }
    } else {
      const there = targetRoot && jsonc.findNodeAtLocation(targetRoot, from);
      if (!there) set(from, value);
      else if (place.key === 'excludeTools' && Array.isArray(value) && there.type === 'array') {
        const have = jsonc.getNodeValue(there) as unknown[];
        set(from, [...have, ...value.filter((t) => !have.includes(t))]);
      } else alreadySet.push({ server: place.server, key: place.key });
    }
    source = jsonc.applyEdits(source, jsonc.modify(source, from, undefined, { formattingOptions: mcpFormat }));
  }
  return { mcpJson: singleChange(mcpText, source), workbenchFile: target, workbenchFileChanged: target !== (workbenchText ?? ''), alreadySet };
}

/** The one change that turns `before` into `after`: what differs between their common start and end. */
export function singleChange(before: string, after: string): TextChange {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
  return { offset: start, length: before.length - start - end, content: after.slice(start, after.length - end) };
}
