import * as assert from 'node:assert/strict';
import {
  addInputsToConfigText,
  addServerToConfigText,
  detectFormatting,
  splitCommandLine,
  suggestServerName,
  uniqueServerName,
} from '../../../src/config/common/configEdit';
import { parseConfigText } from '../../../src/config/common/serverConfig';

describe('configEdit', () => {
  it('adds a server to an existing file keeping comments', () => {
    const text = '{\n\t// my servers\n\t"servers": {\n\t\t"a": { "command": "x" }\n\t},\n\t"inputs": []\n}\n';
    const out = addServerToConfigText(text, 'vscode', 'b', { type: 'stdio', command: 'npx', args: ['-y', 'pkg'] });
    assert.ok(out.includes('// my servers'));
    const parsed = parseConfigText(out);
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(
      parsed.servers.map((s) => s.name),
      ['a', 'b'],
    );
    assert.deepEqual(parsed.servers[1].entry.args, ['-y', 'pkg']);
  });

  it('creates the file content when empty, in either format', () => {
    assert.deepEqual(parseConfigText(addServerToConfigText('', 'vscode', 'r', { type: 'http', url: 'https://x/mcp' })).servers[0].entry.url, 'https://x/mcp');
    const claude = parseConfigText(addServerToConfigText('', 'mcpServers', 'r', { command: 'node' }));
    assert.equal(claude.format, 'mcpServers');
  });

  it('suggests readable, unique names', () => {
    assert.equal(suggestServerName('npm', '@modelcontextprotocol/server-everything@1.0 stdio'), 'everything');
    assert.equal(suggestServerName('pypi', 'mcp-server-fetch'), 'fetch');
    assert.equal(suggestServerName('http', 'https://www.weather.example.com/mcp'), 'weather');
    assert.equal(suggestServerName('command', '/usr/local/bin/my-server --flag'), 'my-server');
    assert.equal(uniqueServerName(['fetch', 'fetch-2'], 'fetch'), 'fetch-3');
    assert.deepEqual(splitCommandLine(`node "my dir/server.js" --x 'a b'`), ['node', 'my dir/server.js', '--x', 'a b']);
  });

  describe("keeps the file's own indentation", () => {
    const entry = { type: 'stdio' as const, command: 'npx', args: ['-y', 'pkg'], env: { A: '1' } };
    /** The file as the user would have written it by hand with `unit` per level. */
    const expected = (unit: string) =>
      [
        '{',
        `${unit}"servers": {`,
        `${unit.repeat(2)}"a": {`,
        `${unit.repeat(3)}"command": "x"`,
        `${unit.repeat(2)}},`,
        `${unit.repeat(2)}"b": {`,
        `${unit.repeat(3)}"type": "stdio",`,
        `${unit.repeat(3)}"command": "npx",`,
        `${unit.repeat(3)}"args": [`,
        `${unit.repeat(4)}"-y",`,
        `${unit.repeat(4)}"pkg"`,
        `${unit.repeat(3)}],`,
        `${unit.repeat(3)}"env": {`,
        `${unit.repeat(4)}"A": "1"`,
        `${unit.repeat(3)}}`,
        `${unit.repeat(2)}}`,
        `${unit}},`,
        `${unit}"inputs": []`,
        '}',
        '',
      ].join('\n');
    const original = (unit: string) =>
      `{\n${unit}"servers": {\n${unit.repeat(2)}"a": {\n${unit.repeat(3)}"command": "x"\n${unit.repeat(2)}}\n${unit}},\n${unit}"inputs": []\n}\n`;

    for (const [what, unit] of [
      ['2 spaces', '  '],
      ['4 spaces', '    '],
      ['tabs', '\t'],
      ['3 spaces', '   '],
    ]) {
      it(`${what}, nested where it belongs`, () => {
        assert.equal(addServerToConfigText(original(unit), 'vscode', 'b', entry), expected(unit));
      });
    }

    it("an empty file: the editor's indentation, else 2 spaces", () => {
      assert.equal(
        addServerToConfigText('', 'vscode', 'b', { command: 'x' }),
        '{\n  "servers": {\n    "b": {\n      "command": "x"\n    }\n  },\n  "inputs": []\n}\n',
      );
      assert.equal(
        addServerToConfigText('', 'mcpServers', 'b', { command: 'x' }, { insertSpaces: false, tabSize: 4 }),
        '{\n\t"mcpServers": {\n\t\t"b": {\n\t\t\t"command": "x"\n\t\t}\n\t}\n}\n',
      );
      assert.equal(
        addServerToConfigText('{}', 'vscode', 'b', { command: 'x' }, { insertSpaces: true, tabSize: 4 }),
        '{\n    "servers": {\n        "b": {\n            "command": "x"\n        }\n    }\n}',
      );
    });

    it('CRLF files stay CRLF, and inputs are added with the same indentation', () => {
      const crlf = original('    ').replace(/\n/g, '\r\n');
      const out = addInputsToConfigText(addServerToConfigText(crlf, 'vscode', 'b', entry), [{ id: 'k', type: 'promptString', password: true }]);
      assert.ok(!/[^\r]\n/.test(out), 'no bare LF');
      assert.match(out, /\r\n {4}"inputs": \[\r\n {8}\{\r\n {12}"id": "k",/);
    });

    it('guesses from the most common step, not from one odd line', () => {
      assert.deepEqual(detectFormatting('{\n    "a": 1,\n    "b": {\n        "c": 1,\n          "d": 2\n    }\n}'), {
        insertSpaces: true,
        tabSize: 4,
        eol: '\n',
      });
      assert.deepEqual(detectFormatting('{\n\t"a": {\n\t\t"b": 1\n\t}\n}'), { insertSpaces: false, tabSize: 1, eol: '\n' });
      assert.deepEqual(detectFormatting('{ "a": 1 }', { insertSpaces: true, tabSize: 3 }), { insertSpaces: true, tabSize: 3, eol: '\n' });
    });
  });
});
