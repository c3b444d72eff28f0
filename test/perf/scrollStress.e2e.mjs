// A stress run of issue 29's scrolling, not part of `npm test` (it judges nothing): imports the
// 100,000-message recording into the Inspector of the real workbench and wheel-scrolls it
// MCPWB_SCROLL_ROUNDS times 30 ticks of 600 px (down, up, …: four times the e2e step's phase by
// default), then logs the page's long tasks over 50 ms, the load, and the renderer main threads'
// longest tasks with their CPU time (mainThreadTasks.mjs). With MCPWB_TRACE_OUT set it
// records a CDP trace of the whole browser meanwhile (timeline categories; tracing slows every
// step 1.5-2x) into that file, for `chrome://tracing` or a script. Run it with the e2e launcher:
//   node test/launch/runInCodeServer.mjs --e2e test/perf/scrollStress.e2e.mjs --vscode 1.139.1
// Two builds compared: run it from each build's folder in turn (docs/performance.md, issue 29).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCommand } from '../e2e/workbench.mjs';
import { importBigRecording } from '../e2e/inspector.e2e.mjs';
import { describeTasks, traceMainThreadTasks } from '../e2e/mainThreadTasks.mjs';

export async function run({ page, step, workspace, log }) {
  await step(
    'wheel-scroll a 100,000-message recording in the Inspector; the page long tasks',
    async () => {
      const big = path.join(path.dirname(workspace), `mcpwb-e2e-big-${Date.now().toString(36)}.jsonl`);
      await runCommand(page, 'MCP: Open Inspector');
      const { imported } = await importBigRecording(page, big);
      await page.waitForTimeout(1000);
      const box = await imported.locator('.list-pane').boundingBox();
      await imported.evaluate(() => {
        const seen = (window.__frames = { longTasks: [] });
        new PerformanceObserver((l) => l.getEntries().forEach((e) => seen.longTasks.push(Math.round(e.duration)))).observe({ type: 'longtask' });
      });
      const traceOut = process.env.MCPWB_TRACE_OUT;
      const cdp = traceOut ? await page.context().browser().newBrowserCDPSession() : undefined;
      const events = [];
      if (cdp) {
        cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
        await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
      }
      const tasks = cdp ? undefined : await traceMainThreadTasks(page);
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      const rounds = Number(process.env.MCPWB_SCROLL_ROUNDS ?? 4);
      for (let round = 0; round < rounds; round++) {
        for (let i = 0; i < 30; i++) {
          await page.mouse.wheel(0, round % 2 ? -600 : 600);
          await page.waitForTimeout(30);
        }
      }
      await page.waitForTimeout(300);
      const longTasks = await imported.evaluate(() => window.__frames.longTasks);
      log(`long tasks ${JSON.stringify(longTasks)} in ${rounds * 30} wheel ticks; load ${os.loadavg()[0].toFixed(1)}`);
      if (tasks) {
        const { count, longest, busiest } = await tasks.stop();
        log(`${count} renderer main-thread tasks; longest ${describeTasks(longest)}; most CPU ${describeTasks(busiest)}`);
      }
      if (cdp) {
        const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
        await cdp.send('Tracing.end');
        await complete;
        fs.writeFileSync(traceOut, JSON.stringify({ traceEvents: events }));
        log(`trace: ${events.length} events in ${traceOut}`);
      }
      fs.rmSync(big, { force: true });
    },
    { timeout: 600_000 },
  );
}
