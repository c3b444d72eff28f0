/**
 * Activation and bundle size. Builds the production bundle (`node esbuild.mjs --production`,
 * what `npm run package:vsix` ships, with esbuild's metafile), then activates it in fresh Node
 * processes under the `vscode` stub (activationChild.ts), the first one dropped as warm-up
 * (disk cache). Reports the median of require + activate(), the bundle's size and what each
 * dependency costs in it. Puts the development build back afterwards (dist/ is shared with
 * the tests).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO } from '../host';
import { runNodeJson, type BenchOptions, type Scenario, type ScenarioResult } from '../scenario';
import { median } from '../stats';

interface ChildResult {
  requireMs: number;
  activateMs: number;
  totalMs: number;
  readyMs: number;
  fallbacks: string[];
}

interface Metafile {
  outputs: Record<string, { bytes: number; inputs: Record<string, { bytesInOutput: number }> }>;
}

const CHILD = path.join(__dirname, 'activationChild.js');

/** `node_modules/@scope/name/…` → `@scope/name`; our own files → `(extension source: src/<folder>)`. */
function owner(input: string): string {
  const m = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  if (m) return m[1];
  const src = /^src\/([^/]+)/.exec(input);
  return src ? `(src/${src[1]})` : `(${input})`;
}

function build(args: string[]): void {
  execFileSync(process.execPath, ['esbuild.mjs', ...args], { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'] });
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

export const scenario: Scenario = {
  id: 'activation',
  async run(options: BenchOptions): Promise<ScenarioResult> {
    const processes = options.smoke ? 3 : 15;
    const metaPath = path.join(os.tmpdir(), `mcp-workbench-bench-meta-${process.pid}.json`);
    const bundle = path.join(REPO, 'dist/extension.js');
    const samples: ChildResult[] = [];
    let size: number;
    let meta: Metafile;
    try {
      build(['--production', `--metafile=${metaPath}`]);
      size = fs.statSync(bundle).size;
      meta = JSON.parse(fs.readFileSync(metaPath, 'utf8')) as Metafile;
      await runNodeJson<ChildResult>(CHILD, [bundle]); // warm-up: dropped
      for (let i = 0; i < processes; i++) samples.push(await runNodeJson<ChildResult>(CHILD, [bundle]));
    } finally {
      fs.rmSync(metaPath, { force: true });
      build([]);
    }
    const output = Object.entries(meta.outputs).find(([file]) => file.endsWith('dist/extension.js'))![1];
    const byOwner = new Map<string, number>();
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) byOwner.set(owner(input), (byOwner.get(owner(input)) ?? 0) + bytesInOutput);
    const costs = [...byOwner.entries()].sort((a, b) => b[1] - a[1]).map(([name, bytes]) => ({ name, bytes }));
    const stat = (pick: (r: ChildResult) => number) => {
      const xs = samples.map(pick);
      return `${median(xs).toFixed(1)} ms (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`;
    };
    const total = median(samples.map((r) => r.totalMs));
    const fallbacks = samples[0]?.fallbacks ?? [];
    const top = costs.slice(0, 8);
    const rest = costs.slice(8).reduce((sum, c) => sum + c.bytes, 0);
    return {
      id: 'activation',
      title: `activation of the production bundle, median of ${processes} fresh processes (one more dropped as warm-up); bundle ${kb(size)}`,
      params: { processes, bundleBytes: size },
      table: {
        header: ['measure', 'value'],
        rows: [
          ['require(dist/extension.js)', stat((r) => r.requireMs)],
          ['activate()', stat((r) => r.activateMs)],
          ['require + activate()', stat((r) => r.totalMs)],
          ['then config read (api.ready)', stat((r) => r.readyMs)],
          ['bundle dist/extension.js (minified)', `${kb(size)} (${size} bytes)`],
          ...top.map((c) => [`  of which ${c.name}`, `${kb(c.bytes)} (${((c.bytes / size) * 100).toFixed(0)}%)`]),
          [`  of which ${costs.length - top.length} more inputs' owners`, kb(rest)],
        ],
      },
      goals: [
        { goal: 'require + activate() < 30 ms (stub vscode)', measured: `${total.toFixed(1)} ms`, met: options.smoke ? undefined : total < 30 },
        { goal: 'bundle < 1.5 MB', measured: kb(size), met: options.smoke ? undefined : size < 1.5 * 1024 * 1024 },
      ],
      notes: [`Members of \`vscode\` activation reached that the stub serves inertly: ${fallbacks.length ? fallbacks.join(', ') : 'none'}.`],
      data: { samples: samples.map(({ fallbacks: _, ...times }) => times), bundleBytes: size, costs, stubFallbacks: fallbacks },
    };
  },
};
