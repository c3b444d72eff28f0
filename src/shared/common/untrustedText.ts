/**
 * Text that comes from MCP servers (names, descriptions, error messages) or from workspace
 * config files (server names, commands, URLs) is hostile: it must be shown as the characters
 * it is, never as markup. Every place that puts such text into markdown-capable UI goes
 * through one of these:
 *  - `plainForNotification`: VS Code turns `[label](command:…)` in a notification (and in a
 *    progress notification's title or message) into a live link that runs the command.
 *  - `escapeMarkdown`: inline text in a MarkdownString (tooltips, hovers, chat responses).
 *  - `codeSpan`: text shown as inline code; a backtick in it must not end the span early.
 *  - `revealControlCharacters`: bidi overrides and other invisible characters shown as
 *    `\u202E`, so a name cannot pretend to be another (also applied by the three above).
 */

/**
 * C0/C1 controls (except tab, line feed and carriage return), bidi embeddings, overrides and
 * isolates, marks that change the direction of neighbouring text, and zero-width characters
 * that make two different names look the same; and Unicode tag characters (U+E0000–E007F),
 * which no editor shows but a model reads as the ASCII they shadow (hidden instructions). The
 * one legitimate use of tags, subdivision flag emoji, then reads as escapes: a price worth paying
 * in server-supplied names.
 */
const INVISIBLE =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u{E0000}-\u{E007F}]/gu;

/** Shows invisible and direction-changing characters as `\uXXXX` (or `\u{XXXXX}`) escapes. */
export function revealControlCharacters(text: string): string {
  return text.replace(INVISIBLE, (c) => {
    const hex = c.codePointAt(0)!.toString(16).toUpperCase();
    return hex.length > 4 ? `\\u{${hex}}` : `\\u${hex.padStart(4, '0')}`;
  });
}

/**
 * Text for a notification: VS Code links `[label](https://…|command:…|file:…)` in notification
 * messages, with no way to escape them; a space between `]` and `(` is the only way to make
 * sure no link is formed, and it keeps the text readable.
 */
export function plainForNotification(text: string): string {
  return revealControlCharacters(text).replace(/\]\(/g, '] (');
}

/**
 * Characters that make markup wherever they stand: emphasis and strikethrough, code, links and
 * images (`[`, `]`), HTML, autolinks and entities (`<`, `>`, `&`), tables, and backslashes;
 * `$` because VS Code draws `$(name)` as an icon (it reads `\$(name)` as the literal text).
 */
const INLINE_MARKUP = /[\\`*_[\]<>&|~$]/g;
/** What starts a block at the beginning of a line: headings, list items, setext underlines. */
const BLOCK_START = /^([ \t]*)([#+=-]|\d+[.)])/gm;

/**
 * Inline text for a MarkdownString (tooltips, hovers, chat): backslash escapes for everything
 * that could become markup, so the text reads exactly as given, without changing ordinary
 * words (`fixture-stdio`, `Cancelled.`). Line breaks stay line breaks; blank lines are folded
 * so no new block (an indented code block) can start.
 */
export function escapeMarkdown(text: string): string {
  return revealControlCharacters(text)
    .replace(/\r\n?/g, '\n')
    .replace(/\n(?:[ \t]*\n)+/g, '\n')
    .replace(INLINE_MARKUP, '\\$&')
    .replace(BLOCK_START, (_m, indent: string, marker: string) => `${indent}${marker.replace(/[#+=.)-]$/, '\\$&')}`)
    .replace(/\n/g, '  \n');
}

/**
 * Inline code holding `text` exactly: the fence is one backtick longer than the longest run of
 * backticks inside (CommonMark code spans close only on a run of the same length), padded with
 * spaces when the text starts or ends with a backtick. Line breaks become spaces, as they would.
 * In a MarkdownString that renders theme icons, `$(name)` inside code is still drawn as an
 * icon: use `escapeMarkdown` for untrusted text there.
 */
export function codeSpan(text: string): string {
  const content = revealControlCharacters(text).replace(/\r\n?|\n/g, ' ');
  const longest = Math.max(0, ...[...content.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = content === '' || content.startsWith('`') || content.endsWith('`') || /^ .* $/.test(content) ? ' ' : '';
  return `${fence}${pad}${content}${pad}${fence}`;
}
