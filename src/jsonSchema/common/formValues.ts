/**
 * The values a tool's form edits (see `schemaFields.ts` for the fields), and their
 * conversion into call arguments and back, to pre-fill remembered arguments. Pure, like the
 * fields: the extension host and the webview bundle both use it.
 *
 * The form value of each kind: string → the text; number/integer → the text typed (coerced
 * on submit); boolean → true/false, null = not set; enum → index of the option as a string,
 * '' = not set; const → null; array → list of item values; object → map of member values;
 * choice → {option, value}; json → the JSON text, '' = not set.
 */
import * as l10n from '@vscode/l10n';
import { escapePointer, isObject, type FormField, type FormModel, type Json } from './schemaFields';
import { errorMessage } from '../../shared/common/errors';

/** The value of a choice field: which option is picked and that option's value. */
export interface ChoiceValue {
  [key: string]: Json;
  option: number;
  value: Json;
}

/**
 * A problem with one value, located by its JSON Pointer in the arguments: found while
 * converting form values (e.g. "abc" in a number field) or by schema validation.
 */
export interface FieldProblem {
  /** `''` for the whole value, `/a/0/b` inside it. */
  pointer: string;
  /** Reads as a sentence after the location: "must be >= 0". */
  message: string;
}

/** The values a fresh form starts with: the schema's defaults, else empty. */
export function defaultValues(field: FormField): Json {
  if (field.default !== undefined && field.kind !== 'const') return valuesFromArguments(field, field.default);
  switch (field.kind) {
    case 'string':
    case 'number':
    case 'integer':
    case 'json':
      return '';
    case 'boolean':
      return field.required && !field.nullable ? false : null;
    case 'enum':
      return field.required && field.options.length === 1 ? '0' : '';
    case 'const':
      return null;
    case 'array':
      return Array.from({ length: field.minItems ?? 0 }, () => defaultValues(field.items));
    case 'object':
      return Object.fromEntries(field.fields.map((f) => [f.name ?? '', defaultValues(f)]));
    case 'choice':
      return { option: 0, value: defaultValues(field.options[0].field) } satisfies ChoiceValue;
  }
}

/** Form values showing the given arguments (remembered or typed as JSON). Unknown extra keys are dropped. */
export function valuesFromArguments(field: FormField, value: unknown): Json {
  if (value === undefined || (value === null && field.kind !== 'json' && field.kind !== 'const')) {
    return field.kind === 'boolean' ? null : field.kind === 'array' ? [] : field.kind === 'object' || field.kind === 'choice' ? emptyValues(field) : '';
  }
  switch (field.kind) {
    case 'string':
      return typeof value === 'string' ? value : JSON.stringify(value);
    case 'number':
    case 'integer':
      return typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'enum': {
      const index = field.options.findIndex((o) => jsonEqual(o.value, value));
      return index < 0 ? '' : String(index);
    }
    case 'const':
      return null;
    case 'array':
      return Array.isArray(value) ? value.map((item) => valuesFromArguments(field.items, item)) : [];
    case 'object': {
      const record = isObject(value) ? value : {};
      return Object.fromEntries(field.fields.map((f) => [f.name ?? '', valuesFromArguments(f, record[f.name ?? ''])]));
    }
    case 'choice': {
      const index = Math.max(
        0,
        field.options.findIndex((o) => matches(o.field, value)),
      );
      return { option: index, value: valuesFromArguments(field.options[index].field, value) } satisfies ChoiceValue;
    }
    case 'json':
      return JSON.stringify(value, null, 2);
  }
}

/** Values with nothing filled in (unlike defaultValues, no defaults applied). */
function emptyValues(field: FormField): Json {
  if (field.kind === 'object') return Object.fromEntries(field.fields.map((f) => [f.name ?? '', valuesFromArguments(f, undefined)]));
  if (field.kind === 'choice') return { option: 0, value: emptyValues(field.options[0].field) } satisfies ChoiceValue;
  return valuesFromArguments(field, undefined);
}

/** Whether a value has the shape of a field (used to pick the option of a choice). */
function matches(field: FormField, value: unknown): boolean {
  switch (field.kind) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'enum':
      return field.options.some((o) => jsonEqual(o.value, value));
    case 'const':
      return jsonEqual(field.value, value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return (
        isObject(value) &&
        field.fields.every((f) => (f.kind === 'const' ? jsonEqual(f.value, value[f.name ?? '']) : !f.required || value[f.name ?? ''] !== undefined))
      );
    case 'choice':
      return field.options.some((o) => matches(o.field, value));
    case 'json':
      return true;
  }
}

/**
 * The call arguments the form values describe. Empty optional fields are left out, numbers
 * are parsed, JSON fields are parsed. `problems` lists what could not be converted; the
 * arguments are then incomplete and must not be sent.
 */
export function formToArguments(model: FormModel, values: Json): { args: Record<string, unknown>; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const args = convert(model.root, values, problems);
  return { args: isObject(args) ? args : {}, problems };
}

const EMPTY = Symbol('empty');

function convert(field: FormField, value: Json | undefined, problems: FieldProblem[], pointer = field.pointer): unknown {
  const empty = (): unknown => (field.required && field.nullable ? null : EMPTY);
  switch (field.kind) {
    case 'string': {
      const text = typeof value === 'string' ? value : '';
      return text === '' && !field.required ? empty() : text;
    }
    case 'number':
    case 'integer': {
      const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
      if (text === '') return empty();
      const n = Number(text);
      if (!Number.isFinite(n)) {
        problems.push({ pointer, message: l10n.t('"{0}" is not a number', text) });
        return EMPTY;
      }
      if (field.kind === 'integer' && !Number.isInteger(n)) {
        problems.push({ pointer, message: l10n.t('{0} is not a whole number', text) });
        return EMPTY;
      }
      return n;
    }
    case 'boolean':
      return typeof value === 'boolean' ? value : empty();
    case 'enum': {
      const index = typeof value === 'string' && value !== '' ? Number(value) : -1;
      return field.options[index] ? field.options[index].value : empty();
    }
    case 'const':
      return field.value;
    case 'array': {
      const items = Array.isArray(value) ? value : [];
      if (items.length === 0 && !field.required) return EMPTY;
      return items.map((item, i) => {
        const converted = convert(field.items, item, problems, `${pointer}/${i}`);
        if (converted === EMPTY) {
          problems.push({ pointer: `${pointer}/${i}`, message: l10n.t('is empty: fill it in or remove the item') });
          return null;
        }
        return converted;
      });
    }
    case 'object': {
      const record = isObject(value) ? value : {};
      const out: Record<string, unknown> = {};
      for (const child of field.fields) {
        const name = child.name ?? '';
        const converted = convert(child, record[name], problems, `${pointer}/${escapePointer(name)}`);
        if (converted !== EMPTY) out[name] = converted;
      }
      // A nested optional object the user left untouched is omitted; the root always exists.
      if (field.pointer !== '' && !field.required && !hasContent(field, value)) return empty();
      return out;
    }
    case 'choice': {
      if (!field.required && !hasContent(field, value)) return empty();
      const choice = isObject(value) ? value : { option: 0, value: null };
      const option = field.options[typeof choice.option === 'number' ? choice.option : 0] ?? field.options[0];
      const converted = convert({ ...option.field, required: field.required, nullable: field.nullable }, choice.value as Json, problems, pointer);
      return converted;
    }
    case 'json': {
      const text = typeof value === 'string' ? value.trim() : '';
      if (text === '') return empty();
      try {
        return JSON.parse(text);
      } catch (error) {
        problems.push({ pointer, message: l10n.t('is not valid JSON ({0})', errorMessage(error)) });
        return EMPTY;
      }
    }
  }
}

/** Whether the user filled in anything below a field (constants do not count). */
function hasContent(field: FormField, value: Json | undefined): boolean {
  switch (field.kind) {
    case 'object': {
      const record = isObject(value) ? value : {};
      return field.fields.some((f) => hasContent(f, record[f.name ?? '']));
    }
    case 'choice': {
      const choice = isObject(value) ? value : {};
      const option = field.options[typeof choice.option === 'number' ? choice.option : 0] ?? field.options[0];
      return hasContent(option.field, choice.value);
    }
    case 'array':
      return Array.isArray(value) && value.length > 0;
    case 'boolean':
      return typeof value === 'boolean';
    case 'const':
      return false;
    default:
      return typeof value === 'string' ? value.trim() !== '' : value !== undefined && value !== null;
  }
}

/**
 * Arguments with secret fields (writeOnly, format password) removed, for remembering: they
 * must not be written to workspace storage in plain text.
 */
export function withoutSecrets(field: FormField, value: unknown): unknown {
  if (field.kind === 'object' && isObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      const child = field.fields.find((f) => f.name === key);
      if (child?.secret) continue;
      out[key] = child ? withoutSecrets(child, v) : v;
    }
    return out;
  }
  if (field.kind === 'array' && Array.isArray(value)) return value.map((v) => withoutSecrets(field.items, v));
  if (field.kind === 'choice') {
    const option = field.options.find((o) => matches(o.field, value));
    return option ? withoutSecrets(option.field, value) : value;
  }
  return value;
}

/**
 * The values typed into secret fields (the ones `withoutSecrets` removes), as text: a result
 * that echoes one back is redacted with them before it is kept.
 */
export function secretValues(field: FormField, value: unknown): string[] {
  if (field.kind === 'object' && isObject(value)) {
    return Object.entries(value).flatMap(([key, v]) => {
      const child = field.fields.find((f) => f.name === key);
      if (!child) return [];
      if (child.secret) return typeof v === 'string' || typeof v === 'number' ? [String(v)] : v === undefined || v === null ? [] : [JSON.stringify(v)];
      return secretValues(child, v);
    });
  }
  if (field.kind === 'array' && Array.isArray(value)) return value.flatMap((v) => secretValues(field.items, v));
  if (field.kind === 'choice') {
    const option = field.options.find((o) => matches(o.field, value));
    return option ? secretValues(option.field, value) : [];
  }
  return [];
}

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((v, i) => jsonEqual(v, (b as unknown[])[i]));
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return ka.length === kb.length && ka.every((k) => jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
