/**
 * Save as Test: a Run Tool run turned into a `*.mcptest.json` test case, and the text of the file
 * it goes into (a new one, or an existing one with the case appended, its comments and layout
 * kept). The expectation is a starting point the user tightens: `isError`, and a small subset of
 * the structured content or of the text, never a snapshot of everything. Secret arguments are
 * never written: each becomes `${input:<name>}`, given at run time. Pure: no `vscode`.
 */
import * as jsonc from 'jsonc-parser';
import { REDACTED } from '../../shared/common/redact';
import { parseTestFile } from './parseTestFile';
import type { Expectations, StepTest } from './testFormat';

/** A finished run as Run Tool keeps it (its history entry): arguments already without secrets. */
export interface RunToSave {
  toolName: string;
  /** The arguments sent, secret ones removed. */
  args: Record<string, unknown>;
  /** Top-level arguments that were secret (sent, not kept): written as `${input:<name>}`. */
  secretArgs?: readonly string[];
  /** Some secret was sent and not kept (nested ones have no placeholder: they are left out). */
  secretsOmitted?: boolean;
  /** The tools/call result (redacted as the history keeps it). */
  result: { content?: unknown[]; structuredContent?: unknown; isError?: boolean };
}

export interface SavedTestCase {
  test: StepTest;
  /** The `${input:…}` ids the case needs at run time (`MCPWB_INPUT_<ID>` or `--input id=value`). */
  inputs: string[];
  /** Secret values sent inside nested arguments, left out of the case: the saved call differs. */
  nestedSecretsLeftOut: boolean;
}

/** Past these, a value is not part of the expectation: a test checks what matters, not everything. */
const MAX_TEXT = 200;
const MAX_KEYS = 12;
const MAX_ARRAY = 5;
const MAX_DEPTH = 3;
const MAX_NAME = 60;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The part of a value a saved expectation keeps: scalars, short strings, small arrays and
 * objects a few levels deep. Long strings, redacted values and what lies deeper are left out
 * (undefined), so the match holds while the server answers the same thing.
 */
export function compactSubset(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.length > MAX_TEXT || value.includes(REDACTED) ? undefined : value;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
  if (depth >= MAX_DEPTH) return undefined;
  if (Array.isArray(value)) {
    // A subset array must match each element somewhere: a few whole elements, or none.
    if (value.length > MAX_ARRAY) return undefined;
    const items = value.map((v) => compactSubset(v, depth + 1));
    return items.every((v) => v !== undefined) ? items : undefined;
  }
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value).slice(0, MAX_KEYS)) {
      const kept = compactSubset(v, depth + 1);
      if (kept !== undefined) out[key] = kept;
    }
    return out;
  }
  return undefined;
}

/** What the saved case expects of the result: `isError`, and a subset of structuredContent or else of the first text. */
export function expectationOf(result: RunToSave['result']): Expectations {
  const expect: Expectations = { isError: result.isError === true };
  if (isObject(result.structuredContent)) {
    expect.match = { structuredContent: compactSubset(result.structuredContent) };
    return expect;
  }
  const text = result.content?.find((c): c is { type: 'text'; text: string } => isObject(c) && c.type === 'text' && typeof c.text === 'string');
  if (text) {
    // A long or redacted text: the case checks that a text comes back; the user narrows it.
    const kept = compactSubset(text.text);
    expect.match = { content: [kept === undefined ? { type: 'text' } : { type: 'text', text: kept }] };
  }
  return expect;
}

/** A readable default name: the tool and its arguments, short. */
export function defaultTestName(toolName: string, args: Record<string, unknown>): string {
  const shown = Object.keys(args).length ? ` ${JSON.stringify(args)}` : '';
  const name = `${toolName}${shown}`;
  return name.length > MAX_NAME ? `${name.slice(0, MAX_NAME - 1)}…` : name;
}

/** `name`, or `name (2)`, `name (3)`… whichever the file does not have yet (test names are ids). */
export function uniqueTestName(name: string, taken: readonly string[]): string {
  if (!taken.includes(name)) return name;
  for (let i = 2; ; i++) if (!taken.includes(`${name} (${i})`)) return `${name} (${i})`;
}

/** The test case of a run: one `callTool` step with its arguments (secrets as inputs) and the expectation. */
export function testCaseFromRun(run: RunToSave, name = defaultTestName(run.toolName, run.args)): SavedTestCase {
  const inputs = [...(run.secretArgs ?? [])];
  const args: Record<string, unknown> = { ...run.args };
  for (const key of inputs) args[key] = `\${input:${key}}`;
  const step = {
    callTool: { name: run.toolName, ...(Object.keys(args).length ? { arguments: args } : {}) },
    expect: expectationOf(run.result),
  };
  return { test: { name, steps: [step] }, inputs, nestedSecretsLeftOut: run.secretsOmitted === true && inputs.length === 0 };
}

/** The text of a new test file holding one case. */
export function newTestFileText(server: string, test: StepTest): string {
  return `${JSON.stringify({ server, tests: [test] }, null, 2)}\n`;
}

export type AppendResult = { text: string; name: string } | { error: 'unreadable' | 'otherServer'; server?: string };

/**
 * The file's text with `test` appended to its `tests` (renamed if the file has one of that name),
 * through jsonc-parser edits: comments, order and layout of the rest stay as they were. Refused
 * for a file that does not parse or that tests another server (one file, one server).
 */
export function appendTestText(text: string, server: string, test: StepTest): AppendResult {
  const parsed = parseTestFile(text);
  const file = parsed.file;
  if (!file || !Array.isArray(file.tests)) return { error: 'unreadable' };
  if (file.server !== server) return { error: 'otherServer', ...(typeof file.server === 'string' ? { server: file.server } : {}) };
  const name = uniqueTestName(
    test.name,
    file.tests.map((t) => t.name),
  );
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /\n([ \t]+)"/.exec(text)?.[1] ?? '  ';
  const edits = jsonc.modify(
    text,
    ['tests', file.tests.length],
    { ...test, name },
    {
      isArrayInsertion: true,
      formattingOptions: { insertSpaces: !indent.startsWith('\t'), tabSize: indent.startsWith('\t') ? 1 : indent.length, eol },
    },
  );
  return { text: jsonc.applyEdits(text, edits), name };
}

/** A file name for the server's tests: the name, with what a file name cannot hold replaced. */
export function testFileName(server: string): string {
  return `${server.replace(/[^\w.-]+/g, '-').replace(/^[.-]+/, '') || 'server'}.mcptest.json`;
}
