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
 * cpuMs, thread }` (`thread` is "pid:tid"): `longest`, the `keep` longest by wall time, and
 * `busiest`, the `keep` longest by CPU time.
 */
export async function traceMainThreadTasks(page, keep = 5) {
  const cdp = await page.context().browser().newBrowserCDPSession();
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  await cdp.send('Tracing.start', { categories: 'toplevel', transferMode: 'ReportEvents' });
  return {
    async stop() {
      const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
      await cdp.send('Tracing.end');
      await complete;
      await cdp.detach().catch(() => {});
      const mainThreads = new Set(
        events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`),
      );
      const tasks = events
        .filter((e) => e.ph === 'X' && /RunTask$/.test(e.name) && mainThreads.has(`${e.pid}:${e.tid}`))
        .map((e) => ({ wallMs: e.dur / 1000, cpuMs: e.tdur === undefined ? undefined : e.tdur / 1000, thread: `${e.pid}:${e.tid}` }));
      // A task without a thread time (one the trace caught half-way) is ranked by wall time only.
      const timed = tasks.filter((t) => t.cpuMs !== undefined);
      if (tasks.length && !timed.length) throw new Error('the trace has no thread times (tdur): CPU time cannot be told from wall time');
      return {
        count: tasks.length,
        longest: [...tasks].sort((a, b) => b.wallMs - a.wallMs).slice(0, keep),
        busiest: timed.sort((a, b) => b.cpuMs - a.cpuMs).slice(0, keep),
      };
    },
  };
}

/** "57 ms (24 ms CPU)" for each task. */
export function describeTasks(tasks) {
  return tasks.map((t) => `${Math.round(t.wallMs)} ms (${t.cpuMs === undefined ? 'CPU not traced' : `${Math.round(t.cpuMs)} ms CPU`})`).join(', ');
}
