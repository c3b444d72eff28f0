import * as assert from 'node:assert/strict';
import { addServerToConfigText, splitCommandLine, suggestServerName, uniqueServerName } from '../../../src/config/common/configEdit';
import { parseConfigText } from '../../../src/config/common/serverConfig';

describe('configEdit', () => {
  it('adds a server to an existing file keeping comments', () => {
    const text = '{\n\t// my servers\n\t"servers": {\n\t\t"a": { "command": "x" }\n\t},\n\t"inputs": []\n}\n';
    const out = addServerToConfigText(text, 'vscode', 'b', { type: 'stdio', command: 'npx', args: ['-y', 'pkg'] });
    assert.ok(out.includes('// my servers'));
    const parsed = parseConfigText(out);
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(parsed.servers.map((s) => s.name), ['a', 'b']);
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
});
