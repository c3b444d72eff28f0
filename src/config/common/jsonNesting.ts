/**
 * A bound on how deep a JSON text may nest before anything recursive reads it. Pure.
 */
import * as jsonc from 'jsonc-parser';

/**
 * How deep a config may nest ({ and [). Real files stay below 10; jsonc-parser (like every
 * recursive parser) overflows the stack at a few thousand, and one hostile file must not take
 * the reload of every config source, or the language server, down with it.
 */
export const MAX_NESTING = 64;

/** Where `text` first nests deeper than `max`, found by the (iterative) scanner; undefined if it never does. */
export function excessiveNesting(text: string, max = MAX_NESTING): { offset: number } | undefined {
  const scanner = jsonc.createScanner(text, false);
  let depth = 0;
  for (let token = scanner.scan(); token !== jsonc.SyntaxKind.EOF; token = scanner.scan()) {
    if (token === jsonc.SyntaxKind.OpenBraceToken || token === jsonc.SyntaxKind.OpenBracketToken) {
      if (++depth > max) return { offset: scanner.getTokenOffset() };
    } else if (token === jsonc.SyntaxKind.CloseBraceToken || token === jsonc.SyntaxKind.CloseBracketToken) {
      depth = Math.max(0, depth - 1);
    }
  }
  return undefined;
}

/** `jsonc.parseTree`, or undefined (nothing parsed) when the text nests deeper than MAX_NESTING. */
export function parseJsonTree(text: string, errors?: jsonc.ParseError[], options?: jsonc.ParseOptions): jsonc.Node | undefined {
  return excessiveNesting(text) ? undefined : jsonc.parseTree(text, errors, options);
}
