/**
 * Skills over MCP (SEP-2640) on McpServerConnection, against the real skills fixture
 * (test/fixtures/servers/skillsServer.ts, the SDK v2 server's SkillsExtension) over stdio, in
 * both eras: the listing (no SKILL.md read with it), verified reads, the refusal of a SKILL.md
 * whose digest differs from its entry, and a new listing on resources/list_changed.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import { SkillVerificationError } from '../../../src/mcp/connection/serverSkills';
import { createClientFeatures } from '../../../src/mcp/clientFeatures';
import type { ProtocolEraSetting } from '../../../src/config/common/serverConfig';
import { GOOD_SKILL_MD } from '../../fixtures/servers/skillsServer';
import { definition, recordingHost, RecordingLog, stdioLaunch, waitFor } from '../mcp/testHost';
import { skillsLaunch } from './skillsFixture';

/** The URIs the fixture was asked to read (its FIXTURE_RECORD lines). */
function reads(record: string): string[] {
  if (!fs.existsSync(record)) return [];
  return fs
    .readFileSync(record, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { read: string }).read);
}

const features = createClientFeatures({
  sample: async () => {
    throw new Error('no sampling in this test');
  },
  elicitForm: async () => ({ action: 'decline' }),
  elicitUrl: async () => ({ action: 'decline' }),
  elicitationComplete: () => undefined,
});

describe('skills on McpServerConnection (SEP-2640)', function () {
  this.timeout(30000);
  const open: McpServerConnection[] = [];
  let record: string;
  const connect = async (era: ProtocolEraSetting, launch = skillsLaunch({ FIXTURE_RECORD: record })) => {
    const log = new RecordingLog();
    const c = new McpServerConnection(definition(launch, { protocolEra: era }), { ...recordingHost(), clientFeatures: features }, log);
    open.push(c);
    await c.start();
    assert.equal(c.state.kind, 'running', log.text());
    return { c, log };
  };
  beforeEach(() => {
    record = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-skills-')), 'reads.jsonl');
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.dispose()));
  });

  it('declares the skills extension in the client capabilities', async () => {
    const events = path.join(path.dirname(record), 'events.jsonl');
    await connect('legacy', stdioLaunch({ FIXTURE_RECORD: events }));
    const initialized = await waitFor(
      () =>
        fs.existsSync(events) &&
        fs
          .readFileSync(events, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { event: string; clientCapabilities?: { extensions?: Record<string, unknown> } })
          .find((e) => e.event === 'initialized'),
      'the fixture to record initialized',
    );
    assert.deepEqual(initialized.clientCapabilities?.extensions?.['io.modelcontextprotocol/skills'], {});
  });

  it('offers no skills for a server without the extension, and lists none', async () => {
    const { c } = await connect('legacy', stdioLaunch());
    assert.equal(c.skills.offered, false);
    assert.deepEqual(await c.skills.list(), { skills: [], invalid: [] });
  });

  for (const era of ['auto', 'legacy'] as const) {
    describe(`era ${era}`, () => {
      it('lists the skills on connect and reads no skill file with the listing', async () => {
        const { c } = await connect(era);
        assert.equal(c.skills.offered, true);
        const listing = await waitFor(() => c.skills.cached(), 'the listing fetched on connect');
        assert.deepEqual(listing.skills.map((s) => s.uri).sort(), ['skill://broken-digest/SKILL.md', 'skill://code-review/SKILL.md']);
        assert.equal((await c.skills.list()).skills.length, 2, 'served from the cache');
        assert.deepEqual(reads(record), [], 'no SKILL.md or other file fetched ahead of need');
      });

      it("reads a skill's SKILL.md verified, and only that file", async () => {
        const { c } = await connect(era);
        const skill = (await c.skills.list()).skills.find((s) => s.uri === 'skill://code-review/SKILL.md')!;
        const file = await c.skills.read(skill);
        assert.equal(file.text, GOOD_SKILL_MD);
        assert.equal(file.verified, true);
        assert.equal(file.frontmatter?.name, 'code-review');
        assert.deepEqual(reads(record), ['skill://code-review/SKILL.md']);
      });

      it('refuses a SKILL.md whose digest differs from its entry, and logs the details', async () => {
        const { c, log } = await connect(era);
        const skill = (await c.skills.list()).skills.find((s) => s.uri === 'skill://broken-digest/SKILL.md')!;
        await assert.rejects(c.skills.read(skill), (error: unknown) => error instanceof SkillVerificationError && error.reason === 'digest');
        assert.match(
          log.text('error'),
          /Refused skill skill:\/\/broken-digest\/SKILL\.md: digest check failed\. .*has digest sha256:[0-9a-f]{64}; the skill entry lists sha256:[0-9a-f]{64}/,
        );
      });

      it('lists again when the server says its resources changed', async () => {
        const { c } = await connect(era);
        await waitFor(() => c.skills.cached(), 'the first listing');
        let changes = 0;
        c.skills.onDidChange(() => changes++);
        await c.callTool('addSkill', { name: 'added-later' });
        const listing = await waitFor(
          () => c.skills.cached()?.skills.some((s) => s.uri === 'skill://added-later/SKILL.md') && c.skills.cached(),
          'the new skill in the listing',
        );
        assert.equal(listing.skills.length, 3);
        assert.ok(changes >= 1);
      });
    });
  }
});
