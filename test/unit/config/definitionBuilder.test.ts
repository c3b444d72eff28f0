import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { buildDefinitions, type ConfigDocument } from '../../../src/config/common/definitionBuilder';
import { DEFAULT_TIMEOUTS, parseConfigText } from '../../../src/config/common/serverConfig';

function doc(text: string, file = '/ws/app/.vscode/mcp.json'): ConfigDocument {
  return { source: { scope: 'workspace', label: '.vscode/mcp.json', file, folder: 'app' }, parsed: parseConfigText(text), text, folderPath: '/ws/app' };
}

const ctx = (values: Record<string, string> = {}) => ({
  workspaceFolders: [{ name: 'app', path: '/ws/app' }],
  userHome: '/home/u',
  env: {},
  defaultTimeouts: DEFAULT_TIMEOUTS,
  inputValue: (_d: ConfigDocument, input: { id: string }) => values[input.id],
});

describe('buildDefinitions', () => {
  it('resolves launches, defaults cwd to the folder and records the line', () => {
    const defs = buildDefinitions(
      [doc('{"servers": {\n"a": {"command": "node", "args": ["${workspaceFolder}/s.js"], "cwd": "sub", "envFile": ".env", "timeouts": {"request": 5}}\n}}')],
      ctx(),
    );
    assert.equal(defs.length, 1);
    const d = defs[0];
    assert.deepEqual(d.launch, {
      type: 'stdio',
      command: 'node',
      args: ['/ws/app/s.js'],
      env: {},
      cwd: path.resolve('/ws/app', 'sub'),
      envFile: path.resolve('/ws/app', '.env'),
    });
    assert.equal(d.source.line, 1);
    assert.equal(d.timeouts.request, 5);
    assert.equal(d.timeouts.connect, DEFAULT_TIMEOUTS.connect);
    assert.equal(d.id, '/ws/app/.vscode/mcp.json::a');
    assert.equal(d.protocolEra, 'auto');
  });

  it('takes protocolEra from the entry, else from the setting', () => {
    const text = '{"servers": {"old": {"command": "node", "protocolEra": "legacy"}, "plain": {"command": "node"}}}';
    const defs = buildDefinitions([doc(text)], { ...ctx(), defaultProtocolEra: 'modern' });
    assert.deepEqual(
      defs.map((d) => [d.name, d.protocolEra]),
      [
        ['old', 'legacy'],
        ['plain', 'modern'],
      ],
    );
  });

  it('reports missing inputs, uses known ones and marks password values secret', () => {
    const text =
      '{"servers": {"a": {"type": "http", "url": "https://x/mcp", "headers": {"Authorization": "Bearer ${input:tok}", "X-Other": "${input:plain}"}}},' +
      '"inputs": [{"id": "tok", "type": "promptString", "password": true}, {"id": "plain", "type": "promptString"}]}';
    const missing = buildDefinitions([doc(text)], ctx())[0];
    assert.deepEqual(missing.missingInputs, ['tok', 'plain']);
    assert.equal(missing.error, undefined);
    const complete = buildDefinitions([doc(text)], ctx({ tok: 'sekrit-token', plain: 'p' }))[0];
    assert.equal(complete.missingInputs, undefined);
    assert.deepEqual(complete.launch, { type: 'http', url: 'https://x/mcp', headers: { Authorization: 'Bearer sekrit-token', 'X-Other': 'p' } });
    assert.ok(complete.secrets.includes('sekrit-token'));
    assert.ok(complete.secrets.includes('Bearer sekrit-token'));
  });

  it('turns an input with no definition into an error', () => {
    const d = buildDefinitions([doc('{"servers": {"a": {"command": "x", "args": ["${input:nope}"]}}}')], ctx())[0];
    assert.match(d.error!, /no input with id "nope" is defined/);
  });

  it('keeps a broken entry as a definition whose error is the reason, on its line', () => {
    const defs = buildDefinitions([doc('{"servers": {\n"ok": {"command": "x"},\n"typo": {"comand": "node", "args": ["${input:later}"]}\n}}')], ctx());
    assert.deepEqual(
      defs.map((d) => d.name),
      ['ok', 'typo'],
    );
    const broken = defs[1];
    assert.equal(broken.error, '"comand" is not a known key: did you mean "command"? Without "command" server "typo" cannot start. (.vscode/mcp.json)');
    assert.equal(broken.source.line, 2);
    assert.equal(broken.missingInputs, undefined, 'nobody is asked for an input of a server that cannot start');
  });
});
