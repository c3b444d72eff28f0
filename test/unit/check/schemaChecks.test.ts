import * as assert from 'node:assert/strict';
import { checkStructuredContent, checkToolSchemas } from '../../../src/check/common/schemaChecks';
import { Recorder } from './checkInput';

const OUTPUT = { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] };

describe('Check Server: tool schemas', () => {
  it('valid 2020-12 schemas (with $defs/$ref) and a declared draft-07 one give no error', () => {
    const findings = checkToolSchemas(
      new Recorder().input({
        tools: [
          { name: 'a', inputSchema: { type: 'object', $defs: { n: { type: 'number' } }, properties: { x: { $ref: '#/$defs/n' } } }, outputSchema: OUTPUT },
          {
            name: 'b',
            inputSchema: {
              $schema: 'http://json-schema.org/draft-07/schema#',
              type: 'object',
              properties: { t: { type: 'array', items: [{ type: 'string' }] } },
            },
          },
        ],
      }),
    );
    assert.deepEqual(
      findings.map((f) => f.severity),
      ['info'],
      'only the note that draft-07 is declared',
    );
    assert.match(findings[0].message, /declares http:\/\/json-schema.org\/draft-07/);
  });

  it('an invalid schema, a non-object one, a missing type and draft-07 without $schema are errors, linked to the list that carried them', () => {
    const r = new Recorder();
    const tools = [
      { name: 'broken', inputSchema: { type: 'object', properties: { n: { type: 'integer', minimum: 'zero' } } } },
      { name: 'nullish', inputSchema: null },
      { name: 'untyped', inputSchema: { properties: {} } },
      { name: 'tuple', inputSchema: { type: 'object', properties: { t: { type: 'array', items: [{ type: 'string' }], additionalItems: false } } } },
      { name: 'badOut', inputSchema: { type: 'object' }, outputSchema: { type: 'object', required: 'count' } },
    ];
    const seq = r.request('tools/list', {}, { tools });
    const findings = checkToolSchemas(r.input({ tools }));
    assert.deepEqual(
      findings.map((f) => [f.subject, f.severity]),
      [
        ['broken', 'error'],
        ['nullish', 'error'],
        ['untyped', 'error'],
        ['tuple', 'error'],
        ['badOut', 'error'],
      ],
    );
    assert.match(findings[0].message, /not a valid JSON Schema 2020-12/);
    assert.match(findings[3].message, /draft-07 but has no `\$schema`/);
    assert.ok(findings.every((f) => f.seq === seq));
    assert.equal(findings[0].spec.url, 'https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool');
  });
});

describe('Check Server: structuredContent against outputSchema', () => {
  it('a matching result passes; a tool never called is named as not exercised', () => {
    const r = new Recorder();
    r.request('tools/call', { name: 'count', arguments: {} }, { content: [], structuredContent: { count: 3 } });
    const findings = checkStructuredContent(
      r.input({
        tools: [
          { name: 'count', outputSchema: OUTPUT },
          { name: 'other', outputSchema: OUTPUT },
        ],
      }),
    );
    assert.equal(findings.length, 1);
    assert.equal(findings[0].severity, 'info');
    assert.match(findings[0].message, /"other"/);
    assert.doesNotMatch(findings[0].message, /"count"/);
  });

  it('a mismatching or missing structuredContent is an error on the recorded call; isError results are not held to the schema', () => {
    const r = new Recorder();
    const bad = r.request('tools/call', { name: 'count', arguments: {} }, { content: [], structuredContent: { count: 'many' } });
    const missing = r.request('tools/call', { name: 'count', arguments: {} }, { content: [] });
    r.request('tools/call', { name: 'count', arguments: {} }, { content: [], isError: true });
    const findings = checkStructuredContent(r.input({ tools: [{ name: 'count', outputSchema: OUTPUT }] }));
    assert.deepEqual(
      findings.map((f) => [f.severity, f.seq]),
      [
        ['error', bad],
        ['error', missing],
      ],
    );
    assert.match(findings[0].message, /count must be integer/);
    assert.equal(findings[0].spec.url, 'https://modelcontextprotocol.io/specification/2025-11-25/server/tools#output-schema');
  });
});
