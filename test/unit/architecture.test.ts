/**
 * The layout rules of docs/architecture.md, checked on the source tree so that CI fails when
 * one is broken: pure layers never reach `vscode` (directly or through another import), no
 * import circles (type-only imports included), folders and files stay small enough to read.
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { files, graph, imports, REPO, rel } from './importGraph';

const MAX_FILES_IN_FOLDER = 14;
const MAX_LINES = 500;
/** Known long files, each waiting for its split by job (issue 12); the list only shrinks. */

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
