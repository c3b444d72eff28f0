// Puts elements into a translated sentence: `fill(l10n.t('Asked by MCP server {0}'), strong)`
// keeps the sentence whole for translators (the element may move within it) where
// concatenating its English pieces would fix the word order.

/** `template`'s text with each `{n}` replaced by `parts[n]` (a node, or text). */
export function fill(template: string, ...parts: (Node | string)[]): (Node | string)[] {
  return template
    .split(/(\{\d+\})/)
    .filter((piece) => piece !== '')
    .map((piece) => {
      const index = /^\{(\d+)\}$/.exec(piece)?.[1];
      return index !== undefined && parts[Number(index)] !== undefined ? parts[Number(index)] : piece;
    });
}
