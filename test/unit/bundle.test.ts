// What dist/extension.js, the bundle VS Code loads at activation, costs to load (issue 30): it
// reads the `vscode` API and the other CommonJS modules once, not once per importing module, and
// it holds none of the packages that are required on first use (esbuild.mjs). Reads the
// development build that `node esbuild.mjs` writes before the unit tests run (unminified, with
// its source map: the production build has the same plugins; `npm run bench` times it).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as os from 'node:os';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SKILLS_EXTENSION_ID as SDK_SKILLS_EXTENSION_ID } from '@modelcontextprotocol/client/ext/skills';
import { SKILLS_EXTENSION_ID } from '../../src/mcp/protocolFacts';

const REPO = path.resolve(__dirname, '..', '..', '..');
const BUNDLE = path.join(REPO, 'dist', 'extension.js');

function read(file: string): string {
  assert.ok(fs.existsSync(file), `${path.relative(REPO, file)} is missing: build with \`node esbuild.mjs\` first`);
  return fs.readFileSync(file, 'utf8');
}

describe('the activation bundle (dist/extension.js)', () => {
  it('reads each CommonJS module through the module object itself, copying none of its names', () => {
    const bundle = read(BUNDLE);
    assert.ok(bundle.includes('// src/extension.ts'), 'not the development build? Run `node esbuild.mjs`');
    // esbuild's interop helpers copy every name of a module onto a new object: per importer
    // that was 69 copies of the ~290 names of the vscode API (~36 ms of activation in issue 30),
    // and once per bundle (importedOnce in esbuild.mjs) still 1.3-2.2 ms of a CPU profile. Each
    // importer now reads one namespace object that is the module (namespaceIsTheModule).
    // Not the facades of dist/features.js (esbuild.mjs lazyFeatures): a dynamic import's namespace
    // is built when the command that needs it runs, of the few names of one module.
    const lazyFacades = new Set([...bundle.matchAll(/var (require_\w+) = __commonJS\(\{\s*"lazy-feature:/g)].map((m) => `${m[1]}()`));
    const copies = new Map<string, number>();
    for (const [, module] of bundle.matchAll(/(?:__toESM|__reExport)\((?:\w+,\s*)?(?:__toESM\()?(require\("[^"]+"\)|require_\w+\(\))/g)) {
      if (!lazyFacades.has(module)) copies.set(module, (copies.get(module) ?? 0) + 1);
    }
    assert.deepEqual(
      [...copies].map(([module, count]) => `${module} ×${count}`),
      [],
      'modules whose names are copied (see importedOnce in esbuild.mjs)',
    );
    assert.equal(bundle.match(/require\("vscode"\)/g)?.length, 1, 'the vscode API is required once');
    assert.match(bundle, /\nvar vscode_exports = require\("vscode"\);\n/, 'the vscode namespace is the API object');
  });

  it('holds none of the packages required on first use (the MCP SDK, zod, ajv, RE2)', () => {
    const map = JSON.parse(read(`${BUNDLE}.map`)) as { sources: string[] };
    const packages = new Set(map.sources.map((source) => /node_modules\/(@modelcontextprotocol\/[^/]+|zod|ajv|ajv-formats|jose|re2js)\//.exec(source)?.[1]));
    packages.delete(undefined);
    assert.deepEqual([...packages], [], 'bundled into dist/extension.js instead of dist/deps.js: add the import to LAZY_DEPENDENCIES in esbuild.mjs');
  });

  it('leaves the code only commands, panels and sessions need to dist/features.js, which reads the rest from it', () => {
    // Compiling the bundle with the code cache costs in proportion to its size (issue 30, the
    // registration shell: esbuild.mjs lazyFeatures). A dynamic import of our own code marks code
    // activation does not need; these are the largest such parts.
    const lazy = [
      'src/toolRunner/toolRunnerPanel.ts',
      'src/inspector/inspectorPanel.ts',
      'src/inspector/inspectorController.ts',
      'src/inspector/inspectorExports.ts',
      'src/check/common/runChecks.ts',
      'src/check/common/gatherInput.ts',
      'src/mcpTests/runTestItems.ts',
      'src/gallery/galleryInstall.ts',
      'src/gallery/galleryPicker.ts',
      'src/debug/mcpDebugAdapter.ts',
      'src/chat/chatHandler.ts',
      'src/apps/appSession.ts',
      'src/coexistence/common/agentEndpoint.ts',
    ];
    const sourcesOf = (bundle: string) => {
      const map = JSON.parse(read(`${bundle}.map`)) as { sources: string[] };
      // Files only: `from-shell:…` are the features' readers of the shell's modules, `lazy-…:` facades.
      return new Set(
        map.sources
          .filter((s) => !/^[\w-]+:/.test(s))
          .map((s) =>
            path
              .relative(REPO, path.resolve(path.dirname(bundle), s))
              .split(path.sep)
              .join('/'),
          ),
      );
    };
    const shell = sourcesOf(BUNDLE);
    const features = sourcesOf(path.join(REPO, 'dist', 'features.js'));
    assert.deepEqual(
      lazy.filter((f) => shell.has(f)),
      [],
      'in dist/extension.js, loaded at every activation',
    );
    assert.deepEqual(
      lazy.filter((f) => !features.has(f)),
      [],
      'not in dist/features.js',
    );
    // One copy of every module: a second would have state of its own (l10n, caches, classes).
    assert.deepEqual(
      [...features].filter((f) => shell.has(f)),
      [],
      'in both bundles',
    );
    assert.ok(features.has('src/shared/notifications.ts') === false && shell.has('src/shared/notifications.ts'), 'shared modules stay in the shell');
  });

  it("is loaded by the entry point with V8's code cache from the second activation on", function () {
    this.timeout(60000);
    // package.json `main`, activated twice in fresh Node processes under the bench's `vscode`
    // stub (the one boundary that cannot be real outside VS Code) with one global storage: the
    // first compiles the bundle and leaves V8's code cache there, the second compiles from it.
    // Compiling was the largest cost of activation left (issue 30, docs/performance.md).
    const main = path.join(REPO, (JSON.parse(read(path.join(REPO, 'package.json'))) as { main: string }).main);
    const child = path.join(REPO, 'out', 'test', 'bench', 'scenarios', 'activationChild.js');
    const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'code-cache-storage-'));
    try {
      const activate = () =>
        JSON.parse(execFileSync(process.execPath, [child, main, storage], { encoding: 'utf8' }).trim().split('\n').pop()!) as { codeCache?: string };
      assert.equal(activate().codeCache, 'made', `${path.relative(REPO, main)} loads the bundle through src/codeCacheLoader.ts`);
      assert.equal(activate().codeCache, 'used');
    } finally {
      fs.rmSync(storage, { recursive: true, force: true });
    }
  });

  it('reads no setting inside activate()', function () {
    this.timeout(60000);
    // In VS Code 1.100 the extension host's first settings read cost activate() 10-20 ms (issue 30,
    // docs/performance.md): settings are read when first needed, after activate() returned. Under
    // the bench's `vscode` stub (the one boundary that cannot be real outside VS Code), which
    // records where each read inside activate() came from.
    const child = path.join(REPO, 'out', 'test', 'bench', 'scenarios', 'activationChild.js');
    const result = JSON.parse(
      execFileSync(process.execPath, [child, path.join(REPO, 'dist', 'extension.js')], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .pop()!,
    ) as {
      settingsReads: string[];
    };
    assert.deepEqual(result.settingsReads, []);
  });

  it("keeps the SDK's skills extension id, which the client declares at load, as the SDK has it", () => {
    // A copy (src/mcp/protocolFacts.ts): reading it from the SDK would load the SDK at activation.
    assert.equal(SKILLS_EXTENSION_ID, SDK_SKILLS_EXTENSION_ID);
  });
});
