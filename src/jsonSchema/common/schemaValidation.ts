/**
 * JSON Schema validation of tool arguments and structured results, on ajv (the validator the
 * MCP SDK itself uses). Host side only: ajv compiles schemas to code with `new Function`,
 * which a webview's CSP rightly forbids.
 *
 * The dialect follows the schema's `$schema`; without one, MCP (2025-11-25) says JSON Schema
 * 2020-12, but most servers still emit draft-07 shapes (zod-to-json-schema, older pydantic),
 * so a schema 2020-12 cannot compile is retried as draft-07.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { FieldProblem } from './formValues';
import { errorMessage } from '../../shared/common/errors';

/** One validation failure, located by the JSON Pointer of the offending value. */
export type ValidationIssue = FieldProblem;

export type ValidationResult =
  | { valid: true }
  | { valid: false; issues: ValidationIssue[] }
  /** The schema itself could not be compiled: nothing was checked. */
  | { valid: undefined; schemaError: string };

type AnyAjv = Ajv;

function makeAjv(dialect: 'draft-07' | '2019-09' | '2020-12'): AnyAjv {
  const options = { allErrors: true, strict: false, validateFormats: true } as const;
  const ajv = dialect === '2020-12' ? new Ajv2020(options) : dialect === '2019-09' ? new Ajv2019(options) : new Ajv(options);
  addFormats(ajv);
  return ajv as AnyAjv;
}

const instances = new Map<string, AnyAjv>();
function ajvFor(dialect: 'draft-07' | '2019-09' | '2020-12'): AnyAjv {
  let ajv = instances.get(dialect);
  if (!ajv) {
    ajv = makeAjv(dialect);
    instances.set(dialect, ajv);
  }
  return ajv;
}

/** Compiled validators by schema object: tool schemas are stable objects from the cached list. */
const compiled = new WeakMap<object, ValidateFunction | { schemaError: string }>();

function compile(schema: object): ValidateFunction | { schemaError: string } {
  const cached = compiled.get(schema);
  if (cached) return cached;
  const declared = (schema as { $schema?: unknown }).$schema;
  const dialects: ('draft-07' | '2019-09' | '2020-12')[] =
    typeof declared === 'string' ? [/2020-12/.test(declared) ? '2020-12' : /2019-09/.test(declared) ? '2019-09' : 'draft-07'] : ['2020-12', 'draft-07'];
  let result: ValidateFunction | { schemaError: string } = { schemaError: 'no dialect' };
  for (const dialect of dialects) {
    try {
      // `$id`s would clash when a schema is compiled twice in one instance: drop them.
      const { $id: _id, ...rest } = schema as { $id?: unknown };
      result = ajvFor(dialect).compile(rest);
      break;
    } catch (error) {
      result = { schemaError: errorMessage(error) };
    }
  }
  compiled.set(schema, result);
  return result;
}

/** Validates a value against a JSON Schema, collecting every failure. */
export function validateAgainstSchema(schema: unknown, value: unknown): ValidationResult {
  if (schema === true || schema === undefined) return { valid: true };
  if (typeof schema !== 'object' || schema === null) return { valid: undefined, schemaError: 'the schema is not an object' };
  const validate = compile(schema);
  if ('schemaError' in validate) return { valid: undefined, schemaError: validate.schemaError };
  if (validate(value)) return { valid: true };
  return { valid: false, issues: describeErrors(validate.errors ?? []) };
}

/** ajv errors as short, located messages; a `required` failure points at the missing member. */
export function describeErrors(errors: ErrorObject[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    let pointer = error.instancePath;
    let message = error.message ?? 'is invalid';
    const params = error.params as Record<string, unknown>;
    switch (error.keyword) {
      case 'required':
        pointer = `${pointer}/${escapePointer(String(params.missingProperty))}`;
        message = 'is required';
        break;
      case 'additionalProperties':
        pointer = `${pointer}/${escapePointer(String(params.additionalProperty))}`;
        message = 'is not an allowed property';
        break;
      case 'enum':
        message = `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
        break;
      case 'format':
        message = `must be a valid ${String(params.format)}`;
        break;
      case 'pattern':
        message = `must match the pattern ${String(params.pattern)}`;
        break;
      case 'if':
        continue;
    }
    const key = `${pointer} ${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push({ pointer, message });
  }
  return issues;
}

/** "`/steps` must be >= 0", or "The value must be an object" at the root. */
export function formatIssue(issue: ValidationIssue, rootName = 'The arguments'): string {
  return issue.pointer === '' ? `${rootName} ${issue.message}` : `${issue.pointer.slice(1).replace(/\//g, '.')} ${issue.message}`;
}

function escapePointer(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * How a tools/call result breaks the tool's `outputSchema`, one line each ("count must be
 * integer"); empty when it keeps to it. Undefined when there is nothing to check: no
 * outputSchema, a tool error (`isError` results need no structuredContent), an `input_required`
 * round, or a schema that does not compile (Check Server reports that one).
 */
export function outputSchemaIssues(outputSchema: unknown, result: unknown): string[] | undefined {
  if (typeof outputSchema !== 'object' || outputSchema === null || typeof result !== 'object' || result === null) return undefined;
  const r = result as { isError?: unknown; resultType?: unknown; structuredContent?: unknown };
  if (r.isError === true || r.resultType === 'input_required') return undefined;
  if (r.structuredContent === undefined) return [formatIssue({ pointer: '', message: 'is missing' }, 'structuredContent')];
  const verdict = validateAgainstSchema(outputSchema, r.structuredContent);
  if (verdict.valid === undefined) return undefined;
  return verdict.valid ? [] : verdict.issues.map((i) => formatIssue(i, 'structuredContent'));
}
