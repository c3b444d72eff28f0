/**
 * A list too big to spread into function arguments: 200k tools in one page (the server is
 * allowed to send everything at once). Reports whether each contestant lists it, and how
 * long that took; the host also builds every tree item when the listing works. A pass/fail
 * check more than a race: one listing per contestant per run, bare SDK first.
 */
import type { GroupNode, ServerNode, TreeNode } from '../../../src/servers/serverTreeNodes';
import { connectBareStdio } from '../bareClient';
import { activateExtension, stdioEntry } from '../host';
import { fixtureEnv, STDIO_FIXTURE, type BenchOptions, type Scenario, type ScenarioResult } from '../scenario';
import { timeMs } from '../stats';

interface Outcome {
  ok: boolean;
  ms: number;
  items?: number;
  error?: string;
}

async function attempt(fn: () => Promise<number>): Promise<Outcome> {
  let items = 0;
  try {
    const ms = await timeMs(async () => (items = await fn()));
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
    const host = await activateExtension();
    const tree = host.api.testing.serverTree;
    const outcomes: { bare: Outcome; host: Outcome; tree?: Outcome }[] = [];
    for (let run = 0; run < options.runs; run++) {
      const bare = await connectBareStdio(process.execPath, [STDIO_FIXTURE], fixtureEnv(knobs));
      const bareOutcome = await attempt(() => bare.listTools());
      await bare.close();
      await host.configure({ 'bench-biglist': stdioEntry(STDIO_FIXTURE, knobs) });
      const connection = host.running('bench-biglist');
      await connection.list('tools').catch(() => undefined); // the fetch the start began by itself
      const hostOutcome = await attempt(async () => (await connection.refresh('tools')).length);
      let treeOutcome: Outcome | undefined;
      if (hostOutcome.ok) {
        const serverNode = (await tree.getChildren()).find((n) => n.kind === 'server' && n.serverId === connection.definition.id) as ServerNode;
        treeOutcome = await attempt(async () => {
          const group = ((await tree.getChildren(serverNode)) as GroupNode[]).find((g) => g.list === 'tools')!;
          const nodes = (await tree.getChildren(group)) as TreeNode[];
          for (const node of nodes) tree.getTreeItem(node);
          return nodes.length;
        });
      }
      await host.configure({});
      outcomes.push({ bare: bareOutcome, host: hostOutcome, tree: treeOutcome });
      options.log(`  biglist run ${run + 1}: bare ${bareOutcome.ok ? `ok ${bareOutcome.ms.toFixed(0)} ms` : bareOutcome.error}, host ${hostOutcome.ok ? `ok ${hostOutcome.ms.toFixed(0)} ms` : hostOutcome.error}`);
    }
    const describe = (o: Outcome | undefined) => (!o ? 'not reached' : o.ok ? `ok, ${o.items} items, ${Math.round(o.ms)} ms` : `ERROR ${o.error}`);
    const hostOk = outcomes.every((o) => o.host.ok && o.tree?.ok);
    return {
      id: 'biglist',
      title: `${count} tools in one page, ${options.runs} run(s)`,
      params: { tools: count, pageSize: 0, runs: options.runs },
      table: {
        header: ['contestant', ...outcomes.map((_, i) => `run ${i + 1}`)],
        rows: [
          ['bare SDK listTools', ...outcomes.map((o) => describe(o.bare))],
          ['host listing (shipped)', ...outcomes.map((o) => describe(o.host))],
          ['host tree items', ...outcomes.map((o) => describe(o.tree))],
        ],
      },
      goals: [{
        goal: `${count} items list without error`,
        measured: hostOk ? 'no error' : outcomes.map((o) => o.host.error ?? o.tree?.error).find(Boolean) ?? 'error',
        // Pass/fail, so it is judged in smoke runs too (as a report, never as a failure).
        met: options.smoke && count < 200_000 ? undefined : hostOk,
      }],
      notes: [],
      data: outcomes,
    };
  },
};
