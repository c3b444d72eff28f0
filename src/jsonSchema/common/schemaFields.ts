/**
 * A tool's `inputSchema` as form fields: the field tree the Run Tool webview renders, built
 * from the schema, with the hints shown under each input. The values those fields edit, and
 * their conversion into call arguments, live in `formValues.ts`. Elicitation forms (src/approval)
 * and Check's schema checks read schemas with the same code, hence a folder of its own.
 *
 * Pure TypeScript with no `vscode`, DOM or node import: the extension host and the webview
 * bundle both use it. Its text goes through `l10n.t` of @vscode/l10n, which both configure with
 * the extension's translations (src/shared/l10nBundle.ts, webview/shared/l10nSetup.ts). Validation (ajv) lives in `schemaValidation.ts`, host side only,
 * because ajv compiles schemas with `new Function`, which the webview's CSP forbids.
 *
 * Parts of a schema a form cannot express become `json` fields (edited as raw JSON) and are
 * listed in `FormModel.unsupported`; a root the form cannot express at all sets
 * `FormModel.formSupported` to false and the UI starts in raw-JSON mode.
 */
import * as l10n from '@vscode/l10n';

/** Any JSON value. Form values are JSON too, so they survive `postMessage` and `setState`. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** JSON Schema as found in tool definitions; only what the form reads is typed. */
export type JsonSchema = Record<string, unknown>;

interface FieldBase {
  /** JSON Pointer of the value inside the arguments (`/a/0/b`); `''` for the root. */
  pointer: string;
  /** Property name for object members; undefined for array items, choices and the root. */
  name?: string;
  /** What the UI shows: the schema's `title`, else the property name. */
  label: string;
  description?: string;
  required: boolean;
  /** The schema's `default`, if any. */
  default?: Json;
  /** The schema also allows `null` (`type: [T, "null"]`, `anyOf: [T, {type: null}]`). */
  nullable?: boolean;
  /** `writeOnly` or `format: password`: masked in the form and never remembered. */
  secret?: boolean;
  /** Marked deprecated in the schema. */
  deprecated?: boolean;
}

export interface StringField extends FieldBase {
  kind: 'string';
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
}

export interface NumberField extends FieldBase {
  kind: 'number' | 'integer';
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
}

export interface BooleanField extends FieldBase {
  kind: 'boolean';
}

export interface EnumField extends FieldBase {
  kind: 'enum';
  /** The allowed values with their labels (`enumNames`/`oneOf` titles when given). */
  options: { label: string; value: Json }[];
}

export interface ConstField extends FieldBase {
  kind: 'const';
  value: Json;
}

export interface ArrayField extends FieldBase {
  kind: 'array';
  items: FormField;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
}

export interface ObjectField extends FieldBase {
  kind: 'object';
  fields: FormField[];
}

/** `oneOf` / `anyOf`: the user picks one option, then fills its field. */
export interface ChoiceField extends FieldBase {
  kind: 'choice';
  combinator: 'oneOf' | 'anyOf';
  options: { label: string; field: FormField }[];
}

/** A part the form cannot express, edited as raw JSON text. */
export interface JsonField extends FieldBase {
  kind: 'json';
  reason: string;
}

export type FormField = StringField | NumberField | BooleanField | EnumField | ConstField | ArrayField | ObjectField | ChoiceField | JsonField;

export interface FormModel {
  root: ObjectField;
  /** False when the root itself cannot be a form (not an object schema): use raw JSON. */
  formSupported: boolean;
  /** Where the form falls back to raw JSON, and why. */
  unsupported: { pointer: string; reason: string }[];
}

// ---------------------------------------------------------------------------------------
// schema → model

const MAX_DEPTH = 12;

interface BuildContext {
  rootSchema: JsonSchema;
  unsupported: { pointer: string; reason: string }[];
}

/** A schema with its `$ref`s followed, and the refs expanded on the way to it (to stop at recursion). */
interface Resolved {
  schema: JsonSchema;
  refs: string[];
}

export function buildFormModel(inputSchema: unknown): FormModel {
  const schema = isObject(inputSchema) ? inputSchema : {};
  const ctx: BuildContext = { rootSchema: schema, unsupported: [] };
  const resolved = resolveRefs(schema, ctx, []);
  const field = resolved ? buildField(resolved, ctx, { pointer: '', required: true, label: '' }, 0) : undefined;
  if (field?.kind === 'object') {
    return { root: field, formSupported: true, unsupported: ctx.unsupported };
  }
  const reason = field?.kind === 'json' ? field.reason : l10n.t('the input schema is not an object with properties');
  return {
    root: { kind: 'object', pointer: '', label: '', required: true, fields: [] },
    formSupported: false,
    unsupported: [{ pointer: '', reason }],
  };
}

function buildField({ schema, refs }: Resolved, ctx: BuildContext, base: FieldBase, depth: number): FormField {
  const common: FieldBase = {
    ...base,
    label: typeof schema.title === 'string' && schema.title ? schema.title : base.label,
    ...(typeof schema.description === 'string' && schema.description ? { description: schema.description } : {}),
    ...(schema.default !== undefined ? { default: schema.default as Json } : {}),
    ...(schema.writeOnly === true || schema.format === 'password' ? { secret: true } : {}),
    ...(schema.deprecated === true ? { deprecated: true } : {}),
  };
  const unsupported = (reason: string): JsonField => {
    ctx.unsupported.push({ pointer: base.pointer, reason });
    return { ...common, kind: 'json', reason };
  };
  if (depth > MAX_DEPTH) return unsupported(l10n.t('the schema nests too deeply'));
  if (typeof schema['x-recursive'] === 'string') return unsupported(l10n.t('the schema is recursive ({0})', schema['x-recursive']));
  const resolve = (s: JsonSchema) => resolveRefs(s, ctx, refs);

  if (schema.const !== undefined) return { ...common, kind: 'const', value: schema.const as Json };

  let types = typeList(schema.type);
  if (types && types.includes('null') && types.length > 1) {
    common.nullable = true;
    types = types.filter((t) => t !== 'null');
  }

  if (Array.isArray(schema.enum)) {
    const values = (schema.enum as Json[]).filter((v) => !(v === null && common.nullable));
    if (values.includes(null)) common.nullable = true;
    const names = Array.isArray(schema.enumNames) ? (schema.enumNames as unknown[]) : [];
    return {
      ...common,
      kind: 'enum',
      options: values.filter((v) => v !== null).map((value, i) => ({ label: typeof names[i] === 'string' ? (names[i] as string) : enumLabel(value), value })),
    };
  }

  for (const combinator of ['oneOf', 'anyOf'] as const) {
    const list = schema[combinator];
    if (!Array.isArray(list)) continue;
    const options = list.filter(isObject);
    const nonNull = options.filter((o) => !(o.type === 'null'));
    if (nonNull.length < options.length) common.nullable = true;
    // `oneOf` of consts with titles is the JSON Schema way to label enum values.
    if (nonNull.length && nonNull.every((o) => o.const !== undefined)) {
      return {
        ...common,
        kind: 'enum',
        options: nonNull.map((o) => ({ label: typeof o.title === 'string' ? o.title : enumLabel(o.const as Json), value: o.const as Json })),
      };
    }
    const siblings = withoutKeys(schema, [combinator, 'title', 'description', 'default']);
    const merged = nonNull.map((o) => {
      const r = resolve(o) ?? { schema: {}, refs };
      return { schema: mergeSchemas(siblings, r.schema), refs: r.refs };
    });
    if (merged.length === 1) return buildField(merged[0], ctx, common, depth + 1);
    if (merged.length === 0) return unsupported(l10n.t('{0} has no usable options', combinator));
    return {
      ...common,
      kind: 'choice',
      combinator,
      options: merged.map((option, i) => ({
        label: optionLabel(option.schema, i),
        field: buildField(option, ctx, { pointer: base.pointer, required: true, label: optionLabel(option.schema, i) }, depth + 1),
      })),
    };
  }

  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.filter(isObject).map(resolve);
    if (parts.some((p) => !p)) return unsupported(l10n.t('allOf refers to a schema that cannot be resolved'));
    let merged: JsonSchema = withoutKeys(schema, ['allOf']);
    let mergedRefs = refs;
    for (const part of parts as Resolved[]) {
      const combined = mergeAllOf(merged, part.schema);
      if (!combined) return unsupported(l10n.t('allOf combines schemas the form cannot merge'));
      merged = combined;
      mergedRefs = [...new Set([...mergedRefs, ...part.refs])];
    }
    return buildField({ schema: merged, refs: mergedRefs }, ctx, common, depth + 1);
  }
  if (schema.not !== undefined || schema.if !== undefined) return unsupported(l10n.t('not / if-then-else cannot be shown as a form'));

  if (types && types.length > 1) return unsupported(l10n.t('the value may be any of {0}', types.join(', ')));
  const type = types?.[0] ?? (schema.properties !== undefined ? 'object' : schema.items !== undefined ? 'array' : undefined);
  switch (type) {
    case 'string':
      return {
        ...common,
        kind: 'string',
        ...pick(schema, { format: 'string', pattern: 'string', minLength: 'number', maxLength: 'number' }),
      };
    case 'number':
    case 'integer':
      return {
        ...common,
        kind: type,
        ...pick(schema, { minimum: 'number', maximum: 'number', exclusiveMinimum: 'number', exclusiveMaximum: 'number', multipleOf: 'number' }),
      };
    case 'boolean':
      return { ...common, kind: 'boolean' };
    case 'array': {
      if (!isObject(schema.items)) {
        return unsupported(
          Array.isArray(schema.items) || Array.isArray(schema.prefixItems)
            ? l10n.t('tuple arrays are edited as JSON')
            : l10n.t('the array does not say what its items are'),
        );
      }
      const itemSchema = resolve(schema.items);
      if (!itemSchema) return unsupported(l10n.t('the item schema cannot be resolved'));
      const items = buildField(itemSchema, ctx, { pointer: `${base.pointer}/-`, required: true, label: l10n.t('item') }, depth + 1);
      return { ...common, kind: 'array', items, ...pick(schema, { minItems: 'number', maxItems: 'number', uniqueItems: 'boolean' }) };
    }
    case 'object': {
      const properties = isObject(schema.properties) ? schema.properties : {};
      const hasExtra = (schema.additionalProperties !== undefined && schema.additionalProperties !== false) || schema.patternProperties !== undefined;
      if (Object.keys(properties).length === 0 && hasExtra && base.pointer !== '') {
        return unsupported(l10n.t('an object with free-form keys is edited as JSON'));
      }
      if (Object.keys(properties).length === 0 && hasExtra) return unsupported(l10n.t('the arguments are an object with free-form keys'));
      if (hasExtra)
        ctx.unsupported.push({ pointer: base.pointer, reason: l10n.t('extra properties beyond the listed ones can only be given in the JSON editor') });
      const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
      const fields: FormField[] = [];
      for (const [name, raw] of Object.entries(properties)) {
        const pointer = `${base.pointer}/${escapePointer(name)}`;
        const child = isObject(raw) ? resolve(raw) : raw === true ? { schema: {}, refs } : undefined;
        if (!child) {
          const reason = l10n.t('the property schema cannot be resolved');
          ctx.unsupported.push({ pointer, reason });
          fields.push({ kind: 'json', pointer, name, label: name, required: required.has(name), reason });
          continue;
        }
        fields.push(buildField(child, ctx, { pointer, name, label: name, required: required.has(name) }, depth + 1));
      }
      return { ...common, kind: 'object', fields };
    }
    default:
      return unsupported(l10n.t('the schema does not give a type'));
  }
}

/**
 * Follows local `$ref`s (`#/$defs/x`, `#/definitions/x`); undefined when one cannot be
 * followed. A ref already expanded above this point is recursion: marked, shown as JSON.
 */
function resolveRefs(schema: JsonSchema, ctx: BuildContext, refs: string[]): Resolved | undefined {
  let current = schema;
  const followed = [...refs];
  while (typeof current.$ref === 'string') {
    const ref = current.$ref;
    if (followed.includes(ref)) {
      return { schema: { ...withoutKeys(current, ['$ref']), 'x-recursive': ref }, refs: followed };
    }
    followed.push(ref);
    const target = ref.startsWith('#') ? lookupPointer(ctx.rootSchema, ref.slice(1)) : undefined;
    if (!isObject(target)) return undefined;
    // Keywords next to $ref (title, description, default) win over the target's.
    current = { ...target, ...withoutKeys(current, ['$ref']) };
  }
  return { schema: current, refs: followed };
}

function lookupPointer(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  let node = root;
  for (const raw of pointer.replace(/^\//, '').split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function mergeSchemas(base: JsonSchema, option: JsonSchema): JsonSchema {
  if (Object.keys(base).length === 0) return option;
  return mergeAllOf(base, option) ?? option;
}

/** Merges two object-ish schemas (properties and required united); undefined on conflicts. */
function mergeAllOf(a: JsonSchema, b: JsonSchema): JsonSchema | undefined {
  const merged: JsonSchema = { ...a };
  for (const [key, value] of Object.entries(b)) {
    if (key === 'properties' && isObject(value)) {
      merged.properties = { ...(isObject(a.properties) ? a.properties : {}), ...value };
    } else if (key === 'required' && Array.isArray(value)) {
      merged.required = [...new Set([...(Array.isArray(a.required) ? a.required : []), ...value])];
    } else if (key === 'type' && a.type !== undefined && JSON.stringify(a.type) !== JSON.stringify(value)) {
      return undefined;
    } else if (key === 'title' || key === 'description') {
      if (merged[key] === undefined) merged[key] = value;
    } else {
      merged[key] = value;
    }
  }
  return merged;
}

function optionLabel(option: JsonSchema, index: number): string {
  if (typeof option.title === 'string' && option.title) return option.title;
  // Discriminated unions: name the option after its constant property ({kind: {const: "circle"}}).
  if (isObject(option.properties)) {
    for (const [name, prop] of Object.entries(option.properties)) {
      if (isObject(prop) && prop.const !== undefined) return `${name}: ${enumLabel(prop.const as Json)}`;
    }
  }
  const type = typeList(option.type)?.join(' | ') ?? (option.properties ? 'object' : undefined);
  return type ? `${type}${typeof option.format === 'string' ? ` (${option.format})` : ''}` : l10n.t('option {0}', index + 1);
}

function enumLabel(value: Json): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function typeList(type: unknown): string[] | undefined {
  if (typeof type === 'string') return [type];
  if (Array.isArray(type) && type.every((t) => typeof t === 'string')) return type as string[];
  return undefined;
}

function pick(schema: JsonSchema, keys: Record<string, 'string' | 'number' | 'boolean'>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, type] of Object.entries(keys)) {
    if (typeof schema[key] === type) out[key] = schema[key];
  }
  return out;
}

function withoutKeys(schema: JsonSchema, keys: string[]): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) if (!keys.includes(key)) out[key] = value;
  return out;
}

/** A property name as one JSON Pointer segment (`~` → `~0`, `/` → `~1`). */
export function escapePointer(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** A plain object: not null, not an array. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ---------------------------------------------------------------------------------------
// reading the model

/** The field at a JSON Pointer of the arguments (array indexes match the item field). */
export function fieldAt(root: FormField, pointer: string): FormField | undefined {
  if (pointer === '' || pointer === root.pointer) return root;
  const parts = pointer.replace(/^\//, '').split('/');
  let field: FormField | undefined = root;
  for (const part of parts) {
    while (field?.kind === 'choice') field = field.options[0]?.field;
    if (!field) return undefined;
    if (field.kind === 'object') field = field.fields.find((f) => escapePointer(f.name ?? '') === part);
    else if (field.kind === 'array') field = field.items;
    else return undefined;
  }
  return field;
}

/** Human hints for a field's constraints, shown under the input ("3–20 characters", "≥ 0"). */
export function constraintHints(field: FormField): string[] {
  const hints: string[] = [];
  if (field.kind === 'string') {
    if (field.minLength !== undefined && field.maxLength !== undefined) hints.push(l10n.t('{0}–{1} characters', field.minLength, field.maxLength));
    else if (field.minLength !== undefined) hints.push(l10n.t('at least {0} characters', field.minLength));
    else if (field.maxLength !== undefined) hints.push(l10n.t('at most {0} characters', field.maxLength));
    if (field.format) hints.push(l10n.t('format: {0}', field.format));
    if (field.pattern) hints.push(l10n.t('pattern: {0}', field.pattern));
  } else if (field.kind === 'number' || field.kind === 'integer') {
    if (field.kind === 'integer') hints.push(l10n.t('whole number'));
    if (field.minimum !== undefined) hints.push(`≥ ${field.minimum}`);
    if (field.exclusiveMinimum !== undefined) hints.push(`> ${field.exclusiveMinimum}`);
    if (field.maximum !== undefined) hints.push(`≤ ${field.maximum}`);
    if (field.exclusiveMaximum !== undefined) hints.push(`< ${field.exclusiveMaximum}`);
    if (field.multipleOf !== undefined) hints.push(l10n.t('multiple of {0}', field.multipleOf));
  } else if (field.kind === 'array') {
    if (field.minItems !== undefined) hints.push(l10n.t('at least {0} items', field.minItems));
    if (field.maxItems !== undefined) hints.push(l10n.t('at most {0} items', field.maxItems));
    if (field.uniqueItems) hints.push(l10n.t('no duplicates'));
  }
  if (field.default !== undefined) hints.push(l10n.t('default: {0}', JSON.stringify(field.default)));
  return hints;
}
