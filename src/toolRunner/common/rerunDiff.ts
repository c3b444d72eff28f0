/**
 * Which diff a dev-loop re-run shows. The re-run compares its result with the run before it;
 * after an edit that did not touch this tool (or a second restart), that says "No changes"
 * and used to replace the change the user was looking at (issue 29). So the last real change
 * stays shown, labelled, as long as the result is still the one it produced. Pure.
 */
import type { RunDiff } from './toolRunnerProtocol';

/** The last re-run diff with changes, and the newest run known to have its `after` result. */
export interface KeptChange {
  change: RunDiff;
  head: string;
}

/**
 * What to show for a re-run's own diff `fresh`, and what to keep for the next one. A diff with
 * changes is shown and kept. One without shows the kept change, with `sameLabel` as its reason,
 * when the run it repeated is that change's result (or a run with the same result since): a
 * run in between with other arguments, or no change yet, shows `fresh` as it is.
 */
export function diffAfterRerun(fresh: RunDiff, kept: KeptChange | undefined, sameLabel: string): { shown: RunDiff; kept: KeptChange | undefined } {
  if (fresh.diff.changes.length > 0) return { shown: fresh, kept: { change: fresh, head: fresh.after.id } };
  if (kept && kept.head === fresh.before.id) {
    return { shown: { ...kept.change, reason: sameLabel }, kept: { change: kept.change, head: fresh.after.id } };
  }
  return { shown: fresh, kept: undefined };
}
