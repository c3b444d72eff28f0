/**
 * The import graph of src/ and webview/, and the measures docs/architecture.md states its rules
 * in: the floor of each file, the imports that run back up a floor, the folder pairs that import
 * each other. test/unit/architecture.test.ts asserts on them; after a build,
 * `node out/test/unit/importGraph.js` prints them (to measure a refactoring before and after).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

export const REPO = path.resolve(__dirname, '../../..');

export function sourceFiles(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) found.push(...sourceFiles(full));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) found.push(full);
  }
  return found;
}

const IMPORT = /(?:^|[^\w.])(?:from|import|require)\s*\(?\s*['"]([^'"]+)['"]/g;

export function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
  return [...text.matchAll(IMPORT)].map((m) => m[1]);
}

function resolveRelative(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, base + '.ts', base.replace(/\.js$/, '.ts'), path.join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

export const rel = (file: string) => path.relative(REPO, file).split(path.sep).join('/');
export const files = [...sourceFiles(path.join(REPO, 'src')), ...sourceFiles(path.join(REPO, 'webview'))];
/** Repository-relative file → the repository files it imports (relative imports only). */
export const graph = new Map<string, string[]>();
for (const file of files) {
  graph.set(
    rel(file),
    imports(file)
      .filter((s) => s.startsWith('.'))
      .map((s) => resolveRelative(file, s))
      .filter((f): f is string => !!f)
      .map(rel),
  );
}

/**
 * The floors of docs/architecture.md, lowest first. An import may go down or stay on its floor;
 * one that goes up is a back-up arrow.
 */
export const FLOORS = [
  'shared/common: helpers every floor may use',
  'protocol core: src/mcp and src/config/common (where servers come from)',
  "features' common/ and pure helper folders (src/traffic, src/jsonSchema, the config language server)",
  'src/shared glue: the few vscode helpers several features use',
  'src/workbench.ts: the context every feature receives',
  'feature glue',
  'src/api.ts and src/extension.ts: the composition root',
] as const;

export function floorOf(file: string): number {
  if (file === 'src/extension.ts' || file === 'src/api.ts') return 6;
  if (file === 'src/workbench.ts') return 4;
  if (file.startsWith('src/shared/common/')) return 0;
  if (file.startsWith('src/mcp/') || file.startsWith('src/config/common/')) return 1;
  if (file.split('/').includes('common') || file.startsWith('src/configLanguage/server/')) return 2;
  if (file.startsWith('src/shared/')) return 3;
  return 5;
}

/** Imports of src/ that run back up a floor, as `from → to`. */
export function backUpArrows(): string[] {
  const arrows: string[] = [];
  for (const [from, targets] of graph) {
    if (!from.startsWith('src/')) continue;
    for (const to of targets) if (floorOf(to) > floorOf(from)) arrows.push(`${from} → ${to}`);
  }
  return arrows.sort();
}

/** Imports from one feature's glue into another feature's glue (glue may import only other features' common/), as `from → to`. */
export function glueToGlueImports(): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph) {
    if (!from.startsWith('src/') || floorOf(from) !== 5) continue;
    for (const to of targets) if (floorOf(to) === 5 && topFolder(to) !== topFolder(from)) found.push(`${from} → ${to}`);
  }
  return found.sort();
}

/** The top-level folder (or file, without `.ts`) of src/ a file belongs to: `src/activity`, `src/workbench`. */
export function topFolder(file: string): string {
  return file.split('/').slice(0, 2).join('/').replace(/\.ts$/, '');
}

/**
 * A feature's `common/commandIds.ts`: its command ids and context keys, with no imports of its own
 * (test/unit/commandIds.test.ts checks that). Importing one couples to a name, as calling the
 * command by its string did, not to code; so folderCycles does not count it: Run Tool starting a
 * server and the Servers view opening Run Tool is not a tangle of the two folders.
 */
export const isCommandIds = (file: string) => /^src\/[^/]+\/common\/commandIds\.ts$/.test(file);

/** Pairs of top-level folders of src/ that import each other (`a ↔ b`), each with one import of either way (imports of command ids aside). */
export function folderCycles(): { pair: string; imports: string }[] {
  const edges = new Map<string, string>();
  for (const [from, targets] of graph) {
    if (!from.startsWith('src/')) continue;
    for (const to of targets) {
      if (isCommandIds(to)) continue;
      const a = topFolder(from);
      const b = topFolder(to);
      if (a !== b && !edges.has(`${a} ${b}`)) edges.set(`${a} ${b}`, `${from} → ${to}`);
    }
  }
  const pairs: { pair: string; imports: string }[] = [];
  for (const [key, example] of edges) {
    const [a, b] = key.split(' ');
    if (a < b && edges.has(`${b} ${a}`)) pairs.push({ pair: `${a} ↔ ${b}`, imports: `${example}; ${edges.get(`${b} ${a}`)}` });
  }
  return pairs.sort((x, y) => x.pair.localeCompare(y.pair));
}

if (require.main === module) {
  const arrows = backUpArrows();
  const cycles = folderCycles();
  console.log(`Floors: ${FLOORS.map((f, i) => `${i} ${f}`).join('; ')}`);
  console.log(`\n${arrows.length} imports run back up a floor:`);
  for (const a of arrows) console.log(`  ${a}`);
  console.log(`\n${cycles.length} folder pairs import each other:`);
  for (const c of cycles) console.log(`  ${c.pair} (${c.imports})`);
  const glue = glueToGlueImports();
  console.log(`\n${glue.length} imports from one feature's glue into another's:`);
  for (const g of glue) console.log(`  ${g}`);
}
