import * as assert from 'node:assert/strict';
import { childPath, diffJson } from '../../../src/toolRunner/common/jsonDiff';

describe('jsonDiff', () => {
  it('finds nothing between equal values, whatever the key order', () => {
    assert.deepEqual(diffJson({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 }), { changes: [], truncated: false });
    assert.deepEqual(diffJson(NaN, NaN).changes, []);
  });

  it('lists changed, added and removed members by a readable path', () => {
    const before = { content: [{ type: 'text', text: '3' }], structuredContent: { sum: 3, old: true } };
    const after = { content: [{ type: 'text', text: '5' }], structuredContent: { sum: 5, extra: 'x' } };
    assert.deepEqual(diffJson(before, after).changes, [
      { kind: 'changed', path: 'content[0].text', before: '"3"', after: '"5"' },
      { kind: 'changed', path: 'structuredContent.sum', before: '3', after: '5' },
      { kind: 'removed', path: 'structuredContent.old', before: 'true' },
      { kind: 'added', path: 'structuredContent.extra', after: '"x"' },
    ]);
  });

  it('compares arrays by position and reports the extra items', () => {
    assert.deepEqual(diffJson([1, 2], [1, 3, 4]).changes, [
      { kind: 'changed', path: '[1]', before: '2', after: '3' },
      { kind: 'added', path: '[2]', after: '4' },
    ]);
    assert.deepEqual(
      diffJson({ l: [1, 2, 3] }, { l: [1] }).changes.map((c) => `${c.kind} ${c.path}`),
      ['removed l[1]', 'removed l[2]'],
    );
  });

  it('reports a change of type (object to array, value to null) as one change, not its members', () => {
    assert.deepEqual(diffJson({ a: { x: 1 } }, { a: [1] }).changes, [{ kind: 'changed', path: 'a', before: '{"x":1}', after: '[1]' }]);
    assert.deepEqual(diffJson({ a: 1 }, { a: null }).changes, [{ kind: 'changed', path: 'a', before: '1', after: 'null' }]);
    assert.deepEqual(diffJson('x', 'y').changes, [{ kind: 'changed', path: '', before: '"x"', after: '"y"' }]);
  });

  it('quotes keys that are not identifiers', () => {
    assert.equal(childPath('', 'plain'), 'plain');
    assert.equal(childPath('_meta', 'fixture/tool'), '_meta["fixture/tool"]');
    assert.equal(childPath('a', 0), 'a[0]');
    assert.equal(childPath('', 'a.b'), '["a.b"]');
  });

  it('caps the number of changes and the length of the previews', () => {
    const many = diffJson(
      Array.from({ length: 20 }, (_, i) => i),
      Array.from({ length: 20 }, (_, i) => i + 1),
      { maxChanges: 5 },
    );
    assert.equal(many.changes.length, 5);
    assert.equal(many.truncated, true);
    const long = diffJson({ t: 'a'.repeat(100) }, { t: 'b'.repeat(100) }, { maxPreview: 10 });
    assert.match(long.changes[0].before!, /^"aaaaaaaaa… \(92 more characters\)$/);
  });
});
