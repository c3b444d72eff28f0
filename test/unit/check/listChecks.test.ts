import * as assert from 'node:assert/strict';
import { checkDescriptions, checkPaging, checkToolNames } from '../../../src/check/common/listChecks';
import { Recorder } from './checkInput';

describe('Check Server: lists', () => {
  it('descriptions: all present gives nothing; a tool without one is a warning, prompts and resources info', () => {
    assert.deepEqual(checkDescriptions(new Recorder().input({ tools: [{ name: 'a', description: 'A.' }], prompts: [{ name: 'p', description: 'P.' }] })), []);
    const findings = checkDescriptions(
      new Recorder().input({
        tools: [{ name: 'a', description: ' ' }, { name: 'b' }],
        prompts: [{ name: 'p' }],
        resources: [{ uri: 'x://1', name: 'one' }],
      }),
    );
    assert.deepEqual(
      findings.map((f) => [f.subject, f.severity]),
      [
        ['tools', 'warning'],
        ['prompts', 'info'],
        ['resources', 'info'],
      ],
    );
    assert.match(findings[0].message, /2 tools have no description: "a", "b"/);
  });

  it('tool names: good names pass; bad characters, length and duplicates are found', () => {
    assert.deepEqual(checkToolNames(new Recorder().input({ tools: [{ name: 'getUser' }, { name: 'DATA_EXPORT_v2' }, { name: 'admin.tools.list' }] })), []);
    const findings = checkToolNames(
      new Recorder().input({ tools: [{ name: 'bad name!' }, { name: 'x'.repeat(129) }, { name: 'twice' }, { name: 'twice' }, { name: 3 }] }),
    );
    assert.deepEqual(
      findings.map((f) => f.severity),
      ['warning', 'warning', 'error', 'error'],
    );
    assert.match(findings[0].message, /characters other than/);
    assert.match(findings[1].message, /129 characters/);
    assert.match(findings[2].message, /has no name/);
    assert.match(findings[3].message, /"twice" is listed 2 times/);
    assert.equal(findings[0].spec.url, 'https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names');
  });

  it('paging: a paged list passes; one page over the budget is a warning on that response', () => {
    const r = new Recorder();
    const many = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `t${i}`, inputSchema: { type: 'object' } }));
    r.request('tools/list', {}, { tools: many(1000), nextCursor: 'c' });
    assert.deepEqual(checkPaging(r.input()), []);
    const seq = r.request('tools/list', {}, { tools: many(1500) });
    const findings = checkPaging(r.input());
    assert.equal(findings.length, 1);
    assert.equal(findings[0].seq, seq);
    assert.match(findings[0].message, /1500 items in one page and no `nextCursor`/);
  });
});
