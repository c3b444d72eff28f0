/**
 * The dev loop's capability diff: when it restarts a server for a changed file, the lists of the
 * new run are compared with the previous run's by the capability snapshot's diff (the one a
 * saved test's `capabilitySnapshot` uses), so a change that breaks clients written against the
 * old lists is said at once, not found by a client later. Pure: the glue is
 * src/check/devCapabilityDiff.ts.
 */
import { capabilitySnapshot, diffCapabilities, type CapabilityChange, type CapabilitySnapshot } from '../../mcpTests/common/capabilitySnapshot';
import type { ListKind } from '../../mcpTests/common/testFormat';
import type { CheckInput, Finding } from './checkTypes';
import { specSection } from './specLinks';

/** Breaking changes listed one by one at most; the rest are counted. */
const MAX_LISTED = 20;

export type ListsOfRun = Partial<Record<ListKind, readonly unknown[]>>;

/**
 * The changes between two runs' lists. A kind known in one run only (not listed yet when the
 * restart began) is left out of both: its absence is not knowledge that it was removed.
 */
export function diffRuns(before: ListsOfRun, after: ListsOfRun): CapabilityChange[] {
  const known = (Object.keys(before) as ListKind[]).filter((k) => before[k] !== undefined && after[k] !== undefined);
  const pick = (lists: ListsOfRun): CapabilitySnapshot => capabilitySnapshot(Object.fromEntries(known.map((k) => [k, lists[k]])));
  return diffCapabilities(pick(before), pick(after));
}

/** One line for the server's log and the notification: what broke first and how many more. */
export function breakingSummary(changes: readonly CapabilityChange[]): string | undefined {
  const breaking = changes.filter((c) => c.severity === 'breaking');
  if (!breaking.length) return undefined;
  const first = `${breaking[0].path}: ${breaking[0].message}`;
  return breaking.length === 1 ? first : `${first} (and ${breaking.length - 1} more breaking change${breaking.length > 2 ? 's' : ''})`;
}

export function checkDevRestart(input: CheckInput): Finding[] {
  const last = input.devRestart;
  if (!last?.changes.length) return [];
  const spec = specSection(input, 'Tools › List Changed Notification', 'server/tools', 'list-changed-notification');
  const breaking = last.changes.filter((c) => c.severity === 'breaking');
  const findings: Finding[] = breaking.slice(0, MAX_LISTED).map((c) => ({
    check: 'dev-restart-breaking',
    severity: 'warning' as const,
    subject: c.path,
    spec,
    message: `Since the dev loop restarted it for ${last.changedFile}: ${c.path}: ${c.message}; clients written against the previous lists break.`,
  }));
  if (breaking.length > MAX_LISTED)
    findings.push({
      check: 'dev-restart-breaking',
      severity: 'warning',
      subject: 'lists',
      spec,
      message: `${breaking.length - MAX_LISTED} more breaking changes since the dev loop restarted it for ${last.changedFile}.`,
    });
  const compatible = last.changes.length - breaking.length;
  if (compatible)
    findings.push({
      check: 'dev-restart-compatible',
      severity: 'info',
      subject: 'lists',
      spec,
      message: `${compatible} compatible change${compatible === 1 ? '' : 's'} to the lists since the dev loop restarted it for ${last.changedFile} (the server's log lists them).`,
    });
  return findings;
}
