/**
 * A skill (SEP-2640) offered to `@mcp` chat as context, without `vscode`: which skill the
 * request names (`/skill <server>/<skill> question`), and the message that carries its
 * verified SKILL.md to the model, fenced and limited in size.
 */

/** What `/skill` picks from: one listed skill of a running server. */
export interface SkillChoice<S = unknown> {
  serverId: string;
  /** The server's configured name (what `/skill <server>/<skill>` names). */
  serverName: string;
  serverLabel: string;
  /** The skill's name (frontmatter `name`). */
  skillName: string;
  description?: string;
  skill: S;
}

/**
 * At most this many characters of a SKILL.md reach the model: a skill is instructions, and the
 * Agent Skills guidance keeps a SKILL.md under about 5,000 tokens (~20,000 characters); a
 * larger one would crowd the user's question and the conversation out of the model's context.
 */
export const MAX_SKILL_CONTEXT_CHARS = 24_000;

/** The first word of the request when it names a skill (`server/skill`), and the rest. */
export function splitSkillTarget(prompt: string): { target?: string; rest: string } {
  const match = /^\s*(\S+\/\S+)(?:\s+([\s\S]*))?$/.exec(prompt);
  return match ? { target: match[1], rest: (match[2] ?? '').trim() } : { rest: prompt.trim() };
}

/** The choice `server/skill` names: by server name, then label; the skill by name. */
export function findSkillChoice<S>(choices: readonly SkillChoice<S>[], target: string): SkillChoice<S> | undefined {
  const slash = target.indexOf('/');
  const server = target.slice(0, slash);
  const skill = target.slice(slash + 1);
  return choices.find((c) => c.serverName === server && c.skillName === skill) ?? choices.find((c) => c.serverLabel === server && c.skillName === skill);
}

/** The text cut to `max` characters (at a line end when one is near), and whether it was cut. */
export function limitSkillText(text: string, max = MAX_SKILL_CONTEXT_CHARS): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  const cut = text.slice(0, max);
  const lineEnd = cut.lastIndexOf('\n');
  return { text: lineEnd > max * 0.8 ? cut.slice(0, lineEnd + 1) : cut, truncated: true };
}

/** A code fence longer than any run of backticks in `text`, so the text cannot close it. */
export function fenceFor(text: string): string {
  return '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
}

/**
 * The model's message for a skill: where it comes from (a server, verified against its listing)
 * and its SKILL.md, fenced; cut to MAX_SKILL_CONTEXT_CHARS with a note when longer.
 */
export function skillContextMessage(
  skillName: string,
  serverLabel: string,
  uri: string,
  markdown: string,
  max = MAX_SKILL_CONTEXT_CHARS,
): { message: string; truncated: boolean } {
  const { text, truncated } = limitSkillText(markdown, max);
  const fence = fenceFor(text);
  const note = truncated ? `\n(Only the first ${text.length} of ${markdown.length} characters are shown.)` : '';
  return {
    message: `The user chose the skill "${skillName}" (${uri}) of the MCP server "${serverLabel}" as context. Its SKILL.md, verified against the server's listing, follows; apply it to the user's request.\n${fence}markdown\n${text}\n${fence}${note}`,
    truncated,
  };
}
