/**
 * A tool input schema with a field of every kind (constraints, enum, choice, nullable,
 * nested object, array, free-form object): shared by the form and validation tests.
 */
export const sampleInputSchema = {
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
