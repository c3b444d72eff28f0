import * as assert from 'node:assert/strict';
import { AppSandboxServer } from '../../../src/apps/common/sandboxServer';
import { buildAppCsp } from '../../../src/apps/common/appCsp';
import { APP_SANDBOX } from '../../../src/apps/common/sandboxProxyPage';
import { CSP_VIOLATION_METHOD } from '../../../src/apps/common/cspViolation';

describe('apps: the local sandbox server (real HTTP on 127.0.0.1)', () => {
  let server: AppSandboxServer;
  beforeEach(() => (server = new AppSandboxServer()));
  afterEach(() => server.dispose());

  it("serves a registered proxy page that frames only the app's own origin, and nothing else", async () => {
    const origin = await server.origin();
    assert.match(origin, /^http:\/\/127\.0\.0\.1:\d+$/);
    const { policy } = buildAppCsp({ connectDomains: ['https://api.example.com'] });
    const page = await server.register(policy, 'camera *', '<p>app</p>');
    const appOrigin = new URL(page.appUrl).origin;
    const response = await fetch(`${origin}${page.path}`);
    assert.equal(response.status, 200);
    assert.equal(
      response.headers.get('content-security-policy'),
      `default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; frame-src ${appOrigin}; object-src 'none'; base-uri 'none'; form-action 'none'`,
    );
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const html = await response.text();
    assert.ok(html.includes('ui/notifications/sandbox-proxy-ready'));
    assert.ok(html.includes(JSON.stringify(APP_SANDBOX)), 'the inner frame gets the sandbox flags');
    assert.ok(html.includes(JSON.stringify(page.appUrl)), 'the inner frame loads the app from its origin');
    assert.ok(html.includes('"camera *"'));
    assert.ok(!html.includes('<p>app</p>'), 'the proxy page does not carry the app');

    for (const path of ['/', '/proxy/', `${page.path}x`, '/proxy/' + '0'.repeat(48), '/../etc/passwd', page.path.replace('/proxy/', '/app/')]) {
      assert.equal((await fetch(`${origin}${path}`)).status, 404, path);
    }
    page.dispose();
    assert.equal((await fetch(`${origin}${page.path}`)).status, 404, 'gone once disposed');
  });

  it('serves each app from an origin of its own, with its policy as a header and the violation listener first', async () => {
    const proxyOrigin = await server.origin();
    const { policy } = buildAppCsp(undefined);
    const a = await server.register(policy, '', '<!DOCTYPE html><html><head><script>app()</script></head><body>A</body></html>');
    const b = await server.register(policy, '', '<p>B</p>');
    const origins = new Set([proxyOrigin, new URL(a.appUrl).origin, new URL(b.appUrl).origin]);
    assert.equal(origins.size, 3, 'proxy, app A and app B are three origins');
    const response = await fetch(a.appUrl);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-security-policy'), policy);
    const html = await response.text();
    assert.ok(html.startsWith('<!DOCTYPE html><html><head><script>'), 'the doctype stays first');
    assert.ok(html.indexOf(CSP_VIOLATION_METHOD) < html.indexOf('app()'), "the listener comes before the app's script");
    assert.ok((await (await fetch(b.appUrl)).text()).endsWith('<p>B</p>'));
    // Only its own token on its own port.
    assert.equal((await fetch(`${new URL(a.appUrl).origin}${new URL(b.appUrl).pathname}`)).status, 404);
    assert.equal((await fetch(`${a.appUrl}/`)).status, 404);
    a.dispose();
    await assert.rejects(fetch(a.appUrl), 'its port is closed once disposed');
    b.dispose();
  });
});
