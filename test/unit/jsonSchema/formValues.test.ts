import * as assert from 'node:assert/strict';
import { defaultValues, formToArguments, valuesFromArguments, withoutSecrets } from '../../../src/jsonSchema/common/formValues';
import { buildFormModel } from '../../../src/jsonSchema/common/schemaFields';
import { sampleInputSchema as schema } from './sampleInputSchema';

describe('formValues', () => {
  const model = buildFormModel(schema);
  const root = model.root;

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
      assert.deepEqual(
        problems.map((p) => p.pointer),
        ['/count', '/extra'],
      );
      assert.match(problems[0].message, /not a whole number/);
      assert.match(problems[1].message, /not valid JSON/);
      values.count = 'abc';
      assert.match(formToArguments(model, values as never).problems[0].message, /"abc" is not a number/);
    });

    it('round-trips remembered arguments through the form', () => {
      const remembered = {
        name: 'Ada',
        code: 'ABC',
        color: 'red',
        count: 5,
        ratio: 0.5,
        verbose: true,
        strict: false,
        tags: ['a', 'b'],
        address: { street: 'Main' },
        target: { url: 'https://example.com' },
        limit: 4,
        extra: { k: 'v' },
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
      const m = buildFormModel({
        type: 'object',
        properties: { o: { type: 'object', properties: { a: { type: 'string' } } }, r: { type: ['string', 'null'] } },
        required: ['r'],
      });
      assert.deepEqual(formToArguments(m, defaultValues(m.root)).args, { r: '' });
      assert.deepEqual(formToArguments(m, { o: { a: '' }, r: '' }).args, { r: '' });
      const n = buildFormModel({ type: 'object', properties: { r: { type: ['integer', 'null'] } }, required: ['r'] });
      assert.deepEqual(formToArguments(n, { r: '' }).args, { r: null });
    });

    it('drops secrets before arguments are remembered', () => {
      assert.deepEqual(withoutSecrets(root, { name: 'x', secret: 'hunter2', address: { street: 's' } }), { name: 'x', address: { street: 's' } });
    });
  });
});
