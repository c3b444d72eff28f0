import * as assert from 'node:assert/strict';
import {
  buildFormModel,
  constraintHints,
  defaultValues,
  fieldAt,
  formToArguments,
  valuesFromArguments,
  withoutSecrets,
  type ArrayField,
  type ChoiceField,
  type FormField,
  type ObjectField,
} from '../../../src/toolRunner/common/schemaForm';
import { formatIssue, validateAgainstSchema } from '../../../src/toolRunner/common/schemaValidation';

const field = (root: ObjectField, name: string): FormField => {
  const found = root.fields.find((f) => f.name === name);
  assert.ok(found, `no field ${name}`);
  return found;
};

describe('schemaForm', () => {
  const schema = {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name', description: 'Who', minLength: 2, maxLength: 20 },
      code: { type: 'string', pattern: '^[A-Z]{3}$' },
      email: { type: 'string', format: 'email' },
      secret: { type: 'string', format: 'password' },
      color: { type: 'string', enum: ['red', 'green'], default: 'green' },
      count: { type: 'integer', minimum: 1, maximum: 10, default: 3 },
      ratio: { type: 'number', exclusiveMinimum: 0, multipleOf: 0.5 },
      verbose: { type: 'boolean' },
      strict: { type: 'boolean' },
      tags: { type: 'array', items: { type: 'string' }, minItems: 0, maxItems: 3 },
      address: { type: 'object', properties: { street: { type: 'string' }, zip: { type: 'string' } }, required: ['street'] },
      target: {
        oneOf: [
          { type: 'object', title: 'File', properties: { path: { type: 'string' } }, required: ['path'] },
          { type: 'object', title: 'URL', properties: { url: { type: 'string', format: 'uri' } }, required: ['url'] },
        ],
      },
      limit: { anyOf: [{ type: 'integer' }, { type: 'null' }], default: null },
      extra: { type: 'object', additionalProperties: { type: 'string' } },
    },
    required: ['name', 'count', 'strict'],
  };
  const model = buildFormModel(schema);
  const root = model.root;

  describe('schema → model', () => {
    it('makes one field per property with kind, label, required and description', () => {
      assert.ok(model.formSupported);
      assert.deepEqual(root.fields.map((f) => [f.name, f.kind, f.required]), [
        ['name', 'string', true], ['code', 'string', false], ['email', 'string', false], ['secret', 'string', false],
        ['color', 'enum', false], ['count', 'integer', true], ['ratio', 'number', false], ['verbose', 'boolean', false],
        ['strict', 'boolean', true], ['tags', 'array', false], ['address', 'object', false], ['target', 'choice', false],
        ['limit', 'integer', false], ['extra', 'json', false],
      ]);
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
      assert.deepEqual(color.kind === 'enum' && color.options, [{ label: 'red', value: 'red' }, { label: 'green', value: 'green' }]);
      const target = field(root, 'target') as ChoiceField;
      assert.equal(target.combinator, 'oneOf');
      assert.deepEqual(target.options.map((o) => [o.label, o.field.kind]), [['File', 'object'], ['URL', 'object']]);
      const titled = buildFormModel({ type: 'object', properties: { level: { oneOf: [{ const: 1, title: 'Low' }, { const: 2, title: 'High' }] } } });
      assert.deepEqual(titled.root.fields[0].kind === 'enum' && titled.root.fields[0].options, [{ label: 'Low', value: 1 }, { label: 'High', value: 2 }]);
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
      assert.deepEqual(address.fields.map((f) => [f.pointer, f.required]), [['/address/street', true], ['/address/zip', false]]);
      assert.equal(fieldAt(root, '/address/zip')?.name, 'zip');
      assert.equal(fieldAt(root, '/tags/2')?.kind, 'string');
    });

    it('follows $ref into $defs and merges allOf', () => {
      const m = buildFormModel({
        type: 'object',
        $defs: { Point: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x'] } },
        properties: {
          at: { $ref: '#/$defs/Point', description: 'Where' },
          both: { allOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { properties: { b: { type: 'string' } }, required: ['b'] }] },
        },
      });
      const at = m.root.fields[0] as ObjectField;
      assert.equal(at.kind, 'object');
      assert.equal(at.description, 'Where');
      assert.deepEqual(at.fields.map((f) => f.name), ['x', 'y']);
      const both = m.root.fields[1] as ObjectField;
      assert.deepEqual(both.fields.map((f) => [f.name, f.required]), [['a', false], ['b', true]]);
    });

    it('marks unsupported parts as JSON fields and says why', () => {
      assert.deepEqual(model.unsupported.map((u) => u.pointer), ['/extra']);
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
      assert.deepEqual(m.unsupported.map((u) => u.pointer), ['/tree/children/-', '/tuple', '/either', '/anything', '/missing']);
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

  describe('values ↔ arguments', () => {
    it('starts from defaults and leaves out empty optional fields', () => {
      const values = defaultValues(root);
      const { args, problems } = formToArguments(model, values);
      assert.deepEqual(problems, []);
      // name is required and empty: kept as '' so validation reports it; strict (required boolean) is false.
      assert.deepEqual(args, { name: '', color: 'green', count: 3, strict: false });
    });

    it('coerces numbers and reports what cannot be converted', () => {
      const values = valuesFromArguments(root, { name: 'Al', count: 2, strict: true }) as Record<string, unknown>;
      values.ratio = ' 0.5 ';
      values.count = '2.5';
      values.extra = '{"a": 1';
      const { args, problems } = formToArguments(model, values as never);
      assert.equal(args.ratio, 0.5);
      assert.equal('count' in args, false);
      assert.deepEqual(problems.map((p) => p.pointer), ['/count', '/extra']);
      assert.match(problems[0].message, /not a whole number/);
      assert.match(problems[1].message, /not valid JSON/);
      values.count = 'abc';
      assert.match(formToArguments(model, values as never).problems[0].message, /"abc" is not a number/);
    });

    it('round-trips remembered arguments through the form', () => {
      const remembered = {
        name: 'Ada', code: 'ABC', color: 'red', count: 5, ratio: 0.5, verbose: true, strict: false,
        tags: ['a', 'b'], address: { street: 'Main' }, target: { url: 'https://example.com' }, limit: 4, extra: { k: 'v' },
      };
      const values = valuesFromArguments(root, remembered);
      const target = (values as Record<string, { option: number }>).target;
      assert.equal(target.option, 1, 'picks the URL option');
      assert.deepEqual(formToArguments(model, values).args, remembered);
    });

    it('adds and removes array items; an empty item is a problem', () => {
      const values = valuesFromArguments(root, { name: 'Al', count: 1, strict: true, tags: ['x'] }) as Record<string, unknown[]>;
      values.tags.push('');
      const { problems } = formToArguments(model, values as never);
      assert.deepEqual(problems, []); // '' is a valid string item
      const numbers = buildFormModel({ type: 'object', properties: { n: { type: 'array', items: { type: 'number' } } } });
      const nv = { n: ['1', ''] };
      assert.deepEqual(formToArguments(numbers, nv).problems, [{ pointer: '/n/1', message: 'is empty: fill it in or remove the item' }]);
      assert.deepEqual(formToArguments(numbers, { n: [] }).args, {});
    });

    it('omits an optional nested object left empty and sends null for a required nullable', () => {
      const m = buildFormModel({ type: 'object', properties: { o: { type: 'object', properties: { a: { type: 'string' } } }, r: { type: ['string', 'null'] } }, required: ['r'] });
      assert.deepEqual(formToArguments(m, defaultValues(m.root)).args, { r: '' });
      assert.deepEqual(formToArguments(m, { o: { a: '' }, r: '' }).args, { r: '' });
      const n = buildFormModel({ type: 'object', properties: { r: { type: ['integer', 'null'] } }, required: ['r'] });
      assert.deepEqual(formToArguments(n, { r: '' }).args, { r: null });
    });

    it('drops secrets before arguments are remembered', () => {
      assert.deepEqual(withoutSecrets(root, { name: 'x', secret: 'hunter2', address: { street: 's' } }), { name: 'x', address: { street: 's' } });
    });
  });

  describe('validation (ajv)', () => {
    it('accepts valid arguments', () => {
      assert.deepEqual(validateAgainstSchema(schema, { name: 'Ada', count: 3, strict: true }), { valid: true });
    });

    it('reports every problem with its location and a readable message', () => {
      const result = validateAgainstSchema(schema, { name: 'A', code: 'abc', email: 'nope', color: 'pink', count: 11, strict: 'yes', tags: ['a', 'b', 'c', 'd'], target: { nope: 1 } });
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

function pickKeys(value: object, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, (value as Record<string, unknown>)[k]]));
}
