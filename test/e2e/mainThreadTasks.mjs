/**
 * The longest tasks of the browser's renderer main threads over a stretch of a test, each with
 * its wall time and the CPU time its thread spent on it, from a CDP trace of the `toplevel`
 * category (one event per task: cheap enough to leave on while measuring frames).
 *
 * Why both: on this shared two-core machine a task's wall time is its work plus the time its
 * thread waited for a core. A 57 ms long task of the Inspector's wheel scroll traced at load 2.9
 * (issue 29) had 24 ms of CPU: the rest was waiting. The CPU time is the page's own cost, which a
 * test can bound without racing the clock; the wall time is what a user on this machine saw.
 */

/**
 * Starts tracing; `stop()` ends it and returns the renderer main threads' tasks as `{ wallMs,
 * cpuMs, gcMs, workMs, thread, ts }` (`thread` is "pid:tid", `ts` the trace's µs): `longest`, the
 * `keep` longest by wall time, `busiest`, the `keep` longest by CPU time, and `hardest`, the
 * `keep` longest by work; and every event traced (`events`).
 *
 * `gcMs` is the CPU time V8's garbage collector took on the thread inside the task (V8's own `gc`
 * category: a few hundred events, cheap), `workMs` the rest of the task's CPU time: scripts, style,
 * layout and paint. The collector pauses for the whole heap of the renderer, which in VS Code
 * 1.139.1 the webviews share with the workbench (~150 MB with a 100,000-row recording, traced):
 * a task's work is the page's own cost, its collections are the heap's.
 *
 * More `categories` (a stress run's `devtools.timeline`, …) show what the tasks did, at a cost:
 * that tracing slows every step 1.5-2x.
 */
export async function traceMainThreadTasks(page, { keep = 5, categories = [] } = {}) {
  const cdp = await page.context().browser().newBrowserCDPSession();
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  await cdp.send('Tracing.start', { categories: ['toplevel', 'disabled-by-default-v8.gc', ...categories].join(','), transferMode: 'ReportEvents' });
  return {
    async stop() {
      const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
      await cdp.send('Tracing.end');
      await complete;
      await cdp.detach().catch(() => {});
      const mainThreads = new Set(
        events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`),
      );
      // A task is traced twice, nested (`ThreadControllerImpl::RunTask` around `RunTask`): the outer one counts.
      const tasks = outermost(events.filter((e) => /RunTask$/.test(e.name) && mainThreads.has(`${e.pid}:${e.tid}`))).map((e) => ({
        wallMs: e.dur / 1000,
        cpuMs: e.tdur === undefined ? undefined : e.tdur / 1000,
        thread: `${e.pid}:${e.tid}`,
        ts: e.ts,
      }));
      // The collector's CPU time in each task: its outermost events on the task's thread.
      // Grouped by thread once (Map.groupBy is Node 21+), not matched to each task's thread anew.
      const collections = new Map();
      for (const e of outermost(events.filter((e) => /^V8\.GC|^(Major|Minor)GC$/.test(e.name) && mainThreads.has(`${e.pid}:${e.tid}`)))) {
        const thread = `${e.pid}:${e.tid}`;
        if (!collections.has(thread)) collections.set(thread, []);
        collections.get(thread).push(e);
      }
      for (const task of tasks) {
        const end = task.ts + task.wallMs * 1000;
        task.gcMs = 0;
        for (const e of collections.get(task.thread) ?? []) if (e.ts >= task.ts && e.ts < end) task.gcMs += (e.tdur ?? e.dur) / 1000;
        task.workMs = task.cpuMs === undefined ? undefined : Math.max(0, task.cpuMs - task.gcMs);
      }
      // A task without a thread time (one the trace caught half-way) is ranked by wall time only.
      const timed = tasks.filter((t) => t.cpuMs !== undefined);
      if (tasks.length && !timed.length) throw new Error('the trace has no thread times (tdur): CPU time cannot be told from wall time');
      return {
        count: tasks.length,
        longest: [...tasks].sort((a, b) => b.wallMs - a.wallMs).slice(0, keep),
        busiest: [...timed].sort((a, b) => b.cpuMs - a.cpuMs).slice(0, keep),
        hardest: [...timed].sort((a, b) => b.workMs - a.workMs).slice(0, keep),
        events,
      };
    },
  };
}

/** The complete (`X`) events not nested in another of `events` on the same thread, oldest first. */
function outermost(events) {
  const kept = [];
  const lastEnd = new Map();
  for (const e of events.filter((e) => e.ph === 'X').sort((a, b) => a.ts - b.ts || b.dur - a.dur)) {
    const thread = `${e.pid}:${e.tid}`;
    if (e.ts < (lastEnd.get(thread) ?? -Infinity)) continue;
    lastEnd.set(thread, e.ts + e.dur);
    kept.push(e);
  }
  return kept;
}

/** "57 ms (24 ms CPU, 9 of it GC)" for each task. */
export function describeTasks(tasks) {
  return tasks
    .map(
      (t) =>
        `${Math.round(t.wallMs)} ms (${t.cpuMs === undefined ? 'CPU not traced' : `${Math.round(t.cpuMs)} ms CPU${t.gcMs >= 0.5 ? `, ${Math.round(t.gcMs)} of it GC` : ''}`})`,
    )
    .join(', ');
}

/**
 * What a task did, from a trace with `devtools.timeline` (and `disabled-by-default-v8.gc`): the
 * events inside it on its thread, by name (a script's by its function and file), with the CPU time
 * each took less the events nested in it, the busiest first; "FunctionCall onInput main.js 31 ms".
 */
export function taskBreakdown(events, task, top = 8) {
  const [pid, tid] = task.thread.split(':').map(Number);
  const end = task.ts + task.wallMs * 1000;
  const inside = events
    .filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X' && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end && !/RunTask$/.test(e.name))
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const entries = [];
  const open = [];
  for (const e of inside) {
    while (open.length && open.at(-1).ts + open.at(-1).dur <= e.ts) open.pop();
    const cpu = (e.tdur ?? e.dur) / 1000;
    if (open.length) open.at(-1).self -= cpu;
    const data = e.args?.data ?? {};
    const label = [e.name, data.functionName, data.url?.split('/').pop(), data.type, data.timerId === undefined ? undefined : 'timer']
      .filter(Boolean)
      .join(' ');
    const entry = { ts: e.ts, dur: e.dur, label, self: cpu };
    open.push(entry);
    entries.push(entry);
  }
  const byLabel = new Map();
  for (const { label, self } of entries) byLabel.set(label, (byLabel.get(label) ?? 0) + self);
  return [...byLabel]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([label, ms]) => `${label} ${ms.toFixed(1)} ms`)
    .join('; ');
}
