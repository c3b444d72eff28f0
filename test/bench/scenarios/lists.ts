/**
 * Listing 10k tools and 10k resources served in pages of 100 (the stdio fixture with
 * FIXTURE_EXTRA_TOOLS / FIXTURE_EXTRA_RESOURCES / FIXTURE_PAGE_SIZE), one listing per
 * contestant per iteration in rotating order (stats.ts, rules 1–5):
 *
 * - raw pipe: pages through tools/list then resources/list as newline JSON (the floor)
 * - bare SDK: the same paging with the SDK's listTools / listResources
 * - host, listing: the shipped connection refetches both lists (`refresh`, the path a
 *   list_changed notification takes), Activity recording on
 * - host, listing + tree items: the same, then the real Servers tree (ServerTreeProvider)
 *   returns the Tools and Resources group children and builds every TreeItem, as VS Code's
 *   extension host asks for all children of an expanded node at once
 */
import type { ServerNode, GroupNode, TreeNode } from '../../../src/servers/serverTreeNodes';
import { connectBareStdio } from '../bareClient';
import { activateExtension, stdioEntry } from '../host';
import { connectRawStdio, rawListAll } from '../rawClient';
import { fixtureEnv, goal, latencyTable, STDIO_FIXTURE, type BenchOptions, type Scenario, type ScenarioResult } from '../scenario';
import { interleave, ratios, summarize, type ContestantResult, type ContestantRun } from '../stats';

export const scenario: Scenario = {
  id: 'lists',
  async run(options: BenchOptions): Promise<ScenarioResult> {
    const count = options.smoke ? 1000 : 10_000;
    const pageSize = 100;
    const iterations = options.smoke ? 2 : 10;
    const warmup = options.smoke ? 1 : 2;
    const knobs = { FIXTURE_EXTRA_TOOLS: String(count), FIXTURE_EXTRA_RESOURCES: String(count), FIXTURE_PAGE_SIZE: String(pageSize) };
    const host = await activateExtension();
    const tree = host.api.testing.serverTree;
    const runs: Record<string, ContestantRun[]> = { raw: [], bare: [], list: [], tree: [] };
    let treeItems = 0;
    for (let run = 0; run < options.runs; run++) {
      const [raw, bare] = await Promise.all([
        connectRawStdio(process.execPath, [STDIO_FIXTURE], fixtureEnv(knobs)),
        connectBareStdio(process.execPath, [STDIO_FIXTURE], fixtureEnv(knobs)),
        host.configure({ 'bench-lists': stdioEntry(STDIO_FIXTURE, knobs) }),
      ]);
      const connection = host.running('bench-lists');
      // Let the lists the connection fetches by itself on start finish first.
      await Promise.all([connection.list('tools'), connection.list('resources')]);
      const serverNode = (await tree.getChildren()).find((n) => n.kind === 'server' && n.serverId === connection.definition.id) as ServerNode;
      const buildTree = async () => {
        let built = 0;
        const groups = (await tree.getChildren(serverNode)) as GroupNode[];
        for (const group of groups.filter((g) => g.list === 'tools' || g.list === 'resources')) {
          for (const node of (await tree.getChildren(group)) as TreeNode[]) {
            tree.getTreeItem(node);
            built++;
          }
        }
        return built;
      };
      const expected = await rawListAll(raw, ['tools', 'resources']);
      const samples = await interleave({
        raw: () => rawListAll(raw, ['tools', 'resources']),
        bare: () => bare.listToolsAndResources(),
        list: async () => {
          await connection.refresh('tools');
          await connection.refresh('resources');
        },
        tree: async () => {
          await connection.refresh('tools');
          await connection.refresh('resources');
          treeItems = await buildTree();
        },
      }, iterations, warmup);
      if (treeItems !== expected.tools + expected.resources) throw new Error(`built ${treeItems} tree items, expected ${expected.tools + expected.resources}`);
      for (const [name, s] of Object.entries(samples)) runs[name].push(summarize(s));
      options.log(`  lists run ${run + 1}: p50 raw ${runs.raw[run].p50.toFixed(0)} ms, bare ${runs.bare[run].p50.toFixed(0)} ms, host list ${runs.list[run].p50.toFixed(0)} ms, host list+tree ${runs.tree[run].p50.toFixed(0)} ms`);
      await Promise.all([raw.close(), bare.close(), host.configure({})]);
    }
    const contestants: ContestantResult[] = [
      { name: 'raw', label: 'raw pipe paging (floor)', unit: 'ms', runs: runs.raw, ...ratios(runs.raw, runs.bare) },
      { name: 'bare', label: 'bare SDK paging', unit: 'ms', runs: runs.bare },
      { name: 'list', label: 'host listing (shipped)', unit: 'ms', runs: runs.list, ...ratios(runs.list, runs.bare) },
      { name: 'tree', label: 'host listing + every tree item (shipped)', unit: 'ms', runs: runs.tree, ...ratios(runs.tree, runs.bare) },
    ];
    return {
      id: 'lists',
      title: `${count} tools + ${count} resources in pages of ${pageSize} (${treeItems} tree items), ${iterations} listings per contestant per run after ${warmup} warm-up, ${options.runs} run(s)`,
      params: { tools: count, resources: count, pageSize, iterations, warmup, runs: options.runs, treeItems },
      table: latencyTable(contestants),
      goals: [goal(`${count} tools + ${count} resources listed with every tree item built ≤ 1.2× bare SDK paging (p50)`, contestants[3].ratioP50, 1.2, options)],
      notes: [`p99 of ${iterations} listings is their maximum.`],
      data: contestants,
    };
  },
};
