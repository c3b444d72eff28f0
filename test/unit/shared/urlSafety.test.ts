import * as assert from 'node:assert/strict';
import { workspaceRoots } from '../../../src/shared/common/urlSafety';

describe('roots', () => {
  it('offers only file: folders; others (remote, virtual) are left out and named', () => {
    const { roots, skipped } = workspaceRoots([
      { uri: 'file:///home/u/app', name: 'app' },
      { uri: 'vscode-remote://ssh-remote%2Bbox/home/u/svc', name: 'svc' },
      { uri: 'vscode-vfs://github/owner/repo', name: 'repo' },
      { uri: 'FILE:///home/u/upper', name: 'upper' },
    ]);
    assert.deepEqual(roots, [{ uri: 'file:///home/u/app', name: 'app' }, { uri: 'FILE:///home/u/upper', name: 'upper' }]);
    assert.deepEqual(skipped.map((f) => f.name), ['svc', 'repo']);
  });
});
