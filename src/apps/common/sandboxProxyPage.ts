/**
 * The sandbox proxy page (SEP-1865's double iframe): served by the local sandbox server with
 * the app's Content-Security-Policy as a response header, loaded by the webview in a frame
 * with `sandbox="allow-scripts"` (an opaque origin, no access to the webview or to VS Code).
 * It announces itself (`ui/notifications/sandbox-proxy-ready`), receives the app's HTML once
 * (`ui/notifications/sandbox-resource-ready`), puts it into an inner sandboxed `srcdoc` frame
 * (which inherits the header's policy; the same policy is also put first into the document
 * as a meta tag), and then relays messages between the webview (its parent) and the app, by
 * window identity: nothing from any other window is passed on, and from the app only JSON-RPC.
 */

/** Sandbox flags of the frames the app runs in: scripts, and forms (their submission is blocked by `form-action 'none'`); never same-origin, popups or top navigation. */
export const APP_SANDBOX = 'allow-scripts allow-forms';

function attribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** JSON that is safe inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** The proxy page for an app with this policy and `allow` attribute. */
export function sandboxProxyPage(policy: string, allow: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${attribute(policy)}">`;
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8">${meta}
<style>html,body{margin:0;padding:0;height:100%;overflow:hidden;background:transparent}iframe{border:0;width:100%;height:100%;display:block}</style>
</head><body><script>
(() => {
  const META = ${scriptJson(meta)};
  const ALLOW = ${scriptJson(allow)};
  const SANDBOX = ${scriptJson(APP_SANDBOX)};
  let inner;
  window.addEventListener('message', (event) => {
    const data = event.data;
    if (event.source === window.parent) {
      if (data && data.method === 'ui/notifications/sandbox-resource-ready') {
        if (inner || !data.params || typeof data.params.html !== 'string') return;
        inner = document.createElement('iframe');
        inner.setAttribute('sandbox', SANDBOX);
        if (ALLOW) inner.setAttribute('allow', ALLOW);
        inner.setAttribute('title', 'MCP App');
        inner.srcdoc = META + data.params.html;
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
    window.parent.postMessage({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'warning', logger: 'mcp-workbench-sandbox', data: 'blocked by the app policy: ' + event.violatedDirective + ' ' + event.blockedURI } }, '*');
  });
  window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, '*');
})();
</script></body></html>`;
}
