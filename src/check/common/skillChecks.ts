/**
 * Skills (SEP-2640) as a host sees them: entries the SDK refuses, a SKILL.md that fails
 * verification against its entry (digest, size, frontmatter), a SKILL.md too large for a
 * model's context, skills beyond the extension's per-skill limits, and skills without a
 * description (a model picks skills by it).
 */
import { SKILL_LIMITS } from '@modelcontextprotocol/client/ext/skills';
import { SkillVerificationError, type ServerSkills } from '../../mcp/connection/serverSkills';
import { errorMessage } from '../../shared/common/errors';
import type { CheckInput, CheckedSkill, CheckedSkills, Finding, SkillReadFailure, SpecSection } from './checkTypes';

const SEP = 'https://modelcontextprotocol.io/seps/2640-skills-extension';
const SPEC: Record<'entry' | 'verify' | 'limits', SpecSection> = {
  entry: { title: 'Skills extension (SEP-2640) › Specification', url: `${SEP}#specification` },
  verify: { title: 'Skills extension (SEP-2640) › Integrity and verification', url: `${SEP}#integrity-and-verification` },
  limits: { title: 'Skills extension (SEP-2640) › Limits', url: `${SEP}#specification` },
};

const WHAT_FAILED: Record<SkillReadFailure, string> = {
  digest: 'its SKILL.md does not match the listed digest',
  size: 'its SKILL.md is not the listed size',
  frontmatter: 'the frontmatter of its SKILL.md differs from the listed one',
  unlisted: 'its SKILL.md is not among the files the entry lists',
  error: 'its SKILL.md could not be read',
};

/**
 * The skills of a server for the checks: a fresh listing, and each SKILL.md read and verified
 * (Check Server is a user asking to load them; listing alone reads none). One at a time: a
 * server is not flooded by a check. Undefined when the server does not offer skills.
 */
export async function collectSkills(
  skills: Pick<ServerSkills, 'offered' | 'refresh' | 'read'>,
  cancelled: () => boolean = () => false,
): Promise<CheckedSkills | undefined> {
  if (!skills.offered) return undefined;
  const listing = await skills.refresh();
  const entries: CheckedSkill[] = [];
  for (const skill of listing.skills) {
    if (cancelled()) break;
    const files = Array.isArray(skill.resources) ? skill.resources : undefined;
    let read: CheckedSkill['read'];
    try {
      await skills.read(skill);
      read = { ok: true };
    } catch (error) {
      read = { ok: false, reason: error instanceof SkillVerificationError ? error.reason : 'error', message: errorMessage(error) };
    }
    entries.push({
      uri: skill.uri,
      name: skill.frontmatter.name,
      description: skill.frontmatter.description,
      read,
      ...(files ? { files: files.length, bytes: files.reduce((sum, f) => sum + f.size, 0), manifestSize: files.find((f) => f.uri === skill.uri)?.size } : {}),
    });
  }
  return { entries, invalid: listing.invalid.map((bad) => ({ ...(bad.uri !== undefined ? { uri: bad.uri } : {}), reason: bad.reason })) };
}

const nameOf = (skill: CheckedSkill) => (typeof skill.name === 'string' && skill.name ? skill.name : skill.uri);

export function checkSkills(input: CheckInput): Finding[] {
  const skills = input.skills;
  if (!skills) return [];
  const findings: Finding[] = [];
  for (const bad of skills.invalid) {
    findings.push({
      check: 'skill-entry',
      severity: 'error',
      subject: bad.uri ?? 'skills/list',
      spec: SPEC.entry,
      message: `\`skills/list\` has an invalid entry${bad.uri ? ` for ${bad.uri}` : ''}: ${bad.reason}. Clients skip or refuse it.`,
    });
  }
  for (const skill of skills.entries) {
    const name = nameOf(skill);
    if (!skill.read.ok) {
      const verification = skill.read.reason !== 'error';
      findings.push({
        check: verification ? 'skill-verify' : 'skill-read',
        severity: verification ? 'error' : 'warning',
        subject: skill.uri,
        spec: SPEC.verify,
        message: `The skill "${name}" cannot be loaded: ${WHAT_FAILED[skill.read.reason]} (${skill.read.message}).${verification ? ' Hosts must refuse it: republish the entry from the file.' : ''}`,
      });
    }
    if (skill.manifestSize !== undefined && skill.manifestSize > input.budgets.maxSkillManifestBytes) {
      findings.push({
        check: 'skill-size',
        severity: 'warning',
        subject: skill.uri,
        spec: SPEC.limits,
        message: `The SKILL.md of "${name}" is ${skill.manifestSize} bytes (more than ${input.budgets.maxSkillManifestBytes}); keep it short and move details into files it references, which a model reads only when needed.`,
      });
    }
    if ((skill.files ?? 0) > SKILL_LIMITS.files || (skill.bytes ?? 0) > SKILL_LIMITS.bytes) {
      findings.push({
        check: 'skill-size',
        severity: 'warning',
        subject: skill.uri,
        spec: SPEC.limits,
        message: `The skill "${name}" lists ${skill.files} files, ${skill.bytes} bytes: beyond the extension's limits (${SKILL_LIMITS.files} files, ${SKILL_LIMITS.bytes} bytes per skill), which hosts need not accept.`,
      });
    }
  }
  const undescribed = skills.entries.filter((s) => typeof s.description !== 'string' || !s.description.trim()).map(nameOf);
  if (undescribed.length) {
    findings.push({
      check: 'skill-description',
      severity: 'warning',
      subject: 'skills',
      spec: SPEC.entry,
      message:
        undescribed.length === 1
          ? `The skill "${undescribed[0]}" has no description: a model cannot tell when to use it.`
          : `${undescribed.length} skills have no description: ${undescribed
              .slice(0, 10)
              .map((n) => `"${n}"`)
              .join(', ')}${undescribed.length > 10 ? ', …' : ''}.`,
    });
  }
  return findings;
}
