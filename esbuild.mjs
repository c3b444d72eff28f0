// Builds every target with one esbuild context each:
//  - dist/main.js: the entry point (package.json `main`), which loads dist/extension.js through
//    V8's code cache (src/codeCacheLoader.ts)
//  - dist/extension.js: the shipped extension bundle (node/cjs, `vscode` external)
//  - dist/server.js: the MCP config language server (node/cjs, never imports `vscode`)
//  - dist/languageClient.js: vscode-languageclient, required only once a config file opens
//  - dist/features.js: the code of our own that only a command, a panel or a running server
//    needs, required on first use (see lazyFeatures below)
//  - dist/deps.js: the MCP SDK and ajv, required on first use (see lazyDependencies below)
//  - dist/agentDeps.js: the SDK's server side, required only when VS Code's agent first
//    reaches our servers through the loopback endpoint (src/coexistence)
//  - out/**: src and test compiled file-by-file (not bundled) for mocha, the fixture
//    servers and the integration suite; never shipped (see .vscodeignore)
//  - out/test/conformance/client.js: the headless conformance client, bundled so it
//    runs the same connection code as the extension without the `vscode` module
// Flags: --watch rebuilds on change, --production minifies the shipped bundle,
// --metafile=<file> writes esbuild's metafile of dist/extension.js there (what each input
// costs in the bundle; `npm run bench` reads it), --dist=<folder> writes only the shipped
// bundles (dist/**), into that folder instead of dist/ (the activation bench builds its
// production bundle there, so the out/ and dist/ that tests beside it read are never rewritten).
import * as esbuild from 'esbuild';
import { existsSync, readdirSync, statSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, relative, resolve, sep } from 'node:path';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');
const metafileOut = process.argv.find((arg) => arg.startsWith('--metafile='))?.slice('--metafile='.length);
const distOut = process.argv.find((arg) => arg.startsWith('--dist='))?.slice('--dist='.length);

function tsFiles(dir) {
  const found = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'node_modules') found.push(...tsFiles(path));
    } else if (name.endsWith('.ts') && !name.endsWith('.d.ts') && !name.endsWith('.browser.ts')) {
      found.push(path);
    }
  }
  return found;
}

/**
 * Prints errors the way VS Code's esbuild problem matcher expects. The `[watch]` lines are the
 * matcher's begin/end patterns, so they are printed only in watch mode: a one-shot build (npm
 * test, npm start) saying "[watch]" made newcomers think something was left watching. It goes
 * last among a build's plugins: esbuild does not log the errors an onEnd callback returns (the
 * imported-once rewrite's, the ASCII check's), and a later onEnd callback sees them in
 * `result.errors` (without this, a failed rewrite said only "dist/extension.js was not built").
 */
const problemMatcher = {
  name: 'problem-matcher',
  setup(build) {
    if (watch) build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      if (watch) console.log('[watch] build finished');
    });
  },
};

/**
 * Dependencies the extension needs only once a server starts or a panel opens: the MCP SDK
 * (its schemas cost ~70 ms to build at load) and ajv (~40 ms). They go to dist/deps.js, and in
 * dist/extension.js each import of them becomes a facade whose exports are getters that
 * require dist/deps.js on first access, so activation never loads them. Our modules only use
 * these values inside functions (a module-level use would load them at activation; the
 * activation bench reports whether it happened).
 */
const LAZY_DEPENDENCIES = [
  '@modelcontextprotocol/client',
  '@modelcontextprotocol/client/stdio',
  '@modelcontextprotocol/client/ext/skills',
  '@modelcontextprotocol/ext-apps/app-bridge',
  'ajv',
  'ajv/dist/2019',
  'ajv/dist/2020',
  'ajv-formats',
];
/**
 * The SDK's server side (and its Node adapter), which only the loopback endpoint of mode 2 in
 * docs/coexistence.md needs, once VS Code's agent connects to it. A bundle of its own
 * (dist/agentDeps.js, ~470 KB minified): in dist/deps.js every first server start would pay for
 * parsing it.
 */
const LAZY_AGENT_DEPENDENCIES = ['@modelcontextprotocol/server', '@modelcontextprotocol/node'];
/**
 * RE2's linear-time matcher for the regex rules of sampling mock profiles
 * (src/config/common/samplingMockConfig.ts): only a config with such rules needs it.
 */
const LAZY_REGEX_DEPENDENCIES = ['re2js'];
/** Which lazily required bundle holds each lazy dependency, and the performance mark set when it loads. */
const LAZY_BUNDLES = [
  { file: 'deps.js', mark: 'mcpWorkbench/deps', modules: LAZY_DEPENDENCIES },
  { file: 'agentDeps.js', mark: 'mcpWorkbench/agentDeps', modules: LAZY_AGENT_DEPENDENCIES },
  { file: 'regexDeps.js', mark: 'mcpWorkbench/regexDeps', modules: LAZY_REGEX_DEPENDENCIES },
];
const bundleOf = (module) => LAZY_BUNDLES.find((b) => b.modules.includes(module));
const isLazy = (module) => bundleOf(module) !== undefined || LAZY_BUILTINS.includes(module);
/**
 * Node built-ins that only starting a server, signing in or a panel needs: loaded on first
 * use the same way (they cost ~1-10 ms each to load in a fresh process; VS Code's extension
 * host may have loaded some of them already).
 */
const LAZY_BUILTINS = ['node:child_process', 'node:crypto', 'node:http', 'node:net', 'node:readline'];
const requireHere = createRequire(import.meta.url);

const lazyDependencies = {
  name: 'lazy-dependencies',
  setup(build) {
    const filter = new RegExp(`^(${[...LAZY_BUNDLES.flatMap((b) => b.modules), ...LAZY_BUILTINS].map((d) => d.replace(/[/.]/g, '\\$&')).join('|')})$`);
    // The facade's own require of a built-in is the real one.
    build.onResolve({ filter }, (args) =>
      args.namespace === 'lazy-dependency' ? { path: args.path, external: true } : { path: args.path, namespace: 'lazy-dependency' },
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-dependency' }, (args) => {
      // The export names, from the module itself (the facade cannot learn them without loading it).
      const names = Object.keys(requireHere(args.path)).filter((name) => name !== '__esModule');
      const builtin = LAZY_BUILTINS.includes(args.path);
      return {
        loader: 'js',
        contents: [
          'let loaded;',
          builtin
            ? `const load = () => (loaded ??= require(${JSON.stringify(args.path)}));`
            : `const load = () => (loaded ??= loadDeps(${JSON.stringify(bundleOf(args.path).file)})[${JSON.stringify(args.path)}]);`,
          // A Proxy, not a getter per name: defining them (119 for the SDK client, 67 for
          // node:crypto, …) took ~1 ms of every activation (docs/performance.md). Only the
          // module's own names answer, as with getters: a probe for `then` or util.inspect's
          // symbols must not load the module.
          `const names = new Set(${JSON.stringify(names)});`,
          'module.exports = new Proxy(Object.create(null), { get: (_, name) => (names.has(name) ? load()[name] : undefined), has: (_, name) => names.has(name) });',
        ].join('\n'),
      };
    });
  },
};

/**
 * zod's sixty-odd translations of its error messages (~250 KB minified, a fifth of
 * dist/deps.js): zod exports them all as `z.locales`, so any bundle that imports zod as a
 * namespace (the MCP SDK does) keeps every one, though nothing here ever selects one. zod's
 * messages stay in English, its default (`en`, kept). Each other locale becomes a function that
 * says it was left out, should anything ever ask for it.
 */
const zodLocalesLeftOut = {
  name: 'zod-locales-left-out',
  setup(build) {
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/][^\\/]+\.js$/ }, (args) => {
      const locale = args.path.replace(/^.*[\\/]/, '').replace(/\.js$/, '');
      if (locale === 'en' || locale === 'index') return undefined;
      return {
        loader: 'js',
        contents: `export default function () { throw new Error(${JSON.stringify(`zod locale "${locale}" is not bundled with MCP Workbench`)}); }`,
      };
    });
  },
};

/**
 * One namespace object per bundle for each module that stays CommonJS in it: `vscode`, the
 * facades of lazyDependencies and Node's built-ins. esbuild gives each importing module its
 * own `__toESM(require(...))`, which copies every name of the module onto a new object: for
 * `import * as vscode from 'vscode'` in 69 modules that was 69 copies of the ~290 names of the
 * API (~36 ms of activation in issue 30's CPU profile), and the facades of the MCP SDK (119
 * names, 17 importers) and node:crypto (67 names, 12) cost the same way. Each import of these
 * goes through one ESM module per specifier that re-exports it (`export * from`), so every
 * importer reads that module's namespace object. esbuild still builds that object by copying
 * the names once per bundle (`__reExport`, and `__toESM` before it for a bundled module), 1.3-2.2
 * ms of a CPU profile of activation; after the build each namespace object is made the module
 * itself (namespaceIsTheModule below), so no name is copied at all and `vscode.X` reads the API
 * object directly. test/unit/bundle.test.ts checks the bundle for copies.
 */
const importedOnce = (specifiers) => ({
  name: 'imported-once',
  setup(build) {
    build.onResolve({ filter: specifiers }, (args) =>
      args.namespace === 'imported-once' || args.kind !== 'import-statement' ? undefined : { path: args.path, namespace: 'imported-once' },
    );
    build.onLoad({ filter: /.*/, namespace: 'imported-once' }, (args) => {
      // `export *` leaves out `default`: re-exported for the packages that have one (`import
      // Ajv from 'ajv'`); `vscode` and the built-ins have none (their ESM default would be the
      // whole module again, and nothing here imports them so).
      const withDefault = !/^(vscode|node:.+)$/.test(args.path) && 'default' in requireHere(args.path);
      // The rewrite below reads `default` from the module itself, which is what esbuild's
      // `__toESM` reads only for a module marked `__esModule` (or a lazy facade, which hands
      // on the module's own `default`).
      if (withDefault && !isLazy(args.path) && !requireHere(args.path).__esModule) {
        return { errors: [{ text: `${args.path}: a default import of a CommonJS module without __esModule; imported-once would change what it reads` }] };
      }
      return {
        contents: [`export * from ${JSON.stringify(args.path)};`, ...(withDefault ? [`export { default } from ${JSON.stringify(args.path)};`] : [])].join('\n'),
        loader: 'js',
        resolveDir: '.',
      };
    });
    build.onEnd(async (result) => {
      if (result.errors.length || !result.metafile || !build.initialOptions.outfile) return;
      const outfile = resolve(build.initialOptions.outfile);
      const output = Object.entries(result.metafile.outputs).find(([file]) => resolve(file) === outfile)?.[1];
      const modules = Object.keys(output?.inputs ?? {}).filter((input) => input.startsWith('imported-once:'));
      const text = await readFile(outfile, 'utf8');
      const rewritten = namespaceIsTheModule(text, modules.length, outfile);
      if (typeof rewritten !== 'string') {
        return { errors: [{ text: rewritten.error }] };
      }
      await writeFile(outfile, rewritten);
    });
  },
});

/**
 * Makes each namespace object of an imported-once module the module itself, in esbuild's output
 * (development or minified): `var ns = {}; __reExport(ns, require("vscode"));` becomes `var ns =
 * require("vscode");`, `var ns = {}; __reExport(ns, __toESM(require_x()));` becomes `var ns =
 * require_x();` and, for a package whose default is re-exported too, the second conversion
 * (`var import_x = __toESM(require_x());`) becomes `import_x = ns`. The copies were getters of
 * every own name but `default`, so each read of `ns.X` gives what it gave (now straight from
 * the module); nothing reads `default` of these but the packages whose `__toESM` kept the
 * module's own (see onLoad). Lines are kept, so the development build's source map still fits.
 * Returns { error } if the bundle does not have exactly `expected` such places, each with the
 * same helpers, esbuild's `__reExport` and `__toESM` (the shape of esbuild's output changed).
 */
function namespaceIsTheModule(text, expected, file) {
  if (expected === 0) return text;
  const I = '[A-Za-z_$][\\w$]*';
  const sites = new RegExp(
    [
      // 1 start, 2 namespace, 3 __export, 4 default's binding, 5 __reExport, 6 __toESM, 7 require_x, 8 what follows
      `(var |,)(${I})\\s*=\\s*\\{\\};\\s*(${I})\\(\\2,\\s*\\{\\s*default:\\s*\\(\\)\\s*=>\\s*(${I})\\.default\\s*\\}\\);\\s*(${I})\\(\\2,\\s*(${I})\\((${I})\\(\\)\\)\\);\\s*var \\4\\s*=\\s*\\6\\(\\7\\(\\)\\)([;,])`,
      // 9 start, 10 namespace, 11 __reExport, 12 __toESM, 13 require_x
      `(var |,)(${I})\\s*=\\s*\\{\\};\\s*(${I})\\(\\10,\\s*(${I})\\((${I})\\(\\)\\)\\);`,
      // 14 start, 15 namespace, 16 __reExport, 17 require("x")
      `(var |,)(${I})\\s*=\\s*\\{\\};\\s*(${I})\\(\\15,\\s*(require\\("[^"]+"\\))\\);`,
    ].join('|'),
    'g',
  );
  const reExports = new Set();
  const toESMs = new Set();
  let found = 0;
  const lines = (match) => '\n'.repeat(match.split('\n').length - 1);
  const rewritten = text.replace(sites, (match, ...g) => {
    found++;
    if (g[0]) {
      reExports.add(g[4]);
      toESMs.add(g[5]);
      return `${g[0]}${g[1]} = ${g[6]}(), ${g[3]} = ${g[1]}${g[7]}${lines(match)}`;
    }
    if (g[8]) {
      reExports.add(g[10]);
      toESMs.add(g[11]);
      return `${g[8]}${g[9]} = ${g[12]}();${lines(match)}`;
    }
    reExports.add(g[15]);
    return `${g[13]}${g[14]} = ${g[16]};${lines(match)}`;
  });
  // esbuild's helpers: `__reExport = (target, mod, secondTarget) => (__copyProps(target, mod,
  // "default"), …)` and `__toESM = (mod, isNodeMode, target) => (target = mod != null ? …`.
  const defined = (name, body) => new RegExp(`[\\s,]${name.replace(/\$/g, '\\$')}\\s*=\\s*\\((${I}),\\s*(${I}),\\s*(${I})\\)\\s*=>\\s*\\(${body}`).test(text);
  const helpersOk =
    reExports.size === 1 &&
    defined([...reExports][0], `${I}\\(\\1,\\s*\\2,\\s*"default"\\)`) &&
    toESMs.size <= 1 &&
    [...toESMs].every((name) => defined(name, `\\3\\s*=\\s*\\1\\s*!=\\s*null\\s*\\?`));
  if (found !== expected || !helpersOk) {
    return {
      error: `${file}: found ${found} of ${expected} imported-once namespaces in esbuild's output (helpers: ${[...reExports, ...toESMs].join(', ')}); esbuild's output changed, update namespaceIsTheModule in esbuild.mjs`,
    };
  }
  return rewritten;
}
/**
 * Fails a production build of dist/extension.js that is not ASCII: src/codeCacheLoader.ts reads
 * an ASCII bundle as latin1, a byte copy, and decodes anything else as UTF-8 (1.5-3 ms more at
 * every activation). esbuild's default charset escapes non-ASCII characters; the development
 * build keeps comments, which may have some.
 */
const asciiOnly = {
  name: 'ascii-only',
  setup(build) {
    build.onEnd(async (result) => {
      if (result.errors.length || !build.initialOptions.outfile) return;
      const bytes = await readFile(build.initialOptions.outfile);
      const at = bytes.findIndex((byte) => byte > 0x7f);
      if (at !== -1)
        return {
          errors: [{ text: `${build.initialOptions.outfile}: not ASCII at byte ${at} (${bytes.subarray(Math.max(0, at - 40), at + 40).toString('utf8')})` }],
        };
    });
  },
};
/** What dist/extension.js imports once: `vscode`, the built-ins, the lazy facades and @vscode/l10n (CommonJS, bundled). */
const SHARED_IN_BUNDLE = new RegExp(
  `^(vscode|node:.+|${[...LAZY_BUNDLES.flatMap((b) => b.modules), '@vscode/l10n'].map((d) => d.replace(/[/.]/g, '\\$&')).join('|')})$`,
);

// jsonc-parser's `main` is a UMD build whose inner requires esbuild cannot follow; its ESM
// build (`module`) bundles cleanly, so prefer `module` for every bundle.
// `navigator` is left undefined, as in Node 20: zod (its eval check, when the SDK's schemas are
// built), jose and the SDK read it to detect browsers and Cloudflare Workers. Newer extension
// hosts (VS Code 1.139.1) answer the read of Node's own `navigator` with a deprecation warning
// and a stack through dist/deps.js in the user's log, once per window that starts a server.
const common = {
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  mainFields: ['module', 'main'],
  define: { navigator: 'undefined' },
};

/**
 * The registration shell (issue 30). Compiling dist/extension.js with V8's code cache costs in
 * proportion to the bundle (a bundle without the features' code activated 23% faster under the
 * stub, docs/performance.md), and code that is bundled but never run still costs: wrapped to run
 * on first use in the same file, it saved nothing. So each `await import('./x')` of our own code
 * moves x (and what only it imports) to dist/features.js, which the shell requires on first use.
 * Those dynamic imports are the one way to mark code as not needed at activation.
 *
 * One instance of every module: what dist/extension.js holds, dist/features.js reads from it
 * (`fromShell`) instead of bundling a second copy, so module state (l10n, the `vscode` namespace,
 * the lazy facades, classes checked with instanceof) is the shell's. Built in three steps
 * (buildShellAndFeatures): the shell, to learn what it holds and which modules go; the features,
 * to learn what they read from the shell; the shell again, exporting those modules as
 * `__shared`. `--watch` builds one bundle (the dynamic imports stay in it, run on first use).
 */
const FEATURES = { file: 'features.js', mark: 'mcpWorkbench/features' };

/**
 * `loadDeps(file)`, which the facades of lazyDependencies and lazyFeatures call: requires a lazily
 * loaded bundle once and sets its performance mark. In the banner of dist/extension.js and of
 * dist/features.js (Node's require cache keeps one copy of each file; the mark is set once).
 */
const LOAD_DEPS = [
  'const mcpWorkbenchDeps = {};',
  `const mcpWorkbenchDepMarks = ${JSON.stringify(Object.fromEntries([...LAZY_BUNDLES, FEATURES].map((b) => [b.file, b.mark])))};`,
  "function loadDeps(file) { if (!mcpWorkbenchDeps[file]) { mcpWorkbenchDeps[file] = require(require('node:path').join(__dirname, file)).default; if (!performance.getEntriesByName(mcpWorkbenchDepMarks[file], 'mark').length) performance.mark(mcpWorkbenchDepMarks[file]); } return mcpWorkbenchDeps[file]; }",
];

/** The key of a resolved module in esbuild's metafile (`src/x.ts`, `imported-once:vscode`). */
const inputKey = (resolved) =>
  resolved.namespace === 'file' ? relative(process.cwd(), resolved.path).split(sep).join('/') : `${resolved.namespace}:${resolved.path}`;

/** Shell side: each dynamic import of a file of ours becomes a facade reading dist/features.js; `lazy` collects their keys. */
const lazyFeatures = (lazy) => ({
  name: 'lazy-features',
  setup(build) {
    build.onResolve({ filter: /^\./ }, async (args) => {
      if (args.kind !== 'dynamic-import' || args.pluginData?.lazyFeatures) return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { lazyFeatures: true },
      });
      if (resolved.errors.length || resolved.external || resolved.namespace !== 'file') return undefined;
      const key = inputKey(resolved);
      lazy.add(key);
      return { path: key, namespace: 'lazy-feature' };
    });
    build.onLoad({ filter: /.*/, namespace: 'lazy-feature' }, (args) => ({
      loader: 'js',
      contents: `module.exports = loadDeps(${JSON.stringify(FEATURES.file)})[${JSON.stringify(args.path)}];`,
    }));
  },
});

/**
 * What dist/features.js makes its own of though the shell has it too: the facades of lazy
 * dependencies (a Proxy: no own names to read them through) and the namespaces of `vscode` and
 * Node's built-ins. Each stands for a module Node or VS Code keeps once (require's cache, the
 * extension's one API object), so there is still one instance underneath.
 */
function ownInFeatures(key) {
  if (key.startsWith('lazy-dependency:')) return true;
  const once = /^imported-once:(.+)$/.exec(key)?.[1];
  return once !== undefined && (once === 'vscode' || once.startsWith('node:') || isLazy(once));
}

/** Features side: a module the shell holds (`shellInputs`) is read from the shell's `__shared`; `used` collects their keys. */
const fromShell = (shellInputs, used) => ({
  name: 'from-shell',
  setup(build) {
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData?.fromShell || args.kind === 'entry-point' || args.namespace === 'from-shell') return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        namespace: args.namespace,
        pluginData: { fromShell: true },
      });
      if (resolved.errors.length || resolved.external) return undefined;
      const key = inputKey(resolved);
      if (!shellInputs.has(key) || ownInFeatures(key)) return undefined;
      used.add(key);
      return { path: key, namespace: 'from-shell' };
    });
    build.onLoad({ filter: /.*/, namespace: 'from-shell' }, (args) => ({
      loader: 'js',
      contents: `module.exports = fromShell(${JSON.stringify(args.path)});`,
    }));
  },
});

/** The value export names of each of `files` (metafile keys of ours and of bundled packages), as esbuild sees them when bundling each alone. */
async function exportNames(files, shell) {
  if (!files.length) return new Map();
  const result = await esbuild.build({
    entryPoints: files,
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'node',
    outdir: 'export-names',
    outbase: '.',
    packages: 'external',
    external: ['vscode'],
    logLevel: 'silent',
    mainFields: shell.mainFields,
  });
  const names = new Map();
  for (const output of Object.values(result.metafile.outputs)) if (output.entryPoint) names.set(output.entryPoint, output.exports);
  const missing = files.filter((f) => !names.has(f));
  if (missing.length) throw new Error(`no export names for ${missing.join(', ')}`);
  return names;
}

/** An import specifier, from the working directory, for the module of a metafile key (see inputKey). */
function specifierOf(key) {
  const at = key.indexOf(':');
  if (at > 1) return key.slice(at + 1); // imported-once:vscode, lazy-dependency:ajv: the plugins make the same module of it
  return key.startsWith('.') ? key : `./${key}`;
}

/**
 * The shell (`shell`: dist/extension.js's options) and dist/features.js, in the three steps
 * above; returns their results in that order. Fails the build if a module ended up in both.
 */
async function buildShellAndFeatures(shell) {
  const lazy = new Set();
  const entry = shell.entryPoints[0];
  const first = await esbuild.build({ ...shell, metafile: true, plugins: [lazyFeatures(lazy), ...shell.plugins] });
  const shellInputs = new Set(Object.keys(first.metafile.inputs));
  const featuresFile = join(shell.outfile, '..', FEATURES.file);
  if (!lazy.size) {
    rmSync(featuresFile, { force: true });
    return [first];
  }
  const used = new Set();
  const keys = [...lazy].sort();
  const features = await esbuild.build({
    ...shell,
    entryPoints: undefined,
    stdin: {
      contents: [
        ...keys.map((k, i) => `import * as feature${i} from ${JSON.stringify(specifierOf(k))};`),
        `export default {`,
        ...keys.map((k, i) => `  ${JSON.stringify(k)}: feature${i},`),
        `};`,
      ].join('\n'),
      resolveDir: '.',
      sourcefile: 'lazy-features',
    },
    outfile: featuresFile,
    metafile: true,
    plugins: [fromShell(shellInputs, used), ...shell.plugins],
    banner: {
      js: [
        "'use strict';", // as dist/extension.js: the code is ES modules, strict
        ...LOAD_DEPS,
        `let mcpWorkbenchShared;`,
        `function fromShell(key) { return (mcpWorkbenchShared ??= require(require('node:path').join(__dirname, ${JSON.stringify(shell.outfile.split('/').pop())})).__shared())[key]; }`,
      ].join('\n'),
    },
    footer: undefined,
  });
  const shared = [...used].sort();
  // Named imports where the module's export names are known at build time (our files and
  // bundled packages: read from esbuild's metafile), so the shell makes no namespace object
  // for them: each is a getter per name per module (~600 closures, ~30 KB more code cache to
  // read at every activation). The table is built inside a function, when dist/features.js
  // first asks for it. The rest (`vscode`, the facades) are objects already.
  const files = shared.filter((k) => !k.includes(':'));
  const names = await exportNames(files, shell);
  const lines = [`export * from ${JSON.stringify(specifierOf(entry))};`];
  const table = [];
  shared.forEach((k, i) => {
    if (names.has(k)) {
      const own = names.get(k);
      if (own.length) lines.push(`import { ${own.map((n, j) => `${n} as shared${i}_${j}`).join(', ')} } from ${JSON.stringify(specifierOf(k))};`);
      // __esModule: esbuild's interop in dist/features.js then reads `default` as the module's own.
      table.push(`    ${JSON.stringify(k)}: { __esModule: true, ${own.map((n, j) => `get ${n}() { return shared${i}_${j}; }`).join(', ')} },`);
    } else {
      lines.push(`import * as shared${i} from ${JSON.stringify(specifierOf(k))};`);
      table.push(`    ${JSON.stringify(k)}: shared${i},`);
    }
  });
  lines.push(
    '/** What dist/features.js reads from this bundle (esbuild.mjs, fromShell), built when it first asks. */',
    'export function __shared() {',
    '  return {',
    ...table,
    '  };',
    '}',
  );
  const second = await esbuild.build({
    ...shell,
    entryPoints: undefined,
    stdin: { contents: lines.join('\n'), resolveDir: '.', sourcefile: 'shell' },
    metafile: true,
    plugins: [lazyFeatures(new Set()), ...shell.plugins],
  });
  const twice = Object.keys(features.metafile.inputs).filter((k) => shellInputs.has(k) && !ownInFeatures(k));
  const lost = [...shellInputs].filter((k) => !(k in second.metafile.inputs));
  if (twice.length || lost.length) {
    throw new Error(`dist/${FEATURES.file}: ${twice.length ? `bundled again what the shell holds: ${twice.join(', ')}` : `the shell lost ${lost.join(', ')}`}`);
  }
  return [second, features];
}

const targets = [
  {
    ...common,
    entryPoints: ['src/extension.ts'],
    bundle: true,
    outfile: 'dist/extension.js',
    external: ['vscode'],
    minify: production,
    sourcemap: !production,
    sourcesContent: false,
    plugins: [importedOnce(SHARED_IN_BUNDLE), lazyDependencies, ...(production ? [asciiOnly] : []), problemMatcher],
    // Performance marks for the activation timing (src/api.ts ActivationTiming); loadDeps is
    // what the facades of lazyDependencies call.
    banner: {
      js: [
        "'use strict';", // the banner comes before esbuild's own directive, which would then not count
        "performance.mark('mcpWorkbench/load');",
        ...LOAD_DEPS,
      ].join('\n'),
    },
    footer: { js: "performance.mark('mcpWorkbench/loaded');" },
  },
  {
    // The entry point (package.json `main`): loads dist/extension.js through V8's code cache
    // (src/codeCacheLoader.ts). Index 1: the bundles after it are read by index below.
    ...common,
    entryPoints: ['src/codeCacheLoader.ts'],
    bundle: true,
    outfile: 'dist/main.js',
    minify: production,
    sourcemap: !production,
    sourcesContent: false,
    plugins: [problemMatcher],
  },
  // The lazily required dependencies of dist/extension.js, by import specifier: dist/deps.js
  // (index 2: the metafile below reads it), then dist/agentDeps.js and dist/regexDeps.js.
  ...LAZY_BUNDLES.map((lazy) => ({
    ...common,
    stdin: {
      // ESM imports, so the packages' ESM builds are bundled (tree-shaken), as they were in
      // dist/extension.js; require() would pick their CommonJS builds (zod's whole: +450 KB).
      contents: [
        ...lazy.modules.map((d, i) => `import * as dependency${i} from ${JSON.stringify(d)};`),
        `export default {\n${lazy.modules.map((d, i) => `  ${JSON.stringify(d)}: dependency${i},`).join('\n')}\n};`,
      ].join('\n'),
      resolveDir: '.',
      sourcefile: `lazy-${lazy.file}`,
    },
    bundle: true,
    outfile: `dist/${lazy.file}`,
    plugins: [zodLocalesLeftOut, problemMatcher],
    minify: production,
    sourcemap: !production,
    sourcesContent: false,
  })),
  {
    ...common,
    entryPoints: [...tsFiles('src'), ...tsFiles('test')], // webview/ is browser code: bundled below
    outdir: 'out',
    outbase: '.',
    bundle: false,
  },
  {
    // The MCP config language server, started by the extension in its own Node process.
    ...common,
    entryPoints: ['src/configLanguage/server/server.ts'],
    bundle: true,
    outfile: 'dist/server.js',
    minify: production,
    sourcemap: !production,
    sourcesContent: false,
    plugins: [problemMatcher],
  },
  {
    // The language client library, kept out of dist/extension.js so activation does not load it.
    ...common,
    entryPoints: ['src/configLanguage/languageClientFactory.ts'],
    bundle: true,
    outfile: 'dist/languageClient.js',
    external: ['vscode'],
    plugins: [importedOnce(/^vscode$/), problemMatcher],
    minify: production,
    sourcemap: !production,
    sourcesContent: false,
  },
  {
    // The command line (`mcp-workbench test`, the package's `bin`): plain Node, everything
    // bundled, no `vscode`. Not in the VSIX (.vscodeignore lets in only what the extension loads).
    ...common,
    entryPoints: ['src/cli/cli.ts'],
    bundle: true,
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
    define: { ...common.define, MCPWB_CLI_VERSION: JSON.stringify(requireHere('./package.json').version) },
    plugins: [zodLocalesLeftOut, problemMatcher],
    minify: production,
    sourcemap: !production,
    sourcesContent: false,
  },
  {
    ...common,
    entryPoints: ['test/conformance/client.ts'],
    bundle: true,
    outfile: 'out/test/conformance/client.js',
  },
];

// Browser code of fixture servers (*.browser.ts, e.g. the MCP Apps fixture's app): bundled
// with its dependencies for the browser, next to the server that inlines it.
targets.push({
  entryPoints: tsBrowserFiles('test/fixtures'),
  bundle: true,
  outdir: 'out',
  outbase: '.',
  platform: 'browser',
  format: 'iife',
  target: 'es2022',
  minify: true,
  logLevel: 'warning',
});

function tsBrowserFiles(dir) {
  const found = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...tsBrowserFiles(path));
    else if (name.endsWith('.browser.ts')) found.push(path);
  }
  return found;
}

// Webview scripts: every webview/<name>/main.ts becomes dist/webview/<name>.js for the browser.
const webviewEntries = existsSync('webview')
  ? readdirSync('webview')
      .filter((name) => existsSync(join('webview', name, 'main.ts')))
      .map((name) => ({ in: join('webview', name, 'main.ts'), out: name }))
  : [];
if (webviewEntries.length) {
  targets.push({
    entryPoints: webviewEntries,
    bundle: true,
    outdir: 'dist/webview',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    minify: production,
    sourcemap: !production,
    logLevel: 'warning',
  });
}

/** With --dist: only the targets that write dist/, moved to that folder (index order kept for the metafile). */
function intoDist(options) {
  const moved = (file) => (file.startsWith('dist/') || file === 'dist' ? join(distOut, file.slice('dist'.length)) : undefined);
  if (options.outfile) return moved(options.outfile) && { ...options, outfile: moved(options.outfile) };
  return moved(options.outdir) && { ...options, outdir: moved(options.outdir) };
}
const built = distOut ? targets.map(intoDist) : targets;

if (watch) {
  const contexts = await Promise.all(built.filter(Boolean).map((options) => esbuild.context({ ...options, metafile: true })));
  await Promise.all(contexts.map((ctx) => ctx.watch()));
} else {
  // Index 0, dist/extension.js, is built with dist/features.js (buildShellAndFeatures).
  const [shell, ...rest] = built.filter(Boolean);
  const contexts = await Promise.all(rest.map((options) => esbuild.context({ ...options, metafile: true })));
  try {
    const [[shellResult, featuresResult], restResults] = await Promise.all([
      buildShellAndFeatures(shell).catch((error) => {
        if (!error.errors) console.error(`✘ [ERROR] ${error.message}`);
        process.exitCode = 1;
        return [];
      }),
      Promise.all(contexts.map((ctx) => ctx.rebuild())),
    ]);
    if (!shellResult) throw new Error('dist/extension.js was not built');
    const results = [shellResult, ...restResults];
    pruneStaleOutputs(
      [...results, ...(featuresResult ? [featuresResult] : [])].flatMap((r) => Object.keys(r.metafile?.outputs ?? {})),
      distOut ? [distOut] : ['dist', 'out'],
    );
    // dist/extension.js and dist/deps.js (what loads at activation, and on first use): indexes 0
    // and 2 in either case, since the targets --dist leaves out all come after them.
    if (metafileOut) {
      const [extension, deps, features] = [results[0].metafile, results[2].metafile, featuresResult?.metafile];
      writeFileSync(
        metafileOut,
        JSON.stringify({
          inputs: { ...extension.inputs, ...deps.inputs, ...features?.inputs },
          outputs: { ...extension.outputs, ...deps.outputs, ...features?.outputs },
        }),
      );
    }
  } finally {
    await Promise.all(contexts.map((ctx) => ctx.dispose()));
  }
}

/**
 * Removes files a previous build left in dist/ and out/ that this one did not write (e.g. a
 * deleted test), after the fact: the folders are never emptied first, so a test run or a
 * VS Code window using them while a rebuild happens keeps finding its files.
 */
function pruneStaleOutputs(outputs, folders) {
  const keep = new Set(outputs.map((file) => resolve(file)));
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (!keep.has(resolve(path))) rmSync(path);
    }
  };
  folders.forEach(walk);
}
