/**
 * Tool schemas, as a client reads them: `inputSchema`/`outputSchema` must be JSON Schema
 * objects that compile; without `$schema` they are JSON Schema 2020-12 (2025-11-25 and later),
 * so a schema that only compiles as draft-07 (e.g. `items` as an array) is read wrongly by a
 * 2020-12 client. And `structuredContent` of recorded results must match the `outputSchema`.
 */
import Ajv2020 from 'ajv/dist/2020';
import Ajv from 'ajv';
import { formatIssue, validateAgainstSchema } from '../../jsonSchema/common/schemaValidation';
import { isObject, paramsOf, resultOf, type CheckInput, type Finding, type ListedTool } from './checkTypes';
import { specSection } from './specLinks';
import { errorMessage } from '../../shared/common/errors';

type Dialect = '2020-12' | 'draft-07';

/** Why the schema does not compile in this dialect, or undefined when it does. Fresh instances: a `$id` must not clash. */
function compileError(schema: object, dialect: Dialect): string | undefined {
  const options = { allErrors: true, strict: false, validateFormats: false } as const;
  const ajv = dialect === '2020-12' ? new Ajv2020(options) : new Ajv(options);
  try {
    const { $schema: _schema, ...rest } = schema as { $schema?: unknown };
    ajv.compile(rest);
    return undefined;
  } catch (error) {
    return errorMessage(error);
  }
}

const nameOf = (tool: ListedTool) => (typeof tool.name === 'string' ? tool.name : String(tool.name));

function schemaFindings(input: CheckInput, tool: ListedTool, field: 'inputSchema' | 'outputSchema', listSeq: number | undefined): Finding[] {
  const schema = tool[field];
  if (schema === undefined && field === 'outputSchema') return [];
  const spec = specSection(input, 'Tools › Tool (JSON Schema usage)', 'server/tools', 'tool');
  const base = { check: 'tool-schema', subject: nameOf(tool), spec, seq: listSeq } as const;
  if (!isObject(schema)) {
    return [
      {
        ...base,
        severity: 'error',
        message: `Tool "${nameOf(tool)}": \`${field}\` must be a JSON Schema object, got ${schema === null ? 'null' : Array.isArray(schema) ? 'an array' : typeof schema}.`,
      },
    ];
  }
  const findings: Finding[] = [];
  if (schema.type !== 'object') {
    findings.push({
      ...base,
      severity: 'error',
      message: `Tool "${nameOf(tool)}": \`${field}\` must have \`"type": "object"\` (it has ${JSON.stringify(schema.type) ?? 'none'}).`,
    });
  }
  const declared = typeof schema.$schema === 'string' ? schema.$schema : undefined;
  if (declared !== undefined && !/2020-12/.test(declared)) {
    const dialect: Dialect = /draft-07|draft-06|draft-04/.test(declared) ? 'draft-07' : '2020-12';
    const error = compileError(schema, dialect);
    findings.push(
      error
        ? { ...base, severity: 'error', message: `Tool "${nameOf(tool)}": \`${field}\` is not a valid schema of its declared dialect (${declared}): ${error}` }
        : {
            ...base,
            severity: 'info',
            message: `Tool "${nameOf(tool)}": \`${field}\` declares ${declared}; clients are only required to support JSON Schema 2020-12.`,
          },
    );
    return findings;
  }
  const error = compileError(schema, '2020-12');
  if (error === undefined) return findings;
  const asDraft07 = declared === undefined && compileError(schema, 'draft-07') === undefined;
  findings.push({
    ...base,
    severity: 'error',
    message: asDraft07
      ? `Tool "${nameOf(tool)}": \`${field}\` is draft-07 but has no \`$schema\`, so clients read it as JSON Schema 2020-12, where it is invalid: ${error}. Add \`"$schema": "http://json-schema.org/draft-07/schema#"\` or write it in 2020-12.`
      : `Tool "${nameOf(tool)}": \`${field}\` is not a valid JSON Schema 2020-12: ${error}`,
  });
  return findings;
}

/** The newest recorded `tools/list` response that lists this tool. */
function listSeqOf(input: CheckInput, name: string): number | undefined {
  for (let i = input.messages.length - 1; i >= 0; i--) {
    const entry = input.messages[i];
    if (entry.method !== 'tools/list' || entry.direction !== 'send') continue;
    const tools = resultOf(entry)?.tools;
    if (Array.isArray(tools) && tools.some((t) => isObject(t) && t.name === name)) return entry.seq;
  }
  return undefined;
}

export function checkToolSchemas(input: CheckInput): Finding[] {
  return input.tools.flatMap((tool) => {
    const seq = listSeqOf(input, nameOf(tool));
    return [...schemaFindings(input, tool, 'inputSchema', seq), ...schemaFindings(input, tool, 'outputSchema', seq)];
  });
}

/**
 * Every recorded successful call of a tool with an `outputSchema` must carry `structuredContent`
 * that matches it. Tools with an `outputSchema` and no recorded call are named in one info
 * finding: Check Server does not call tools that may change something.
 */
export function checkStructuredContent(input: CheckInput): Finding[] {
  const spec = specSection(input, 'Tools › Output Schema', 'server/tools', 'output-schema');
  const findings: Finding[] = [];
  const unexercised: string[] = [];
  for (const tool of input.tools) {
    if (!isObject(tool.outputSchema)) continue;
    const name = nameOf(tool);
    const calls = input.messages.filter((e) => e.method === 'tools/call' && e.direction === 'send' && e.status.kind === 'ok' && paramsOf(e)?.name === name);
    const results = calls
      .map((e) => ({ entry: e, result: resultOf(e) }))
      .filter((c) => c.result && c.result.isError !== true && c.result.resultType !== 'input_required');
    if (!results.length) {
      unexercised.push(name);
      continue;
    }
    for (const { entry, result } of results) {
      const structured = result!.structuredContent;
      if (structured === undefined) {
        findings.push({
          check: 'structured-content',
          severity: 'error',
          subject: name,
          spec,
          seq: entry.seq,
          message: `Tool "${name}" has an \`outputSchema\` but its result has no \`structuredContent\`.`,
        });
        continue;
      }
      const verdict = validateAgainstSchema(tool.outputSchema, structured);
      if (verdict.valid === false) {
        const issues = verdict.issues
          .slice(0, 3)
          .map((i) => formatIssue(i, 'structuredContent'))
          .join('; ');
        findings.push({
          check: 'structured-content',
          severity: 'error',
          subject: name,
          spec,
          seq: entry.seq,
          message: `Tool "${name}": \`structuredContent\` does not match its \`outputSchema\`: ${issues}${verdict.issues.length > 3 ? ` (+${verdict.issues.length - 3} more)` : ''}.`,
        });
      }
    }
  }
  if (unexercised.length) {
    findings.push({
      check: 'structured-content',
      severity: 'info',
      spec,
      message: `Not exercised: ${unexercised.map((n) => `"${n}"`).join(', ')}. No result of theirs is recorded, and Check Server calls only read-only tools that need no arguments: run them once, then check again.`,
    });
  }
  return findings;
}
