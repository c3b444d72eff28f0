/**
 * What a running call shows as its progress, worded once for both places that show it: the Run
 * Tool panel's progress line and the cancellable progress notification. Each took its text from
 * its own code before, so they could disagree (issue 29): the notification said nothing until
 * the first progress while the panel said it was waiting, and the precedence of a task's status
 * over a progress message was the panel's alone. Pure: the webview and the host both import it.
 */
import * as l10n from '@vscode/l10n';
import type { ProgressInfo, TaskInfo } from './toolRunnerProtocol';

export interface RunningProgress {
  progress?: ProgressInfo;
  /** The server runs the call as a task: its status is the progress. */
  task?: TaskInfo;
}

/** The one line both show: the task's status, else the progress message (or its numbers), else that the call waits. */
export function progressLine(running: RunningProgress): string {
  if (running.task) return l10n.t('Task {0}', running.task.text);
  const p = running.progress;
  if (!p) return l10n.t('Waiting for the server…');
  return p.message || (p.total ? `${p.progress} / ${p.total}` : String(p.progress));
}

/** How far along the call is, 0–100, when the server says out of how much; undefined: unknown (an indeterminate bar). */
export function progressPercent(running: RunningProgress): number | undefined {
  const p = running.progress;
  if (running.task || !p?.total) return undefined;
  return Math.max(0, Math.min(100, (p.progress / p.total) * 100));
}
