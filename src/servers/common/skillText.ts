/**
 * Skills (SEP-2640) in the Servers tree and in the read-only `mcp-skill:` documents, without
 * `vscode`: item text and tooltips (names and descriptions come from servers: hostile, escaped
 * like every other list item), the document address of a skill's SKILL.md, and the one line a
 * user reads when a SKILL.md fails verification.
 */
import * as l10n from '@vscode/l10n';
import type { Skill } from '@modelcontextprotocol/client/ext/skills';
import { escapeMarkdown, revealControlCharacters } from '../../shared/common/untrustedText';
import type { ItemText, MarkdownPart } from './treeText';

/** The scheme of the read-only documents that show a verified SKILL.md. */
export const SKILL_SCHEME = 'mcp-skill';

/** The frontmatter's name, or the URI's skill folder when the name is not text. */
export function skillName(skill: Skill): string {
  const name = skill.frontmatter.name;
  if (typeof name === 'string' && name.trim()) return name;
  return /([^/]+)\/SKILL\.md$/.exec(skill.uri)?.[1] ?? skill.uri;
}

/** The first line of the description, for the tree's description column. */
function shortDescription(skill: Skill): string | undefined {
  const description = typeof skill.frontmatter.description === 'string' ? skill.frontmatter.description.trim() : '';
  const first = description.split(/\r?\n/)[0];
  if (!first) return undefined;
  return first.length > 120 ? `${first.slice(0, 119)}…` : first;
}

export function skillItemText(skill: Skill): ItemText {
  const description = shortDescription(skill);
  return { label: revealControlCharacters(skillName(skill)), ...(description !== undefined ? { description: revealControlCharacters(description) } : {}) };
}

/** Files and bytes a skill lists (`dynamic` skills list none). */
export function skillSize(skill: Skill): { files: number; bytes: number } | undefined {
  if (!Array.isArray(skill.resources)) return undefined;
  return { files: skill.resources.length, bytes: skill.resources.reduce((sum, r) => sum + r.size, 0) };
}

export function skillTooltip(skill: Skill): MarkdownPart[] {
  const parts: MarkdownPart[] = [{ markdown: `**${escapeMarkdown(skillName(skill))}**\n\n` }, { code: skill.uri, language: 'text' }];
  const description = typeof skill.frontmatter.description === 'string' ? skill.frontmatter.description : '';
  parts.push(description.trim() ? { text: `${description}\n\n` } : { markdown: `_${escapeMarkdown(l10n.t('No description.'))}_\n\n` });
  const size = skillSize(skill);
  parts.push({
    markdown: escapeMarkdown(
      size ? l10n.t('{0} files, {1} bytes', size.files, size.bytes) : l10n.t('Dynamic skill: its files are not listed, so they cannot be verified.'),
    ),
  });
  return parts;
}

/** Where a skill's SKILL.md is shown: `mcp-skill:/<server id>/<skill name>/SKILL.md?<skill URI>`. */
export function skillDocument(serverId: string, skill: Skill): { path: string; query: string } {
  const folder = skillName(skill).replace(/[/\\?#]/g, '_');
  return { path: `/${encodeURIComponent(serverId)}/${encodeURIComponent(folder)}/SKILL.md`, query: encodeURIComponent(skill.uri) };
}

/** The server id and skill URI of a `skillDocument` address; undefined for anything else. */
export function parseSkillDocument(path: string, query: string): { serverId: string; skillUri: string } | undefined {
  const match = /^\/([^/]+)\/[^/]+\/SKILL\.md$/.exec(path);
  if (!match || !query) return undefined;
  try {
    return { serverId: decodeURIComponent(match[1]), skillUri: decodeURIComponent(query) };
  } catch {
    return undefined;
  }
}

/** Why a read was refused, as SkillVerificationError's `reason` says it. */
export type SkillRefusalReason = 'unlisted' | 'size' | 'digest' | 'frontmatter';

/**
 * The one line a user reads when a SKILL.md fails verification: what happened and what to do.
 * The details (both digests, the differing fields) are in the server's log.
 */
export function skillRefusal(reason: SkillRefusalReason, skill: string, server: string): string {
  switch (reason) {
    case 'digest':
      return l10n.t(
        'Refused skill "{0}" of {1}: its SKILL.md does not match the digest the server listed. Ask the server\'s author to republish it; details are in the server\'s log.',
        skill,
        server,
      );
    case 'size':
      return l10n.t(
        'Refused skill "{0}" of {1}: its SKILL.md is not the size the server listed. Ask the server\'s author to republish it; details are in the server\'s log.',
        skill,
        server,
      );
    case 'frontmatter':
      return l10n.t(
        'Refused skill "{0}" of {1}: the frontmatter of its SKILL.md differs from what the server listed. Ask the server\'s author to fix it; details are in the server\'s log.',
        skill,
        server,
      );
    case 'unlisted':
      return l10n.t(
        'Refused skill "{0}" of {1}: the file is not listed in the skill. Refresh the server\'s skills and try again; details are in the server\'s log.',
        skill,
        server,
      );
  }
}
