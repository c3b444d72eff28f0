/**
 * A server's failure as the short texts a user reads first (a notification, a tree
 * description); the whole message and its details stay in the tooltip and the log. Pure.
 */

/** Up to the first sentence end (`.`, `?`, `!` before a space or the end), at most `max` characters. */
export function firstSentence(text: string, max = 90): string {
  const sentence = oneLine(text, Infinity);
  const end = /[.?!](\s|$)/.exec(sentence);
  return clip(end ? sentence.slice(0, end.index + 1) : sentence, max);
}

/** The first line of a message, at most `max` characters: a notification never grows to a wall of text. */
export function oneLine(text: string, max = 240): string {
  return clip(text.split(/\r?\n/, 1)[0].trim(), max);
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}
