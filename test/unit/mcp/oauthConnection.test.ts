/**
 * MCP authorization end to end: McpServerConnection with the extension's OAuth client
 * (WorkbenchOAuthProvider, memory store, headless "browser") against the in-process protected
 * fixture (the SDK's auth router + bearer middleware). No mocks on either side.
 */
import * as assert from 'node:assert/strict';
import { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import type { ConnectionAuthHost } from '../../../src/mcp/connection/connectionTypes';
import { MemoryOAuthStore, WorkbenchOAuthProvider, followAuthorizationHeadlessly, type AuthorizationResponse } from '../../../src/mcp/auth/oauthProvider';
import { formatTrace } from '../../../src/mcp/trace';
import type { OAuthSettings } from '../../../src/config/common/serverConfig';
import { startProtectedFixture, type ProtectedFixture, type ProtectedFixtureOptions } from '../../fixtures/servers/protectedServer';
import { definition, recordingHost, RecordingLog, textOf, waitFor } from './testHost';

const REDIRECT = 'http://127.0.0.1:1/oauth/callback';

describe('McpServerConnection with OAuth', function () {
  this.timeout(20000);
  let fixture: ProtectedFixture | undefined;
  const open: McpServerConnection[] = [];

  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.dispose()));
    await fixture?.close();
    fixture = undefined;
  });

  async function setUp(
    options: ProtectedFixtureOptions & {
      mayPrompt?: boolean;
      oauth?: OAuthSettings;
      store?: MemoryOAuthStore;
      authorize?: (url: URL, redirect: string) => Promise<AuthorizationResponse>;
    } = {},
  ) {
    fixture = await startProtectedFixture(options);
    const store = options.store ?? new MemoryOAuthStore();
    const browserVisits: URL[] = [];
    const auth: ConnectionAuthHost = {
      provider: (_def, launch) =>
        new WorkbenchOAuthProvider({
          keyPrefix: launch.url,
          store,
          redirectUrl: options.oauth?.redirectUri ?? REDIRECT,
          settings: launch.oauth,
          authorize:
            options.authorize ??
            (async (url, redirect) => {
              browserVisits.push(url);
              return followAuthorizationHeadlessly(url, redirect);
            }),
        }),
      mayPrompt: () => options.mayPrompt ?? false,
    };
    const host = { ...recordingHost(), auth };
    const log = new RecordingLog();
    const c = new McpServerConnection(
      definition({ type: 'http', url: fixture.url, headers: {}, ...(options.oauth ? { oauth: options.oauth } : {}) }),
      host,
      log,
    );
    open.push(c);
    return { c, host, log, store, browserVisits, fixture };
  }

  it('an automatic start of a protected server ends in needsAuth, without opening the browser', async () => {
    const { c, browserVisits } = await setUp();
    await c.start();
    assert.equal(c.state.kind, 'needsAuth');
    assert.equal(browserVisits.length, 0);
  });

  it('signIn runs discovery, registration, PKCE and the code exchange, then sends the bearer on every request', async () => {
    const { c, fixture: f, browserVisits, store } = await setUp();
    await c.signIn();
    assert.equal(c.state.kind, 'running', JSON.stringify(c.state));
    assert.equal(browserVisits.length, 1);
    const visit = browserVisits[0];
    assert.equal(visit.searchParams.get('code_challenge_method'), 'S256');
    assert.ok(visit.searchParams.get('state'));
    assert.equal(visit.searchParams.get('resource'), f.url);
    assert.equal(f.stats.registrations, 1);
    assert.deepEqual(
      f.stats.tokenRequests.map((t) => t.grantType),
      ['authorization_code'],
    );
    const result = await c.callTool('echo', { text: 'hi' });
    assert.equal(textOf(result), 'echo: hi');
    assert.ok(f.stats.bearerTokens.length >= 2);
    assert.ok(f.stats.bearerTokens.every((h) => h === `Bearer ${f.stats.issuedTokens[0]}`));
    assert.ok([...store.values.keys()].some((k) => k.startsWith(f.url) && k.endsWith('#tokens')));
  });

  it('a second start reuses the stored tokens: no browser', async () => {
    const { c, browserVisits } = await setUp();
    await c.signIn();
    await c.stop();
    await c.start();
    assert.equal(c.state.kind, 'running');
    assert.equal(browserVisits.length, 1);
  });

  it('refreshes an expired access token without the browser', async () => {
    const { c, fixture: f, browserVisits } = await setUp({ accessTokenTtlSeconds: 1 });
    await c.signIn();
    await new Promise((r) => setTimeout(r, 1200));
    const result = await c.callTool('echo', { text: 'later' });
    assert.equal(textOf(result), 'echo: later');
    // On a loaded machine the 1 s token can also expire during sign-in itself and be refreshed
    // then too: one code exchange, then only refreshes (at least one), never the browser again.
    const [first, ...rest] = f.stats.tokenRequests.map((t) => t.grantType);
    assert.equal(first, 'authorization_code');
    assert.ok(rest.length >= 1 && rest.every((g) => g === 'refresh_token'), `then refreshes only: ${JSON.stringify(rest)}`);
    assert.equal(browserVisits.length, 1);
  });

  it('concurrent requests that meet an expired token renew it once (refresh tokens rotate)', async () => {
    const { c, fixture: f } = await setUp();
    await c.signIn();
    f.expireAccessTokens();
    const results = await Promise.all(['a', 'b', 'c'].map((text) => c.callTool('echo', { text })));
    assert.deepEqual(results.map(textOf), ['echo: a', 'echo: b', 'echo: c']);
    assert.equal(f.stats.tokenRequests.filter((t) => t.grantType === 'refresh_token').length, 1);
    assert.equal(c.state.kind, 'running');
  });

  it('sign-out forgets tokens and the registration; the next start needs sign-in again', async () => {
    const { c, store, fixture: f } = await setUp();
    await c.signIn();
    await c.signOut();
    assert.equal(c.state.kind, 'stopped');
    assert.equal([...store.values.keys()].length, 0);
    await c.start();
    assert.equal(c.state.kind, 'needsAuth');
    await c.signIn();
    assert.equal((c.state as { kind: string }).kind, 'running');
    assert.equal(f.stats.registrations, 2);
  });

  it('steps up on 403 insufficient_scope and retries the request once authorized', async () => {
    const { c, fixture: f, browserVisits } = await setUp({ stepUpTool: 'echo', mayPrompt: true });
    await c.signIn();
    const result = await c.callTool('echo', { text: 'admin' });
    assert.equal(textOf(result), 'echo: admin');
    assert.equal(browserVisits.length, 2);
    assert.deepEqual(
      f.stats.authorizationRequests.map((a) => a.scope),
      ['mcp:read', 'mcp:read mcp:admin'],
    );
  });

  it('gives up on step-up when the server keeps refusing (bounded retries)', async () => {
    let visits = 0;
    const { c } = await setUp({
      stepUpTool: 'echo',
      mayPrompt: true,
      // The "user" approves, but the authorization server never grants mcp:admin.
      authorize: async (url, redirect) => {
        visits++;
        if (visits > 1) url.searchParams.set('scope', 'mcp:read');
        return followAuthorizationHeadlessly(url, redirect);
      },
    });
    await c.signIn();
    await assert.rejects(c.callTool('echo', { text: 'admin' }), /403/);
    assert.ok(visits <= 4, `${visits} authorizations`);
    assert.equal(c.state.kind, 'running');
  });

  it('does not prompt mid-session when the host does not allow it', async () => {
    const { c } = await setUp({ stepUpTool: 'echo', mayPrompt: false });
    await c.signIn();
    await assert.rejects(c.callTool('echo', { text: 'admin' }), /sign in again/);
  });

  it('starts a new session transparently when the server answers 404 for the session id', async () => {
    const { c, fixture: f, log } = await setUp();
    await c.signIn();
    assert.equal(f.stats.sessionsCreated, 1);
    f.dropSessions();
    const result = await c.callTool('echo', { text: 'again' });
    assert.equal(textOf(result), 'echo: again');
    assert.equal(f.stats.sessionsCreated, 2);
    assert.ok(f.stats.notFound >= 1);
    assert.match(log.text(), /starting a new session/);
    assert.equal(c.state.kind, 'running');
  });

  it('uses pre-registered client credentials from config, without registering', async () => {
    const oauth = { clientId: 'workbench-pre', clientSecret: 'pre-secret-value', redirectUri: REDIRECT };
    const {
      c,
      fixture: f,
      store,
    } = await setUp({ oauth, preRegistered: { clientId: oauth.clientId, clientSecret: oauth.clientSecret, redirectUri: REDIRECT } });
    await c.signIn();
    assert.equal(c.state.kind, 'running', JSON.stringify(c.state));
    assert.equal(f.stats.registrations, 0);
    assert.equal(f.stats.authorizationRequests[0].clientId, 'workbench-pre');
    assert.ok(![...store.values.values()].some((v) => v.includes('pre-secret-value')), 'the configured secret is never stored');
  });

  describe('client credentials (machine to machine)', () => {
    const machine = { clientId: 'reporting-job', clientSecret: 'cc-secret-value' };
    const oauth: OAuthSettings = { grantType: 'client_credentials', ...machine };

    it('an automatic start gets a token with the client_credentials grant: no browser, no registration', async () => {
      const { c, fixture: f, browserVisits, store } = await setUp({ oauth, clientCredentials: machine });
      await c.start();
      assert.equal(c.state.kind, 'running', JSON.stringify(c.state));
      assert.equal(browserVisits.length, 0);
      assert.equal(f.stats.registrations, 0);
      assert.deepEqual(
        f.stats.tokenRequests.map((t) => t.grantType),
        ['client_credentials'],
      );
      assert.equal(textOf(await c.callTool('echo', { text: 'm2m' })), 'echo: m2m');
      assert.ok(f.stats.bearerTokens.includes(`Bearer ${f.stats.issuedTokens[0]}`));
      assert.ok(![...store.values.values()].some((v) => v.includes(machine.clientSecret)), 'the configured secret is never stored');
    });

    it('a wrong secret ends in an error that says the authorization server refused the client', async () => {
      const { c, fixture: f } = await setUp({ oauth: { ...oauth, clientSecret: 'wrong' }, clientCredentials: machine });
      await c.start();
      assert.equal(c.state.kind, 'error', JSON.stringify(c.state));
      assert.equal(f.stats.tokenRequests.length, 1, 'a refused grant is surfaced, not sent again (SEP-1933)');
      assert.match(JSON.stringify(c.state), /authorization server refused the token request .*invalid_client.*Check \\"oauth\\"/);
    });

    it('never sends the configured secret to an issuer other than "oauth.issuer"', async () => {
      const { c, fixture: f } = await setUp({ oauth: { ...oauth, issuer: 'https://auth.example.com' }, clientCredentials: machine });
      await c.start();
      assert.notEqual(c.state.kind, 'running');
      assert.match(JSON.stringify(c.state), /oauth\.issuer/);
      assert.equal(f.stats.tokenRequests.length, 0);
    });

    it('binds the secret to the first issuer it went to: another server naming another issuer does not get it', async () => {
      const store = new MemoryOAuthStore();
      const first = await setUp({ oauth, clientCredentials: machine, store });
      await first.c.start();
      assert.equal(first.c.state.kind, 'running', JSON.stringify(first.c.state));
      await first.c.dispose();
      await first.fixture.close();
      // The same secret in another entry whose server sends it to another authorization server.
      const second = await setUp({ oauth, clientCredentials: machine, store });
      await second.c.start();
      assert.notEqual(second.c.state.kind, 'running');
      assert.match(JSON.stringify(second.c.state), /first used with the authorization server/);
      assert.equal(second.fixture.stats.tokenRequests.length, 0, 'no token request carried the secret');
      // Signing out releases the binding.
      await second.c.signOut();
      await second.c.start();
      assert.equal(second.c.state.kind, 'running', JSON.stringify(second.c.state));
    });
  });

  it('rejects an authorization response whose state does not match', async () => {
    const { c } = await setUp({
      authorize: async (url, redirect) => ({ ...(await followAuthorizationHeadlessly(url, redirect)), state: 'forged' }),
    });
    await c.signIn();
    assert.equal(c.state.kind, 'error');
    assert.match(JSON.stringify(c.state), /state/);
  });

  it("an error without the sign-in's state is not taken as the answer: its wording never reaches the user", async () => {
    const { c } = await setUp({
      authorize: async () => ({ error: 'access_denied', errorDescription: 'Call +1 555 0100 to unlock your account', state: 'forged' }),
    });
    await c.signIn();
    assert.equal(c.state.kind, 'error');
    assert.match(JSON.stringify(c.state), /did not carry the state/);
    assert.doesNotMatch(JSON.stringify(c.state), /555 0100/);
  });

  it("passes the redirect's iss to the SDK, which refuses one naming another issuer (RFC 9207)", async () => {
    const { c, fixture: f } = await setUp({
      authorize: async (url, redirect) => ({ ...(await followAuthorizationHeadlessly(url, redirect)), iss: 'https://attacker.example' }),
    });
    await c.signIn();
    assert.equal(c.state.kind, 'error');
    assert.match(JSON.stringify(c.state), /iss|issuer/i);
    assert.equal(f.stats.tokenRequests.length, 0, 'no code exchange with a wrong iss');
  });

  it('never writes tokens to the log or the trace', async () => {
    const { c, host, log, fixture: f } = await setUp({ accessTokenTtlSeconds: 1 });
    await c.signIn();
    await new Promise((r) => setTimeout(r, 1200));
    await c.callTool('echo', { text: 'x' });
    await waitFor(() => f.stats.issuedTokens.length >= 2, 'a refreshed token');
    const traced = host.traces.map((r) => formatTrace('fixture', r, 'verbose', [])).join('\n') + JSON.stringify(host.traces);
    for (const token of f.stats.issuedTokens) {
      assert.ok(!traced.includes(token), 'token in trace');
      assert.ok(!log.text().includes(token), 'token in log');
    }
    assert.ok(!/fixture-rt-/.test(traced + log.text()), 'refresh token in trace or log');
  });
});
