/**
 * One tools/call of the Run Tool panel with its progress shown where the user looks: a
 * cancellable notification for slow calls (after a short delay, so quick ones do not flash
 * one), the status bar while the server waits for the user in MCP Requests, and every
 * progress and task update passed on to the panel.
 */
import * as vscode from 'vscode';
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { errorOutcome, resultOutcome } from './common/toolCall';
import type { ProgressInfo, RunOutcome, TaskInfo } from './common/toolRunnerProtocol';
import type { McpServerConnection } from '../mcp/connection/serverConnection';
import { TaskCancelledError } from '../mcp/connection/toolCalls';
import { describeTask } from '../mcp/connection/toolTasks';
import { withNotificationProgress } from '../shared/notifications';
import { progressLine, progressPercent } from './common/progressLine';

export interface RunningCall {
  requestId: string;
  abort: AbortController;
  progress?: ProgressInfo;
  /** The server runs the call as a task. */
  task?: TaskInfo;
  /** The server has a sampling/elicitation request waiting for the user (MCP Requests panel). */
  awaitingUser?: boolean;
  /** The webview was told the call started (before that, awaitingUser is not tracked). */
  started?: boolean;
  /** Called when the call ends or `awaitingUser` changes (the progress indicator follows). */
  wakers: Set<() => void>;
  /** The line the progress notification shows now (progressLine of this call; tests read it). */
  shownLine?: string;
}

/** What the webview is told of a running call when it (re)loads. */
export function runningInfo(running: RunningCall): { requestId: string; progress?: ProgressInfo; awaitingUser?: boolean; task?: TaskInfo } {
  const { requestId, progress, awaitingUser, task } = running;
  return { requestId, ...(progress ? { progress } : {}), ...(awaitingUser ? { awaitingUser: true } : {}), ...(task ? { task } : {}) };
}

export function wake(running: RunningCall): void {
  const wakers = [...running.wakers];
  running.wakers.clear();
  for (const w of wakers) w();
}

/** What the call needs from its panel. */
export interface CallContext {
  /** The server's connection now (it may have restarted since the panel opened). */
  connection(): McpServerConnection | undefined;
  serverLabel: string;
  onProgress(info: ProgressInfo): void;
  onTask(info: TaskInfo): void;
}

/** Calls after this long get a cancellable progress notification; quicker ones would only flash one. */
const PROGRESS_DELAY_MS = 400;

export async function callWithProgress(
  context: CallContext,
  tool: Tool,
  args: Record<string, unknown>,
  running: RunningCall,
): Promise<{ outcome: RunOutcome; result?: CallToolResult }> {
  const started = Date.now();
  let notification: vscode.Progress<{ message?: string; increment?: number }> | undefined;
  /** How much of the notification's bar is filled: VS Code takes increments, and a bar only grows. */
  let reported = 0;
  /** Tells the notification what the panel's line says now: one wording (progressLine), from the same state. */
  const report = () => {
    const percent = progressPercent(running);
    const increment = percent !== undefined && percent > reported ? percent - reported : undefined;
    if (increment !== undefined) reported = percent!;
    running.shownLine = progressLine(running);
    notification?.report({ message: running.shownLine, ...(increment !== undefined ? { increment } : {}) });
  };
  const execute = async (): Promise<{ outcome: RunOutcome; result?: CallToolResult }> => {
    try {
      const connection = context.connection();
      if (!connection) throw new Error(vscode.l10n.t('Server "{0}" is no longer configured.', context.serverLabel));
      const result = await connection.callTool(tool.name, args, {
        signal: running.abort.signal,
        onprogress: (p) => {
          const info: ProgressInfo = {
            progress: p.progress,
            ...(p.total !== undefined ? { total: p.total } : {}),
            ...(p.message ? { message: p.message } : {}),
          };
          running.progress = info;
          report();
          context.onProgress(info);
        },
        onTask: (task) => {
          const info: TaskInfo = { taskId: task.taskId, status: task.status, text: describeTask(task) };
          running.task = info;
          report();
          context.onTask(info);
        },
      });
      return { outcome: resultOutcome(result, tool, Date.now() - started), result };
    } catch (error) {
      // A task cancelled from the tree (or by the server) ends the call as cancelled too.
      return { outcome: errorOutcome(error, Date.now() - started, running.abort.signal.aborted || error instanceof TaskCancelledError) };
    }
  };
  const outcome = execute();
  let done = false;
  const untilChange = () => new Promise<void>((resolve) => (done ? resolve() : running.wakers.add(resolve)));
  const title = vscode.l10n.t('MCP {0}: {1}', context.serverLabel, tool.title ?? tool.name);
  // Slow calls get a cancellable progress notification, shown after a short delay. While
  // the server waits for the user (sampling/elicitation), the notification would lie over
  // the MCP Requests panel's buttons: it is closed and the status bar shows the wait
  // instead; the Run Tool panel keeps its Cancel button all along.
  const indicate = async () => {
    let delay = PROGRESS_DELAY_MS;
    while (!done) {
      if (running.awaitingUser) {
        await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('{0} (waiting for your answer in MCP Requests)', title) },
          async () => {
            while (!done && running.awaitingUser) await untilChange();
          },
        );
        delay = PROGRESS_DELAY_MS;
        continue;
      }
      if (delay) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([new Promise<void>((resolve) => (timer = setTimeout(resolve, delay))), untilChange()]);
        clearTimeout(timer);
        delay = 0;
        continue;
      }
      await withNotificationProgress({ title, cancellable: true }, async (progress, token) => {
        notification = progress;
        running.shownLine = progressLine(running);
        progress.report({ message: running.shownLine, ...(reported ? { increment: reported } : {}) });
        const subscription = token.onCancellationRequested(() => running.abort.abort());
        try {
          while (!done && !running.awaitingUser) await untilChange();
        } finally {
          subscription.dispose();
          notification = undefined;
        }
      });
    }
  };
  void indicate();
  try {
    return await outcome;
  } finally {
    done = true;
    wake(running);
  }
}
