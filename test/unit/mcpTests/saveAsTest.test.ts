/** Save as Test: a Run Tool run becomes a test case that the file format accepts and the runner can run. */
import * as assert from 'node:assert/strict';
import {
  appendTestText,
  compactSubset,
  defaultTestName,
  newTestFileText,
  testCaseFromRun,
  testFileName,
  uniqueTestName,
} from '../../../src/mcpTests/common/saveAsTest';
import { parseTestFile } from '../../../src/mcpTests/common/parseTestFile';
import { REDACTED } from '../../../src/shared/common/redact';

const add = { toolName: 'add', args: { a: 2, b: 3 }, result: { content: [{ type: 'text', text: '5' }], structuredContent: { sum: 5 }, isError: false } };

describe('saved MCP tests: Save as Test', () => {
  it('turns a run with structured content into a callTool step expecting isError and a subset of it', () => {
    const { test, inputs, nestedSecretsLeftOut } = testCaseFromRun(add);
    assert.deepEqual(test, {
      name: 'add {"a":2,"b":3}',
      steps: [{ callTool: { name: 'add', arguments: { a: 2, b: 3 } }, expect: { isError: false, match: { structuredContent: { sum: 5 } } } }],
    });
    assert.deepEqual(inputs, []);
    assert.equal(nestedSecretsLeftOut, false);
  });

  it('expects the first text when there is no structured content, and only that a text comes when it is long', () => {
    const short = testCaseFromRun({ toolName: 'echo', args: { text: 'hi' }, result: { content: [{ type: 'text', text: 'hi' }] } });
    assert.deepEqual(short.test.steps[0].expect, { isError: false, match: { content: [{ type: 'text', text: 'hi' }] } });
    const long = testCaseFromRun({
      toolName: 'echo',
      args: {},
      result: {
        content: [
          { type: 'image', data: 'x' },
          { type: 'text', text: 'x'.repeat(500) },
        ],
        isError: true,
      },
    });
    assert.deepEqual(long.test.steps[0].expect, { isError: true, match: { content: [{ type: 'text' }] } });
    assert.deepEqual(long.test.steps[0], { callTool: { name: 'echo' }, expect: long.test.steps[0].expect }, 'no empty arguments');
    const none = testCaseFromRun({ toolName: 'img', args: {}, result: { content: [{ type: 'image', data: 'x', mimeType: 'image/png' }] } });
    assert.deepEqual(none.test.steps[0].expect, { isError: false });
  });

  it('writes secret arguments as ${input:…} and never their values, nor redacted echoes of them', () => {
    const run = {
      toolName: 'formDemo',
      args: { name: 'Ada', count: 2 },
      secretArgs: ['apiKey'],
      secretsOmitted: true,
      result: { content: [{ type: 'text', text: `{"apiKey":"${REDACTED}"}` }], structuredContent: { name: 'Ada', count: 2, apiKey: REDACTED } },
    };
    const { test, inputs } = testCaseFromRun(run);
    assert.deepEqual(inputs, ['apiKey']);
    assert.deepEqual(test.steps[0], {
      callTool: { name: 'formDemo', arguments: { name: 'Ada', count: 2, apiKey: '${input:apiKey}' } },
      expect: { isError: false, match: { structuredContent: { name: 'Ada', count: 2 } } },
    });
    assert.equal(JSON.stringify(test).includes(REDACTED), false);
    assert.equal(testCaseFromRun({ ...run, secretArgs: [] }).nestedSecretsLeftOut, true, 'a nested secret cannot be given back: the case says so');
  });

  it('keeps a small subset: long strings, big arrays and deep members are left out', () => {
    assert.deepEqual(compactSubset({ id: 7, note: 'y'.repeat(300), tags: ['a', 'b'], rows: [1, 2, 3, 4, 5, 6], deep: { a: { b: { c: 1 } }, ok: true } }), {
      id: 7,
      tags: ['a', 'b'],
      deep: { a: {}, ok: true },
    });
  });

  it('names the case after the tool and its arguments, short and unique in the file', () => {
    assert.equal(defaultTestName('ping', {}), 'ping');
    assert.equal(defaultTestName('echo', { text: 'z'.repeat(100) }).length, 60);
    assert.equal(uniqueTestName('add', ['add', 'add (2)']), 'add (3)');
    assert.equal(uniqueTestName('add', []), 'add');
    assert.equal(testFileName('my server/1'), 'my-server-1.mcptest.json');
  });

  it('writes a new file the parser accepts without a problem', () => {
    const text = newTestFileText('fixture-stdio', testCaseFromRun(add).test);
    const parsed = parseTestFile(text);
    assert.deepEqual(parsed.problems, []);
    assert.equal(parsed.file?.server, 'fixture-stdio');
    assert.equal(parsed.file?.tests.length, 1);
  });

  it('appends to an existing file keeping its comments and layout, renaming a name it already has', () => {
    const before = [
      '{',
      '  // the fixture, by name',
      '  "server": "fixture-stdio",',
      '  "tests": [',
      '    { "name": "add {\\"a\\":2,\\"b\\":3}", "steps": [{ "callTool": { "name": "add" } }] } // kept',
      '  ]',
      '}',
      '',
    ].join('\n');
    const out = appendTestText(before, 'fixture-stdio', testCaseFromRun(add).test);
    assert.ok('text' in out);
    assert.equal(out.name, 'add {"a":2,"b":3} (2)');
    assert.ok(out.text.includes('// the fixture, by name') && out.text.includes('} // kept'), out.text);
    assert.ok(out.text.startsWith(before.split('\n').slice(0, 4).join('\n')), 'the lines before the new case are unchanged');
    const parsed = parseTestFile(out.text);
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(
      parsed.file?.tests.map((t) => t.name),
      ['add {"a":2,"b":3}', 'add {"a":2,"b":3} (2)'],
    );
  });

  it('appends to an empty tests array, and refuses a file of another server or one that does not parse', () => {
    const out = appendTestText('{ "server": "fixture-stdio", "tests": [] }', 'fixture-stdio', testCaseFromRun(add).test);
    assert.ok('text' in out);
    assert.deepEqual(parseTestFile(out.text).problems, []);
    assert.deepEqual(appendTestText('{ "server": "other", "tests": [] }', 'fixture-stdio', testCaseFromRun(add).test), {
      error: 'otherServer',
      server: 'other',
    });
    assert.deepEqual(appendTestText('{ "server": ', 'fixture-stdio', testCaseFromRun(add).test), { error: 'unreadable' });
  });
});
