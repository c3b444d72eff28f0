import * as assert from 'node:assert/strict';
import { formatIssue, validateAgainstSchema } from '../../../src/jsonSchema/common/schemaValidation';
import { sampleInputSchema as schema } from './sampleInputSchema';

describe('schemaValidation', () => {
  describe('validation (ajv)', () => {
    it('accepts valid arguments', () => {
      assert.deepEqual(validateAgainstSchema(schema, { name: 'Ada', count: 3, strict: true }), { valid: true });
    });

    it('reports every problem with its location and a readable message', () => {
      const result = validateAgainstSchema(schema, {
        name: 'A',
        code: 'abc',
        email: 'nope',
        color: 'pink',
        count: 11,
        strict: 'yes',
        tags: ['a', 'b', 'c', 'd'],
        target: { nope: 1 },
      });
      assert.equal(result.valid, false);
      const messages = result.valid === false ? result.issues.map((i) => formatIssue(i)) : [];
      for (const expected of [
        'name must NOT have fewer than 2 characters',
        'code must match the pattern ^[A-Z]{3}$',
        'email must be a valid email',
        'color must be one of "red", "green"',
        'count must be <= 10',
        'strict must be boolean',
        'tags must NOT have more than 3 items',
        'target.path is required',
      ]) {
        assert.ok(messages.includes(expected), `missing "${expected}" in ${JSON.stringify(messages)}`);
      }
    });

    it('points a missing required property at the property', () => {
      const result = validateAgainstSchema(schema, { count: 1, strict: false });
      assert.deepEqual(result.valid === false && result.issues, [{ pointer: '/name', message: 'is required' }]);
      assert.equal(formatIssue({ pointer: '', message: 'must be object' }), 'The arguments must be object');
    });

    it('handles draft-07 and 2020-12 schemas, and reports schemas it cannot compile', () => {
      const draft7 = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { t: { type: 'array', items: [{ type: 'string' }] } } };
      assert.equal(validateAgainstSchema(draft7, { t: [1] }).valid, false);
      const plainTuple = { type: 'object', properties: { t: { type: 'array', items: [{ type: 'string' }] } } };
      assert.equal(validateAgainstSchema(plainTuple, { t: [1] }).valid, false, 'falls back to draft-07 for array items');
      const s2020 = { type: 'object', properties: { t: { type: 'array', prefixItems: [{ type: 'string' }] } } };
      assert.equal(validateAgainstSchema(s2020, { t: [1] }).valid, false);
      const broken = validateAgainstSchema({ type: 'object', properties: { a: { $ref: '#/nowhere' } } }, {});
      assert.equal(broken.valid, undefined);
      assert.ok(broken.valid === undefined && /nowhere|resolve/i.test(broken.schemaError));
    });
  });
});
