/**
 * Elicitation (form mode): the `requestedSchema` (flat object of primitives, MCP 2025-11-25)
 * as form fields, the values the form edits, and the content sent on Accept.
 *
 * Defaults are pre-filled (SEP-1034): accepted content includes the defaults the user left
 * as they are. Pure, no DOM or `vscode`: used by the host, the webview and the headless
 * conformance client. There is never a password field: servers must not ask for secrets.
 */
import * as l10n from '@vscode/l10n';
import type { FieldProblem } from '../../jsonSchema/common/formValues';
import type { Json } from '../../jsonSchema/common/schemaFields';

export type ElicitationField =
  | (ElicitationFieldBase & {
      kind: 'string';
      format?: 'email' | 'uri' | 'date' | 'date-time' | string;
      minLength?: number;
      maxLength?: number;
      default?: string;
    })
  | (ElicitationFieldBase & { kind: 'number' | 'integer'; minimum?: number; maximum?: number; default?: number })
  | (ElicitationFieldBase & { kind: 'boolean'; default?: boolean })
  | (ElicitationFieldBase & { kind: 'enum'; options: { value: string; label: string }[]; default?: string })
  | (ElicitationFieldBase & { kind: 'multiEnum'; options: { value: string; label: string }[]; minItems?: number; maxItems?: number; default?: string[] })
  /** A property the spec does not allow (nested objects…): shown, never sent. */
  | (ElicitationFieldBase & { kind: 'unsupported'; reason: string });

interface ElicitationFieldBase {
  name: string;
  label: string;
  description?: string;
  required: boolean;
}

export interface ElicitationFormModel {
  fields: ElicitationField[];
}

/**
 * Form values: strings for text/number inputs and single selects (`''` = nothing), booleans
 * for checkboxes (`null` = untouched, no default), string arrays for multi-selects.
 */
export type ElicitationValues = Record<string, Json>;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function options(schema: Record<string, unknown>): { value: string; label: string }[] | undefined {
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.map((v, i) => ({ value: String(v), label: typeof names[i] === 'string' ? (names[i] as string) : String(v) }));
  }
  const titled = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (titled && titled.every((o) => isRecord(o) && o.const !== undefined)) {
    return (titled as Record<string, unknown>[]).map((o) => ({ value: String(o.const), label: str(o.title) ?? String(o.const) }));
  }
  return undefined;
}

export function buildElicitationForm(requestedSchema: unknown): ElicitationFormModel {
  const schema = isRecord(requestedSchema) ? requestedSchema : {};
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
  const fields: ElicitationField[] = [];
  for (const [name, raw] of Object.entries(properties)) {
    const p = isRecord(raw) ? raw : {};
    const base: ElicitationFieldBase = {
      name,
      label: str(p.title) ?? name,
      required: required.has(name),
      ...(str(p.description) ? { description: str(p.description) } : {}),
    };
    const type = p.type;
    const opts = options(p);
    if (type === 'array') {
      const items = isRecord(p.items) ? p.items : {};
      const itemOptions = options(items);
      if (!itemOptions) {
        fields.push({ ...base, kind: 'unsupported', reason: l10n.t('arrays must list their allowed values (enum)') });
        continue;
      }
      const def = Array.isArray(p.default) ? p.default.filter((v): v is string => typeof v === 'string') : undefined;
      fields.push({
        ...base,
        kind: 'multiEnum',
        options: itemOptions,
        ...(num(p.minItems) !== undefined ? { minItems: num(p.minItems) } : {}),
        ...(num(p.maxItems) !== undefined ? { maxItems: num(p.maxItems) } : {}),
        ...(def ? { default: def } : {}),
      });
    } else if (opts && (type === 'string' || type === undefined)) {
      fields.push({ ...base, kind: 'enum', options: opts, ...(typeof p.default === 'string' ? { default: p.default } : {}) });
    } else if (type === 'string') {
      fields.push({
        ...base,
        kind: 'string',
        ...(str(p.format) ? { format: str(p.format) } : {}),
        ...(num(p.minLength) !== undefined ? { minLength: num(p.minLength) } : {}),
        ...(num(p.maxLength) !== undefined ? { maxLength: num(p.maxLength) } : {}),
        ...(typeof p.default === 'string' ? { default: p.default } : {}),
      });
    } else if (type === 'number' || type === 'integer') {
      fields.push({
        ...base,
        kind: type,
        ...(num(p.minimum) !== undefined ? { minimum: num(p.minimum) } : {}),
        ...(num(p.maximum) !== undefined ? { maximum: num(p.maximum) } : {}),
        ...(num(p.default) !== undefined ? { default: num(p.default) } : {}),
      });
    } else if (type === 'boolean') {
      fields.push({ ...base, kind: 'boolean', ...(typeof p.default === 'boolean' ? { default: p.default } : {}) });
    } else {
      fields.push({ ...base, kind: 'unsupported', reason: l10n.t('type {0} is not a primitive the spec allows in elicitation', JSON.stringify(type ?? null)) });
    }
  }
  return { fields };
}

/** The values a fresh form starts with: every default filled in. */
export function initialElicitationValues(model: ElicitationFormModel): ElicitationValues {
  const values: ElicitationValues = {};
  for (const f of model.fields) {
    switch (f.kind) {
      case 'string':
      case 'enum':
        values[f.name] = f.default ?? '';
        break;
      case 'number':
      case 'integer':
        values[f.name] = f.default !== undefined ? String(f.default) : '';
        break;
      case 'boolean':
        values[f.name] = f.default ?? null;
        break;
      case 'multiEnum':
        values[f.name] = f.default ?? [];
        break;
      case 'unsupported':
        break;
    }
  }
  return values;
}

/**
 * The content to accept with: empty optional fields left out (an unchecked boolean is `false`), numbers parsed. `problems`
 * lists what cannot be sent (required missing, not a number, limits); content must then
 * not be sent. Schema validation (ajv, host side) runs on top of this.
 */
export function elicitationContent(
  model: ElicitationFormModel,
  values: ElicitationValues,
): { content: Record<string, string | number | boolean | string[]>; problems: FieldProblem[] } {
  const content: Record<string, string | number | boolean | string[]> = {};
  const problems: FieldProblem[] = [];
  const problem = (name: string, message: string) => problems.push({ pointer: `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, message });
  for (const f of model.fields) {
    const v = values[f.name];
    switch (f.kind) {
      case 'string': {
        const text = typeof v === 'string' ? v : '';
        if (text === '') {
          if (f.required) problem(f.name, l10n.t('is required'));
          break;
        }
        if (f.minLength !== undefined && [...text].length < f.minLength) problem(f.name, l10n.t('must have at least {0} characters', f.minLength));
        if (f.maxLength !== undefined && [...text].length > f.maxLength) problem(f.name, l10n.t('must have at most {0} characters', f.maxLength));
        const formatProblem = checkFormat(f.format, text);
        if (formatProblem) problem(f.name, formatProblem);
        content[f.name] = text;
        break;
      }
      case 'number':
      case 'integer': {
        const text = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '';
        if (text === '') {
          if (f.required) problem(f.name, l10n.t('is required'));
          break;
        }
        const n = Number(text);
        if (!Number.isFinite(n)) {
          problem(f.name, l10n.t('"{0}" is not a number', text));
          break;
        }
        if (f.kind === 'integer' && !Number.isInteger(n)) problem(f.name, l10n.t('must be a whole number'));
        if (f.minimum !== undefined && n < f.minimum) problem(f.name, l10n.t('must be >= {0}', f.minimum));
        if (f.maximum !== undefined && n > f.maximum) problem(f.name, l10n.t('must be <= {0}', f.maximum));
        content[f.name] = n;
        break;
      }
      case 'boolean':
        // A checkbox has no "unanswered" state: left unchecked, the user answered false.
        content[f.name] = v === true;
        break;
      case 'enum': {
        const text = typeof v === 'string' ? v : '';
        if (text === '') {
          if (f.required) problem(f.name, l10n.t('is required'));
          break;
        }
        if (!f.options.some((o) => o.value === text)) problem(f.name, l10n.t('must be one of the listed values'));
        content[f.name] = text;
        break;
      }
      case 'multiEnum': {
        const list = Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
        if (list.some((x) => !f.options.some((o) => o.value === x))) problem(f.name, l10n.t('must only contain listed values'));
        if (f.minItems !== undefined && list.length < f.minItems) problem(f.name, l10n.t('needs at least {0} selected', f.minItems));
        if (f.maxItems !== undefined && list.length > f.maxItems) problem(f.name, l10n.t('allows at most {0} selected', f.maxItems));
        if (list.length === 0 && f.required && f.minItems === undefined) problem(f.name, l10n.t('is required'));
        if (list.length > 0 || f.required) content[f.name] = list;
        break;
      }
      case 'unsupported':
        if (f.required) problem(f.name, l10n.t('cannot be filled in here ({0})', f.reason));
        break;
    }
  }
  return { content, problems };
}

function checkFormat(format: string | undefined, text: string): string | undefined {
  switch (format) {
    case 'email':
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text) ? undefined : l10n.t('must be an email address');
    case 'uri':
      return /^[a-z][a-z0-9+.-]*:\S+$/i.test(text) ? undefined : l10n.t('must be a URI (e.g. https://…)');
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text)) ? undefined : l10n.t('must be a date (YYYY-MM-DD)');
    case 'date-time':
      return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(text) && !Number.isNaN(Date.parse(text))
        ? undefined
        : l10n.t('must be a date and time (e.g. {0})', '2025-01-31T14:30:00Z');
    default:
      return undefined;
  }
}

/**
 * Content with the schema's defaults added for properties it leaves out (SEP-1034): what a
 * client applies when the user accepted without touching a field.
 */
export function applyElicitationDefaults(requestedSchema: unknown, content: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(content ?? {}) };
  const properties = isRecord(requestedSchema) && isRecord(requestedSchema.properties) ? requestedSchema.properties : {};
  for (const [name, p] of Object.entries(properties)) {
    if (out[name] === undefined && isRecord(p) && p.default !== undefined) out[name] = p.default;
  }
  return out;
}

/** A short human note for a field's constraints, shown under the input. */
export function elicitationHints(f: ElicitationField): string[] {
  const hints: string[] = [];
  if (f.kind === 'string') {
    if (f.minLength !== undefined && f.maxLength !== undefined) hints.push(l10n.t('{0}–{1} characters', f.minLength, f.maxLength));
    else if (f.minLength !== undefined) hints.push(l10n.t('at least {0} characters', f.minLength));
    else if (f.maxLength !== undefined) hints.push(l10n.t('at most {0} characters', f.maxLength));
    if (f.format) hints.push(l10n.t('format: {0}', f.format));
  } else if (f.kind === 'number' || f.kind === 'integer') {
    if (f.kind === 'integer') hints.push(l10n.t('whole number'));
    if (f.minimum !== undefined) hints.push(`≥ ${f.minimum}`);
    if (f.maximum !== undefined) hints.push(`≤ ${f.maximum}`);
  } else if (f.kind === 'multiEnum') {
    if (f.minItems !== undefined) hints.push(l10n.t('at least {0}', f.minItems));
    if (f.maxItems !== undefined) hints.push(l10n.t('at most {0}', f.maxItems));
  }
  return hints;
}
