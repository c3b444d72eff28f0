/**
 * The pure parts of skills in the tree and in chat: item text and tooltips (server text is
 * hostile), the mcp-skill: document address, the refusal line, and the chat context (fenced,
 * limited). Skill entries are the real fixture's, built by the SDK's skillEntry.
 */
import * as assert from 'node:assert/strict';
import { skillEntry } from '@modelcontextprotocol/server/ext/skills';
import type { Skill } from '../../../src/mcp/connection/serverSkills';
import { parseSkillDocument, skillDocument, skillItemText, skillName, skillRefusal, skillTooltip } from '../../../src/servers/common/skillText';
import {
  fenceFor,
  findSkillChoice,
  limitSkillText,
  MAX_SKILL_CONTEXT_CHARS,
  skillContextMessage,
  splitSkillTarget,
} from '../../../src/chat/common/skillContext';
import { GOOD_SKILL_MD } from '../../fixtures/servers/skillsServer';

const hostileManifest = '---\nname: hostile-text\ndescription: "**Bold** [run me](command:workbench.action.quit) <img src=x>\\u202Eevil"\n---\n\nBody.\n';

describe('skills: tree text, documents and chat context', () => {
  let good: Skill;
  let hostile: Skill;
  before(async () => {
    good = (await skillEntry('code-review', { 'SKILL.md': GOOD_SKILL_MD })) as Skill;
    hostile = (await skillEntry('hostile-text', { 'SKILL.md': hostileManifest })) as Skill;
  });

  it('labels a skill by its name and first description line', () => {
    assert.deepEqual(skillItemText(good), { label: 'code-review', description: 'Review a change for correctness, tests and clear names' });
    assert.equal(skillItemText(hostile).description?.includes('\u202E'), false, 'bidi override shown as an escape');
    assert.match(skillItemText(hostile).description ?? '', /\\u202E/);
  });

  it('keeps a hostile description out of the tooltip markup', () => {
    const parts = skillTooltip(hostile);
    for (const part of parts) if ('markdown' in part) assert.ok(!part.markdown.includes('](command:'), part.markdown);
    assert.ok(
      parts.some((p) => 'text' in p && p.text.includes('[run me](command:')),
      'the description is a text part (escaped by appendText)',
    );
    assert.ok(parts.some((p) => 'markdown' in p && p.markdown.includes('1 files')));
  });

  it('addresses a skill document and reads the address back', () => {
    const doc = skillDocument('workspace/my server', good);
    assert.equal(doc.path, '/workspace%2Fmy%20server/code-review/SKILL.md');
    assert.deepEqual(parseSkillDocument(doc.path, doc.query), { serverId: 'workspace/my server', skillUri: 'skill://code-review/SKILL.md' });
    assert.equal(parseSkillDocument('/x/y/README.md', doc.query), undefined);
    assert.equal(parseSkillDocument(doc.path, ''), undefined);
  });

  it('names a skill by its folder when the frontmatter name is not text', () => {
    assert.equal(skillName({ ...good, frontmatter: { ...good.frontmatter, name: '' } }), 'code-review');
  });

  it('refuses in one line that says what happened and what to do', () => {
    for (const reason of ['digest', 'size', 'frontmatter', 'unlisted'] as const) {
      const line = skillRefusal(reason, 'broken-digest', 'skills fixture');
      assert.ok(!line.includes('\n'), line);
      assert.match(line, /^Refused skill "broken-digest" of skills fixture: .+\. .+log\.$/);
    }
  });

  it('finds the skill a /skill request names, and keeps the question', () => {
    const choices = [{ serverId: 'a', serverName: 'skills', serverLabel: 'Skills Server', skillName: 'code-review', skill: good }];
    assert.deepEqual(splitSkillTarget('skills/code-review  how do I review?'), { target: 'skills/code-review', rest: 'how do I review?' });
    assert.deepEqual(splitSkillTarget('how do I review?'), { rest: 'how do I review?' });
    assert.equal(findSkillChoice(choices, 'skills/code-review')?.serverId, 'a');
    assert.equal(findSkillChoice(choices, 'Skills Server/code-review')?.serverId, 'a', 'by label when no server has that name');
    assert.equal(findSkillChoice(choices, 'skills/other'), undefined);
  });

  it('fences the SKILL.md so its backticks cannot close the fence, and limits its size', () => {
    const text = 'a ``` b ```` c';
    assert.equal(fenceFor(text), '`````');
    const { message, truncated } = skillContextMessage('code-review', 'skills', good.uri, `${'line\n'.repeat(MAX_SKILL_CONTEXT_CHARS / 2)}`);
    assert.equal(truncated, true);
    assert.ok(message.length < MAX_SKILL_CONTEXT_CHARS + 1000, `${message.length}`);
    assert.match(message, /Only the first \d+ of \d+ characters are shown/);
    assert.deepEqual(limitSkillText('short'), { text: 'short', truncated: false });
    assert.ok(skillContextMessage('code-review', 'skills', good.uri, GOOD_SKILL_MD).message.includes(GOOD_SKILL_MD));
  });
});
