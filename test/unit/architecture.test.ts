/**
 * The layout rules of docs/architecture.md, checked on the source tree so that CI fails when
 * one is broken: pure layers never reach `vscode` (directly or through another import), no
 * import circles (type-only imports included), no import runs back up a floor, no two folders
 * import each other, a feature's glue imports only other features' common/, no module keeps
 * mutable state for the process (services are built by src/extension.ts and handed in), folders
 * and files stay small enough to read. Each allow-list below names what is still in the way (issue 27);
 * the lists only shrink.
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { backUpArrows, files, folderCycles, glueToGlueImports, graph, imports, REPO, rel } from './importGraph';
import { moduleState } from './moduleState';

const MAX_FILES_IN_FOLDER = 14;
const MAX_LINES = 500;

/**
 * Imports that still run back up a floor. None since extension.ts builds the services
 * workbench.ts carries and hands them in (issue 27): keep it so.
 */
const BACK_UP_ALLOWED: Record<string, string> = {};

/**
 * Folder pairs that still import each other. None since the config glue (config sources, inputs,
 * the config service, discovery) left src/config for src/configService, so src/config is
 * config/common alone, which the protocol core and the Workbench read (issue 27): keep it so.
 */
const FOLDER_CYCLES_ALLOWED: Record<string, string> = {};

/**
 * A feature's glue that still reaches into another feature's glue. None since the config
 * service is handed in through the Workbench (`workbench.sources`, `workbench.config`) and the
 * setting names live in config/common (issue 27): keep it so.
 */
const GLUE_TO_GLUE_ALLOWED: Record<string, string> = {};

/**
 * State a module keeps for the whole process (moduleState.ts says what is found). Services are
 * built by the composition root (src/extension.ts) and handed in; what stays at module level
 * is listed here with why it has to.
 */
const MODULE_STATE_ALLOWED: Record<string, string> = {
  'src/extension.ts: let workbench': 'deactivate() gets no arguments from VS Code: the one way to reach the context it must dispose',
  'src/apps/appSession.ts: let appBridgeModule':
    'a lazily required module (ext-apps is heavy; esbuild.mjs, lazy dependencies): a module cache, no state of ours',
  'src/shared/l10nBundle.ts: let cached': "the display language's translations, read once from disk: the same for the whole process",
  'src/mcp/process/processTree.ts: const living (mutated)': 'the server processes to end when this process exits: the exit hook is process-wide by nature',
  'src/mcp/process/processTree.ts: let reaping': 'whether that exit hook is installed (once per process)',
  'src/mcp/connection/toolCalls.ts: const toolsByName (mutated)': 'a WeakMap memo keyed by an immutable cached tool list: derived data, no state of its own',
  'src/mcp/connection/toolCalls.ts: const callResultValidators (mutated)':
    "a WeakMap memo keyed by the SDK's era codec objects: derived data, no state of its own",
  'src/codeCacheLoader.ts: let activation':
    'the entry point before the bundle: deactivate() gets no arguments from VS Code, and the code cache is made after activate() returned',
  'src/jsonSchema/common/schemaValidation.ts: const instances (mutated)': 'ajv instances per draft, built on first use: a cache of pure values',
  'src/jsonSchema/common/schemaValidation.ts: const compiled (mutated)': 'a WeakMap memo of compiled validators keyed by schema object: derived data',
  'src/models/common/mockReplies.ts: const compiled (mutated)': 'a WeakMap memo of compiled mock regexes keyed by rule: derived data',
  'src/models/common/mockReplies.ts: let callCount': 'a counter that makes generated mock tool-call ids unique in the process',
};

/** Folders that are a process of their own: module state there is that process's state, not the extension's. */
const MODULE_STATE_ALLOWED_FOLDERS: Record<string, string> = {
  'src/configLanguage/server/': 'the config language server runs in its own process (one documents store, one settings copy per process)',
};

/** What the source has beyond an allow-list (must be fixed), and what of the list it no longer has (to be removed from it). */
function againstAllowList(found: string[], allowed: Record<string, string>): { unexpected: string[]; fixed: string[] } {
  return { unexpected: found.filter((f) => !(f in allowed)), fixed: Object.keys(allowed).filter((a) => !found.includes(a)) };
}

/** Files that may not import `vscode`: every `common/` folder, the connections and the language server. */
function isPure(rel: string): boolean {
  return rel.split('/').includes('common') || rel.startsWith('src/mcp/') || rel.startsWith('src/configLanguage/server/');
}

describe('architecture', () => {
  it('finds the source tree', () => {
    assert.ok(graph.size > 50, `only ${graph.size} files found under ${REPO}`);
  });

  it('keeps vscode out of common/ folders, src/mcp and the config language server, also through their imports', () => {
    const offenders: string[] = [];
    for (const file of files) {
      const name = rel(file);
      if (!name.startsWith('src/') || !isPure(name)) continue;
      if (imports(file).includes('vscode')) offenders.push(`${name} imports vscode`);
      for (const target of graph.get(name) ?? []) {
        if (target.startsWith('src/') && !isPure(target)) offenders.push(`${name} imports ${target}, which may use vscode`);
      }
    }
    assert.deepEqual(offenders, []);
  });

  it('has no import circles, type-only imports included', () => {
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (node: string) => {
      state.set(node, 'open');
      stack.push(node);
      for (const next of graph.get(node) ?? []) {
        if (state.get(next) === 'open') circles.push([...stack.slice(stack.indexOf(next)), next].join(' → '));
        else if (!state.has(next)) visit(next);
      }
      stack.pop();
      state.set(node, 'done');
    };
    for (const node of graph.keys()) if (!state.has(node)) visit(node);
    assert.deepEqual(circles, []);
  });

  it('has no import that runs back up a floor (see FLOORS in importGraph.ts)', () => {
    assert.deepEqual(againstAllowList(backUpArrows(), BACK_UP_ALLOWED), { unexpected: [], fixed: [] });
  });

  it('has no two folders of src/ that import each other', () => {
    const cycles = folderCycles();
    const found = againstAllowList(
      cycles.map((c) => c.pair),
      FOLDER_CYCLES_ALLOWED,
    );
    const unexpected = found.unexpected.map((pair) => `${pair}: ${cycles.find((c) => c.pair === pair)?.imports}`);
    assert.deepEqual({ unexpected, fixed: found.fixed }, { unexpected: [], fixed: [] });
  });

  it("has feature glue import only other features' common/, never their glue", () => {
    assert.deepEqual(againstAllowList(glueToGlueImports(), GLUE_TO_GLUE_ALLOWED), { unexpected: [], fixed: [] });
  });

  it('has no module-level mutable state (top-level let, mutated module collections, module instances, mutable static fields) but the listed', () => {
    const found = moduleState().filter((f) => !Object.keys(MODULE_STATE_ALLOWED_FOLDERS).some((folder) => f.startsWith(folder)));
    assert.deepEqual(againstAllowList(found, MODULE_STATE_ALLOWED), { unexpected: [], fixed: [] });
  });

  it(`has at most ${MAX_FILES_IN_FOLDER} files directly in any folder of src/`, () => {
    const crowded: string[] = [];
    const walk = (dir: string) => {
      const names = readdirSync(dir);
      const fileCount = names.filter((n) => statSync(path.join(dir, n)).isFile()).length;
      if (fileCount > MAX_FILES_IN_FOLDER) crowded.push(`${rel(dir)}: ${fileCount} files`);
      for (const n of names) if (statSync(path.join(dir, n)).isDirectory()) walk(path.join(dir, n));
    };
    walk(path.join(REPO, 'src'));
    assert.deepEqual(crowded, []);
  });

  it(`has no file over ${MAX_LINES} lines in src/ or webview/`, () => {
    const long = files
      .map((file) => ({ name: rel(file), lines: readFileSync(file, 'utf8').split('\n').length }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ name, lines }) => `${name}: ${lines} lines`);
    assert.deepEqual(long, []);
  });
});
