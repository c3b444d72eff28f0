/**
 * The `*.mcptest.json` format: the committed JSON Schema is the one the parser checks with, the
 * examples are valid, and problems carry the offsets an editor underlines.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as jsonc from 'jsonc-parser';
import { TEST_FILE_SCHEMA } from '../../../src/mcpTests/common/testFormat';
import { parseTestFile } from '../../../src/mcpTests/common/parseTestFile';
import { validateAgainstSchema } from '../../../src/jsonSchema/common/schemaValidation';
import { serverDefinitionFor, resolveVariables, inputEnvName } from '../../../src/mcpTests/common/testServer';
import { snapshotPathOf } from '../../../src/mcpTests/common/snapshots';
import { exampleFiles, FIXTURES, REPO } from './helpers';

describe('saved MCP tests: the file format', () => {
  it('schemas/mcp-test.schema.json is the schema the parser checks with', () => {
    const committed = JSON.parse(fs.readFileSync(path.join(REPO, 'schemas', 'mcp-test.schema.json'), 'utf8'));
    assert.deepEqual(
      committed,
      JSON.parse(JSON.stringify(TEST_FILE_SCHEMA)),
      'regenerate schemas/mcp-test.schema.json from TEST_FILE_SCHEMA (see docs/guide/mcp-tests.md)',
    );
  });

  it('reads every example without a problem, and each is valid against the committed schema', () => {
    const schema = JSON.parse(fs.readFileSync(path.join(REPO, 'schemas', 'mcp-test.schema.json'), 'utf8'));
    assert.ok(exampleFiles().length >= 2);
    for (const file of exampleFiles()) {
      const text = fs.readFileSync(file, 'utf8');
      const parsed = parseTestFile(text);
      assert.deepEqual(parsed.problems, [], file);
      assert.ok(parsed.file, file);
      assert.deepEqual(validateAgainstSchema(schema, jsonc.parse(text)), { valid: true }, file);
      assert.equal(parsed.testRanges.length, parsed.file.tests.length);
      assert.equal(text.slice(parsed.testRanges[0].offset, parsed.testRanges[0].offset + 1), '{');
    }
  });

  it('places each problem at what it is about', () => {
    const text = fs.readFileSync(path.join(FIXTURES, 'broken.mcptest.json'), 'utf8');
    const { file, problems } = parseTestFile(text);
    assert.equal(file, undefined);
    const at = (p: { offset: number; length: number }) => text.slice(p.offset, p.offset + p.length);
    assert.deepEqual(
      problems.map((p) => [p.message, at(p)]),
      [
        ['"tests.0.steps.0" has callTool and list: a step does one thing.', '{ "list": "tools", "callTool": { "name": "echo" } }'],
        ['"tests.1.steps.0.expcet" is not an allowed property.', '"expcet"'],
      ],
    );
  });

  it('reports syntax errors, a missing server, wrong types and names used twice', () => {
    const text = '{ "tests": [ { "name": "a", "steps": [ { "list": "things" } ] }, { "name": "a", "capabilitySnapshot": true } ], }';
    const messages = parseTestFile(text).problems.map((p) => p.message);
    assert.deepEqual(messages, [
      '"server" is required.',
      '"tests.0.steps.0.list" must be one of "tools", "resources", "resourceTemplates", "prompts".',
      '"tests.1.name" is also the name of test 1: snapshots are stored by name, so names must differ.',
    ]);
    const syntax = parseTestFile('{ "server": "x", "tests": [ }');
    assert.ok(
      syntax.problems.some((p) => /^JSON syntax error/.test(p.message) && p.offset === 28),
      JSON.stringify(syntax.problems),
    );
    assert.deepEqual(
      parseTestFile('').problems.map((p) => p.message),
      ['The file is empty: it needs an object with "server" and "tests".'],
    );
  });

  it('resolves ${env:…} and ${input:…} from the environment and the command line, never from the file', () => {
    const env = { fileDir: '/p', configs: [], env: { GREETING: 'hi', MCPWB_INPUT_API_TOKEN: 'from-env' }, inputs: { other: 'from-flag' }, userHome: '/home/u' };
    assert.deepEqual(resolveVariables({ a: ['${env:GREETING} ${input:api-token}', '${input:other}'] }, env), {
      value: { a: ['hi from-env', 'from-flag'] },
      errors: [],
    });
    assert.equal(inputEnvName('api-token'), 'MCPWB_INPUT_API_TOKEN');
    assert.deepEqual(resolveVariables('${input:missing}', env).errors, [
      '${input:missing} has no value: set MCPWB_INPUT_MISSING or pass --input missing=<value>.',
    ]);
    // An inline launch: relative paths start at the test file's folder; input values are secrets (kept out of logs).
    const def = serverDefinitionFor({ command: 'node', args: ['server.js', '${input:other}'], cwd: 'sub' }, env).definition;
    assert.deepEqual(def?.launch, { type: 'stdio', command: 'node', args: ['server.js', 'from-flag'], env: {}, cwd: path.resolve('/p/sub') });
    assert.deepEqual(def?.secrets, ['from-flag']);
    assert.match(
      serverDefinitionFor('nothere', env).error ?? '',
      /^No server "nothere" is configured \(no \.vscode\/mcp\.json or \.mcp\.json was found above \/p\)\.$/,
    );
  });

  it('keeps snapshots next to the file', () => {
    assert.equal(snapshotPathOf('/a/b/x.mcptest.json'), '/a/b/__snapshots__/x.mcptest.json.snap.json');
    assert.equal(snapshotPathOf('x.mcptest.json'), '__snapshots__/x.mcptest.json.snap.json');
  });
});
