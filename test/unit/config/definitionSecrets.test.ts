/**
 * Every value that is or may be a secret is collected into `ServerDefinition.secrets`, the list
 * the one redaction path (src/shared/common/redact.ts) hides in logs, traces, Activity records,
 * state messages and copied JSON.
 */
import * as assert from 'node:assert/strict';
import { buildDefinitions, envFileSecrets, type ConfigDocument } from '../../../src/config/common/definitionBuilder';
import { DEFAULT_TIMEOUTS, parseConfigText } from '../../../src/config/common/serverConfig';
import { redactState } from '../../../src/mcp/serverState';
import { REDACTED, redactText, redactValue, urlSecrets } from '../../../src/shared/common/redact';

function build(config: unknown, inputs: Record<string, string> = {}, env: Record<string, string> = {}, scope: 'workspace' | 'user' = 'workspace') {
  const text = JSON.stringify(config);
  const doc: ConfigDocument = {
    source: { scope, label: scope === 'workspace' ? '.vscode/mcp.json' : 'Settings', file: '/ws/.vscode/mcp.json' },
    parsed: parseConfigText(text),
    text,
    folderPath: '/ws',
  };
  return buildDefinitions([doc], {
    workspaceFolders: [{ name: 'ws', path: '/ws' }],
    userHome: '/home/u',
    env,
    defaultTimeouts: DEFAULT_TIMEOUTS,
    inputValue: (_d, i) => inputs[i.id],
  })[0];
}

const INPUTS = [
  { id: 'pw', type: 'promptString', password: true },
  { id: 'plain', type: 'promptString' },
];

describe('secrets of a definition', () => {
  it("a password input placed in a URL, with the URL's query values and userinfo", () => {
    const def = build(
      {
        inputs: INPUTS,
        servers: { s: { type: 'http', url: 'https://alice:hunter2-pass@api.example/mcp?key=${input:pw}&sig=literal-signature&v=1' } },
      },
      { pw: 'input-password-1' },
    );
    for (const secret of ['input-password-1', 'literal-signature', 'hunter2-pass', 'alice'])
      assert.ok(def.secrets.includes(secret), `${secret} in ${JSON.stringify(def.secrets)}`);
    const message = `Cannot reach ${def.launch.type !== 'stdio' ? def.launch.url : ''}: refused`;
    assert.equal(redactText(message, def.secrets).includes('input-password-1'), false);
    assert.equal(redactText(message, def.secrets).includes('literal-signature'), false);
  });

  it('values from ${env:…} that land in env, headers or the URL', () => {
    const env = { API_TOKEN_FROM_HOST: 'env-token-value', PLAIN_NAME: 'env-plain-value', HOST_URL_KEY: 'env-url-value', HOME: '/home/u' };
    const stdio = build(
      { servers: { s: { command: 'node', args: ['${env:HOME}/s.js'], env: { SOMETHING: '${env:PLAIN_NAME}', T: 'x-${env:API_TOKEN_FROM_HOST}' } } } },
      {},
      env,
    );
    assert.ok(stdio.secrets.includes('env-plain-value'), JSON.stringify(stdio.secrets));
    assert.ok(stdio.secrets.includes('env-token-value'), JSON.stringify(stdio.secrets));
    assert.ok(!stdio.secrets.includes('/home/u'), 'an ${env:} only in args is not a secret');
    const http = build(
      { servers: { s: { type: 'http', url: 'https://x.example/mcp?k=${env:HOST_URL_KEY}', headers: { 'X-Plain': '${env:PLAIN_NAME}' } } } },
      {},
      env,
    );
    assert.ok(http.secrets.includes('env-url-value') && http.secrets.includes('env-plain-value'), JSON.stringify(http.secrets));
  });

  it('a workspace file may not send ${env:…} through url or headers, the same rule as for oauth; user settings may', () => {
    const env = { GITHUB_TOKEN: 'ghp_host_token' };
    const header = { servers: { s: { type: 'http', url: 'https://mcp.example/mcp', headers: { Authorization: 'Bearer ${env:GITHUB_TOKEN}' } } } };
    const url = { servers: { s: { type: 'sse', url: 'https://mcp.example/sse?t=${env:GITHUB_TOKEN}' } } };
    assert.match(build(header, {}, env).error ?? '', /"headers.Authorization" may not read \$\{env:…\} or a path in a workspace file/);
    assert.match(build(url, {}, env).error ?? '', /"url" may not read \$\{env:…\}/);
    assert.equal(build(header, {}, env, 'user').error, undefined);
    assert.equal(build(url, {}, env, 'user').error, undefined);
    // The workspace's own input may travel; a stdio server runs here and inherits the environment anyway.
    assert.equal(
      build(
        { inputs: INPUTS, servers: { s: { type: 'http', url: 'https://mcp.example/mcp', headers: { Authorization: 'Bearer ${input:pw}' } } } },
        { pw: 'typed' },
      ).error,
      undefined,
    );
    assert.equal(build({ servers: { s: { command: 'node', env: { T: '${env:GITHUB_TOKEN}' } } } }, {}, env).error, undefined);
  });

  it('header values whose name says auth, token, key or secret, and non-password inputs there', () => {
    const def = build(
      {
        inputs: INPUTS,
        servers: {
          s: {
            type: 'http',
            url: 'https://x.example/mcp',
            headers: {
              'X-Custom-Auth': 'custom-auth-value',
              'X-Goog-Api-Key': 'goog-key-value',
              'X-Session-Token': '${input:plain}',
              Accept: 'application/json',
            },
          },
        },
      },
      { plain: 'plain-input-value' },
    );
    for (const secret of ['custom-auth-value', 'goog-key-value', 'plain-input-value'])
      assert.ok(def.secrets.includes(secret), `${secret} in ${JSON.stringify(def.secrets)}`);
    assert.ok(!def.secrets.includes('application/json'));
  });

  it('every value of an envFile', () => {
    assert.deepEqual(envFileSecrets('# c\nexport DB_URL="postgres://u:p@h/db"\nFROM_FILE=envfile-value\nEMPTY=\n'), ['postgres://u:p@h/db', 'envfile-value']);
  });

  it('copied JSON keeps variable references and hides literal secrets', () => {
    const config = {
      inputs: INPUTS,
      servers: {
        s: {
          type: 'http',
          url: 'https://x.example/mcp?key=${input:pw}&sig=literal-signature',
          headers: { 'X-Custom-Auth': 'custom-auth-value', Authorization: 'Bearer ${input:pw}' },
        },
      },
    };
    const def = build(config, { pw: 'input-password-1' });
    const copied = JSON.stringify(redactValue(def.entry, def.secrets));
    assert.ok(!copied.includes('literal-signature') && !copied.includes('custom-auth-value'), copied);
    assert.ok(copied.includes('${input:pw}'), copied);
    assert.ok(copied.includes(REDACTED));
  });

  it('state messages and details shown to the user are redacted', () => {
    const secrets = ['input-password-1'];
    assert.deepEqual(
      redactState({ kind: 'error', message: 'Cannot reach https://x/mcp?key=input-password-1', detail: 'fetch https://x/mcp?key=input-password-1' }, secrets),
      { kind: 'error', message: `Cannot reach https://x/mcp?key=${REDACTED}`, detail: `fetch https://x/mcp?key=${REDACTED}` },
    );
    assert.deepEqual(redactState({ kind: 'stopped', reason: 'input-password-1' }, secrets), { kind: 'stopped', reason: REDACTED });
    assert.deepEqual(redactState({ kind: 'starting' }, secrets), { kind: 'starting' });
  });

  it('URL secrets: userinfo and query values, raw and decoded', () => {
    assert.deepEqual(
      urlSecrets('https://bob:p%40ss@x.example/mcp?a=one%20two&b=plain&flag').sort(),
      ['bob', 'one two', 'one%20two', 'p%40ss', 'p@ss', 'plain'].sort(),
    );
    assert.deepEqual(urlSecrets('not a url'), []);
  });
});
