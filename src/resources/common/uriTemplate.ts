/**
 * RFC 6570 URI Templates, all four levels: the operators `+ # . / ; ? &`, prefix (`{var:3}`)
 * and explode (`{list*}`) modifiers, string, list and associative-array values.
 *
 * Ours rather than the SDK's `UriTemplate` (shared/uriTemplate.js in 1.32.2): that one has no
 * `;` operator, drops the operator's prefix and separator for multi-variable expressions
 * (`{/x,y}` → `1024,768`), ignores prefix modifiers and explode for most operators, and uses
 * `encodeURI` for `+`/`#`, which re-encodes `%` of pct-encoded triplets.
 */

export type TemplateValue = string | number | boolean | readonly string[] | Readonly<Record<string, string>> | null | undefined;
export type TemplateValues = Readonly<Record<string, TemplateValue>>;

export type TemplateOperator = '' | '+' | '#' | '.' | '/' | ';' | '?' | '&';

/** One variable of an expression, e.g. `list*` or `var:3`. */
export interface TemplateVariable {
  name: string;
  operator: TemplateOperator;
  explode: boolean;
  /** Max characters of the value (`{var:3}`); undefined for none. */
  prefix?: number;
}

export type TemplatePart = { literal: string } | { operator: TemplateOperator; variables: TemplateVariable[] };

/** Thrown for malformed templates, with the offending position. */
export class UriTemplateError extends Error {
  constructor(
    message: string,
    readonly template: string,
    readonly position: number,
  ) {
    super(`${message} at position ${position} of URI template "${template}"`);
    this.name = 'UriTemplateError';
  }
}

interface OperatorSpec {
  first: string;
  sep: string;
  named: boolean;
  ifEmpty: string;
  allowReserved: boolean;
}

const OPERATORS: Record<TemplateOperator, OperatorSpec> = {
  '': { first: '', sep: ',', named: false, ifEmpty: '', allowReserved: false },
  '+': { first: '', sep: ',', named: false, ifEmpty: '', allowReserved: true },
  '#': { first: '#', sep: ',', named: false, ifEmpty: '', allowReserved: true },
  '.': { first: '.', sep: '.', named: false, ifEmpty: '', allowReserved: false },
  '/': { first: '/', sep: '/', named: false, ifEmpty: '', allowReserved: false },
  ';': { first: ';', sep: ';', named: true, ifEmpty: '', allowReserved: false },
  '?': { first: '?', sep: '&', named: true, ifEmpty: '=', allowReserved: false },
  '&': { first: '&', sep: '&', named: true, ifEmpty: '=', allowReserved: false },
};

const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;

export function parseUriTemplate(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let literal = '';
  let i = 0;
  while (i < template.length) {
    const ch = template[i];
    if (ch === '}') throw new UriTemplateError('Unmatched "}"', template, i);
    if (ch !== '{') {
      literal += ch;
      i++;
      continue;
    }
    const end = template.indexOf('}', i + 1);
    if (end < 0) throw new UriTemplateError('Unclosed "{"', template, i);
    if (literal) parts.push({ literal });
    literal = '';
    let body = template.slice(i + 1, end);
    if (body.includes('{')) throw new UriTemplateError('Nested "{"', template, i);
    let operator: TemplateOperator = '';
    if ('+#./;?&'.includes(body[0] ?? '')) {
      operator = body[0] as TemplateOperator;
      body = body.slice(1);
    } else if ('=,!@|'.includes(body[0] ?? '')) {
      throw new UriTemplateError(`Reserved operator "${body[0]}"`, template, i + 1);
    }
    const variables = body.split(',').map((spec): TemplateVariable => {
      let name = spec;
      let explode = false;
      let prefix: number | undefined;
      if (name.endsWith('*')) {
        explode = true;
        name = name.slice(0, -1);
      } else {
        const colon = name.indexOf(':');
        if (colon >= 0) {
          const digits = name.slice(colon + 1);
          if (!/^[1-9][0-9]{0,3}$/.test(digits)) throw new UriTemplateError(`Invalid prefix ":${digits}"`, template, i);
          prefix = Number(digits);
          name = name.slice(0, colon);
        }
      }
      if (!VARNAME.test(name)) throw new UriTemplateError(`Invalid variable name "${name}"`, template, i);
      return { name, operator, explode, ...(prefix !== undefined ? { prefix } : {}) };
    });
    parts.push({ operator, variables });
    i = end + 1;
  }
  if (literal) parts.push({ literal });
  return parts;
}

/** The variables of a template in order of first appearance (each name once). */
export function templateVariables(template: string): TemplateVariable[] {
  const seen = new Map<string, TemplateVariable>();
  for (const part of parseUriTemplate(template)) {
    if ('literal' in part) continue;
    for (const v of part.variables) if (!seen.has(v.name)) seen.set(v.name, v);
  }
  return [...seen.values()];
}

export function isUriTemplate(text: string): boolean {
  try {
    return parseUriTemplate(text).some((p) => !('literal' in p));
  } catch {
    return false;
  }
}

export function expandUriTemplate(template: string, values: TemplateValues): string {
  let out = '';
  for (const part of parseUriTemplate(template)) {
    out += 'literal' in part ? encode(part.literal, true) : expandExpression(part.operator, part.variables, values);
  }
  return out;
}

function expandExpression(operator: TemplateOperator, variables: TemplateVariable[], values: TemplateValues): string {
  const spec = OPERATORS[operator];
  const pieces: string[] = [];
  for (const variable of variables) {
    const value = values[variable.name];
    if (value === undefined || value === null) continue;
    const enc = (s: string) => encode(s, spec.allowReserved);
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      let s = String(value);
      if (variable.prefix !== undefined) s = [...s].slice(0, variable.prefix).join('');
      pieces.push(spec.named ? named(variable.name, enc(s), spec) : enc(s));
      continue;
    }
    const pairs: [string, string][] = Array.isArray(value)
      ? (value as readonly string[]).map((v) => ['', String(v)])
      : Object.entries(value as Record<string, string>).map(([k, v]) => [k, String(v)]);
    if (pairs.length === 0) continue;
    const isList = Array.isArray(value);
    if (!variable.explode) {
      const joined = pairs.map(([k, v]) => (isList ? enc(v) : `${enc(k)},${enc(v)}`)).join(',');
      pieces.push(spec.named ? named(variable.name, joined, spec) : joined);
    } else if (isList) {
      pieces.push(pairs.map(([, v]) => (spec.named ? named(variable.name, enc(v), spec) : enc(v))).join(spec.sep));
    } else {
      pieces.push(pairs.map(([k, v]) => (v === '' && spec.named ? `${enc(k)}${spec.ifEmpty}` : `${enc(k)}=${enc(v)}`)).join(spec.sep));
    }
  }
  return pieces.length ? spec.first + pieces.join(spec.sep) : '';
}

function named(name: string, encoded: string, spec: OperatorSpec): string {
  return encoded === '' ? name + spec.ifEmpty : `${name}=${encoded}`;
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;

/** Pct-encodes UTF-8 except unreserved (and, for `+`/`#`, reserved chars and existing pct-triplets). */
function encode(text: string, allowReserved: boolean): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (UNRESERVED.test(ch) || (allowReserved && RESERVED.test(ch))) {
      out += ch;
    } else if (allowReserved && ch === '%' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      out += text.slice(i, i + 3);
      i += 2;
    } else {
      const cp = text.codePointAt(i)!;
      const char = String.fromCodePoint(cp);
      if (char.length === 2) i++;
      for (const byte of new TextEncoder().encode(char)) out += '%' + byte.toString(16).toUpperCase().padStart(2, '0');
    }
  }
  return out;
}
