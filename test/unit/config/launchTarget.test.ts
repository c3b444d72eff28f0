import * as assert from 'node:assert/strict';
import { buildDefinitions, type ConfigDocument } from '../../../src/config/common/definitionBuilder';
import { bind, launchTarget, rebindReason, urlTarget, valueFor, type BoundValue } from '../../../src/config/common/launchTarget';
import { DEFAULT_TIMEOUTS, parseConfigText, type ServerEntry } from '../../../src/config/common/serverConfig';

const ctx = { workspaceFolder: '/ws/app', workspaceFolders: [{ name: 'app', path: '/ws/app' }], userHome: '/home/u' };

describe('launchTarget', () => {
  it('http: origin and path, no query, fragment or user info; OAuth places where secrets go', () => {
    assert.equal(launchTarget({ type: 'http', url: 'https://alice:pw@API.example.com:443/mcp/?key=abc#x' }, ctx), 'https://api.example.com/mcp/');
    assert.equal(launchTarget({ type: 'sse', url: 'http://127.0.0.1:8080/sse?pw=${input:pw}' }, ctx), 'http://127.0.0.1:8080/sse');
    assert.equal(
      launchTarget(
        { type: 'http', url: 'https://x.example/mcp', oauth: { issuer: 'https://as.example', idp: { tokenEndpoint: 'https://idp.example/token' } } },
        ctx,
      ),
      'https://x.example/mcp (OAuth issuer https://as.example; identity provider token endpoint https://idp.example/token)',
    );
  });

  it('keeps ${input:…} and ${env:…} as written (never their values), resolves folders', () => {
    assert.equal(launchTarget({ type: 'http', url: 'https://${input:host}/mcp?t=${input:tok}' }, ctx), 'https://${input:host}/mcp');
    assert.equal(urlTarget('https://u:${input:pw}@${input:host}/p?q'), 'https://${input:host}/p');
    const stdio: ServerEntry = {
      type: 'stdio',
      command: 'node',
      args: ['${workspaceFolder}/server.js', '--token', '${input:tok}', '--key=${env:API_KEY}', 'two words'],
    };
    assert.equal(launchTarget(stdio, ctx), 'node /ws/app/server.js --token ${input:tok} --key=${env:API_KEY} "two words"');
    assert.equal(launchTarget({ ...stdio, args: [], cwd: '${workspaceFolder}/sub' }, ctx), 'node (cwd /ws/app/sub)');
  });

  it('changes with what the config sends to, not with how it sends it', () => {
    const base: ServerEntry = { type: 'http', url: 'https://a.example/mcp', headers: { Authorization: 'Bearer ${input:tok}' } };
    assert.equal(launchTarget({ ...base, headers: { 'X-Key': '${input:tok}' } }, ctx), launchTarget(base, ctx));
    assert.notEqual(launchTarget({ ...base, url: 'https://attacker.example/mcp' }, ctx), launchTarget(base, ctx));
    assert.notEqual(launchTarget({ ...base, url: 'https://a.example/other' }, ctx), launchTarget(base, ctx));
    assert.notEqual(
      launchTarget({ type: 'stdio', command: 'node', args: ['evil.js'] }, ctx),
      launchTarget({ type: 'stdio', command: 'node', args: ['server.js'] }, ctx),
    );
  });
});

describe('stored input values are bound to their target', () => {
  it('a value goes only where it was entered for; old values (no target) are asked again', () => {
    const stored = bind(undefined, 's3cret', 'https://a.example/mcp');
    assert.equal(valueFor(stored, 'https://a.example/mcp'), 's3cret');
    assert.equal(valueFor(stored, 'https://attacker.example/mcp'), undefined);
    assert.deepEqual(rebindReason(stored, 'https://attacker.example/mcp'), { kind: 'moved', from: 'https://a.example/mcp' });
    assert.equal(rebindReason(stored, 'https://a.example/mcp'), undefined);
    const legacy: BoundValue = { value: 'old', targets: [] };
    assert.equal(valueFor(legacy, 'https://a.example/mcp'), undefined);
    assert.deepEqual(rebindReason(legacy, 'https://a.example/mcp'), { kind: 'unbound' });
    assert.equal(rebindReason(undefined, 'x'), undefined, 'nothing stored: an ordinary first prompt');
  });

  it('the same value entered again keeps its targets (a shared input); a new value starts over', () => {
    const a = bind(undefined, 'v', 'A');
    assert.deepEqual(bind(a, 'v', 'B'), { value: 'v', targets: ['A', 'B'] });
    assert.deepEqual(bind(bind(a, 'v', 'B'), 'v', 'A'), { value: 'v', targets: ['B', 'A'] });
    assert.deepEqual(bind(a, 'w', 'B'), { value: 'w', targets: ['B'] });
    let many = a;
    for (let i = 0; i < 40; i++) many = bind(many, 'v', `T${i}`);
    assert.equal(many.targets.length, 16);
    assert.equal(many.targets.at(-1), 'T39');
  });

  it('buildDefinitions: after an edit of the url the stored password is missing, not sent', () => {
    const file = '/ws/app/.vscode/mcp.json';
    const text = (url: string) => `{"servers": {"s": {"type": "http", "url": "${url}", "headers": {"Authorization": "Bearer \${input:pw}"}}},
      "inputs": [{"id": "pw", "type": "promptString", "password": true}]}`;
    const doc = (url: string): ConfigDocument => ({
      source: { scope: 'workspace', label: '.vscode/mcp.json', file, folder: 'app' },
      parsed: parseConfigText(text(url)),
      text: text(url),
      folderPath: '/ws/app',
    });
    const stored = new Map<string, BoundValue>([['pw', bind(undefined, 'pw-SECRET', 'https://good.example/mcp')]]);
    const build = (url: string) =>
      buildDefinitions([doc(url)], {
        workspaceFolders: ctx.workspaceFolders,
        userHome: ctx.userHome,
        env: {},
        defaultTimeouts: DEFAULT_TIMEOUTS,
        inputValue: (_d, input, target) => valueFor(stored.get(input.id), target),
      })[0];
    const before = build('https://good.example/mcp?v=1');
    assert.equal(before.target, 'https://good.example/mcp');
    assert.equal(before.missingInputs, undefined);
    assert.deepEqual(before.launch.type !== 'stdio' && before.launch.headers, { Authorization: 'Bearer pw-SECRET' });
    const after = build('https://attacker.example/mcp');
    assert.equal(after.target, 'https://attacker.example/mcp');
    assert.deepEqual(after.missingInputs, ['pw']);
    assert.ok(!JSON.stringify(after.launch).includes('pw-SECRET'), JSON.stringify(after.launch));
  });
});
