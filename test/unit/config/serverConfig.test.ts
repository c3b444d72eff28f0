import * as assert from 'node:assert/strict';
import { parseConfigText, parseServerMapValue, positionAt } from '../../../src/config/common/serverConfig';

describe('parseConfigText', () => {
  it('reads the VS Code format with comments, trailing commas and inputs', () => {
    const text = `{
      // a comment
      "servers": {
        "weather": { "type": "stdio", "command": "node", "args": ["server.js", 3], "env": { "A": "1", "B": null }, },
        "remote": { "type": "http", "url": "https://example.com/mcp", "headers": { "X": "y" } },
      },
      "inputs": [{ "type": "promptString", "id": "key", "password": true, "description": "API key" }],
    }`;
    const parsed = parseConfigText(text);
    assert.equal(parsed.format, 'vscode');
    assert.deepEqual(parsed.problems, []);
    assert.equal(parsed.servers.length, 2);
    assert.deepEqual(parsed.servers[0].entry, {
      type: 'stdio',
      command: 'node',
      args: ['server.js', '3'],
      env: { A: '1', B: null },
      url: undefined,
      cwd: undefined,
      envFile: undefined,
      headers: undefined,
    });
    assert.equal(parsed.servers[1].entry.type, 'http');
    assert.deepEqual(parsed.inputs, [{ id: 'key', type: 'promptString', description: 'API key', default: undefined, password: true, options: undefined }]);
    assert.equal(positionAt(text, parsed.servers[1].offset).line, 4);
  });

  it('marks a text that is not valid JSON (mid-edit, mid-write) and only such a text', () => {
    const valid = '{ "servers": { "a": { "command": "node", "args": ["x"], }, }, // comment\n}';
    assert.equal(parseConfigText(valid).syntaxError, undefined, 'comments and trailing commas are valid');
    assert.equal(parseConfigText('{ "servers": { "a": { "command": "node" } } }', 'vscode').syntaxError, undefined);
    const cut = parseConfigText('{ "servers": { "a": { "command": "node", "args": ["x');
    assert.equal(cut.syntaxError, true);
    assert.equal(cut.servers[0]?.name, 'a', 'the tolerant parse still guesses at it (the caller decides whether to use it)');
    assert.equal(parseConfigText('').syntaxError, true, 'an empty file is one truncated before its write');
  });

  it('reads the mcpServers format and infers types', () => {
    const parsed = parseConfigText('{"mcpServers": {"a": {"command": "npx", "args": ["-y", "pkg"]}, "b": {"url": "http://localhost:1/mcp"}}}');
    assert.equal(parsed.format, 'mcpServers');
    assert.equal(parsed.servers[0].entry.type, 'stdio');
    assert.equal(parsed.servers[1].entry.type, 'http');
  });

  it("accepts other hosts' type dialects with a warning", () => {
    for (const dialect of ['streamableHttp', 'streamable-http']) {
      const parsed = parseConfigText(`{"servers": {"a": {"type": "${dialect}", "url": "http://x/mcp"}}}`);
      assert.equal(parsed.servers[0].entry.type, 'http');
      assert.equal(parsed.problems.length, 1);
      assert.equal(parsed.problems[0].severity, 'warning');
      assert.match(parsed.problems[0].message, /read as "http"/);
    }
  });

  it('reports errors with positions and keeps broken entries listed with the reason', () => {
    const text = '{"servers": {\n "bad": {"type": "ftp"},\n "nocmd": {"args": []},\n "ok": {"command": "x", "unknownKey": 1}\n}}';
    const parsed = parseConfigText(text);
    assert.deepEqual(
      parsed.servers.map((s) => [s.name, s.broken !== undefined]),
      [
        ['bad', true],
        ['nocmd', true],
        ['ok', false],
      ],
    );
    assert.match(parsed.servers[0].broken!, /Unknown "type" "ftp"/);
    assert.match(parsed.servers[1].broken!, /needs a "command"/);
    const errors = parsed.problems.filter((p) => p.severity === 'error');
    assert.equal(errors.length, 2);
    assert.match(errors[0].message, /Unknown "type" "ftp"/);
    assert.equal(positionAt(text, errors[0].offset).line, 1);
    assert.match(errors[1].message, /needs a "command"/);
    assert.equal(positionAt(text, errors[1].offset).line, 2);
  });

  it('keeps an entry with a misspelt key as a broken server and names the key it means', () => {
    const text =
      '{"servers": {\n "typo": {"comand": "node", "args": ["s.js"]},\n "remote": {"type": "http", "ulr": "https://x/mcp"},\n "fine": {"command": "node", "evn": {}}\n}}';
    const parsed = parseConfigText(text);
    assert.deepEqual(
      parsed.servers.map((s) => s.name),
      ['typo', 'remote', 'fine'],
    );
    assert.equal(parsed.servers[0].broken, '"comand" is not a known key: did you mean "command"? Without "command" server "typo" cannot start.');
    assert.deepEqual(parsed.servers[0].entry.args, ['s.js'], 'what could be read is kept');
    assert.match(parsed.servers[1].broken!, /^"ulr" is not a known key: did you mean "url"\?/);
    assert.equal(parsed.servers[2].broken, undefined, 'a typo in an optional key does not break the entry');
    const typos = parsed.problems.filter((p) => p.suggestion);
    assert.deepEqual(
      typos.map((p) => [p.suggestion, text.slice(p.offset, p.offset + p.length), p.severity]),
      [
        ['command', '"comand"', 'warning'],
        ['url', '"ulr"', 'warning'],
        ['env', '"evn"', 'warning'],
      ],
    );
  });

  it('does not "correct" keys of other hosts or keys that are far from any known one', () => {
    const parsed = parseConfigText('{"servers": {"a": {"command": "x", "autoApprove": [], "timeout": 60, "description": "d", "foo": 1, "command2": "y"}}}');
    assert.deepEqual(
      parsed.problems.filter((p) => p.suggestion),
      [],
    );
  });

  it('lists an entry that is not an object as broken', () => {
    const parsed = parseConfigText('{"servers": {"s": "node server.js"}}');
    assert.equal(parsed.servers.length, 1);
    assert.match(parsed.servers[0].broken!, /must be an object/);
  });

  it('reports syntax errors but never throws', () => {
    const parsed = parseConfigText('{"servers": {"a": {"command": "x",,}');
    assert.ok(parsed.problems.some((p) => /JSON syntax error/.test(p.message)));
    assert.deepEqual(parseConfigText('').servers, []);
    assert.ok(parseConfigText('[1]').problems.length > 0);
  });

  it('validates timeouts and flags wrong field types', () => {
    const parsed = parseConfigText(
      '{"servers": {"a": {"command": "x", "timeouts": {"request": 120, "resetOnProgress": false, "connect": "soon"}, "args": "nope"}}}',
    );
    assert.deepEqual(parsed.servers[0].entry.timeouts, { request: 120, resetOnProgress: false });
    assert.equal(parsed.problems.filter((p) => p.severity === 'error').length, 2);
  });

  it('warns about fields that do not apply to the transport', () => {
    const parsed = parseConfigText('{"servers": {"a": {"type": "http", "url": "http://x", "command": "node"}}}');
    assert.equal(parsed.servers.length, 1);
    assert.match(parsed.problems[0].message, /"command" is ignored/);
  });

  it('parses the settings map', () => {
    const { servers, problems } = parseServerMapValue({ s: { command: 'node', args: ['a'] } });
    assert.equal(servers[0].name, 's');
    assert.deepEqual(problems, []);
  });
});
