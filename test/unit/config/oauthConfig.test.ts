/**
 * The `oauth` block of a server entry: grant types, client authentication, DPoP, the checks of
 * bad combinations, and what a workspace file may not do with secrets.
 */
import * as assert from 'node:assert/strict';
import { buildDefinitions, type ConfigDocument } from '../../../src/config/common/definitionBuilder';
import { authMethodOf, grantTypeOf, type OAuthSettings } from '../../../src/config/common/oauthConfig';
import { DEFAULT_TIMEOUTS, parseConfigText } from '../../../src/config/common/serverConfig';
import type { HttpLaunch } from '../../../src/config/common/launchDefinition';

const INPUTS = [
  { id: 'secret', type: 'promptString', password: true },
  { id: 'key', type: 'promptString', password: true },
  { id: 'jwt', type: 'promptString' },
];

function parse(oauth: unknown) {
  const parsed = parseConfigText(JSON.stringify({ servers: { api: { type: 'http', url: 'https://mcp.example.com/mcp', oauth } }, inputs: INPUTS }));
  return { oauth: parsed.servers[0]?.entry.oauth, problems: parsed.problems };
}

function messages(oauth: unknown, severity?: 'error' | 'warning'): string[] {
  return parse(oauth)
    .problems.filter((p) => !severity || p.severity === severity)
    .map((p) => p.message);
}

function build(oauth: unknown, scope: 'workspace' | 'user', inputs: Record<string, string> = {}, env: Record<string, string> = {}) {
  const text = JSON.stringify({ servers: { api: { type: 'http', url: 'https://mcp.example.com/mcp', oauth } }, inputs: INPUTS });
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

describe('oauth config', () => {
  it('reads a client-credentials server whose secret is a password input, without a problem', () => {
    const { oauth, problems } = parse({
      grantType: 'client_credentials',
      clientId: 'job',
      clientSecret: '${input:secret}',
      scopes: ['mcp:read'],
      dpop: true,
      issuer: 'https://auth.example.com',
    });
    assert.deepEqual(problems, []);
    assert.deepEqual(oauth, {
      grantType: 'client_credentials',
      clientId: 'job',
      clientSecret: '${input:secret}',
      scopes: ['mcp:read'],
      dpop: true,
      issuer: 'https://auth.example.com',
    });
  });

  it('defaults: authorization code; private_key_jwt with a key, client_secret_basic with a secret, else none', () => {
    assert.equal(grantTypeOf(undefined), 'authorization_code');
    assert.equal(authMethodOf({ clientId: 'a', privateKey: 'k' }), 'private_key_jwt');
    assert.equal(authMethodOf({ clientId: 'a', clientSecret: 's' }), 'client_secret_basic');
    assert.equal(authMethodOf({ clientId: 'a' }), 'none');
    assert.equal(authMethodOf({ clientId: 'a', clientSecret: 's', tokenEndpointAuthMethod: 'client_secret_post' }), 'client_secret_post');
  });

  it('rejects unknown grant types, auth methods, algorithms and a non-boolean dpop', () => {
    assert.match(
      messages({ grantType: 'password' }, 'error').join('\n'),
      /"oauth.grantType" .* must be one of "authorization_code", "client_credentials", "jwt_bearer", "enterprise_managed"/,
    );
    assert.match(messages({ clientId: 'a', tokenEndpointAuthMethod: 'tls_client_auth' }, 'error').join('\n'), /tokenEndpointAuthMethod/);
    assert.match(messages({ clientId: 'a', privateKey: '${input:key}', signingAlgorithm: 'HS256' }, 'error').join('\n'), /signingAlgorithm/);
    assert.match(messages({ dpop: 'yes' }, 'error').join('\n'), /"oauth.dpop" .* true or false/);
    assert.match(messages({ flow: 'x' }, 'warning').join('\n'), /Unknown "oauth" field "flow"/);
  });

  it('a grant without a browser needs a client id, and client credentials need a secret or a key', () => {
    assert.match(messages({ grantType: 'client_credentials', clientSecret: '${input:secret}' }, 'error').join('\n'), /needs "oauth.clientId"/);
    assert.match(
      messages({ grantType: 'client_credentials', clientId: 'job' }, 'error').join('\n'),
      /needs a client secret \("clientSecret"\) or a key \("privateKey"\)/,
    );
    assert.deepEqual(messages({ grantType: 'client_credentials', clientId: 'job', privateKey: '${input:key}' }), []);
  });

  it('an auth method needs its credential', () => {
    assert.match(messages({ clientId: 'a', tokenEndpointAuthMethod: 'private_key_jwt' }, 'error').join('\n'), /"private_key_jwt" needs "oauth.privateKey"/);
    assert.match(
      messages({ clientId: 'a', tokenEndpointAuthMethod: 'client_secret_basic' }, 'error').join('\n'),
      /"client_secret_basic" needs "oauth.clientSecret"/,
    );
    assert.match(
      messages({ clientId: 'a', clientSecret: '${input:secret}', tokenEndpointAuthMethod: 'none' }, 'warning').join('\n'),
      /sends no client credentials/,
    );
  });

  it('jwt_bearer needs exactly one workload token source', () => {
    assert.match(messages({ grantType: 'jwt_bearer', clientId: 'w' }, 'error').join('\n'), /exactly one of "oauth.assertion" .* and "oauth.assertionFile"/);
    assert.match(
      messages({ grantType: 'jwt_bearer', clientId: 'w', assertion: '${input:jwt}', assertionFile: '/var/run/token' }, 'error').join('\n'),
      /exactly one/,
    );
    assert.deepEqual(messages({ grantType: 'jwt_bearer', clientId: 'w', assertionFile: '/var/run/secrets/token' }), []);
    assert.match(messages({ clientId: 'w', assertion: '${input:jwt}' }, 'warning').join('\n'), /only used with "grantType": "jwt_bearer"/);
  });

  it('enterprise_managed needs the MCP client credentials and the identity provider', () => {
    const errors = messages({ grantType: 'enterprise_managed', clientId: 'c', idp: {} }, 'error').join('\n');
    assert.match(errors, /client's credentials at the MCP authorization server/);
    assert.match(errors, /"oauth.idp" needs "issuer" or "tokenEndpoint"/);
    assert.match(errors, /"oauth.idp" needs "clientId"/);
    assert.match(errors, /"oauth.idp" needs "idToken"/);
    assert.match(messages({ grantType: 'enterprise_managed', clientId: 'c', clientSecret: '${input:secret}' }, 'error').join('\n'), /needs "oauth.idp"/);
    assert.deepEqual(
      messages({
        grantType: 'enterprise_managed',
        clientId: 'c',
        clientSecret: '${input:secret}',
        idp: { issuer: 'https://idp.example.com', clientId: 'wb', idToken: '${input:jwt}' },
      }),
      [],
    );
    assert.match(
      messages({ clientId: 'c', idp: { issuer: 'https://idp.example.com' } }, 'warning').join('\n'),
      /only used with "grantType": "enterprise_managed"/,
    );
  });

  it('warns about redirectUri on a grant without a browser, and about invalid URLs', () => {
    assert.match(
      messages({ grantType: 'client_credentials', clientId: 'j', clientSecret: '${input:secret}', redirectUri: 'http://127.0.0.1:3000/cb' }, 'warning').join(
        '\n',
      ),
      /redirectUri.*is ignored/,
    );
    assert.match(messages({ issuer: 'not a url' }, 'error').join('\n'), /"oauth.issuer" .* is not a valid URL/);
    const { oauth } = parse({ redirectUri: 'nope' });
    assert.equal(oauth?.redirectUri, undefined);
  });

  describe('definitions', () => {
    const oauth: OAuthSettings = {
      grantType: 'enterprise_managed',
      clientId: 'c',
      clientSecret: '${input:secret}',
      idp: { issuer: '${env:IDP}', clientId: 'wb', idToken: '${input:jwt}' },
    };

    it('resolves variables in every field and redacts every secret, even from a plain input', () => {
      const def = build(oauth, 'user', { secret: 's3cret', jwt: 'id.token.value' }, { IDP: 'https://idp.example.com' });
      assert.equal(def.error, undefined);
      const launch = def.launch as HttpLaunch;
      assert.equal(launch.oauth?.idp?.issuer, 'https://idp.example.com');
      assert.equal(launch.oauth?.clientSecret, 's3cret');
      assert.ok(def.secrets.includes('s3cret'));
      assert.ok(def.secrets.includes('id.token.value'), 'a non-password input used as a secret is redacted');
    });

    it('a workspace file may not fill a secret from the environment, nor read assertionFile', () => {
      const fromEnv = build(
        { grantType: 'client_credentials', clientId: 'c', clientSecret: '${env:GITHUB_TOKEN}' },
        'workspace',
        {},
        { GITHUB_TOKEN: 'ghp_x' },
      );
      assert.match(fromEnv.error ?? '', /"oauth.clientSecret" may not read \$\{env:…\}/);
      assert.ok(fromEnv.secrets.includes('ghp_x'), 'still redacted');
      const fromFile = build({ grantType: 'jwt_bearer', clientId: 'w', assertionFile: '/var/run/secrets/token' }, 'workspace');
      assert.match(fromFile.error ?? '', /"oauth.assertionFile" is not read from a workspace file/);
      const fromHome = build({ grantType: 'client_credentials', clientId: 'c', privateKey: '${userHome}/.ssh/id' }, 'workspace');
      assert.match(fromHome.error ?? '', /"oauth.privateKey" may not read/);
    });

    it('the same entries are fine in user settings, and a workspace input is fine in a workspace', () => {
      assert.equal(build({ grantType: 'client_credentials', clientId: 'c', clientSecret: '${env:TOKEN}' }, 'user', {}, { TOKEN: 't' }).error, undefined);
      assert.equal(build({ grantType: 'jwt_bearer', clientId: 'w', assertionFile: '/var/run/secrets/token' }, 'user').error, undefined);
      assert.equal(
        build({ grantType: 'client_credentials', clientId: 'c', clientSecret: '${input:secret}' }, 'workspace', { secret: 'typed' }).error,
        undefined,
      );
    });
  });
});
