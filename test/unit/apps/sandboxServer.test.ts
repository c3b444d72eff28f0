import * as assert from 'node:assert/strict';
import { AppSandboxServer } from '../../../src/apps/common/sandboxServer';
import { buildAppCsp } from '../../../src/apps/common/appCsp';
import { APP_SANDBOX } from '../../../src/apps/common/sandboxProxyPage';

describe('apps: the local sandbox server (real HTTP on 127.0.0.1)', () => {
  let server: AppSandboxServer;
  beforeEach(() => (server = new AppSandboxServer()));
  afterEach(() => server.dispose());

  it('serves a registered proxy page with the app\'s CSP as a header, and nothing else', async () => {
    const origin = await server.origin();
    assert.match(origin, /^http:\/\/127\.0\.0\.1:\d+$/);
    const { policy } = buildAppCsp({ connectDomains: ['https://api.example.com'] });
    const page = server.register(policy, 'camera *');
    const response = await fetch(`${origin}${page.path}`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-security-policy'), policy);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const html = await response.text();
    assert.ok(html.includes('ui/notifications/sandbox-proxy-ready'));
    assert.ok(html.includes(JSON.stringify(APP_SANDBOX)), 'the inner frame gets the sandbox flags');
    assert.ok(!html.includes('allow-same-origin'));
    assert.ok(html.includes('"camera *"'));

    for (const path of ['/', '/proxy/', `${page.path}x`, '/proxy/' + '0'.repeat(48), '/../etc/passwd']) {
      assert.equal((await fetch(`${origin}${path}`)).status, 404, path);
    }
    page.dispose();
    assert.equal((await fetch(`${origin}${page.path}`)).status, 404, 'gone once disposed');
  });

  it('puts the policy into the page so the srcdoc frame starts under it, escaped', async () => {
    const origin = await server.origin();
    const page = server.register(`default-src 'none'; connect-src https://a.example.com`, '');
    const html = await (await fetch(`${origin}${page.path}`)).text();
    assert.ok(html.includes(`content="default-src &#39;none&#39;`) || html.includes(`content="default-src 'none'`));
    assert.ok(!/<\/script>[^]*<\/script>[^]*<\/script>/.test(html), 'one script element');
  });
});
