import * as assert from 'node:assert/strict';
import {
  buildFormModel,
  constraintHints,
  fieldAt,
  type ArrayField,
  type ChoiceField,
  type FormField,
  type ObjectField,
} from '../../../src/jsonSchema/common/schemaFields';
import { sampleInputSchema as schema } from './sampleInputSchema';
import { validateAgainstSchema } from '../../../src/jsonSchema/common/schemaValidation';
import { DEFS_SCHEMA } from '../../fixtures/servers/modernServer';

const field = (root: ObjectField, name: string): FormField => {
  const found = root.fields.find((f) => f.name === name);
  assert.ok(found, `no field ${name}`);
  return found;
};

describe('schemaFields', () => {
  const model = buildFormModel(schema);
  const root = model.root;

  describe('schema → model', () => {
    it('makes one field per property with kind, label, required and description', () => {
      assert.ok(model.formSupported);
      assert.deepEqual(
        root.fields.map((f) => [f.name, f.kind, f.required]),
        [
          ['name', 'string', true],
          ['code', 'string', false],
          ['email', 'string', false],
          ['secret', 'string', false],
          ['color', 'enum', false],
          ['count', 'integer', true],
          ['ratio', 'number', false],
          ['verbose', 'boolean', false],
          ['strict', 'boolean', true],
          ['tags', 'array', false],
          ['address', 'object', false],
          ['target', 'choice', false],
          ['limit', 'integer', false],
          ['extra', 'json', false],
        ],
      );
      const name = field(root, 'name');
      assert.equal(name.label, 'Name');
      assert.equal(name.description, 'Who');
      assert.equal(field(root, 'code').label, 'code');
    });

    it('keeps string constraints, formats and patterns', () => {
      assert.deepEqual(pickKeys(field(root, 'name'), ['minLength', 'maxLength']), { minLength: 2, maxLength: 20 });
      assert.equal((field(root, 'code') as { pattern?: string }).pattern, '^[A-Z]{3}$');
      assert.equal((field(root, 'email') as { format?: string }).format, 'email');
      assert.equal(field(root, 'secret').secret, true);
      assert.deepEqual(constraintHints(field(root, 'name')), ['2–20 characters']);
    });

    it('keeps number bounds and defaults', () => {
      assert.deepEqual(pickKeys(field(root, 'count'), ['minimum', 'maximum', 'default']), { minimum: 1, maximum: 10, default: 3 });
      assert.deepEqual(constraintHints(field(root, 'ratio')), ['> 0', 'multiple of 0.5']);
      assert.deepEqual(constraintHints(field(root, 'count')), ['whole number', '≥ 1', '≤ 10', 'default: 3']);
    });

    it('turns enums into options and oneOf/anyOf into choices', () => {
      const color = field(root, 'color');
      assert.equal(color.kind, 'enum');
      assert.deepEqual(color.kind === 'enum' && color.options, [
        { label: 'red', value: 'red' },
        { label: 'green', value: 'green' },
      ]);
      const target = field(root, 'target') as ChoiceField;
      assert.equal(target.combinator, 'oneOf');
      assert.deepEqual(
        target.options.map((o) => [o.label, o.field.kind]),
        [
          ['File', 'object'],
          ['URL', 'object'],
        ],
      );
      const titled = buildFormModel({
        type: 'object',
        properties: {
          level: {
            oneOf: [
              { const: 1, title: 'Low' },
              { const: 2, title: 'High' },
            ],
          },
        },
      });
      assert.deepEqual(titled.root.fields[0].kind === 'enum' && titled.root.fields[0].options, [
        { label: 'Low', value: 1 },
        { label: 'High', value: 2 },
      ]);
    });

    it('treats "T or null" as a nullable T', () => {
      const limit = field(root, 'limit');
      assert.equal(limit.kind, 'integer');
      assert.equal(limit.nullable, true);
      const typed = buildFormModel({ type: 'object', properties: { s: { type: ['string', 'null'] } } });
      assert.equal(typed.root.fields[0].kind, 'string');
      assert.equal(typed.root.fields[0].nullable, true);
    });

    it('builds nested objects and arrays', () => {
      const tags = field(root, 'tags') as ArrayField;
      assert.equal(tags.items.kind, 'string');
      assert.equal(tags.maxItems, 3);
      const address = field(root, 'address') as ObjectField;
      assert.deepEqual(
        address.fields.map((f) => [f.pointer, f.required]),
        [
          ['/address/street', true],
          ['/address/zip', false],
        ],
      );
      assert.equal(fieldAt(root, '/address/zip')?.name, 'zip');
      assert.equal(fieldAt(root, '/tags/2')?.kind, 'string');
    });

    it('follows $ref into $defs and merges allOf', () => {
      const m = buildFormModel({
        type: 'object',
        $defs: { Point: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x'] } },
        properties: {
          at: { $ref: '#/$defs/Point', description: 'Where' },
          both: {
            allOf: [
              { type: 'object', properties: { a: { type: 'string' } } },
              { properties: { b: { type: 'string' } }, required: ['b'] },
            ],
          },
        },
      });
      const at = m.root.fields[0] as ObjectField;
      assert.equal(at.kind, 'object');
      assert.equal(at.description, 'Where');
      assert.deepEqual(
        at.fields.map((f) => f.name),
        ['x', 'y'],
      );
      const both = m.root.fields[1] as ObjectField;
      assert.deepEqual(
        both.fields.map((f) => [f.name, f.required]),
        [
          ['a', false],
          ['b', true],
        ],
      );
    });

    it('builds the form of a 2026 tool whose 2020-12 schema uses $schema, $defs and $ref (the fixture tool "address")', () => {
      const m = buildFormModel(DEFS_SCHEMA);
      assert.deepEqual(m.unsupported, []);
      assert.deepEqual(
        m.root.fields.map((f) => [f.name, f.kind, f.required]),
        [
          ['name', 'string', true],
          ['home', 'object', true],
        ],
      );
      const home = m.root.fields[1] as ObjectField;
      assert.deepEqual(
        home.fields.map((f) => [f.name, f.required]),
        [
          ['street', false],
          ['city', true],
        ],
      );
      assert.equal(validateAgainstSchema(DEFS_SCHEMA, { name: 'Ada', home: { city: 'London' } }).valid, true);
      const extra = validateAgainstSchema(DEFS_SCHEMA, { name: 'Ada', home: { city: 'London', planet: 'Earth' } });
      assert.equal(extra.valid, false, 'additionalProperties: false inside the $ref target applies');
    });

    it('marks unsupported parts as JSON fields and says why', () => {
      assert.deepEqual(
        model.unsupported.map((u) => u.pointer),
        ['/extra'],
      );
      const m = buildFormModel({
        type: 'object',
        $defs: { Node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/Node' } } } } },
        properties: {
          tree: { $ref: '#/$defs/Node' },
          tuple: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] },
          either: { type: ['string', 'number'] },
          anything: {},
          missing: { $ref: '#/$defs/Nope' },
        },
      });
      assert.ok(m.formSupported);
      assert.deepEqual(
        m.unsupported.map((u) => u.pointer),
        ['/tree/children/-', '/tuple', '/either', '/anything', '/missing'],
      );
      assert.match(m.unsupported[0].reason, /recursive/);
    });

    it('falls back to raw JSON when the root is not an object form', () => {
      assert.equal(buildFormModel({ type: 'object', additionalProperties: { type: 'number' } }).formSupported, false);
      assert.equal(buildFormModel({ type: 'string' }).formSupported, false);
      const empty = buildFormModel({ type: 'object' });
      assert.ok(empty.formSupported);
      assert.equal(empty.root.fields.length, 0);
    });
  });
});

function pickKeys(value: object, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, (value as Record<string, unknown>)[k]]));
}
