/**
 * Check Server's skill findings (src/check/common/skillChecks.ts) on what the real skills
 * fixture serves with FIXTURE_SKILLS_EXTRA=1: its skills are listed and read through a real
 * McpServerConnection, so the verification outcomes are the SDK's own.
 */
import * as assert from 'node:assert/strict';
import { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import { checkSkills, collectSkills } from '../../../src/check/common/skillChecks';
import { runChecks, reportMarkdown } from '../../../src/check/common/runChecks';
import { DEFAULT_BUDGETS, type CheckInput, type CheckedSkills } from '../../../src/check/common/checkTypes';
import { definition, recordingHost, RecordingLog } from '../mcp/testHost';
import { skillsLaunch } from './skillsFixture';

function input(skills: CheckedSkills | undefined): CheckInput {
  return {
    protocolVersion: '2025-11-25',
    era: 'legacy',
    transport: 'stdio',
    capabilities: {},
    tools: [],
    prompts: [],
    resources: [],
    resourceTemplates: [],
    messages: [],
    budgets: DEFAULT_BUDGETS,
    ...(skills ? { skills } : {}),
  };
}

describe('Check Server: skills (SEP-2640)', function () {
  this.timeout(30000);
  let connection: McpServerConnection;
  let skills: CheckedSkills;
  before(async () => {
    const log = new RecordingLog();
    connection = new McpServerConnection(definition(skillsLaunch({ FIXTURE_SKILLS_EXTRA: '1' }), { protocolEra: 'legacy' }), recordingHost(), log);
    await connection.start();
    assert.equal(connection.state.kind, 'running', log.text());
    skills = (await collectSkills(connection.skills))!;
  });
  after(async () => {
    await connection.dispose();
  });

  it('reads and verifies every listed skill', () => {
    const outcome = Object.fromEntries(skills.entries.map((s) => [s.uri.replace(/^skill:\/\/|\/SKILL\.md$/g, ''), s.read.ok ? 'ok' : s.read.reason]));
    assert.deepEqual(outcome, {
      'bad-frontmatter': 'frontmatter',
      'bad-size': 'size',
      'broken-digest': 'digest',
      'code-review': 'ok',
      'hostile-text': 'ok',
      'huge-skill': 'ok',
      'no-description': 'ok',
    });
  });

  it('reports each failed verification as an error, the oversized SKILL.md and the missing description as warnings', () => {
    const findings = checkSkills(input(skills));
    const by = (check: string) => findings.filter((f) => f.check === check);
    assert.deepEqual(
      by('skill-verify')
        .map((f) => [f.subject, f.severity])
        .sort(),
      [
        ['skill://bad-frontmatter/SKILL.md', 'error'],
        ['skill://bad-size/SKILL.md', 'error'],
        ['skill://broken-digest/SKILL.md', 'error'],
      ],
    );
    assert.match(
      by('skill-verify').find((f) => f.subject === 'skill://broken-digest/SKILL.md')!.message,
      /does not match the listed digest \(.*sha256:[0-9a-f]{64}/,
    );
    assert.deepEqual(
      by('skill-size').map((f) => f.subject),
      ['skill://huge-skill/SKILL.md'],
    );
    assert.match(by('skill-size')[0].message, /is \d+ bytes \(more than 24000\)/);
    assert.deepEqual(
      by('skill-description').map((f) => f.message),
      ['The skill "no-description" has no description: a model cannot tell when to use it.'],
    );
    assert.ok(!findings.some((f) => f.subject === 'skill://code-review/SKILL.md'), 'the good skill has no finding');
    assert.ok(findings.every((f) => f.spec.url.startsWith('https://modelcontextprotocol.io/seps/2640-skills-extension#')));
  });

  it('keeps server text escaped in the report', () => {
    const hostile = {
      ...skills,
      entries: skills.entries.map((s) =>
        s.uri.includes('hostile')
          ? { ...s, read: { ok: false as const, reason: 'error' as const, message: '[run me](command:workbench.action.quit) <img src=x>' } }
          : s,
      ),
    };
    const markdown = reportMarkdown('server', input(hostile), runChecks(input(hostile)), new Date(0));
    assert.ok(markdown.includes('\\[run me\\](command:'), markdown);
    assert.ok(!/(^|[^\\])\]\(command:/.test(markdown), 'no live command link');
    assert.ok(!/(^|[^\\])<img/.test(markdown), 'no raw HTML');
  });

  it('has nothing to say about a server without skills', () => {
    assert.deepEqual(checkSkills(input(undefined)), []);
  });

  it('reports entries the SDK refused as errors', () => {
    const findings = checkSkills(
      input({ entries: [], invalid: [{ uri: 'skill://x/SKILL.md', reason: 'digest must be "sha256:" followed by 64 lowercase hexadecimal characters' }] }),
    );
    assert.deepEqual(
      findings.map((f) => [f.check, f.severity, f.subject]),
      [['skill-entry', 'error', 'skill://x/SKILL.md']],
    );
  });
});
