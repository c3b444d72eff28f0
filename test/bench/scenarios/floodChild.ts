/**
 * One contestant of the flood scenario in a fresh Node process (so memory numbers are its
 * own): `node --expose-gc floodChild.js <raw|bare|host> <notifications> <idle calls>`. Prints
 * one JSON line.
 *
 * Two servers: one floods, the other is quiet. Idle: echo calls to each with nothing else
 * going on. Flood: the flooding server's `flood` tool sends the notifications
 * (notifications/message, what a chatty server sends) while two loops keep calling echo, one
 * on the flooding server (its answer queues behind the notifications already in the pipe, so
 * this measures how fast the client works through them) and one on the quiet server (this
 * measures whether one busy server slows the whole client), until the flood's call returns.
 * Memory is sampled every 5 ms; "retained" is the heap after a full GC once the flood is over.
 */
import { connectBareStdio } from '../bareClient';
import { activateExtension, stdioEntry } from '../host';
import { connectRawStdio } from '../rawClient';
import { fixtureEnv, STDIO_FIXTURE } from '../scenario';
import { summarize, timeMs } from '../stats';

type Call = (name: string, args: Record<string, unknown>) => Promise<unknown>;

interface Contestant {
  flooding: Call;
  quiet: Call;
  received(): number;
  /** Host only: entries the Activity log holds (bounded by mcpWorkbench.activity.maxEntries). */
  activityEntries?(): number;
  close(): Promise<void>;
}

const ARGS = { text: 'benchmark' };
const knobs = { FIXTURE_FLOOD: '1' };

async function contestant(kind: string): Promise<Contestant> {
  let received = 0;
  if (kind === 'raw') {
    const [flooding, quiet] = await Promise.all([0, 1].map(() => connectRawStdio(process.execPath, [STDIO_FIXTURE], fixtureEnv(knobs))));
    flooding.onLogMessage(() => received++);
    const call = (c: typeof flooding): Call => (name, args) => c.request('tools/call', { name, arguments: args });
    return { flooding: call(flooding), quiet: call(quiet), received: () => received, close: async () => void (await Promise.all([flooding.close(), quiet.close()])) };
  }
  if (kind === 'bare') {
    const [flooding, quiet] = await Promise.all([0, 1].map(() => connectBareStdio(process.execPath, [STDIO_FIXTURE], fixtureEnv(knobs))));
    flooding.onLogMessage(() => received++);
    return {
      flooding: (name, args) => flooding.callTool(name, args),
      quiet: (name, args) => quiet.callTool(name, args),
      received: () => received,
      close: async () => void (await Promise.all([flooding.close(), quiet.close()])),
    };
  }
  const host = await activateExtension();
  await host.configure({ 'bench-flood': stdioEntry(STDIO_FIXTURE, knobs), 'bench-quiet': stdioEntry(STDIO_FIXTURE, knobs) });
  const flooding = host.running('bench-flood');
  const quiet = host.running('bench-quiet');
  // The lists both fetch on start, out of the way first.
  await Promise.all([flooding, quiet].flatMap((c) => [c.list('tools'), c.list('resources'), c.list('prompts'), c.list('resourceTemplates')]));
  // The server's log messages reach its output channel at their level ("info").
  const before = host.stub.outputLines.get('info') ?? 0;
  return {
    flooding: (name, args) => flooding.callTool(name, args),
    quiet: (name, args) => quiet.callTool(name, args),
    received: () => (host.stub.outputLines.get('info') ?? 0) - before,
    activityEntries: () => host.activityLog().size,
    close: () => host.deactivate(),
  };
}

async function main(): Promise<void> {
  const [kind, countArg, idleArg] = process.argv.slice(2);
  const count = Number(countArg);
  const idleCalls = Number(idleArg ?? 300);
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  const c = await contestant(kind);
  for (let i = 0; i < 100; i++) await Promise.all([c.flooding('echo', ARGS), c.quiet('echo', ARGS)]);
  const idleSame: number[] = [];
  const idleOther: number[] = [];
  for (let i = 0; i < idleCalls; i++) {
    idleSame.push(await timeMs(() => c.flooding('echo', ARGS)));
    idleOther.push(await timeMs(() => c.quiet('echo', ARGS)));
  }

  gc();
  const base = process.memoryUsage();
  let peakRss = base.rss;
  let peakHeap = base.heapUsed;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 5);
  const receivedBefore = c.received();
  let done = false;
  const same: number[] = [];
  const other: number[] = [];
  const loop = async (call: Call, into: number[]) => {
    while (!done) into.push(await timeMs(() => call('echo', ARGS)));
  };
  const flood = timeMs(() => c.flooding('flood', { count })).finally(() => (done = true));
  await Promise.all([loop(c.flooding, same), loop(c.quiet, other)]);
  const floodMs = await flood;
  clearInterval(sampler);
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
  gc();
  const after = process.memoryUsage();
  const received = c.received() - receivedBefore;
  const activityEntries = c.activityEntries?.();
  await c.close();
  const mb = (bytes: number) => bytes / 1024 / 1024;
  process.stdout.write(`${JSON.stringify({
    kind,
    count,
    received,
    floodMs,
    idleSame: summarize(idleSame),
    idleOther: summarize(idleOther),
    same: summarize(same),
    other: summarize(other),
    peakRssGrowthMb: mb(peakRss - base.rss),
    peakHeapGrowthMb: mb(peakHeap - base.heapUsed),
    retainedHeapMb: mb(after.heapUsed - base.heapUsed),
    activityEntries,
  })}\n`);
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
