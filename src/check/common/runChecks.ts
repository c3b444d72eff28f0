/**
 * Runs every check over one server's lists and recording, and turns the findings into the
 * report users read: counts by severity, a one-line summary, and markdown with each finding's
 * spec section and recorded message (server text escaped: the report is markdown).
 */
import { escapeMarkdown } from '../../shared/common/untrustedText';
import type { Check, CheckInput, Finding, Severity } from './checkTypes';
import { checkDevRestart } from './devRestartChecks';
import { checkInstructions } from './instructionChecks';
import { checkDescriptions, checkPaging, checkToolNames } from './listChecks';
import { checkStructuredContent, checkToolSchemas } from './schemaChecks';
import { checkSkills } from './skillChecks';
import { specRevision } from './specLinks';
import { checkNearDuplicateTools, checkToolListCost } from './toolListCost';
import { checkDeprecated, checkLatency, checkResultSizes, checkUndeclaredCapabilities } from './trafficChecks';

export const CHECKS: readonly Check[] = [
  checkToolSchemas,
  checkStructuredContent,
  checkToolNames,
  checkDescriptions,
  checkPaging,
  checkResultSizes,
  checkLatency,
  checkUndeclaredCapabilities,
  checkDeprecated,
  checkSkills,
  checkToolListCost,
  checkNearDuplicateTools,
  checkInstructions,
  checkDevRestart,
];

const ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

export interface CheckReport {
  findings: Finding[];
  counts: Record<Severity, number>;
}

/**
 * One finding per problem: a rule that reads the recording reports each recorded message, so a
 * tool called three times (Check Server calls the read-only ones at every check) gave the same
 * line three times. The same rule, subject and message is kept once, pointing at the newest
 * recorded message, which is the one most likely still in the log.
 */
export function uniqueFindings(findings: readonly Finding[]): Finding[] {
  const byKey = new Map<string, Finding>();
  for (const f of findings) {
    const key = JSON.stringify([f.check, f.severity, f.subject ?? null, f.message]);
    const kept = byKey.get(key);
    if (!kept || (f.seq !== undefined && (kept.seq === undefined || f.seq > kept.seq))) byKey.set(key, kept ? { ...kept, seq: f.seq } : f);
  }
  return [...byKey.values()];
}

export function runChecks(input: CheckInput, checks: readonly Check[] = CHECKS): CheckReport {
  const findings = uniqueFindings(checks.flatMap((check) => check(input))).sort((a, b) => ORDER[a.severity] - ORDER[b.severity]);
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const f of findings) counts[f.severity]++;
  return { findings, counts };
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

export function summaryOf(counts: Record<Severity, number>): string {
  if (!counts.error && !counts.warning && !counts.info) return 'no findings';
  return [plural(counts.error, 'error'), plural(counts.warning, 'warning'), `${counts.info} info`].join(', ');
}

const LABEL: Record<Severity, string> = { error: 'Error', warning: 'Warning', info: 'Info' };

/**
 * A message escaped for markdown, its backticks kept as code spans: with every other markup
 * character still escaped, server text inside or around one can make a code span, never a link
 * or HTML.
 */
function messageMarkdown(message: string): string {
  return escapeMarkdown(message).replace(/\\`/g, '`');
}

/** The report as markdown; `serverLabel` and every message are escaped. */
export function reportMarkdown(serverLabel: string, input: Pick<CheckInput, 'protocolVersion' | 'era'>, report: CheckReport, checkedAt: Date): string {
  const lines = [
    `# Check of ${escapeMarkdown(serverLabel)}`,
    '',
    `Protocol ${escapeMarkdown(input.protocolVersion)} (spec revision ${specRevision(input)}), checked ${checkedAt.toISOString()}: **${summaryOf(report.counts)}**.`,
    '',
  ];
  if (!report.findings.length) lines.push('Nothing to report.');
  for (const f of report.findings) {
    lines.push(
      `- **${LABEL[f.severity]}:** ${messageMarkdown(f.message)}  `,
      `  Spec: [${escapeMarkdown(f.spec.title)}](${f.spec.url})${f.seq !== undefined ? ` · recorded message #${f.seq} (MCP: Go to Check Finding… opens it in the Inspector)` : ''}`,
    );
  }
  return lines.join('\n') + '\n';
}
