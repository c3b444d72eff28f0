import * as assert from 'node:assert/strict';
import { buildAppCsp, isValidCspSource } from '../../../src/apps/common/appCsp';
import { isAppOnly, isAppVisible, isModelVisible, toolAppUri, toolVisibility } from '../../../src/apps/common/appTools';
import { appResourceFrom } from '../../../src/apps/common/appResource';

describe('apps: tool _meta.ui', () => {
  it('finds the ui:// resource (nested or the deprecated flat key), ignores other schemes', () => {
    assert.equal(toolAppUri({ _meta: { ui: { resourceUri: 'ui://counter/app.html' } } }), 'ui://counter/app.html');
    assert.equal(toolAppUri({ _meta: { 'ui/resourceUri': 'ui://flat/app.html' } }), 'ui://flat/app.html');
    assert.equal(toolAppUri({ _meta: { ui: { resourceUri: 'https://evil.example/app.html' } } }), undefined);
    assert.equal(toolAppUri({ _meta: { ui: 'ui://not-an-object' } }), undefined);
    assert.equal(toolAppUri({}), undefined);
  });

  it('visibility defaults to model and app; unknown entries dropped; app-only is hidden from the model', () => {
    assert.deepEqual(toolVisibility({}), ['model', 'app']);
    assert.deepEqual(toolVisibility({ _meta: { ui: { visibility: 'app' } } }), ['model', 'app'], 'malformed = default');
    assert.deepEqual(toolVisibility({ _meta: { ui: { visibility: ['app', 'robots'] } } }), ['app']);
    const appOnly = { _meta: { ui: { visibility: ['app'] } } };
    assert.equal(isAppOnly(appOnly), true);
    assert.equal(isModelVisible(appOnly), false);
    assert.equal(isAppVisible(appOnly), true);
    const modelOnly = { _meta: { ui: { visibility: ['model'] } } };
    assert.equal(isAppVisible(modelOnly), false, 'an app may not call a model-only tool');
    assert.equal(isModelVisible(modelOnly), true);
    assert.equal(isAppOnly({ _meta: { ui: { visibility: [] } } }), false);
    assert.equal(isAppVisible({ _meta: { ui: { visibility: [] } } }), false);
  });
});

describe('apps: CSP from declared domains', () => {
  it('allows nothing on the network when nothing is declared', () => {
    const { policy, rejected } = buildAppCsp(undefined);
    assert.match(policy, /^default-src 'none'; /);
    assert.match(policy, /connect-src 'none'/);
    assert.match(policy, /frame-src 'none'/);
    assert.match(policy, /base-uri 'none'/);
    assert.match(policy, /object-src 'none'/);
    assert.match(policy, /form-action 'none'/);
    // Code runs as its authors built it (eval, blob:/data: scripts and workers), as in the ext-apps
    // reference host; the network stays closed and there is no 'self' or wildcard.
    assert.match(policy, /script-src 'unsafe-inline' 'unsafe-eval' blob: data:(;|$)/);
    assert.match(policy, /worker-src blob: data:(;|$)/);
    assert.doesNotMatch(policy, /'self'|\*/);
    assert.deepEqual(rejected, []);
  });

  it('puts each declared list in its directives only', () => {
    const { policy, allowed } = buildAppCsp({
      connectDomains: ['https://api.example.com', 'wss://live.example.com'],
      resourceDomains: ['https://*.cdn.example.net'],
      frameDomains: ['https://www.youtube.com'],
      baseUriDomains: ['https://base.example.com'],
    });
    assert.match(policy, /connect-src https:\/\/api\.example\.com wss:\/\/live\.example\.com;/);
    assert.match(policy, /script-src 'unsafe-inline' 'unsafe-eval' blob: data: https:\/\/\*\.cdn\.example\.net;/);
    assert.match(policy, /worker-src blob: data: https:\/\/\*\.cdn\.example\.net;/);
    assert.match(policy, /style-src 'unsafe-inline' https:\/\/\*\.cdn\.example\.net;/);
    assert.match(policy, /img-src data: blob: https:\/\/\*\.cdn\.example\.net;/);
    assert.match(policy, /frame-src https:\/\/www\.youtube\.com;/);
    assert.match(policy, /base-uri https:\/\/base\.example\.com;/);
    assert.doesNotMatch(
      policy.split('; ').find((d) => d.startsWith('connect-src'))!,
      /cdn/,
    );
    assert.deepEqual(allowed.connect, ['https://api.example.com', 'wss://live.example.com']);
  });

  it('drops entries that would widen the policy: keywords, wildcards, other schemes, injected directives', () => {
    const hostile = [
      "'unsafe-eval'",
      '*',
      'https:',
      'data:',
      'https://ok.example.com; script-src *',
      'javascript:alert(1)',
      "https://a.example.com'",
      42,
      'example.com',
    ];
    const { policy, rejected, allowed } = buildAppCsp({ connectDomains: hostile, resourceDomains: 'https://not-a-list.example.com' });
    assert.deepEqual(allowed.connect, []);
    assert.equal(rejected.length, hostile.length + 1);
    assert.match(policy, /connect-src 'none'/);
    assert.doesNotMatch(policy, /javascript|not-a-list|script-src \*/);
    assert.equal(policy.match(/'unsafe-eval'/g)?.length, 1, 'the declared keyword is not added a second time');
    assert.match(policy, /connect-src 'none'/);
    for (const ok of ['https://api.example.com:8443', 'http://127.0.0.1:3000', 'https://x.example.com/path/', 'wss://*.example.com'])
      assert.ok(isValidCspSource(ok), ok);
  });
});

describe('apps: the app resource', () => {
  const uri = 'ui://counter/app.html';
  it('takes the HTML content and its _meta.ui (content wins over the result)', () => {
    const app = appResourceFrom(
      {
        _meta: { ui: { csp: { connectDomains: ['https://result.example.com'] }, prefersBorder: false } },
        contents: [
          {
            uri,
            mimeType: 'text/html;profile=mcp-app',
            text: '<p>hi</p>',
            _meta: { ui: { csp: { connectDomains: ['https://content.example.com'] }, permissions: { camera: {}, bogus: {} }, prefersBorder: true } },
          },
        ],
      },
      uri,
    );
    assert.ok(!('error' in app));
    assert.equal(app.html, '<p>hi</p>');
    assert.deepEqual(app.csp, { connectDomains: ['https://content.example.com'] });
    assert.deepEqual(app.permissions, { camera: {} });
    assert.equal(app.prefersBorder, true);
  });

  it('decodes a blob; explains a resource without HTML', () => {
    const blob = appResourceFrom({ contents: [{ uri, mimeType: 'text/html', blob: Buffer.from('<b>x</b>').toString('base64') }] }, uri);
    assert.ok(!('error' in blob) && blob.html === '<b>x</b>');
    const none = appResourceFrom({ contents: [{ uri, mimeType: 'application/json', text: '{}' }] }, uri);
    assert.ok('error' in none && /no HTML content.*application\/json/.test(none.error));
  });
});
