/**
 * The `*.mcptest.json` format: saved MCP tests committed with a project. The types here are what
 * the parser hands the runner; TEST_FILE_SCHEMA is the JSON Schema of the file (also committed as
 * schemas/mcp-test.schema.json for editors, kept equal by a unit test). Pure: no `vscode`.
 */

/** A server started for the file: a name from the project's `.vscode/mcp.json` / `.mcp.json`, or a launch of its own. */
export type ServerSpec =
  | string
  | { command: string; args?: string[]; env?: Record<string, string>; cwd?: string; protocolEra?: 'auto' | 'modern' | 'legacy' }
  | { url: string; type?: 'http' | 'sse'; headers?: Record<string, string>; protocolEra?: 'auto' | 'modern' | 'legacy' };

export type ListKind = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';
export const LIST_KINDS: readonly ListKind[] = ['tools', 'resources', 'resourceTemplates', 'prompts'];

export type StepAction =
  | { callTool: { name: string; arguments?: Record<string, unknown> } }
  | { readResource: { uri: string } }
  | { getPrompt: { name: string; arguments?: Record<string, string> } }
  | { list: ListKind };

export interface Expectations {
  /** Subset match: every member given must be there with this value; arrays must contain a match for each element. */
  match?: unknown;
  /** JSON Schema the whole result must satisfy. */
  schema?: object | boolean;
  /** JSON Schema the result's `structuredContent` must satisfy (tool calls). */
  structuredContentSchema?: object | boolean;
  /** The tool result's `isError`, or for other steps whether the request failed. */
  isError?: boolean;
  /**
   * Compare the result with the one stored in `__snapshots__/<file>.snap.json`; `ignore` names
   * JSON paths left out of both (what changes from run to run: `$._meta`, `$.content[*].annotations`).
   */
  snapshot?: boolean | { ignore?: string[] };
  /** Latency budget of the step, in milliseconds. */
  maxMs?: number;
}

export type Step = StepAction & { expect?: Expectations };

export interface StepTest {
  name: string;
  steps: Step[];
}

export interface CapabilityTest {
  name: string;
  /** The lists to snapshot; by default every one the server advertises. */
  capabilitySnapshot: { lists?: ListKind[]; failOn?: 'breaking' | 'any' } | true;
}

export type McpTest = StepTest | CapabilityTest;

export interface TestFile {
  server: ServerSpec;
  /** Milliseconds to wait for the server to start (default 30 s). */
  startTimeoutMs?: number;
  tests: McpTest[];
}

export function isCapabilityTest(test: McpTest): test is CapabilityTest {
  return 'capabilitySnapshot' in test;
}

const era = { enum: ['auto', 'modern', 'legacy'], description: 'The protocol era to speak: auto (default) probes 2026-07-28 and falls back to 2025-11-25.' };
const stringMap = { type: 'object', additionalProperties: { type: 'string' } };
const listKind = { enum: [...LIST_KINDS] };

/** The JSON Schema of a `*.mcptest.json` file (draft-07, which every editor understands). */
export const TEST_FILE_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'MCP Workbench saved tests (*.mcptest.json)',
  // VS Code's JSON editor reads these two: test files are JSON with comments, like mcp.json.
  allowComments: true,
  allowTrailingCommas: true,
  type: 'object',
  required: ['server', 'tests'],
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    server: {
      description: "The server to test: a name from the project's .vscode/mcp.json or .mcp.json, or an inline launch.",
      oneOf: [
        { type: 'string', minLength: 1 },
        {
          type: 'object',
          required: ['command'],
          additionalProperties: false,
          properties: {
            command: { type: 'string', minLength: 1 },
            args: { type: 'array', items: { type: 'string' } },
            env: stringMap,
            cwd: { type: 'string' },
            protocolEra: era,
          },
        },
        {
          type: 'object',
          required: ['url'],
          additionalProperties: false,
          properties: { url: { type: 'string', minLength: 1 }, type: { enum: ['http', 'sse'] }, headers: stringMap, protocolEra: era },
        },
      ],
    },
    startTimeoutMs: { type: 'number', exclusiveMinimum: 0 },
    tests: {
      type: 'array',
      items: {
        oneOf: [
          {
            type: 'object',
            required: ['name', 'steps'],
            additionalProperties: false,
            properties: { name: { type: 'string', minLength: 1 }, steps: { type: 'array', minItems: 1, items: { $ref: '#/definitions/step' } } },
          },
          {
            type: 'object',
            required: ['name', 'capabilitySnapshot'],
            additionalProperties: false,
            properties: {
              name: { type: 'string', minLength: 1 },
              capabilitySnapshot: {
                description: 'Saves the tools/resources/prompts lists with their schemas and fails on a change that breaks clients.',
                oneOf: [
                  { const: true },
                  {
                    type: 'object',
                    additionalProperties: false,
                    properties: { lists: { type: 'array', items: listKind, uniqueItems: true }, failOn: { enum: ['breaking', 'any'] } },
                  },
                ],
              },
            },
          },
        ],
      },
    },
  },
  definitions: {
    step: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: {
        callTool: {
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: { name: { type: 'string', minLength: 1 }, arguments: { type: 'object' } },
        },
        readResource: { type: 'object', required: ['uri'], additionalProperties: false, properties: { uri: { type: 'string', minLength: 1 } } },
        getPrompt: {
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: { name: { type: 'string', minLength: 1 }, arguments: stringMap },
        },
        list: listKind,
        expect: {
          type: 'object',
          additionalProperties: false,
          properties: {
            match: { description: 'Subset of the result: members given must be equal; an array must contain a match for each element.' },
            schema: { type: ['object', 'boolean'], description: 'JSON Schema of the whole result.' },
            structuredContentSchema: { type: ['object', 'boolean'], description: "JSON Schema of the tool result's structuredContent." },
            isError: { type: 'boolean' },
            snapshot: {
              description:
                'Compare with __snapshots__/<file>.snap.json (write it with --update-snapshots); ignore: JSON paths left out, such as $._meta or $.content[*].annotations.',
              oneOf: [
                { type: 'boolean' },
                {
                  type: 'object',
                  additionalProperties: false,
                  properties: { ignore: { type: 'array', items: { type: 'string', pattern: '^\\$' } } },
                },
              ],
            },
            maxMs: { type: 'number', exclusiveMinimum: 0, description: 'Latency budget of the step in milliseconds.' },
          },
        },
      },
      oneOf: [{ required: ['callTool'] }, { required: ['readResource'] }, { required: ['getPrompt'] }, { required: ['list'] }],
    },
  },
} as const;
