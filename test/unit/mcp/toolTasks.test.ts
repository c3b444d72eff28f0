/**
 * Tool calls that run as tasks: the pure rules (reading tasks off the wire, the polling pace,
 * the tracker) and McpServerConnection against the v1 fixture's `longTask` (2025-11-25 tasks,
 * a real stdio server process).
 */
import * as assert from 'node:assert/strict';
import { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import { TaskCancelledError } from '../../../src/mcp/connection/toolCalls';
import { describeTask, MAX_POLL_MS, MIN_POLL_MS, pollDelay, taskFromWire, TaskTracker, type ToolTask } from '../../../src/mcp/connection/toolTasks';
import { definition, recordingHost, RecordingLog, stdioLaunch, textOf, waitFor } from './testHost';

describe('tool tasks', () => {
  describe('taskFromWire', () => {
    it('reads the 2025-11-25 shape (ttl, pollInterval)', () => {
      assert.deepEqual(
        taskFromWire({ taskId: 't1', status: 'working', ttl: 60000, pollInterval: 500, createdAt: 'c', lastUpdatedAt: 'u', statusMessage: 'step 1' }),
        { taskId: 't1', status: 'working', statusMessage: 'step 1', createdAt: 'c', lastUpdatedAt: 'u', pollIntervalMs: 500, ttlMs: 60000 },
      );
    });
    it('reads the extension shape (ttlMs, pollIntervalMs) and an unlimited ttl', () => {
      assert.deepEqual(taskFromWire({ taskId: 't2', status: 'completed', ttlMs: null, pollIntervalMs: 5000 }), {
        taskId: 't2',
        status: 'completed',
        pollIntervalMs: 5000,
        ttlMs: null,
      });
    });
    it('refuses what is not a task', () => {
      assert.equal(taskFromWire({ taskId: 't3', status: 'sleeping' }), undefined);
      assert.equal(taskFromWire({ status: 'working' }), undefined);
      assert.equal(taskFromWire('t4'), undefined);
    });
  });

  it('polls at the server’s pace, within bounds', () => {
    assert.equal(pollDelay({ pollIntervalMs: 2500 }), 2500);
    assert.equal(pollDelay({}), 1000);
    assert.equal(pollDelay({ pollIntervalMs: 0 }), MIN_POLL_MS);
    assert.equal(pollDelay({ pollIntervalMs: 3_600_000 }), MAX_POLL_MS);
  });

  it('describes a task in one line', () => {
    assert.equal(describeTask({ status: 'working', statusMessage: 'step 2 of 5' }), 'working: step 2 of 5');
    assert.equal(describeTask({ status: 'input_required' }), 'waiting for input');
    assert.equal(describeTask({ status: 'failed', statusMessage: 'x', error: 'boom' }), 'failed: boom');
  });

  it('keeps a terminal state: a late answer does not resurrect a cancelled task', () => {
    const tracker = new TaskTracker();
    const seen: (ToolTask | undefined)[] = [];
    tracker.onDidChange((t) => seen.push(t));
    tracker.update({ taskId: 'a', status: 'working', toolName: 'longTask' });
    tracker.update({ taskId: 'b', status: 'working' });
    tracker.update({ taskId: 'a', status: 'cancelled' });
    tracker.update({ taskId: 'a', status: 'working', statusMessage: 'step 3 of 5' });
    assert.equal(tracker.get('a')?.status, 'cancelled');
    assert.equal(tracker.get('a')?.toolName, 'longTask');
    assert.deepEqual(
      tracker.list().map((t) => t.taskId),
      ['b', 'a'],
      'newest first',
    );
    tracker.clear();
    assert.deepEqual(tracker.list(), []);
    assert.equal(seen.at(-1), undefined, 'clear fires once for the whole set');
  });

  describe('against a 2025-11-25 server (v1 SDK fixture, stdio)', function () {
    this.timeout(30000);
    const open: McpServerConnection[] = [];
    let host = recordingHost();
    const connect = () => {
      host = recordingHost();
      const c = new McpServerConnection(definition(stdioLaunch()), host, new RecordingLog());
      open.push(c);
      return c;
    };
    afterEach(async () => {
      await Promise.all(open.splice(0).map((c) => c.dispose()));
    });

    it('runs a task tool as a task: working with its progress, then the result', async () => {
      const c = connect();
      await c.start();
      const states: string[] = [];
      const result = await c.callTool(
        'longTask',
        { steps: 3, delayMs: 150, pollMs: 50 },
        { onTask: (t) => states.push(`${t.status}${t.statusMessage ? ` ${t.statusMessage}` : ''}`) },
      );
      assert.equal(textOf(result), 'task done after 3 steps');
      assert.equal(states[0], 'working', states.join(' | '));
      assert.ok(
        states.some((s) => /^working step \d of 3$/.test(s)),
        states.join(' | '),
      );
      assert.equal(states.at(-1)?.split(' ')[0], 'completed');
      const [task] = c.tasks.list();
      assert.equal(task?.toolName, 'longTask');
      assert.equal(task?.status, 'completed');
      assert.deepEqual(task?.result, result);
      const sent = host.traces.filter((t) => t.direction === 'send').map((t) => t.method);
      assert.ok(sent.includes('tasks/get') && sent.includes('tasks/result'), sent.join(', '));
    });

    it('cancels the task when the caller aborts (tasks/cancel), and the call ends as cancelled', async () => {
      const c = connect();
      await c.start();
      const abort = new AbortController();
      const running = c.callTool(
        'longTask',
        { steps: 50, delayMs: 100, pollMs: 50 },
        { signal: abort.signal, onTask: (t) => t.statusMessage && abort.abort() },
      );
      await assert.rejects(running);
      const [task] = c.tasks.list();
      assert.equal(task?.status, 'cancelled');
    });

    it('ends the call as cancelled when the task is cancelled elsewhere (cancelTask)', async () => {
      const c = connect();
      await c.start();
      const running = c.callTool('longTask', { steps: 50, delayMs: 100, pollMs: 50 });
      const task = await waitFor(async () => c.tasks.list()[0], 'the task to start');
      await c.cancelTask(task.taskId);
      await assert.rejects(running, (e) => e instanceof TaskCancelledError && e.taskId === task.taskId);
      assert.equal(c.tasks.get(task.taskId)?.status, 'cancelled');
    });

    it('follows notifications/tasks/status between polls', async () => {
      const c = connect();
      await c.start();
      // A poll every 5 s: the steps (100 ms each) can only be seen early through the notifications.
      const started = Date.now();
      const seen: string[] = [];
      c.tasks.onDidChange((t) => t?.statusMessage && Date.now() - started < 4000 && seen.push(t.statusMessage));
      assert.equal(textOf(await c.callTool('longTask', { steps: 3, delayMs: 100, pollMs: 5000 })), 'task done after 3 steps');
      assert.ok(seen.includes('step 2 of 3'), `seen before the first poll: ${seen.join(', ')}`);
    });

    it('shows a failed task with its result, and lists the server’s tasks (tasks/list)', async () => {
      const c = connect();
      await c.start();
      const result = await c.callTool('longTask', { steps: 1, delayMs: 50, pollMs: 50, fail: true });
      assert.equal(result.isError, true);
      assert.equal(c.tasks.list()[0]?.status, 'failed');
      c.tasks.clear();
      const listed = await c.refreshTasks();
      assert.equal(listed.length, 1);
      assert.equal(listed[0]?.status, 'failed');
    });
  });
});
