/**
 * Activation and bundle size. Builds the production bundle (`node esbuild.mjs --production`,
 * what `npm run package:vsix` ships, with esbuild's metafile), then activates it through its
 * entry point (dist/main.js, the code cache loader) in fresh Node processes under the `vscode`
 * stub (activationChild.ts), the first one dropped as warm-up (disk cache; it also makes the
 * V8 code cache, as a user's first activation does). The measured processes take turns: one
 * with that code cache (every activation after the first), one with an empty global storage
 * (the first activation after an install or update). Reports the median of require + activate(), the bundle's size and what each
 * dependency costs in it. The production bundle goes to a temp folder of its own (`--dist=`):
 * dist/ and out/ are shared with whatever runs beside the bench (npm test runs conformance
 * clients beside it), and rewriting them in place once fed a client a half-written file.
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
  cpuMs: number;
  compileMs?: number;
  codeCache?: string;
  depsAtActivation: boolean;
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
    const buildRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-workbench-bench-build-'));
    const dist = path.join(buildRoot, 'dist');
    const bundle = path.join(dist, 'extension.js');
    const entry = path.join(dist, 'main.js');
    const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-workbench-bench-storage-'));
    const samples: ChildResult[] = [];
    const firstEver: ChildResult[] = [];
    let size: number;
    let depsSize: number;
    let meta: Metafile;
    try {
      build(['--production', `--metafile=${metaPath}`, `--dist=${dist}`]);
      size = fs.statSync(bundle).size;
      depsSize = fs.statSync(path.join(dist, 'deps.js')).size;
      meta = JSON.parse(fs.readFileSync(metaPath, 'utf8')) as Metafile;
      await runNodeJson<ChildResult>(CHILD, [entry, storage]); // warm-up: dropped; makes the code cache
      for (let i = 0; i < processes; i++) {
        samples.push(await runNodeJson<ChildResult>(CHILD, [entry, storage]));
        const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-workbench-bench-storage-'));
        try {
          firstEver.push(await runNodeJson<ChildResult>(CHILD, [entry, empty]));
        } finally {
          fs.rmSync(empty, { recursive: true, force: true });
        }
      }
    } finally {
      fs.rmSync(metaPath, { force: true });
      fs.rmSync(storage, { recursive: true, force: true });
      fs.rmSync(buildRoot, { recursive: true, force: true });
    }
    // What each dependency costs: in dist/extension.js (loaded at activation) and dist/deps.js (on first use).
    const costsOf = (file: string) => {
      const output = Object.entries(meta.outputs).find(([name]) => name.endsWith(file))![1];
      const byOwner = new Map<string, number>();
      for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) byOwner.set(owner(input), (byOwner.get(owner(input)) ?? 0) + bytesInOutput);
      return [...byOwner.entries()].sort((a, b) => b[1] - a[1]).map(([name, bytes]) => ({ name, bytes }));
    };
    const costs = costsOf('dist/extension.js');
    const depsCosts = costsOf('dist/deps.js');
    const stat = (pick: (r: ChildResult) => number, of = samples) => {
      const xs = of.map(pick);
      return `${median(xs).toFixed(1)} ms (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`;
    };
    const total = median(samples.map((r) => r.totalMs));
    const fallbacks = samples[0]?.fallbacks ?? [];
    const top = costs.slice(0, 8);
    const rest = costs.slice(8).reduce((sum, c) => sum + c.bytes, 0);
    const depsTop = depsCosts.slice(0, 8);
    const depsRest = depsCosts.slice(8).reduce((sum, c) => sum + c.bytes, 0);
    const depsLoaded = samples.filter((r) => r.depsAtActivation).length;
    // The real VS Code's own figure, if the integration test (test/integration/main/smoke.test.ts) wrote one on this machine.
    const realDir = path.join(REPO, 'test-results');
    const real = (fs.existsSync(realDir) ? fs.readdirSync(realDir) : []).filter((f) => /^activation-.*\.json$/.test(f))
      .map((f) => JSON.parse(fs.readFileSync(path.join(realDir, f), 'utf8')) as { vscode: string; at: string; compileMs?: number; codeCache?: string; evaluateMs: number; activateMs: number; depsLoadedAfterMs?: number; workbenchLoadMs?: number; workbenchActivateMs?: number });
    return {
      id: 'activation',
      title: `activation of the production bundle, median of ${processes} fresh processes (one more dropped as warm-up); bundle ${kb(size)} + ${kb(depsSize)} loaded on first use`,
      params: { processes, bundleBytes: size, depsBytes: depsSize },
      table: {
        header: ['measure', 'value'],
        rows: [
          ['require(dist/main.js)', stat((r) => r.requireMs)],
          ['activate(): reading and compiling dist/extension.js with the code cache, evaluating it, its activate()', stat((r) => r.activateMs)],
          ['  of which reading and compiling dist/extension.js', stat((r) => r.compileMs ?? NaN)],
          ['require + activate()', stat((r) => r.totalMs)],
          ['require + activate(), CPU time of the process (less sensitive to load)', stat((r) => r.cpuMs)],
          ['code cache used', `${samples.filter((r) => r.codeCache === 'used').length} of ${samples.length} processes`],
          ['first activation (empty global storage: no code cache yet), require + activate()', stat((r) => r.totalMs, firstEver)],
          ['first activation, CPU time', stat((r) => r.cpuMs, firstEver)],
          ['  of which reading and compiling dist/extension.js', stat((r) => r.compileMs ?? NaN, firstEver)],
          ['then config read (api.ready)', stat((r) => r.readyMs)],
          ['dist/deps.js (MCP SDK, ajv) loaded during activation', `${depsLoaded} of ${samples.length} processes`],
          ...real.map((r) => [`real VS Code ${r.vscode} (integration test, ${r.at.slice(0, 16)}): bundle evaluation + activate()`,
            `${(r.evaluateMs + r.activateMs).toFixed(1)} ms (${r.evaluateMs.toFixed(1)} + ${r.activateMs.toFixed(1)}; compile ${r.compileMs === undefined ? 'not included' : `${r.compileMs.toFixed(1)} ms more, code cache ${r.codeCache}`})${r.workbenchLoadMs === undefined || r.workbenchActivateMs === undefined ? '' : `; VS Code's own marks, compile included: ${r.workbenchLoadMs + r.workbenchActivateMs} ms (load ${r.workbenchLoadMs} + activate ${r.workbenchActivateMs})`}; SDK loaded ${r.depsLoadedAfterMs === undefined ? 'not yet' : `${r.depsLoadedAfterMs.toFixed(0)} ms after activate()`}`]),
          ['bundle dist/extension.js (minified, loaded at activation)', `${kb(size)} (${size} bytes)`],
          ...top.map((c) => [`  of which ${c.name}`, `${kb(c.bytes)} (${((c.bytes / size) * 100).toFixed(0)}%)`]),
          [`  of which ${costs.length - top.length} more inputs' owners`, kb(rest)],
          ['dist/deps.js (minified, loaded when a server starts or a panel validates)', `${kb(depsSize)} (${depsSize} bytes)`],
          ...depsTop.map((c) => [`  of which ${c.name}`, `${kb(c.bytes)} (${((c.bytes / depsSize) * 100).toFixed(0)}%)`]),
          [`  of which ${depsCosts.length - depsTop.length} more inputs' owners`, kb(depsRest)],
        ],
      },
      goals: [
        { goal: 'require + activate() < 30 ms (stub vscode)', measured: `${total.toFixed(1)} ms wall (CPU ${median(samples.map((r) => r.cpuMs)).toFixed(1)} ms); first activation ${median(firstEver.map((r) => r.totalMs)).toFixed(1)} ms (CPU ${median(firstEver.map((r) => r.cpuMs)).toFixed(1)} ms)`, met: options.smoke ? undefined : total < 30 },
        { goal: 'bundle < 1.5 MB (extension.js + deps.js)', measured: `${kb(size + depsSize)} (${kb(size)} + ${kb(depsSize)})`, met: options.smoke ? undefined : size + depsSize < 1.5 * 1024 * 1024 },
        { goal: 'the MCP SDK and ajv load on first use, not at activation', measured: `loaded during activation in ${depsLoaded} of ${samples.length} processes`, met: options.smoke ? undefined : depsLoaded === 0 },
      ],
      notes: [`Members of \`vscode\` activation reached that the stub serves inertly: ${fallbacks.length ? fallbacks.join(', ') : 'none'}.`],
      data: { samples: samples.map(({ fallbacks: _, ...times }) => times), firstEver: firstEver.map(({ fallbacks: _, ...times }) => times), bundleBytes: size, depsBytes: depsSize, costs, depsCosts, realVsCode: real, stubFallbacks: fallbacks },
    };
  },
};
