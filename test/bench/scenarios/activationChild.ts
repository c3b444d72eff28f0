/**
 * One activation in a fresh Node process: `node activationChild.js <entry> [<global storage>]`,
 * the entry being dist/main.js (package.json `main`: the code cache loader, which loads
 * dist/extension.js; the global storage is where it keeps V8's code cache). Installs the
 * `vscode` stub and builds the fake ExtensionContext first (not timed: VS Code has both before
 * it loads an extension), then times require(bundle) and activate(context). Prints one JSON line.
 */
import * as path from 'node:path';
import { createVscodeStub, installVscodeStub, Uri } from '../vscodeStub';
import { REPO } from '../host';

async function main(): Promise<void> {
  const bundle = path.resolve(process.argv[2]);
  const { api, control } = createVscodeStub(path.join(REPO, 'package.json'));
  installVscodeStub(api);
  // Who reads a setting inside activate(): nobody should. In VS Code 1.100 the extension host's
  // first settings read cost activate() 10-20 ms (issue 30); it belongs to the first use.
  const settingsReads: string[] = [];
  let activating = false;
  const workspace = api.workspace as { getConfiguration: (...args: unknown[]) => unknown };
  const getConfiguration = workspace.getConfiguration;
  workspace.getConfiguration = (...args: unknown[]) => {
    if (activating) settingsReads.push(new Error().stack?.split('\n')[2]?.trim() ?? '?');
    return getConfiguration(...args);
  };
  const context = control.context(REPO) as { globalStorageUri: unknown };
  if (process.argv[3]) context.globalStorageUri = Uri.file(process.argv[3]);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const extension = require(bundle) as { activate(context: unknown): { ready: Promise<void> }; deactivate(): Promise<void> };
  const t1 = performance.now();
  activating = true;
  const exported = extension.activate(context);
  const t2 = performance.now();
  activating = false;
  // CPU time too: on a loaded machine the wall time mostly measures waiting for a core.
  const cpu = process.cpuUsage(c0);
  // What activation loaded: dist/deps.js (the MCP SDK, ajv) and dist/agentDeps.js (the SDK's
  // server side) and dist/features.js (the code of commands and panels) must wait for first use.
  const depsAtActivation = Object.keys(require.cache).some((file) => ['deps.js', 'agentDeps.js', 'features.js'].includes(path.basename(file)));
  await exported.ready;
  const t3 = performance.now();
  // The loader's own account (src/api.ts ActivationTiming): compile time and the code cache's use.
  const timing = (exported as { testing?: { activationTiming(): { compileMs?: number; codeCache?: string } } }).testing?.activationTiming();
  // Deactivation writes the code cache if this activation made one (what the loader does 10 s
  // after activation otherwise), so the next process finds it.
  await extension.deactivate();
  process.stdout.write(`${JSON.stringify({ requireMs: t1 - t0, activateMs: t2 - t1, totalMs: t2 - t0, readyMs: t3 - t2, cpuMs: (cpu.user + cpu.system) / 1000, compileMs: timing?.compileMs, codeCache: timing?.codeCache, depsAtActivation, settingsReads, fallbacks: [...control.fallbacks] })}\n`);
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
