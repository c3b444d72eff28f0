/**
 * The sandbox proxy page (SEP-1865's double iframe): served by the local sandbox server
 * (sandboxServer.ts) under its own small policy (proxyPolicy: inline script, and frames only
 * from this app's origin), loaded by the webview in a frame with PROXY_SANDBOX (the sandbox
 * server's origin, no access to the webview or to VS Code). It announces itself
 * (`ui/notifications/sandbox-proxy-ready`); on `ui/notifications/sandbox-resource-ready` it
 * frames the app's document from the app's own origin (served there with the app's policy and
 * the violation listener of cspViolation.ts first in it), and then relays messages between the
 * webview (its parent) and the app, by window identity: nothing from any other window is passed
 * on, and from the app only JSON-RPC. The HTML in that message is not used: the server already
 * holds the same HTML, registered by the host.
 */
import { CSP_VIOLATION_METHOD } from './cspViolation';

/**
 * Sandbox flags of the frame the app runs in: scripts; forms (their submission is blocked by
 * `form-action 'none'`); and its own origin, for storage. `allow-same-origin` gives the app the
 * origin of its document, which is its own port of the sandbox server (never the webview's, and
 * not the proxy's either: the proxy is on another port, so the app cannot reach its parent or
 * take the sandbox off its own frame). Never popups or top navigation.
 */
export const APP_SANDBOX = 'allow-scripts allow-forms allow-same-origin';

/**
 * Sandbox flags of the proxy frame in the webview. A frame's sandbox binds everything inside it,
 * so the proxy needs `allow-same-origin` for the app to have it: the proxy's origin is then the
 * sandbox server's proxy port, which is not the webview's, so it still cannot reach the webview.
 */
export const PROXY_SANDBOX = 'allow-scripts allow-same-origin';

/** The proxy page's own policy: its inline script and style, and frames only from the app's origin. */
export function proxyPolicy(appOrigin: string): string {
  return [
    "default-src 'none'",
    "script-src 'unsafe-inline'",
    "style-src 'unsafe-inline'",
    `frame-src ${appOrigin}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** JSON that is safe inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The proxy page for an app whose document is at `appUrl`, with this `allow` attribute. */
export function sandboxProxyPage(policy: string, appUrl: string, allow: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}">`;
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8">${meta}
<style>html,body{margin:0;padding:0;height:100%;overflow:hidden;background:transparent}iframe{border:0;width:100%;height:100%;display:block}</style>
</head><body><script>
(() => {
  const APP_URL = ${scriptJson(appUrl)};
  const ALLOW = ${scriptJson(allow)};
  const SANDBOX = ${scriptJson(APP_SANDBOX)};
  let inner;
  window.addEventListener('message', (event) => {
    const data = event.data;
    if (event.source === window.parent) {
      if (data && data.method === 'ui/notifications/sandbox-resource-ready') {
        if (inner) return;
        inner = document.createElement('iframe');
        inner.setAttribute('sandbox', SANDBOX);
        if (ALLOW) inner.setAttribute('allow', ALLOW);
        inner.setAttribute('title', 'MCP App');
        inner.setAttribute('referrerpolicy', 'no-referrer');
        inner.src = APP_URL;
        document.body.appendChild(inner);
        return;
      }
      if (inner && inner.contentWindow) inner.contentWindow.postMessage(data, '*');
    } else if (inner && event.source === inner.contentWindow && data && typeof data === 'object' && data.jsonrpc === '2.0') {
      // Only the app protocol goes up: the webview checks it again, and an app that posts
      // anything else (or posts to the webview directly) is not heard as its host.
      window.parent.postMessage(data, '*');
    }
  });
  document.addEventListener('securitypolicyviolation', (event) => {
    window.parent.postMessage({ jsonrpc: '2.0', method: ${scriptJson(CSP_VIOLATION_METHOD)}, params: { directive: String(event.effectiveDirective || event.violatedDirective), blockedUri: String(event.blockedURI), sample: String(event.sample || '') } }, '*');
  });
  window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, '*');
})();
</script></body></html>`;
}
