/** The capability snapshot's diff: which changes break a client written against the old lists. */
import * as assert from 'node:assert/strict';
import { capabilitySnapshot, diffCapabilities } from '../../../src/mcpTests/common/capabilitySnapshot';
import { parseJsonPath, withoutPaths } from '../../../src/mcpTests/common/jsonCompare';

const tool = (name: string, inputSchema: object, extra: object = {}) => ({ name, description: `${name} tool`, inputSchema, ...extra });
const search = tool('search', {
  type: 'object',
  properties: { query: { type: 'string' }, limit: { type: ['integer', 'string'] }, mode: { enum: ['fast', 'deep'] } },
  required: ['query'],
});
const before = capabilitySnapshot({ tools: [search, tool('old', { type: 'object' })], prompts: [{ name: 'p', arguments: [{ name: 'x', required: true }] }] });

function changes(after: Parameters<typeof capabilitySnapshot>[0]) {
  return diffCapabilities(before, capabilitySnapshot(after)).map((c) => `${c.severity} ${c.path}: ${c.message}`);
}

describe('saved MCP tests: capability changes', () => {
  it('finds no change in the same lists, whatever their order or extra members', () => {
    assert.deepEqual(
      changes({
        tools: [tool('old', { type: 'object' }), { ...search, _meta: { x: 1 } }],
        prompts: [{ name: 'p', arguments: [{ name: 'x', required: true }] }],
      }),
      [],
    );
  });

  it('calls a removed tool, a new required argument and a narrowed type breaking', () => {
    const narrowed = tool('search', {
      type: 'object',
      properties: { query: { type: 'string' }, limit: { type: 'integer' }, mode: { enum: ['fast'] }, scope: { type: 'string' } },
      required: ['query', 'scope'],
    });
    assert.deepEqual(
      changes({
        tools: [narrowed],
        prompts: [
          {
            name: 'p',
            arguments: [
              { name: 'x', required: true },
              { name: 'y', required: true },
            ],
          },
        ],
      }),
      [
        'breaking tools.old: tool "old" was removed',
        'breaking tools.search.inputSchema.properties.scope: a required argument "scope" was added',
        'breaking tools.search.inputSchema.properties.limit: the type was narrowed from integer | string to integer',
        'breaking tools.search.inputSchema.properties.mode: no longer accepts "deep"',
        'breaking prompts.p.arguments.y: a required argument "y" was added',
      ],
    );
  });

  it('calls an added tool, an optional argument and a new description compatible', () => {
    const widened = tool(
      'search',
      {
        type: 'object',
        properties: { query: { type: 'string' }, limit: { type: ['integer', 'string'] }, mode: { enum: ['fast', 'deep'] }, page: { type: 'number' } },
        required: ['query'],
      },
      { description: 'Finds things' },
    );
    assert.deepEqual(
      changes({
        tools: [widened, tool('old', { type: 'object' }), tool('new', { type: 'object' })],
        prompts: [{ name: 'p', arguments: [{ name: 'x', required: true }] }],
      }),
      [
        'compatible tools.search.inputSchema.properties.page: an optional argument "page" was added',
        'compatible tools.search.description: the description changed',
        'compatible tools.new: tool "new" was added',
      ],
    );
  });

  it('calls a result member no longer returned breaking, and a new one compatible', () => {
    const withOutput = (properties: object, required: string[]) => ({
      tools: [tool('t', { type: 'object' }, { outputSchema: { type: 'object', properties, required } })],
    });
    const diff = diffCapabilities(
      capabilitySnapshot(withOutput({ sum: { type: 'number' } }, ['sum'])),
      capabilitySnapshot(withOutput({ total: { type: 'number' } }, ['total'])),
    );
    assert.deepEqual(
      diff.map((c) => `${c.severity} ${c.path}: ${c.message}`),
      [
        'breaking tools.t.outputSchema.properties.sum: "sum" is no longer returned',
        'compatible tools.t.outputSchema.properties.total: "total" is returned now',
      ],
    );
  });

  it('JSON paths of snapshot.ignore: members, indexes, quoted keys and [*]', () => {
    assert.deepEqual(parseJsonPath('$.content[*].annotations'), ['content', '*', 'annotations']);
    assert.deepEqual(parseJsonPath('$["odd key"][2]._meta'), ['odd key', 2, '_meta']);
    assert.deepEqual(parseJsonPath('$'), []);
    assert.equal(parseJsonPath('content.x'), undefined);
    assert.equal(parseJsonPath('$.a b'), undefined);
    const value = {
      _meta: { n: 1 },
      content: [
        { text: 'a', annotations: { p: 1 } },
        { text: 'b', annotations: { p: 2 } },
      ],
      list: [1, 2, 3],
    };
    const paths = ['$._meta', '$.content[*].annotations', '$.list[1]', '$.missing.deep'].map((p) => parseJsonPath(p)!);
    assert.deepEqual(withoutPaths(value, paths), { content: [{ text: 'a' }, { text: 'b' }], list: [1, 3] });
    assert.deepEqual(value._meta, { n: 1 }, 'the result itself is left alone');
  });
});
