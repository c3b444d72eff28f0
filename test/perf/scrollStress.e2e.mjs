// A stress run of issue 29's scrolling, not part of `npm test` (it judges nothing): imports the
// 100,000-message recording into the Inspector of the real workbench and wheel-scrolls it
// MCPWB_SCROLL_ROUNDS times 30 ticks of 600 px (down, up, …: four times the e2e step's phase by
// default), jumps through it with the scrollbar MCPWB_JUMP_ROUNDS times 7 (4), types and erases a
// filter MCPWB_TYPE_ROUNDS times (2), then logs the page's long
// tasks over 50 ms, the load, and the renderer main threads' longest tasks with their CPU time
// (mainThreadTasks.mjs). With MCPWB_TRACE_OUT set the trace also holds the timeline and V8's
// collections (tracing slows every step 1.5-2x): it goes into that file, for `chrome://tracing`
// or a script, and the busiest tasks are logged with what they did. MCPWB_TASKS_OUT writes the
// light trace (each task's wall and CPU time, the collector's) to that file, for statistics over
// many tasks without the timeline's slowdown. Run it with the e2e launcher:
//   node test/launch/runInCodeServer.mjs --e2e test/perf/scrollStress.e2e.mjs --vscode 1.139.1
// Two builds compared: run it from each build's folder in turn (docs/performance.md, issue 29).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCommand } from '../e2e/workbench.mjs';
import { importBigRecording, typeAndEraseFilter, watchPageFrames } from '../e2e/inspector.e2e.mjs';
import { describeTasks, taskBreakdown, traceMainThreadTasks } from '../e2e/mainThreadTasks.mjs';

export async function run({ page, step, workspace, log }) {
  await step(
    'wheel-scroll a 100,000-message recording in the Inspector and type a filter; the long tasks',
    async () => {
      const big = path.join(path.dirname(workspace), `mcpwb-e2e-big-${Date.now().toString(36)}.jsonl`);
      await runCommand(page, 'MCP: Open Inspector');
      const { imported } = await importBigRecording(page, big);
      await page.waitForTimeout(1000);
      const box = await imported.locator('.list-pane').boundingBox();
      await watchPageFrames(imported);
      const traceOut = process.env.MCPWB_TRACE_OUT;
      // With a file to write, what the tasks did as well: the timeline (V8's collections are always traced).
      const tasks = await traceMainThreadTasks(page, {
        categories: traceOut ? ['devtools.timeline', 'disabled-by-default-devtools.timeline'] : [],
      });
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      const rounds = Number(process.env.MCPWB_SCROLL_ROUNDS ?? 4);
      for (let round = 0; round < rounds; round++) {
        for (let i = 0; i < 30; i++) {
          await page.mouse.wheel(0, round % 2 ? -600 : 600);
          await page.waitForTimeout(30);
        }
      }
      // Scrollbar jumps, as the e2e step does: each one lays out a screenful of rows never drawn before.
      const pane = imported.locator('.list-pane');
      const jumps = Number(process.env.MCPWB_JUMP_ROUNDS ?? 4);
      for (let round = 0; round < jumps; round++) {
        for (const at of [0.9, 0.1, 0.5, 0.75, 0.25, 1, 0]) {
          await pane.evaluate((el, f) => (el.scrollTop = f * el.scrollHeight), (at + round * 0.013) % 1);
          await page.waitForTimeout(50);
        }
      }
      // Typing a filter, as the e2e step does: a keystroke filters the 100,000 rows in slices, and
      // once typing pauses the host answers which payloads hold the words.
      const typing = Number(process.env.MCPWB_TYPE_ROUNDS ?? 2);
      for (let round = 0; round < typing; round++) {
        await typeAndEraseFilter(imported);
        await page.waitForTimeout(500);
      }
      await page.waitForTimeout(300);
      const longTasks = await imported.evaluate(() => window.__frames.longTasks.map((t) => `${t.ms} ms (${t.whose})`));
      await imported.evaluate(() => (window.__frames.stop = true));
      log(
        `long tasks ${JSON.stringify(longTasks)} in ${rounds * 30} wheel ticks, ${jumps * 7} scrollbar jumps and ${typing} filters typed; load ${os.loadavg()[0].toFixed(1)}`,
      );
      const { count, longest, busiest, hardest, events } = await tasks.stop();
      log(`${count} renderer main-thread tasks; longest ${describeTasks(longest)}; most CPU ${describeTasks(busiest)}; most work ${describeTasks(hardest)}`);
      if (traceOut) for (const task of new Set([...busiest, ...hardest])) log(`  ${describeTasks([task])}: ${taskBreakdown(events, task)}`);
      const out = traceOut ?? process.env.MCPWB_TASKS_OUT;
      if (out) {
        fs.writeFileSync(out, JSON.stringify({ traceEvents: events }));
        log(`trace: ${events.length} events in ${out}`);
      }
      fs.rmSync(big, { force: true });
    },
    { timeout: 600_000 },
  );
}
