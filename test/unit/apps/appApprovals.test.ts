import * as assert from 'node:assert/strict';
import { AppApprovalMemory, stableJson } from '../../../src/apps/common/appApprovals';

const lookup = { name: 'lookup', annotations: { idempotentHint: true, destructiveHint: false } };
const send = { name: 'send', annotations: { idempotentHint: false } };
const wipe = { name: 'wipe', annotations: { idempotentHint: true, destructiveHint: true } };

describe("apps: the user's answers to an app's tool calls, per app session", () => {
  it('writes the same JSON for the same arguments whatever their key order', () => {
    assert.equal(stableJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } }), stableJson({ a: { c: null, d: [1, { x: 1, y: 2 }] }, b: 1 }));
    assert.notEqual(stableJson({ a: 1 }), stableJson({ a: '1' }));
  });

  it('asks every time until the user allows the tool for the app session, then never', () => {
    const memory = new AppApprovalMemory();
    memory.newFrame();
    assert.equal(memory.standing(send, {}), undefined);
    memory.answered(send, {}, 'once');
    assert.equal(memory.standing(send, {}), undefined);
    memory.answered(send, {}, 'session');
    assert.equal(memory.standing(send, { other: true }), 'allowedForSession');
    memory.newFrame();
    assert.equal(memory.standing(send, {}), 'allowedForSession', 'kept across a move');
  });

  it('lets the next frame repeat once the very call allowed once before the move, for idempotent tools only', () => {
    const memory = new AppApprovalMemory();
    memory.newFrame();
    memory.answered(lookup, { topic: 'apples', n: 1 }, 'once');
    memory.answered(send, {}, 'once');
    memory.answered(wipe, {}, 'once');
    assert.equal(memory.standing(lookup, { topic: 'apples', n: 1 }), undefined, 'not in the same frame');
    memory.newFrame();
    assert.equal(memory.standing(lookup, { topic: 'pears', n: 1 }), undefined, 'other arguments ask');
    assert.equal(memory.standing(lookup, { n: 1, topic: 'apples' }), 'carriedOverMove');
    assert.equal(memory.standing(lookup, { n: 1, topic: 'apples' }), undefined, 'only once per frame');
    assert.equal(memory.standing(send, {}), undefined, 'not idempotent: asks');
    assert.equal(memory.standing(wipe, {}), undefined, 'destructive: asks');
    memory.newFrame();
    assert.equal(memory.standing(lookup, { topic: 'apples', n: 1 }), 'carriedOverMove', 'and again after the next move');
  });

  it('denied calls carry nothing; counts the questions per tool', () => {
    const memory = new AppApprovalMemory();
    memory.answered(lookup, {}, 'deny');
    memory.newFrame();
    assert.equal(memory.standing(lookup, {}), undefined);
    assert.equal(memory.asking(lookup), 1);
    assert.equal(memory.asking(send), 1);
    assert.equal(memory.asking(lookup), 2);
  });
});
