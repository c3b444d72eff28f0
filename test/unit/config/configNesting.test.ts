/**
 * A config nested 8,000 levels deep (jsonc-parser, like any recursive parser, overflows the
 * stack at a few thousand) becomes a diagnostic for its file; the other sources still load, and
 * the config language server answers for the document instead of failing.
 */
import * as assert from 'node:assert/strict';
import { buildDefinitions, type ConfigDocument } from '../../../src/config/common/definitionBuilder';
import { addServerToConfigText } from '../../../src/config/common/configEdit';
import { excessiveNesting, MAX_NESTING } from '../../../src/config/common/jsonNesting';
import { DEFAULT_TIMEOUTS, parseConfigText, parseServerMapValue } from '../../../src/config/common/serverConfig';
import { context, doc, service } from '../configLanguage/languageTestKit';

const DEPTH = 8000;
const deepArrays = `{"servers": {"deep": ${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}}}`;
const deepObjects = `{"mcpServers": {"deep": ${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}}}`;

describe('config nested too deep', () => {
  it('parses to one error problem, never a stack overflow', () => {
    for (const text of [deepArrays, deepObjects]) {
      const parsed = parseConfigText(text);
      assert.equal(parsed.tooDeep, true);
      assert.deepEqual(parsed.servers, []);
      assert.equal(parsed.problems.length, 1);
      assert.equal(parsed.problems[0].severity, 'error');
      assert.match(parsed.problems[0].message, new RegExp(`nested more than ${MAX_NESTING} levels`));
      // It points at the bracket that went one level too deep.
      const offset = parsed.problems[0].offset;
      assert.ok('[{'.includes(text[offset]), text.slice(offset - 3, offset + 3));
      assert.equal(excessiveNesting(text.slice(0, offset)), undefined);
    }
  });

  it('measures nesting outside strings and comments only, and leaves real configs alone', () => {
    assert.equal(excessiveNesting(`{"a": "${'['.repeat(500)}" /* ${'{'.repeat(500)} */}`), undefined);
    assert.equal(excessiveNesting(`${'['.repeat(MAX_NESTING)}${']'.repeat(MAX_NESTING)}`), undefined);
    assert.deepEqual(excessiveNesting(`${'['.repeat(MAX_NESTING + 1)}`), { offset: MAX_NESTING });
    assert.equal(parseConfigText('{"servers": {"ok": {"command": "node", "env": {"A": "1"}}}}').tooDeep, undefined);
  });

  it('a deep settings value is a problem too', () => {
    let value: unknown = 1;
    for (let i = 0; i < DEPTH; i++) value = { a: value };
    const parsed = parseServerMapValue({ deep: value });
    assert.deepEqual(parsed.servers, []);
    assert.match(parsed.problems[0].message, /nested more than/);
  });

  it('the other config sources still give their servers', () => {
    const docs: ConfigDocument[] = [
      {
        source: { scope: 'workspace', label: '.vscode/mcp.json', file: '/w/.vscode/mcp.json' },
        parsed: parseConfigText(deepArrays),
        text: deepArrays,
        folderPath: '/w',
      },
      {
        source: { scope: 'workspace', label: '.mcp.json', file: '/w/.mcp.json' },
        parsed: parseConfigText('{"mcpServers": {"ok": {"command": "node"}}}'),
        folderPath: '/w',
      },
      { source: { scope: 'user', label: 'Settings' }, parsed: { format: 'vscode', ...parseServerMapValue({ user: { command: 'node' } }), inputs: [] } },
    ];
    const defs = buildDefinitions(docs, {
      workspaceFolders: [{ name: 'w', path: '/w' }],
      userHome: '/home',
      env: {},
      defaultTimeouts: DEFAULT_TIMEOUTS,
      inputValue: () => undefined,
    });
    assert.deepEqual(
      defs.map((d) => d.name),
      ['ok', 'user'],
    );
  });

  it('the language server answers: a diagnostic, no completions or hover from the JSON service', async () => {
    const s = service();
    for (const hostProvidesJsonSchema of [true, false]) {
      const d = doc(deepArrays);
      const ctx = context({ hostProvidesJsonSchema });
      const diagnostics = await s.diagnostics(d, ctx);
      assert.equal(diagnostics.length, 1, JSON.stringify(diagnostics));
      assert.match(String(diagnostics[0].message), /nested more than/);
      assert.deepEqual(await s.completions(d, d.positionAt(40), ctx), []);
      assert.equal(await s.hover(d, d.positionAt(40), ctx), null);
      assert.deepEqual(s.codeActions(d, { start: d.positionAt(0), end: d.positionAt(1) }, diagnostics, ctx), []);
      assert.deepEqual(s.links(d, ctx), []);
    }
  });

  it('adding a server to such a file says why it cannot', () => {
    assert.throws(() => addServerToConfigText(deepArrays, 'vscode', 'x', { command: 'node' }), /nested more than/);
  });
});
