import * as assert from 'node:assert/strict';
import { cliUnsupported, inspectorCliCommand, keyValueArg, shellQuote } from '../../../src/inspector/common/inspectorCli';
import type { HttpLaunch, StdioLaunch } from '../../../src/config/common/launchDefinition';

const SECRET = 'sk-live-very-secret-4711';
const stdio: StdioLaunch = {
  type: 'stdio',
  command: 'node',
  args: ['server.js'],
  env: { API_KEY: SECRET, 'log-level': 'debug', REMOVED: null },
  cwd: '/work/my project',
};
const http: HttpLaunch = { type: 'http', url: `https://mcp.example.com/mcp?key=${SECRET}`, headers: { Authorization: `Bearer ${SECRET}`, 'X-Tenant': 'acme' } };

/** Splits a POSIX shell line the way sh would for the quoting used here ('…', "…" with $VAR left as is). */
function words(line: string): string[] {
  const out: string[] = [];
  const re = /'((?:[^']|'\\'')*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g;
  for (let m = re.exec(line); m; m = re.exec(line))
    out.push(m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3]);
  return out;
}

describe('Copy as Inspector CLI command', () => {
  it('calls a tool on a stdio server: target first, env names with placeholders, --tool-arg per argument', () => {
    const built = inspectorCliCommand(
      stdio,
      { method: 'tools/call', params: { name: 'echo', arguments: { text: "it's me", count: 2, flag: true, opts: { a: [1] } } } },
      [SECRET],
    );
    assert.ok(built.ok);
    assert.deepEqual(words(built.command), [
      'npx',
      '@modelcontextprotocol/inspector',
      '--cli',
      'node',
      'server.js',
      '-e',
      'API_KEY=$API_KEY',
      '-e',
      'log-level=$LOG_LEVEL',
      '--cwd',
      '/work/my project',
      '--method',
      'tools/call',
      '--tool-name',
      'echo',
      '--tool-arg',
      "text=it's me",
      '--tool-arg',
      'count=2',
      '--tool-arg',
      'flag=true',
      '--tool-arg',
      'opts={"a":[1]}',
    ]);
    assert.deepEqual(built.placeholders, ['API_KEY', 'LOG_LEVEL']);
    assert.ok(!built.command.includes(SECRET));
    assert.ok(!built.command.includes('debug'), 'env values never reach the clipboard');
  });

  it('reaches an HTTP server with --transport http; secret headers and URL secrets stay out', () => {
    const built = inspectorCliCommand(http, { method: 'tools/list', params: {} }, [SECRET]);
    assert.ok(built.ok);
    assert.ok(!built.command.includes(SECRET), built.command);
    assert.deepEqual(words(built.command), [
      'npx',
      '@modelcontextprotocol/inspector',
      '--cli',
      'https://mcp.example.com/mcp?key=«redacted»',
      '--transport',
      'http',
      '--header',
      'Authorization: $MCP_HEADER_AUTHORIZATION',
      '--header',
      'X-Tenant: acme',
      '--method',
      'tools/list',
    ]);
    const sse = inspectorCliCommand({ ...http, type: 'sse', headers: {} }, { method: 'resources/read', params: { uri: 'mem://x y' } }, []);
    assert.ok(sse.ok && sse.command.endsWith("--transport sse --method resources/read --uri 'mem://x y'"));
  });

  it('puts -- after a target whose args start with a dash (under --cli the target is everything before it)', () => {
    const built = inspectorCliCommand(
      { ...stdio, args: ['-y', 'some-server', '--port', '1'], env: {}, cwd: undefined },
      { method: 'prompts/list', params: {} },
      [],
    );
    assert.ok(built.ok);
    assert.equal(built.command, 'npx @modelcontextprotocol/inspector --cli node -y some-server --port 1 -- --method prompts/list');
  });

  it('writes values the CLI would coerce as JSON, so they arrive as they were sent', () => {
    assert.equal(keyValueArg('zip', '012'), 'zip=012'); // not JSON (a leading zero): the CLI keeps the text
    assert.equal(keyValueArg('n', '42'), 'n="42"');
    assert.equal(keyValueArg('t', 'true'), 't="true"');
    assert.equal(keyValueArg('e', ''), 'e=""');
    assert.equal(keyValueArg('s', 'hello world'), 's=hello world');
    assert.equal(keyValueArg('n', 12), 'n=12');
    assert.equal(keyValueArg('o', null), 'o=null');
    // A key with "=" cannot be a --tool-arg: the JSON form takes the arguments whole.
    const built = inspectorCliCommand(stdio, { method: 'tools/call', params: { name: 'x', arguments: { 'a=b': 1 } } }, []);
    assert.ok(built.ok && built.command.endsWith(`--tool-args-json '{"a=b":1}'`));
  });

  it('maps prompts/get and logging/setLevel, and says which methods the CLI cannot send', () => {
    const prompt = inspectorCliCommand(stdio, { method: 'prompts/get', params: { name: 'greet', arguments: { who: 'Ann' } } }, []);
    assert.ok(prompt.ok && prompt.command.endsWith('--method prompts/get --prompt-name greet --prompt-args who=Ann'));
    const level = inspectorCliCommand(stdio, { method: 'logging/setLevel', params: { level: 'debug' } }, []);
    assert.ok(level.ok && level.command.endsWith('--method logging/setLevel --log-level debug'));
    assert.match(cliUnsupported('completion/complete') ?? '', /cannot send completion\/complete/);
    const ping = inspectorCliCommand(stdio, { method: 'ping', params: {} }, []);
    assert.ok(!ping.ok);
  });

  it('quotes for a POSIX shell', () => {
    assert.equal(shellQuote('plain-word_1.js'), 'plain-word_1.js');
    assert.equal(shellQuote("a b'c"), `'a b'\\''c'`);
    assert.equal(shellQuote('$HOME'), `'$HOME'`);
  });
});
