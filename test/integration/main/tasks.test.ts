/**
 * Tool calls that run as tasks, inside a real VS Code: Run Tool shows the task running with its
 * status, then its result; the Servers tree has a Tasks group with each task's state; a task
 * is cancelled from the tree or with the panel's Cancel. fixture-stdio (SDK v1, MCP
 * 2025-11-25) offers `longTask` as a task only; fixture-modern (SDK v2, 2026-07-28) offers none:
 * SDK 2.4.0 cannot follow a 2026 task (see src/mcp/connection/toolCalls.ts).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import type { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import type { ServerNode, TaskNode, TasksGroupNode, TreeNode } from '../../../src/servers/serverTreeNodes';
import type { TaskInfo } from '../../../src/toolRunner/common/toolRunnerProtocol';
import type { ToolRunnerPanel } from '../../../src/toolRunner/toolRunnerPanel';
import { activateApi, running, waitFor } from '../helpers';

suite('Tasks', function () {
  this.timeout(60000);
  let api: McpWorkbenchApi;
  let legacy: McpServerConnection;
  const panels: ToolRunnerPanel[] = [];
  const tree = () => api.testing.serverTree;

  async function openLongTask(): Promise<ToolRunnerPanel> {
    const panel = await vscode.commands.executeCommand<ToolRunnerPanel | undefined>('mcpWorkbench.runTool', {
      serverId: legacy.definition.id,
      toolName: 'longTask',
    });
    assert.ok(panel, 'no panel for longTask');
    panels.push(panel);
    return panel;
  }

  async function tasksGroup(c: McpServerConnection): Promise<TasksGroupNode | undefined> {
    const server = (await tree().getChildren()).find((n) => n.kind === 'server' && n.connection === c) as ServerNode;
    return (await tree().getChildren(server)).find((n: TreeNode) => n.kind === 'tasks') as TasksGroupNode | undefined;
  }

  async function taskItem(taskId: string): Promise<(vscode.TreeItem & { open: vscode.Command | undefined }) | undefined> {
    const group = await tasksGroup(legacy);
    const node = group && ((await tree().getChildren(group)) as TaskNode[]).find((n) => n.taskId === taskId);
    return node && Object.assign(tree().getTreeItem(node), { open: node.openCommand() });
  }

  /** Resolves with the first state of the panel's task that `match` accepts. */
  function taskState(panel: ToolRunnerPanel, match: (task: TaskInfo) => boolean): Promise<TaskInfo> {
    return new Promise((resolve) => {
      const sub = panel.onDidTask((task) => {
        if (!match(task)) return;
        sub.dispose();
        resolve(task);
      });
    });
  }

  suiteSetup(async () => {
    api = await activateApi();
    legacy = await running(api, 'fixture-stdio');
    await legacy.list('tools');
  });

  suiteTeardown(() => {
    for (const panel of panels) panel.dispose();
  });

  test('Run Tool shows a task running with its status, the tree lists it, and the result shows when done', async () => {
    const panel = await openLongTask();
    const working = taskState(panel, (t) => /^working: step \d of 4$/.test(t.text));
    const submitted = panel.submit({ steps: 4, delayMs: 300, pollMs: 100 });
    const task = await working;
    assert.equal(task.status, 'working');
    const item = await waitFor(async () => {
      const i = await taskItem(task.taskId);
      return i && /^working/.test(String(i.description)) && i;
    }, 'the running task in the tree');
    assert.equal(item.label, 'longTask');
    assert.equal(item.contextValue, 'task.running', 'a running task can be cancelled from the tree');
    assert.equal(tree().getTreeItem((await tasksGroup(legacy))!).description, '1 running');
    const outcome = await submitted;
    assert.equal(outcome.kind, 'result');
    if (outcome.kind !== 'result') return;
    assert.deepEqual(outcome.blocks, [{ kind: 'text', text: 'task done after 4 steps' }]);
    const done = await waitFor(async () => {
      const i = await taskItem(task.taskId);
      return i?.contextValue === 'task.completed' && i;
    }, 'the completed task in the tree');
    // A click runs the selected item's command: the task's own, Show Task Result.
    assert.equal(done.command?.command, '_mcpWorkbench.openSelectedServerItem');
    assert.equal(done.open?.command, 'mcpWorkbench.showTaskResult');
    // Issue 29: the result opens read-only, not as an Untitled editor that asks to be saved.
    await vscode.commands.executeCommand('mcpWorkbench.showTaskResult', ...(done.open?.arguments ?? []));
    const editor = await waitFor(
      () => vscode.window.activeTextEditor?.document.getText().includes('task done after 4 steps') && vscode.window.activeTextEditor,
      'the result editor',
    );
    const doc = editor.document;
    assert.equal(doc.uri.scheme, 'mcp-task', doc.uri.toString());
    assert.equal(doc.isUntitled, false);
    assert.equal(doc.isDirty, false);
    assert.equal(doc.languageId, 'json');
    assert.match(doc.uri.path, /\/longTask-result\.json$/);
    assert.deepEqual(JSON.parse(doc.getText()).content, [{ type: 'text', text: 'task done after 4 steps' }]);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('Cancel Task in the tree cancels it (tasks/cancel): the run ends as cancelled', async () => {
    const panel = await openLongTask();
    const started = taskState(panel, (t) => t.status === 'working');
    const submitted = panel.submit({ steps: 100, delayMs: 200, pollMs: 100 });
    const task = await started;
    await vscode.commands.executeCommand('mcpWorkbench.cancelTask', { serverId: legacy.definition.id, taskId: task.taskId });
    const outcome = await submitted;
    assert.equal(outcome.kind, 'cancelled');
    assert.equal(legacy.tasks.get(task.taskId)?.status, 'cancelled');
    const item = await waitFor(async () => {
      const i = await taskItem(task.taskId);
      return i?.contextValue === 'task.cancelled' && i;
    }, 'the cancelled task in the tree');
    assert.match(String(item.description), /^cancelled/);
  });

  test('Cancel in Run Tool cancels the task on the server too', async () => {
    const panel = await openLongTask();
    const started = taskState(panel, (t) => t.status === 'working');
    const submitted = panel.submit({ steps: 100, delayMs: 200, pollMs: 100 });
    const task = await started;
    panel.cancel();
    assert.equal((await submitted).kind, 'cancelled');
    // The server's own list (tasks/list) says so, not just our tracker.
    await waitFor(async () => (await legacy.refreshTasks()).find((t) => t.taskId === task.taskId)?.status === 'cancelled', 'the server to cancel the task');
  });

  test('a 2026-07-28 server has no Tasks group (SDK 2.4.0 cannot follow 2026 tasks)', async () => {
    const modern = await running(api, 'fixture-modern');
    assert.equal(modern.offersTasks, false);
    assert.equal(await tasksGroup(modern), undefined);
    assert.ok(await tasksGroup(legacy), 'the 2025-11-25 server has one');
  });
});
