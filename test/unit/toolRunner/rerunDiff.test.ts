/**
 * A dev-loop re-run that returns the same result keeps the last real change on show (issue 29:
 * its "No changes" replaced the diff the user was reading). Diffs are made from real history
 * entries with the real diff, as ToolRunHistory makes them.
 */
import * as assert from 'node:assert/strict';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { diffSubject, historyEntry, summarize, type HistoryEntry } from '../../../src/toolRunner/common/runHistory';
import { diffJson } from '../../../src/toolRunner/common/jsonDiff';
import { diffAfterRerun, type KeptChange } from '../../../src/toolRunner/common/rerunDiff';
import { resultOutcome } from '../../../src/toolRunner/common/toolCall';
import type { RunDiff } from '../../../src/toolRunner/common/toolRunnerProtocol';

const run = (id: string, text: string, args: Record<string, unknown> = { q: 1 }): HistoryEntry => {
  const result: CallToolResult = { content: [{ type: 'text', text }] };
  return historyEntry(id, 1000, args, resultOutcome(result, undefined, 5), result);
};
const diff = (before: HistoryEntry, after: HistoryEntry): RunDiff => ({
  before: summarize(before),
  after: summarize(after),
  diff: diffJson(diffSubject(before), diffSubject(after)),
  reason: 'Re-run',
});

describe('the diff a dev-loop re-run shows', () => {
  const SAME = 'Re-run: the result did not change. Shown: the last change.';

  it('a change is shown and kept; then re-runs with the same result keep showing it, labelled', () => {
    const [r1, r2, r3, r4] = [run('r1', 'old'), run('r2', 'new'), run('r3', 'new'), run('r4', 'new')];
    let kept: KeptChange | undefined;
    const first = diffAfterRerun(diff(r1, r2), kept, SAME);
    assert.equal(first.shown.diff.changes.length, 1);
    assert.equal(first.shown.reason, 'Re-run');
    kept = first.kept;
    const second = diffAfterRerun(diff(r2, r3), kept, SAME);
    assert.deepEqual([second.shown.before.id, second.shown.after.id], ['r1', 'r2'], 'the last real change, not "No changes"');
    assert.equal(second.shown.reason, SAME);
    kept = second.kept;
    const third = diffAfterRerun(diff(r3, r4), kept, SAME);
    assert.deepEqual([third.shown.before.id, third.shown.after.id], ['r1', 'r2'], 'still, after another identical re-run');
  });

  it('nothing changed yet: "No changes" is what there is', () => {
    const shown = diffAfterRerun(diff(run('a', 'x'), run('b', 'x')), undefined, SAME);
    assert.equal(shown.shown.diff.changes.length, 0);
    assert.equal(shown.shown.reason, 'Re-run');
    assert.equal(shown.kept, undefined);
  });

  it('a run in between (other arguments): the kept change no longer describes the result, so it goes', () => {
    const [r1, r2] = [run('r1', 'old'), run('r2', 'new')];
    const { kept } = diffAfterRerun(diff(r1, r2), undefined, SAME);
    const manual = run('m', 'other', { q: 2 });
    const again = run('m2', 'other', { q: 2 });
    const after = diffAfterRerun(diff(manual, again), kept, SAME);
    assert.deepEqual([after.shown.before.id, after.shown.after.id], ['m', 'm2']);
    assert.equal(after.kept, undefined);
  });

  it('a newer change replaces the kept one', () => {
    const [r1, r2, r3] = [run('r1', 'a'), run('r2', 'b'), run('r3', 'c')];
    const { kept } = diffAfterRerun(diff(r1, r2), undefined, SAME);
    const next = diffAfterRerun(diff(r2, r3), kept, SAME);
    assert.deepEqual([next.shown.before.id, next.shown.after.id], ['r2', 'r3']);
    assert.equal(next.kept?.head, 'r3');
  });
});
