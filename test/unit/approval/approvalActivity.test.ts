import * as assert from 'node:assert/strict';
import { ApprovalActivity } from '../../../src/approval/common/approvalActivity';
import { parseFromWebview } from '../../../src/toolRunner/common/toolRunnerProtocol';

describe('ApprovalActivity (Run Tool ↔ MCP Requests)', () => {
  it('counts waiting requests per server and fires only on a change', () => {
    const activity = new ApprovalActivity();
    let fired = 0;
    activity.onDidChange(() => fired++);
    assert.equal(activity.waitingFor('a'), 0);
    activity.update(['a', 'b', 'a']);
    assert.equal(fired, 1);
    assert.equal(activity.waitingFor('a'), 2);
    assert.equal(activity.waitingFor('b'), 1);
    activity.update(['b', 'a', 'a']);
    assert.equal(fired, 1, 'same counts, other order: no event');
    activity.update(['a']);
    assert.equal(fired, 2);
    assert.equal(activity.waitingFor('b'), 0);
    activity.update([]);
    assert.equal(fired, 3);
    assert.equal(activity.waitingFor('a'), 0);
  });

  it('the Run Tool webview may ask to show MCP Requests', () => {
    assert.deepEqual(parseFromWebview({ type: 'showRequests' }), { type: 'showRequests' });
    assert.deepEqual(parseFromWebview({ type: 'showRequests', extra: 1 }), { type: 'showRequests' });
  });
});
