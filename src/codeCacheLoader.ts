/**
 * The extension's entry point (package.json `main`, built to dist/main.js): loads the bundle,
 * dist/extension.js, through V8's code cache (issue 30). Compiling the ~550 KB bundle was the
 * largest cost of activation once the MCP SDK left it (docs/performance.md); VS Code's extension
 * host compiles an extension's code anew at every start, it keeps no code cache for extensions.
 * So this compiles the bundle with the cache V8 made for it the last time, and after an
 * activation without one (the first after an install or update) has V8 make it, from the
 * functions that activation compiled, and keeps it in the extension's global storage.
 *
 * The cache is keyed by the bundle's size and modification time, V8's version and the
 * architecture: V8 checks only the source's length, so a changed bundle of the same length
 * must never meet an old cache. Anything that fails here (no storage, a read-only disk, a
 * cache V8 rejects) falls back to compiling without one; nothing of it reaches the user.
 * No `vscode` import: it runs before the bundle, in plain Node too (the bench, unit tests).
 */
import { isAscii } from 'node:buffer';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import * as vm from 'node:vm';

interface Extension {
  activate(context: unknown): unknown;
  deactivate?(): unknown;
}

/** How this activation compiled the bundle (ActivationTiming reports it). */
export type CodeCacheUse = 'used' | 'made' | 'rejected' | 'off';

/** What the loader leaves for the bundle to read (src/extension.ts activationTiming). */
export interface CodeCacheState {
  use: CodeCacheUse;
  /** The cache file this activation read or makes (the integration test waits for it). */
  file?: string;
  /**
   * From compiling the bundle to the end of its activate(): the ms this thread ran on a CPU, and
   * the ms it was ready to run but waited for one (Linux's per-thread schedstat; undefined
   * elsewhere). The wall time of activation is about their sum: on a loaded machine the wait can
   * be larger than the work (issue 30).
   */
  cpuMs?: number;
  waitMs?: number;
}
/** Where on globalThis (the bundle reads it without importing this module's code). */
export const CODE_CACHE_STATE = Symbol.for('mcpWorkbench.codeCache');

/** How long after activation V8 is asked for the cache: the functions run by then are in it. */
const MAKE_AFTER_MS = 10_000;

/** Names written by this loader, so stale ones (other bundles, other V8s) can be removed. */
const CACHE_FILE = /^code-cache-.+\.bin$/;

/** The cache file for `bundle` in `dir`, or undefined if the bundle cannot be read. */
export function cacheFileFor(bundle: string, dir: string): string | undefined {
  try {
    const stat = fs.statSync(bundle);
    const key = `${path.basename(bundle, '.js')}-${stat.size}-${Math.round(stat.mtimeMs)}-${process.versions.v8}-${process.arch}`;
    return path.join(dir, `code-cache-${key.replace(/[^\w.-]/g, '_')}.bin`);
  } catch {
    return undefined;
  }
}

/**
 * The bundle's text. esbuild writes ASCII (its default charset escapes the rest), and ASCII read
 * as latin1 is a plain byte copy into the one-byte string V8 would make of it anyway; reading it
 * as UTF-8 decodes the 0.6 MB first (1.5-3 ms of CPU at activation, docs/performance.md). Any
 * other byte, and the bundle is decoded as UTF-8, as Node's loader would.
 */
function readSource(bundle: string): string {
  const bytes = fs.readFileSync(bundle);
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

export interface Loaded {
  exports: Extension;
  use: CodeCacheUse;
  file?: string;
  /** Writes the cache if this load had none (or a rejected one); resolves when written or given up. */
  makeCache(): Promise<void>;
}

/**
 * Compiles and runs the CommonJS file `bundle` as `require` would, with V8's code cache from
 * `cacheDir` (undefined: none), and registers it in require's cache under its own name.
 */
export function loadWithCodeCache(bundle: string, cacheDir: string | undefined): Loaded {
  const file = cacheDir === undefined ? undefined : cacheFileFor(bundle, cacheDir);
  let cachedData: Buffer | undefined;
  try {
    if (file) cachedData = fs.readFileSync(file);
  } catch {
    // No cache yet: this load makes it.
  }
  const source = readSource(bundle);
  const script = new vm.Script(Module.wrap(source), { filename: bundle, cachedData });
  const use: CodeCacheUse = !file ? 'off' : !cachedData ? 'made' : script.cachedDataRejected ? 'rejected' : 'used';
  // As Node's loader builds a module: its own `require` resolves from the bundle's folder, and
  // VS Code's `vscode` module finds the extension from the requiring module's file name.
  const mod = new Module(bundle, module);
  mod.filename = bundle;
  mod.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(path.dirname(bundle));
  const requireFromBundle = Object.assign((id: string) => mod.require(id), {
    resolve: (id: string) => (Module as unknown as { _resolveFilename(id: string, parent: Module): string })._resolveFilename(id, mod),
    cache: require.cache,
    main: require.main,
  });
  require.cache[bundle] = mod;
  try {
    (script.runInThisContext() as (...args: unknown[]) => void).call(mod.exports, mod.exports, requireFromBundle, mod, bundle, path.dirname(bundle));
  } catch (error) {
    delete require.cache[bundle];
    throw error;
  }
  mod.loaded = true;
  return {
    exports: mod.exports as Extension,
    use,
    file,
    async makeCache() {
      if (!file || !cacheDir || use === 'used') return;
      try {
        const data = script.createCachedData();
        await fs.promises.mkdir(cacheDir, { recursive: true });
        // Written aside and renamed: a window starting meanwhile never reads half a file.
        const partial = `${file}.${process.pid}.partial`;
        await fs.promises.writeFile(partial, data);
        await fs.promises.rename(partial, file);
        for (const name of await fs.promises.readdir(cacheDir)) {
          if (CACHE_FILE.test(name) && path.join(cacheDir, name) !== file) await fs.promises.rm(path.join(cacheDir, name), { force: true });
        }
      } catch {
        // A read-only or full disk: the next activation compiles without a cache, as now.
      }
    },
  };
}

/** This activation's load, for deactivate() and makeCodeCache(), which VS Code and the bench call without it. */
let activation: { loaded: Loaded; makeTimer?: NodeJS.Timeout; makeCache?: () => Promise<void> } | undefined;

/** This thread's time on a CPU and waiting for one, in ns (the first two numbers of /proc/thread-self/schedstat), or undefined where there is none. */
export function threadSchedule(): [onCpu: number, waiting: number] | undefined {
  try {
    const [onCpu, waiting] = fs.readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ').map(Number);
    return Number.isFinite(onCpu) && Number.isFinite(waiting) ? [onCpu, waiting] : undefined;
  } catch {
    return undefined;
  }
}

export function activate(context: { globalStorageUri?: { fsPath: string } }): unknown {
  performance.mark('mcpWorkbench/compile');
  const before = threadSchedule();
  const loaded = loadWithCodeCache(path.join(__dirname, 'extension.js'), context.globalStorageUri?.fsPath);
  activation = { loaded };
  const state: CodeCacheState = { use: loaded.use, file: loaded.file };
  (globalThis as { [CODE_CACHE_STATE]?: CodeCacheState })[CODE_CACHE_STATE] = state;
  const result = loaded.exports.activate(context);
  const after = before && threadSchedule();
  if (before && after) {
    state.cpuMs = (after[0] - before[0]) / 1e6;
    state.waitMs = (after[1] - before[1]) / 1e6;
  }
  if (loaded.use === 'made' || loaded.use === 'rejected') {
    activation.makeCache = loaded.makeCache;
    activation.makeTimer = setTimeout(() => void makeCodeCache(), MAKE_AFTER_MS);
    activation.makeTimer.unref();
  }
  return result;
}

/** Writes the cache now if this activation is to make one (else nothing). */
export function makeCodeCache(): Promise<void> {
  if (!activation) return Promise.resolve();
  clearTimeout(activation.makeTimer);
  const make = activation.makeCache;
  activation.makeCache = undefined;
  return make ? make() : Promise.resolve();
}

export async function deactivate(): Promise<unknown> {
  // A window closed within MAKE_AFTER_MS of its first activation still leaves the cache.
  await makeCodeCache();
  return activation?.loaded.exports.deactivate?.();
}
