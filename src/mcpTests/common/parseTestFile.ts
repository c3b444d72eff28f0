/**
 * Reads a `*.mcptest.json` text (comments and trailing commas allowed, as in mcp.json). Never
 * throws: everything wrong becomes a problem with the offset and length of the part it is about,
 * the way src/config/common reports config problems, so an editor can underline it.
 */
import * as jsonc from 'jsonc-parser';
import { excessiveNesting, MAX_NESTING, parseJsonTree } from '../../config/common/jsonNesting';
import { validateAgainstSchema } from '../../jsonSchema/common/schemaValidation';
import { TEST_FILE_SCHEMA, type TestFile } from './testFormat';

export interface TestFileProblem {
  severity: 'error' | 'warning';
  message: string;
  /** Character offsets into the file text. */
  offset: number;
  length: number;
}

export interface ParsedTestFile {
  /** Undefined when a problem makes the file unusable. */
  file?: TestFile;
  problems: TestFileProblem[];
  /** Where each test's entry is, by index (the Testing view puts its items there). */
  testRanges: { name: string; offset: number; length: number }[];
}

/** The file's parts, each checked with its own part of the schema so a problem names one shape, not every `oneOf` branch. */
const S = TEST_FILE_SCHEMA;
const TOP = { ...S, properties: { ...S.properties, server: {}, tests: { type: 'array' } }, definitions: undefined };
const SERVER_NAME = S.properties.server.oneOf[0];
const SERVER_COMMAND = S.properties.server.oneOf[1];
const SERVER_URL = S.properties.server.oneOf[2];
const STEP_TEST = {
  ...S.properties.tests.items.oneOf[0],
  properties: { ...S.properties.tests.items.oneOf[0].properties, steps: { type: 'array', minItems: 1 } },
};
const CAPABILITY_TEST = S.properties.tests.items.oneOf[1];
const { oneOf: _actions, ...STEP } = S.definitions.step;
const ACTIONS = ['callTool', 'readResource', 'getPrompt', 'list'] as const;

export function parseTestFile(text: string): ParsedTestFile {
  const problems: TestFileProblem[] = [];
  const testRanges: ParsedTestFile['testRanges'] = [];
  if (!text.trim())
    return { problems: [{ severity: 'error', message: 'The file is empty: it needs an object with "server" and "tests".', offset: 0, length: 1 }], testRanges };
  const deep = excessiveNesting(text);
  if (deep)
    return {
      problems: [{ severity: 'error', message: `The JSON is nested more than ${MAX_NESTING} levels deep; it is not read.`, offset: deep.offset, length: 1 }],
      testRanges,
    };
  const syntax: jsonc.ParseError[] = [];
  const root = parseJsonTree(text, syntax, { allowTrailingComma: true, disallowComments: false });
  for (const e of syntax)
    problems.push({ severity: 'error', message: `JSON syntax error: ${jsonc.printParseErrorCode(e.error)}`, offset: e.offset, length: Math.max(e.length, 1) });
  if (!root) return { problems, testRanges };
  const value = jsonc.getNodeValue(root) as unknown;
  const check = (schema: unknown, part: unknown, base: string) => {
    const result = validateAgainstSchema(schema, part);
    if (result.valid === false) for (const issue of result.issues) problems.push(located(root, `${base}${issue.pointer}`, issue.message));
    else if (result.valid === undefined)
      problems.push({ severity: 'error', message: `Internal schema error: ${result.schemaError}`, offset: root.offset, length: 1 });
  };
  check(TOP, value, '');
  const file = value as Partial<TestFile>;
  if (typeof file !== 'object' || file === null || Array.isArray(file)) return { problems, testRanges };
  if (file.server !== undefined) {
    const server = file.server as unknown;
    check(
      typeof server === 'string' ? SERVER_NAME : typeof server === 'object' && server !== null && 'url' in server ? SERVER_URL : SERVER_COMMAND,
      server,
      '/server',
    );
  }
  const names = new Map<string, number>();
  (Array.isArray(file.tests) ? file.tests : []).forEach((test: unknown, i) => {
    const base = `/tests/${i}`;
    const node = nodeAt(root, base);
    const isObj = typeof test === 'object' && test !== null && !Array.isArray(test);
    const t = (isObj ? test : {}) as Record<string, unknown>;
    check('capabilitySnapshot' in t ? CAPABILITY_TEST : STEP_TEST, test, base);
    if (typeof t.name === 'string') {
      testRanges[i] = { name: t.name, offset: node.offset, length: node.length };
      if (names.has(t.name))
        problems.push(located(root, `${base}/name`, `is also the name of test ${names.get(t.name)! + 1}: snapshots are stored by name, so names must differ`));
      else names.set(t.name, i);
    }
    (Array.isArray(t.steps) ? t.steps : []).forEach((step: unknown, j) => {
      const at = `${base}/steps/${j}`;
      check(STEP, step, at);
      const actions = typeof step === 'object' && step !== null ? ACTIONS.filter((a) => a in step) : [];
      if (actions.length !== 1) {
        problems.push(located(root, at, actions.length ? `has ${actions.join(' and ')}: a step does one thing` : `needs one of ${ACTIONS.join(', ')}`));
      }
    });
  });
  const usable = !problems.some((p) => p.severity === 'error');
  return { file: usable ? (file as TestFile) : undefined, problems, testRanges };
}

function segments(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The node at a pointer, or the deepest one on its way (`exact` false: the parent of a missing member). */
function walk(root: jsonc.Node, pointer: string): { node: jsonc.Node; exact: boolean } {
  let node = root;
  for (const segment of segments(pointer)) {
    const next = jsonc.findNodeAtLocation(node, [node.type === 'array' ? Number(segment) : segment]);
    if (!next) return { node, exact: false };
    node = next;
  }
  return { node, exact: true };
}

function nodeAt(root: jsonc.Node, pointer: string): jsonc.Node {
  return walk(root, pointer).node;
}

/** A problem at a JSON Pointer: the key of a member that is not allowed, the value otherwise, the object's first character for a missing member. */
function located(root: jsonc.Node, pointer: string, message: string): TestFileProblem {
  const { node, exact } = walk(root, pointer);
  const where = pointer === '' ? 'The file' : `"${segments(pointer).join('.')}"`;
  const keyNode = node.parent?.type === 'property' ? node.parent.children?.[0] : undefined;
  const target = exact && keyNode && /not an allowed property/.test(message) ? keyNode : node;
  return { severity: 'error', message: `${where} ${message}.`, offset: target.offset, length: exact ? Math.max(target.length, 1) : 1 };
}
