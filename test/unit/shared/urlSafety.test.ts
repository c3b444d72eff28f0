import * as assert from 'node:assert/strict';
import { MemoryOAuthStore, WorkbenchOAuthProvider } from '../../../src/mcp/auth/oauthProvider';
import { workspaceRoots } from '../../../src/shared/common/urlSafety';

describe('roots', () => {
  it('offers only file: folders; others (remote, virtual) are left out and named', () => {
    const { roots, skipped } = workspaceRoots([
      { uri: 'file:///home/u/app', name: 'app' },
      { uri: 'vscode-remote://ssh-remote%2Bbox/home/u/svc', name: 'svc' },
      { uri: 'vscode-vfs://github/owner/repo', name: 'repo' },
      { uri: 'FILE:///home/u/upper', name: 'upper' },
    ]);
    assert.deepEqual(roots, [
      { uri: 'file:///home/u/app', name: 'app' },
      { uri: 'FILE:///home/u/upper', name: 'upper' },
    ]);
    assert.deepEqual(
      skipped.map((f) => f.name),
      ['svc', 'repo'],
    );
  });
});

describe('OAuth authorization URLs', () => {
  it('only https, or http on this computer, may be opened', async () => {
    for (const [url, allowed] of [
      ['https://auth.example/authorize?state=s', true],
      ['http://127.0.0.1:8080/authorize?state=s', true],
      ['http://localhost:8080/authorize?state=s', true],
      ['http://auth.example/authorize?state=s', false],
      ['command:workbench.action.quit?state=s', false],
      ['vscode://evil.extension/do?state=s', false],
      ['file:///etc/passwd?state=s', false],
      ['ms-settings:privacy?state=s', false],
      ['https://user:pass@auth.example/authorize?state=s', false],
    ] as const) {
      const opened: string[] = [];
      const provider = new WorkbenchOAuthProvider({
        keyPrefix: 'https://mcp.example/mcp',
        store: new MemoryOAuthStore(),
        redirectUrl: 'http://127.0.0.1:1/callback',
        authorize: async (u) => {
          opened.push(u.href);
          return { code: 'c', state: u.searchParams.get('state') ?? undefined };
        },
      });
      provider.redirectToAuthorization(new URL(url));
      const outcome = await provider.authorize().then(
        () => 'authorized',
        (e: Error) => e.message,
      );
      if (allowed) {
        assert.equal(outcome, 'authorized', url);
        assert.deepEqual(opened, [new URL(url).href]);
      } else {
        assert.deepEqual(opened, [], `${url} must not reach the browser`);
        assert.match(outcome, /not opened/, url);
      }
    }
  });
});
