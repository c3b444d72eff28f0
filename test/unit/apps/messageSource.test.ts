import * as assert from 'node:assert/strict';
import * as vm from 'node:vm';
import { isFromWebviewHost, isWindowWithin } from '../../../src/apps/common/messageSource';
import { sandboxProxyPage } from '../../../src/apps/common/sandboxProxyPage';

// Windows as the page sees them: the workbench at the top, VS Code's webview host frame under
// it, the page (the Run Tool webview) in that, and in the page the app's sandbox proxy frame
// with the app's own frame inside. Only `parent` matters here (a cross-origin window exposes it).
function windows() {
  const top: { parent: unknown } = { parent: undefined };
  top.parent = top;
  const host = { parent: top };
  const page = { parent: host };
  const proxy = { parent: page };
  const app = { parent: proxy };
  return { top, host, page, proxy, app };
}

const OWN = 'https://0a1b2c3d.vscode-cdn.net';

describe('apps: the webview hears the host only from the host', () => {
  it("takes a message from VS Code's webview host frame (the page's own origin)", () => {
    const w = windows();
    assert.equal(
      isFromWebviewHost({ origin: OWN, source: w.host }, OWN, (s) => isWindowWithin(s, w.proxy)),
      true,
    );
  });

  it('drops what the app posts, through its proxy frame or straight to the page, whatever it claims to be', () => {
    const w = windows();
    const isApp = (s: unknown) => isWindowWithin(s, w.proxy);
    // Sandboxed frames without allow-same-origin post with the opaque origin "null".
    assert.equal(isFromWebviewHost({ origin: 'null', source: w.proxy }, OWN, isApp), false);
    assert.equal(isFromWebviewHost({ origin: 'null', source: w.app }, OWN, isApp), false);
    // Even with the page's origin (were a frame ever same-origin), an app window is not the host.
    assert.equal(isFromWebviewHost({ origin: OWN, source: w.app }, OWN, isApp), false);
    assert.equal(isFromWebviewHost({ origin: OWN, source: w.proxy }, OWN, isApp), false);
    // Another origin, no source, or a page with an opaque origin of its own: not the host.
    assert.equal(isFromWebviewHost({ origin: 'https://evil.example', source: w.host }, OWN, isApp), false);
    assert.equal(isFromWebviewHost({ origin: OWN, source: null }, OWN, isApp), false);
    assert.equal(isFromWebviewHost({ origin: 'null', source: w.host }, 'null', isApp), false);
  });

  it("knows the app's windows: the proxy frame and anything inside it, not the host or the top", () => {
    const w = windows();
    assert.equal(isWindowWithin(w.proxy, w.proxy), true);
    assert.equal(isWindowWithin(w.app, w.proxy), true);
    const nested = { parent: { parent: w.app } };
    assert.equal(isWindowWithin(nested, w.proxy), true);
    assert.equal(isWindowWithin(w.host, w.proxy), false);
    assert.equal(isWindowWithin(w.top, w.proxy), false);
    assert.equal(isWindowWithin(w.app, undefined), false, 'no frame shown: no app window');
    const unreadable = {
      get parent(): unknown {
        throw new Error('blocked');
      },
    };
    assert.equal(isWindowWithin(unreadable, w.proxy), true, "unreadable counts as the app's");
  });
});

/**
 * Runs the sandbox proxy page's script in a vm with a stand-in DOM: a unit test has no browser,
 * and what is tested is the relay rule in that script (the e2e test apps.hostile runs it for real).
 */
function loadProxy() {
  const html = sandboxProxyPage("default-src 'none'", 'http://127.0.0.1:1/app/token', '');
  const script = /<script>([^]*)<\/script>/.exec(html)![1];
  // Copied out as JSON: objects made inside the vm have that context's prototypes.
  const toWebview: unknown[] = [];
  const toApp: unknown[] = [];
  const copy = (data: unknown) => JSON.parse(JSON.stringify(data)) as unknown;
  const listeners: Record<string, ((event: unknown) => void)[]> = {};
  const inner = { setAttribute() {}, contentWindow: { postMessage: (data: unknown) => toApp.push(copy(data)) }, src: '' };
  const parent = { postMessage: (data: unknown) => toWebview.push(copy(data)) };
  const window = { parent, addEventListener: (type: string, fn: (event: unknown) => void) => (listeners[type] ??= []).push(fn) };
  const document = { createElement: () => inner, body: { appendChild() {} }, addEventListener() {} };
  vm.runInNewContext(script, { window, document });
  const dispatch = (source: unknown, data: unknown) => listeners.message.forEach((fn) => fn({ source, data }));
  return { toWebview, toApp, dispatch, parent, inner: inner.contentWindow, frame: inner };
}

describe('apps: the sandbox proxy page relays only the app protocol', () => {
  it('passes JSON-RPC between the webview and the app, and nothing else from the app', () => {
    const proxy = loadProxy();
    assert.deepEqual(proxy.toWebview, [{ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }]);
    proxy.dispatch(proxy.parent, { jsonrpc: '2.0', method: 'ui/notifications/sandbox-resource-ready', params: { html: '<p>app</p>' } });
    assert.equal(proxy.frame.src, 'http://127.0.0.1:1/app/token', 'the app is loaded from its own origin');
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } };
    proxy.dispatch(proxy.inner, call);
    // What an app posts to pass for the host: a Run Tool outcome, an approval bar of its own.
    proxy.dispatch(proxy.inner, { type: 'outcome', requestId: 'r', outcome: { kind: 'result', blocks: [] } });
    proxy.dispatch(proxy.inner, { type: 'appApproval', appId: 'app-1', approval: { approvalId: 'a', text: 'harmless', detail: '' } });
    proxy.dispatch(proxy.inner, 'text');
    proxy.dispatch({ other: true }, { jsonrpc: '2.0', method: 'from/elsewhere' });
    assert.deepEqual(proxy.toWebview.slice(1), [call]);
    const answer = { jsonrpc: '2.0', id: 1, result: {} };
    proxy.dispatch(proxy.parent, answer);
    assert.deepEqual(proxy.toApp, [answer]);
  });
});
