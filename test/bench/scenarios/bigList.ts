/**
 * A list too big to spread into function arguments: 200k tools in one page (a server may send
 * everything at once). Reports whether each contestant lists all of it, and how long that
 * took; the host also builds every tree item when the listing works. A pass/fail check more
 * than a race: one listing per contestant per run, bare SDK first.
 *
 * Over Streamable HTTP (the fixture in its own process): over stdio the SDK's ReadBuffer
 * refuses any message above 10 MB and closes the connection, bare SDK and host alike, and
 * 200k tools are about 27 MB.
 */
import type { GroupNode, ServerNode, TreeNode } from '../../../src/servers/serverTreeNodes';
import { connectBareHttp } from '../bareClient';
import { activateExtension } from '../host';
import { connectRawStdio, rawListAll } from '../rawClient';
import { fixtureEnv, startHttpFixtureProcess, STDIO_FIXTURE, type BenchOptions, type Scenario, type ScenarioResult } from '../scenario';
import { timeMs } from '../stats';

interface Outcome {
  ok: boolean;
  ms: number;
  items?: number;
  error?: string;
}

/** Runs `fn` (which returns how many items it got); anything but `expected` items is an error. */
async function attempt(expected: number, fn: () => Promise<number>): Promise<Outcome> {
  let items = 0;
  try {
    const ms = await timeMs(async () => (items = await fn()));
    if (items !== expected) return { ok: false, ms, items, error: `got ${items} of ${expected} items` };
    return { ok: true, ms, items };
  } catch (error) {
    return { ok: false, ms: NaN, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

export const scenario: Scenario = {
  id: 'biglist',
  async run(options: BenchOptions): Promise<ScenarioResult> {
    const count = options.smoke ? 20_000 : 200_000;
    const knobs = { FIXTURE_EXTRA_TOOLS: String(count), FIXTURE_PAGE_SIZE: '0' };
    // The generated tools plus the fixture's own (counted on a fixture without the knobs).
    const plain = await connectRawStdio(process.execPath, [STDIO_FIXTURE], fixtureEnv());
    const expected = count + (await rawListAll(plain, ['tools'])).tools;
    await plain.close();
    const host = await activateExtension();
    const tree = host.api.testing.serverTree;
    const outcomes: { bare: Outcome; host: Outcome; again: Outcome; tree?: Outcome }[] = [];
    const describe = (o: Outcome | undefined) => (!o ? 'not reached' : o.ok ? `ok, ${o.items} items, ${Math.round(o.ms)} ms` : `ERROR ${o.error}`);
    const fixture = await startHttpFixtureProcess(knobs);
    try {
      for (let run = 0; run < options.runs; run++) {
        const bare = await connectBareHttp(fixture.url);
        const bareOutcome = await attempt(expected, () => bare.listTools());
        await bare.close();
        await host.configure({ 'bench-biglist': { type: 'http', url: fixture.url } });
        const started = host.api.server('bench-biglist');
        if (started?.state.kind !== 'running') {
          // A host that cannot connect has not listed the items: an outcome, not a crash of the bench.
          const error = `did not start: ${started ? JSON.stringify(started.state).slice(0, 300) : 'not configured'}`;
          outcomes.push({ bare: bareOutcome, host: { ok: false, ms: NaN, error }, again: { ok: false, ms: NaN, error: 'not reached' } });
          options.log(`  biglist run ${run + 1}: bare ${describe(bareOutcome)}; host ERROR ${error}`);
          await host.configure({});
          continue;
        }
        const connection = host.running('bench-biglist');
        // The listing the start began by itself (what a user gets), timed from when the server runs; then a second one.
        const hostOutcome = await attempt(expected, async () => (await connection.list('tools')).length);
        const againOutcome = await attempt(expected, async () => (await connection.refresh('tools')).length);
        let treeOutcome: Outcome | undefined;
        if (hostOutcome.ok || againOutcome.ok) {
          const serverNode = (await tree.getChildren()).find((n) => n.kind === 'server' && n.serverId === connection.definition.id) as ServerNode;
          treeOutcome = await attempt(expected, async () => {
            const group = ((await tree.getChildren(serverNode)) as GroupNode[]).find((g) => g.list === 'tools')!;
            const nodes = (await tree.getChildren(group)) as TreeNode[];
            for (const node of nodes) tree.getTreeItem(node);
            return nodes.length;
          });
        }
        await host.configure({});
        outcomes.push({ bare: bareOutcome, host: hostOutcome, again: againOutcome, tree: treeOutcome });
        options.log(`  biglist run ${run + 1}: bare ${describe(bareOutcome)}; host ${describe(hostOutcome)}; again ${describe(againOutcome)}`);
      }
    } finally {
      await fixture.stop();
    }
    const hostOk = outcomes.every((o) => o.host.ok && o.again.ok && o.tree?.ok);
    return {
      id: 'biglist',
      title: `${count} tools in one page over Streamable HTTP, ${options.runs} run(s)`,
      params: { tools: count, pageSize: 0, runs: options.runs },
      table: {
        header: ['contestant', ...outcomes.map((_, i) => `run ${i + 1}`)],
        rows: [
          ['bare SDK listTools', ...outcomes.map((o) => describe(o.bare))],
          ['host listing at start (shipped)', ...outcomes.map((o) => describe(o.host))],
          ['host listing again (refresh)', ...outcomes.map((o) => describe(o.again))],
          ['host tree items', ...outcomes.map((o) => describe(o.tree))],
        ],
      },
      goals: [{
        goal: `${count} items list without error`,
        measured: hostOk ? 'no error' : outcomes.map((o) => o.host.error ?? o.again.error ?? o.tree?.error).find(Boolean) ?? 'error',
        // Pass/fail, so it is judged in smoke runs too (as a report, never as a failure).
        met: options.smoke && count < 200_000 ? undefined : hostOk,
      }],
      notes: [],
      data: outcomes,
    };
  },
};
