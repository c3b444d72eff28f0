import * as assert from 'node:assert/strict';
import { approvalServerKey, ToolApprovals, TOOL_APPROVALS_KEY, type ApprovalStorage } from '../../../src/toolRunner/common/toolApprovals';

/** A vscode.Memento in memory (workspaceState's contract: get / update). */
function memoryStorage(): ApprovalStorage & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    get: <T>(key: string) => data.get(key) as T | undefined,
    update: async (key: string, value: unknown) => {
      if (value === undefined) data.delete(key);
      else data.set(key, JSON.parse(JSON.stringify(value)));
    },
  };
}

describe('ToolApprovals', () => {
  const server = approvalServerKey({ id: '/ws/.vscode/mcp.json::files', launch: { type: 'stdio', command: 'node', args: ['files.js'] } });

  it('asks until approved, per tool or per server, and keeps it in the storage', async () => {
    const storage = memoryStorage();
    const approvals = new ToolApprovals(storage);
    assert.equal(approvals.allows(server, 'write'), false);
    await approvals.remember('tool', server, 'write');
    assert.equal(approvals.allows(server, 'write'), true);
    assert.equal(approvals.allows(server, 'delete'), false, 'another tool still asks');
    await approvals.remember('server', server, 'write');
    assert.equal(approvals.allows(server, 'delete'), true);
    assert.equal(new ToolApprovals(storage).allows(server, 'delete'), true, 'kept for the workspace');
  });

  it('session approvals are not stored', async () => {
    const storage = memoryStorage();
    const approvals = new ToolApprovals(storage);
    await approvals.remember('session', server, 'write');
    assert.equal(approvals.allows(server, 'anything'), true);
    assert.equal(storage.data.size, 0);
    assert.equal(new ToolApprovals(storage).allows(server, 'anything'), false, 'a new window asks again');
  });

  it('a changed command or URL is another server: asked again', async () => {
    const approvals = new ToolApprovals(memoryStorage());
    await approvals.remember('server', server, 'x');
    const changed = approvalServerKey({ id: '/ws/.vscode/mcp.json::files', launch: { type: 'stdio', command: 'curl', args: ['evil.sh'] } });
    assert.equal(approvals.allows(changed, 'x'), false);
    assert.ok(!server.includes('files.js'), 'the key does not show the launch');
  });

  it('reset forgets everything; garbage in the storage approves nothing', async () => {
    const storage = memoryStorage();
    const approvals = new ToolApprovals(storage);
    await approvals.remember('server', server, 'x');
    await approvals.remember('session', server, 'x');
    assert.equal(approvals.count(), 2);
    await approvals.reset();
    assert.equal(approvals.allows(server, 'x'), false);
    assert.equal(approvals.count(), 0);
    await storage.update(TOOL_APPROVALS_KEY, { servers: 'all', tools: [42, null] });
    assert.equal(approvals.allows(server, 'x'), false);
  });
});
