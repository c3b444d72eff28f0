/**
 * Commands on the tool calls that run as tasks: cancel one (from the tree, or a quick pick of
 * every running task of every server), and show a finished task's result. The result opens as a
 * read-only virtual document (`mcp-task:`), as the Activity view's messages do: an Untitled
 * editor was marked dirty and asked to be saved when closed, for text nobody wrote.
 */
import * as vscode from 'vscode';
import type { Workbench } from '../workbench';
import type { McpServerConnection } from '../mcp/connection/serverConnection';
import { describeTask, isTerminal, type ToolTask } from '../mcp/connection/toolTasks';
import { revealControlCharacters } from '../shared/common/untrustedText';
import { showErrorMessage, showInformationMessage } from '../shared/notifications';
import { errorMessage } from '../shared/common/errors';
import { ServerCommands } from './common/commandIds';
import { registerCommandTable } from '../shared/commandTable';

/** What a tree task node (or a caller) passes. */
interface TaskRef {
  serverId: string;
  taskId: string;
}

export const TASK_SCHEME = 'mcp-task';

/** `mcp-task:/<server id>/<task id>/<tool>-result.json`: the tab reads as the tool's result, in JSON mode. */
export function taskResultUri(ref: TaskRef, toolName: string | undefined): vscode.Uri {
  const e = encodeURIComponent;
  return vscode.Uri.from({ scheme: TASK_SCHEME, path: `/${e(ref.serverId)}/${e(ref.taskId)}/${e(toolName ?? 'task')}-result.json` });
}

function refOf(uri: vscode.Uri): TaskRef | undefined {
  const [, serverId, taskId] = uri.path.split('/');
  return serverId && taskId ? { serverId: decodeURIComponent(serverId), taskId: decodeURIComponent(taskId) } : undefined;
}

export function registerTaskCommands(workbench: Workbench): vscode.Disposable[] {
  const { registry } = workbench;
  const resolve = (ref: TaskRef | undefined): { connection: McpServerConnection; task: ToolTask } | undefined => {
    const connection = ref ? registry.find(ref.serverId) : undefined;
    const task = ref ? connection?.tasks.get(ref.taskId) : undefined;
    return connection && task ? { connection, task } : undefined;
  };

  /** Every running task of every server, to pick one. */
  const pickRunning = async (): Promise<TaskRef | undefined> => {
    const items = registry.all().flatMap((c) =>
      c.tasks
        .list()
        .filter((t) => !isTerminal(t.status))
        .map((t) => ({
          label: revealControlCharacters(t.toolName ?? t.taskId),
          description: revealControlCharacters(`${c.definition.label} · ${describeTask(t)}`),
          detail: t.taskId,
          ref: { serverId: c.definition.id, taskId: t.taskId },
        })),
    );
    if (!items.length) {
      void showInformationMessage(vscode.l10n.t('No MCP task is running.'));
      return undefined;
    }
    return (await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Task to cancel') }))?.ref;
  };

  return [
    ...registerCommandTable({
      [ServerCommands.cancelTask]: async (arg?: TaskRef) => {
        const found = resolve(arg ?? (await pickRunning()));
        if (!found) return;
        const { connection, task } = found;
        try {
          await connection.cancelTask(task.taskId);
        } catch (error) {
          // Typically: the task ended meanwhile (the server refuses to cancel a finished task).
          void showErrorMessage(
            vscode.l10n.t('Could not cancel task {0} of {1}: {2}', task.toolName ?? task.taskId, connection.definition.label, errorMessage(error)),
          );
        }
      },
      [ServerCommands.showTaskResult]: async (arg?: TaskRef) => {
        const found = resolve(arg);
        if (!found?.task.result) return;
        const doc = await vscode.workspace.openTextDocument(
          taskResultUri({ serverId: found.connection.definition.id, taskId: found.task.taskId }, found.task.toolName),
        );
        await vscode.window.showTextDocument(doc, { preview: true });
      },
    }),
    vscode.workspace.registerTextDocumentContentProvider(TASK_SCHEME, {
      provideTextDocumentContent: (uri) => {
        const result = resolve(refOf(uri))?.task.result;
        return result !== undefined
          ? JSON.stringify(result, null, 2)
          : vscode.l10n.t('This task result is no longer kept: the server was restarted or the task was dropped. Run the tool again.');
      },
    }),
  ];
}
