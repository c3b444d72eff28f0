/**
 * One run of the inspector scenario in a fresh Node process:
 * `node inspectorFloodChild.js <notifications> <iterations> <warmup> [record.json]`. Prints one JSON line.
 * With `--alone=bare` or `--alone=closed` (any place in the arguments) that one contestant runs by
 * itself in the process (no other client, no extension beside the bare SDK): the scenario
 * compares the two apart as well, since sharing a process can move their ratio (docs/performance.md).
 *
 * One tools/call of the fixture's `flood` tool (that many notifications/message) per sample, by
 * three contestants in this process, taking turns in rotating order (stats.ts, rules 1–3):
 * - bare: the bare SDK client;
 * - closed: the extension (recording on, as shipped), no Inspector open;
 * - panel: the same extension and server connection with the Inspector's bottom-panel view
 *   resolved and its page ready before the call: the panel's host side (InspectorController)
 *   is subscribed to the Activity log and posts to the page while the flood comes in, as when
 *   the panel is visible. The view is disposed after the sample, so `closed` never has it.
 * The webview is the one fake (VS Code's own side cannot run here): its postMessage serializes
 * the message as VS Code does (JSON) and counts messages and bytes; nothing renders here (the
 * page's time is measured apart, in inspectorPage.ts, from the messages recorded in the last
 * panel sample when a file is given).
 *
 * A sample is the call's wall time. For the panel also "settled": until the host has posted the
 * call's finished row (what the user waits for to see the result in the panel). The Activity log
 * is cleared before each of the extension's samples: each is one call's 2,000 notifications
 * (half of them evicted at the default 1,000 entries), not the eviction of the last sample's.
 */
import * as fs from 'node:fs';
import { connectBareStdio } from '../bareClient';
import { activateExtension, stdioEntry } from '../host';
import { fixtureEnv, STDIO_FIXTURE } from '../scenario';
import { rotation, summarize, timeMs } from '../stats';
import { EventEmitter } from '../vscodeStub';
import type { InspectorController } from '../../../src/inspector/inspectorController';
import type { InspectorRow } from '../../../src/inspector/common/inspectorRows';

const VIEW_ID = 'mcpWorkbench.inspectorView';
const knobs = { FIXTURE_FLOOD: '1' };
/** Between samples: the log's batched flush (20 ms) and the panel's last batch run here, not in the next contestant's sample. */
const PAUSE_MS = 250;

interface Posted {
  at: number;
  json: string;
}

/** A resolved Inspector view with a webview that counts what the host posts. */
interface FakeView {
  controller: InspectorController;
  posted: Posted[];
  dispose(): void;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const flat = (rows: readonly InspectorRow[]): InspectorRow[] => rows.flatMap((r) => [r, ...flat(r.children)]);

async function main(): Promise<void> {
  const alone = process.argv.find((a) => a.startsWith('--alone='))?.slice('--alone='.length) as 'bare' | 'closed' | undefined;
  if (alone && alone !== 'bare' && alone !== 'closed') throw new Error(`--alone=${String(alone)}: bare or closed`);
  const [countArg, iterationsArg, warmupArg, recordFile] = process.argv.slice(2).filter((a) => !a.startsWith('--alone='));
  if (alone) return runAlone(alone, Number(countArg), Number(iterationsArg), Number(warmupArg));
  const count = Number(countArg);
  const iterations = Number(iterationsArg);
  const warmup = Number(warmupArg);

  const bare = await connectBare(count);
  const extension = await connectExtension(count);
  const { host, connection } = extension;
  const provider = host.stub.webviewViews.get(VIEW_ID) as { resolveWebviewView(view: unknown): Promise<void> | void; controller?: InspectorController } | undefined;
  if (!provider) throw new Error(`the extension registered no ${VIEW_ID} provider`);

  const openView = async (): Promise<FakeView> => {
    const posted: Posted[] = [];
    const fromPage = new EventEmitter<unknown>();
    const disposed = new EventEmitter<void>();
    const webview = {
      options: {},
      html: '',
      cspSource: 'bench:',
      asWebviewUri: (uri: unknown) => uri,
      onDidReceiveMessage: fromPage.event,
      postMessage: (message: unknown) => {
        // What VS Code does with every message: serialize it for the renderer.
        posted.push({ at: performance.now(), json: JSON.stringify(message) });
        return Promise.resolve(true);
      },
    };
    const view = { webview, visible: true, show: () => undefined, onDidChangeVisibility: new EventEmitter<void>().event, onDidDispose: disposed.event };
    // The controller's code loads on first use (dist/features.js): resolving waits for it, as VS Code does.
    await provider.resolveWebviewView(view);
    const controller = provider.controller;
    if (!controller) throw new Error('the Inspector view resolved without a controller');
    // The page loads and says so; the host answers with every row.
    fromPage.fire({ type: 'ready' });
    if (!posted.length) await new Promise<void>((resolve) => setImmediate(resolve));
    return { controller, posted, dispose: () => disposed.fire() };
  };

  const floodArgs = { count };
  let recorded: { setup: Posted[]; flood: Posted[]; start: number } | undefined;
  const samples: Record<'bare' | 'closed' | 'panel', number[]> = { bare: [], closed: [], panel: [] };
  const settled: number[] = [];
  const messages: number[] = [];
  const bytes: number[] = [];
  const names = ['bare', 'closed', 'panel'] as const;
  for (let i = 0; i < warmup + iterations; i++) {
    for (const name of rotation(names, i)) {
      let ms: number;
      if (name === 'bare') ms = await bare.flood();
      else if (name === 'closed') ms = await extension.flood();
      else {
        host.activityLog().clear();
        const view = await openView();
        const setup = view.posted.length;
        const newest = Math.max(0, ...flat(view.controller.rows).map((r) => r.seq));
        const start = performance.now();
        // Settled: the host has sent the call's row with its result (the controller's rows are what it last sent).
        const done = new Promise<number>((resolve) => {
          const check = () => {
            if (flat(view.controller.rows).some((r) => r.seq > newest && r.name === 'flood' && r.status === 'result')) {
              subscription.dispose();
              resolve(performance.now() - start);
            }
          };
          const subscription = view.controller.onDidUpdate(check);
        });
        ms = await timeMs(() => connection.callTool('flood', floodArgs));
        const settledMs = await Promise.race([done, pause(30_000).then(() => NaN)]);
        if (i >= warmup) {
          settled.push(settledMs);
          const during = view.posted.slice(setup);
          messages.push(during.length);
          bytes.push(during.reduce((sum, p) => sum + Buffer.byteLength(p.json, 'utf8'), 0));
          recorded = { setup: view.posted.slice(0, setup), flood: during, start };
        }
        view.dispose();
      }
      if (i >= warmup) samples[name].push(ms);
      await pause(PAUSE_MS);
    }
  }
  if (recordFile && recorded) fs.writeFileSync(recordFile, JSON.stringify(recorded));
  const entries = host.activityLog().size;
  await bare.close();
  await extension.close();
  process.stdout.write(
    `${JSON.stringify({
      count,
      bare: summarize(samples.bare),
      closed: summarize(samples.closed),
      panel: summarize(samples.panel),
      settled: summarize(settled),
      messages: summarize(messages),
      bytes: summarize(bytes),
      activityEntries: entries,
    })}\n`,
  );
  process.exit(0);
}

/** One contestant by itself: its samples, one JSON line `{ alone, samples }`. */
async function runAlone(alone: 'bare' | 'closed', count: number, iterations: number, warmup: number): Promise<void> {
  const contestant = alone === 'bare' ? await connectBare(count) : await connectExtension(count);
  const samples: number[] = [];
  for (let i = 0; i < warmup + iterations; i++) {
    const ms = await contestant.flood();
    if (i >= warmup) samples.push(ms);
    await pause(PAUSE_MS);
  }
  await contestant.close();
  process.stdout.write(`${JSON.stringify({ alone, samples: summarize(samples) })}\n`);
  process.exit(0);
}

/** A contestant ready for samples: `flood()` makes one call of `count` notifications, checks every one arrived, and gives its wall time. */
interface Contestant {
  flood(): Promise<number>;
  close(): Promise<void>;
}

/** The bare SDK client, connected to its own fixture server. */
async function connectBare(count: number): Promise<Contestant> {
  const bare = await connectBareStdio(process.execPath, [STDIO_FIXTURE], fixtureEnv(knobs));
  let received = 0;
  bare.onLogMessage(() => received++);
  return {
    flood: async () => {
      const before = received;
      const ms = await timeMs(() => bare.callTool('flood', { count }));
      if (received - before !== count) throw new Error(`bare received ${received - before} of ${count}`);
      return ms;
    },
    close: () => bare.close(),
  };
}

/**
 * The extension with the fixture server running and listed (as the Servers view would), no
 * Inspector open. `flood()` clears the Activity log first: each sample is one call's
 * notifications, not the eviction of the last sample's.
 */
async function connectExtension(count: number) {
  const host = await activateExtension();
  await host.configure({ 'bench-flood': stdioEntry(STDIO_FIXTURE, knobs) });
  const connection = host.running('bench-flood');
  await Promise.all([connection.list('tools'), connection.list('resources'), connection.list('prompts'), connection.list('resourceTemplates')]);
  const received = () => host.stub.outputLines.get('info') ?? 0;
  return {
    host,
    connection,
    flood: async () => {
      host.activityLog().clear();
      const before = received();
      const ms = await timeMs(() => connection.callTool('flood', { count }));
      if (received() - before !== count) throw new Error(`host received ${received() - before} of ${count}`);
      return ms;
    },
    close: () => host.deactivate(),
  };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
