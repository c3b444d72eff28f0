import * as assert from 'node:assert/strict';
import { MAX_APP_MESSAGE_CHARS, parseAppMessage } from '../../../src/apps/common/appMessages';
import { parseAppFromWebview } from '../../../src/apps/common/appsProtocol';
import { hostStyleVariables, sanitizeHostStyles, themeFromBodyClass, HOST_STYLE_SOURCES } from '../../../src/apps/common/hostStyles';

describe('apps: messages from the app frame', () => {
  it('accepts JSON-RPC requests, notifications and responses, as plain copies', () => {
    const request = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'increment', arguments: { by: 1 } } };
    assert.deepEqual(parseAppMessage(request), { message: request });
    assert.deepEqual(parseAppMessage({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: 200 } }), {
      message: { jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: 200 } },
    });
    assert.deepEqual(parseAppMessage({ jsonrpc: '2.0', id: 'a', result: {} }), { message: { jsonrpc: '2.0', id: 'a', result: {} } });
    const error = parseAppMessage({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'bad' } });
    assert.ok('message' in error);
  });

  it('drops what is not well-formed JSON-RPC', () => {
    const bad: unknown[] = [
      null,
      'text',
      [],
      { jsonrpc: '1.0', method: 'x' },
      { jsonrpc: '2.0' },
      { jsonrpc: '2.0', method: '' },
      { jsonrpc: '2.0', method: 'has space' },
      { jsonrpc: '2.0', method: 'x'.repeat(200) },
      { jsonrpc: '2.0', method: 'tools/call', params: [1] },
      { jsonrpc: '2.0', id: {}, method: 'ping' },
      { jsonrpc: '2.0', id: 1, error: { code: 'x', message: 'm' } },
      { jsonrpc: '2.0', id: 1, result: 'not an object' },
    ];
    for (const raw of bad) assert.ok('reason' in parseAppMessage(raw), JSON.stringify(raw));
    const huge = { jsonrpc: '2.0', method: 'ui/message', params: { text: 'x'.repeat(MAX_APP_MESSAGE_CHARS) } };
    assert.match((parseAppMessage(huge) as { reason: string }).reason, /too large/);
  });

  it("parses the webview's app messages and drops malformed ones", () => {
    assert.deepEqual(parseAppFromWebview({ type: 'appDisplayMode', appId: 'a1', mode: 'fullscreen' }), {
      type: 'appDisplayMode',
      appId: 'a1',
      mode: 'fullscreen',
    });
    assert.equal(parseAppFromWebview({ type: 'appDisplayMode', appId: 'a1', mode: 'pip' }), undefined);
    assert.equal(parseAppFromWebview({ type: 'appMessage', appId: 'a1', message: { jsonrpc: '2.0' } }), undefined);
    assert.equal(parseAppFromWebview({ type: 'appApprovalAnswer', appId: 'a1', approvalId: 'x', answer: 'always-and-forever' }), undefined);
    assert.deepEqual(parseAppFromWebview({ type: 'appApprovalAnswer', appId: 'a1', approvalId: 'x', answer: 'session' }), {
      type: 'appApprovalAnswer',
      appId: 'a1',
      approvalId: 'x',
      answer: 'session',
    });
    const env = parseAppFromWebview({
      type: 'appEnvironment',
      appId: 'a1',
      environment: {
        theme: 'dark',
        width: 640.4,
        styles: { '--color-text-primary': '#ccc', '--evil': 'red', '--color-background-primary': 'red;} body{display:none' },
      },
    });
    assert.deepEqual(env, { type: 'appEnvironment', appId: 'a1', environment: { theme: 'dark', width: 640, styles: { '--color-text-primary': '#ccc' } } });
    assert.equal(parseAppFromWebview({ type: 'appEnvironment', appId: 'a1', environment: { theme: 'sepia', width: 1 } }), undefined);
  });
});

describe('apps: host context from the VS Code theme', () => {
  it('maps the spec variables from --vscode-* (first non-empty source), with literal fallbacks', () => {
    const theme: Record<string, string> = {
      '--vscode-editor-background': '#1f1f1f',
      '--vscode-foreground': '#cccccc',
      '--vscode-sideBar-background': '',
      '--vscode-editorWidget-background': '#202020',
      '--vscode-font-family': 'system-ui',
      '--vscode-editor-font-family': 'monospace',
      '--vscode-widget-shadow': 'rgba(0,0,0,0.36)',
    };
    const styles = hostStyleVariables((name) => theme[name] ?? '');
    assert.equal(styles['--color-background-primary'], '#1f1f1f');
    assert.equal(styles['--color-background-secondary'], '#202020', 'falls through an empty source');
    assert.equal(styles['--color-text-primary'], '#cccccc');
    assert.equal(styles['--color-text-inverse'], '#1f1f1f');
    assert.equal(styles['--font-sans'], 'system-ui');
    assert.equal(styles['--font-mono'], 'monospace');
    assert.equal(styles['--border-radius-md'], '4px');
    assert.equal(styles['--shadow-md'], '0 2px 8px rgba(0,0,0,0.36)');
    assert.equal(styles['--color-text-danger'], undefined, 'left out when the theme has none');
    for (const name of Object.keys(styles)) assert.ok(name in HOST_STYLE_SOURCES);
    assert.deepEqual(sanitizeHostStyles(styles), styles, 'what the webview computes passes the host check');
  });

  it("tells light from dark by VS Code's body class; high contrast follows its base", () => {
    assert.equal(themeFromBodyClass(['vscode-light']), 'light');
    assert.equal(themeFromBodyClass(['vscode-high-contrast-light', 'vscode-high-contrast']), 'light');
    assert.equal(themeFromBodyClass(['vscode-dark']), 'dark');
    assert.equal(themeFromBodyClass(['vscode-high-contrast']), 'dark');
  });
});
