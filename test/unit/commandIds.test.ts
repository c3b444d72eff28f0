/**
 * Command ids live in one place per feature, `src/<feature>/common/commandIds.ts`, and each
 * feature registers its commands through a table of those ids (src/shared/commandTable.ts).
 * This test keeps the lists, package.json and the source in step: a command VS Code shows has
 * an id in a list, an id in a list is contributed or says why it is not, and no command id is
 * spelled out as a string anywhere else in src/ (a typo there fails only when someone clicks).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { files, imports, isCommandIds, REPO, rel } from './importGraph';

const manifest = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
const contributed = new Set<string>(manifest.contributes.commands.map((c: { command: string }) => c.command));

/**
 * The ids modules, `src/<feature>/common/commandIds.ts`, read from source: each export is an
 * object literal of string literals (`{ start: 'mcpWorkbench.startServer' } as const`), which
 * keeps them easy to read here and by eye. Anything else in them is reported.
 */
const idFiles = files.map(rel).filter(isCommandIds).sort();
const unreadable: string[] = [];
function readIds(file: string): Map<string, Record<string, string>> {
  const source = ts.createSourceFile(file, fs.readFileSync(path.join(REPO, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const exported = new Map<string, Record<string, string>>();
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      let init = declaration.initializer;
      while (init && (ts.isAsExpression(init) || ts.isSatisfiesExpression(init))) init = init.expression;
      const name = declaration.name.getText(source);
      if (init && (ts.isStringLiteral(init) || ts.isNoSubstitutionTemplateLiteral(init))) continue; // a prefix, e.g. PROMPT_COMMAND_PREFIX
      if (!init || !ts.isObjectLiteralExpression(init)) {
        unreadable.push(`${file}: ${name} is not an object literal`);
        continue;
      }
      const entries: Record<string, string> = {};
      for (const property of init.properties) {
        if (ts.isPropertyAssignment(property) && ts.isStringLiteralLike(property.initializer))
          entries[property.name.getText(source)] = property.initializer.text;
        else unreadable.push(`${file}: ${name}.${property.name?.getText(source)} is not a string literal`);
      }
      exported.set(name, entries);
    }
  }
  return exported;
}

interface Id {
  id: string;
  /** `ServerCommands.start` */
  name: string;
  file: string;
}
const ids: Id[] = [];
/** Internal id → why it is registered but not contributed. */
const internal = new Map<string, string>();
const contextKeys: Id[] = [];
const unknownInternal: string[] = [];
for (const file of idFiles) {
  const exported = readIds(file);
  for (const [name, entries] of exported) {
    if (name.endsWith('Internal')) {
      const table = exported.get(`${name.slice(0, -'Internal'.length)}Commands`);
      for (const [key, reason] of Object.entries(entries)) {
        if (table?.[key]) internal.set(table[key], reason);
        else unknownInternal.push(`${file}: ${name}.${key} names no command of ${name.slice(0, -'Internal'.length)}Commands`);
      }
    } else if (name.endsWith('Commands')) ids.push(...Object.entries(entries).map(([key, id]) => ({ id, name: `${name}.${key}`, file })));
    else if (name.endsWith('ContextKeys')) contextKeys.push(...Object.entries(entries).map(([key, id]) => ({ id, name: `${name}.${key}`, file })));
    else unreadable.push(`${file}: ${name} is neither …Commands, …Internal nor …ContextKeys`);
  }
}
const known = new Set<string>([...contributed, ...ids.map((i) => i.id)]);

/** The command-shaped literals of one source file: what they say, where, and why they count. */
function commandLiterals(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const ours = (s: string) => /^_?mcpWorkbench\./.test(s);
  const report = (node: ts.Node, value: string, why: string) =>
    found.push(`${rel(file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: '${value}' (${why})`);
  const callee = (node: ts.Node) => (ts.isCallExpression(node.parent) ? node.parent.expression.getText(source) : '');
  const visit = (node: ts.Node) => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      const value = node.text;
      const parent = node.parent;
      const args = ts.isCallExpression(parent) ? parent.arguments : undefined;
      if (known.has(value)) report(node, value, 'a command id');
      else if (/command:_?mcpWorkbench\./.test(value)) report(node, value, 'a command link');
      else if (ours(value) && args?.[0] === node && /(register|execute)Command$/.test(callee(node))) report(node, value, 'a command id');
      else if (ours(value) && args?.[1] === node && args[0].getText(source) === "'setContext'") report(node, value, 'a context key');
      else if (
        ours(value) &&
        (ts.isPropertyAssignment(parent) || ts.isBinaryExpression(parent)) &&
        /(^|\.)command$/.test((ts.isPropertyAssignment(parent) ? parent.name : parent.left).getText(source))
      ) {
        report(node, value, 'a command id');
      }
    }
    node.forEachChild(visit);
  };
  visit(source);
  return found;
}

/**
 * Where `vscode.commands.registerCommand` may still be called, and why: everything else goes
 * through a feature's command table.
 */
const REGISTERS_DIRECTLY: Record<string, string> = {
  'src/shared/commandTable.ts': 'registers the tables',
  'src/prompts/promptCommandRegistry.ts': 'one command per prompt of each running server, named at run time (PROMPT_COMMAND_PREFIX)',
};

describe('command ids', () => {
  it('finds the ids modules, and reads them', () => {
    assert.ok(idFiles.length >= 10 && ids.length >= contributed.size, `${idFiles.length} ids modules with ${ids.length} ids`);
    assert.deepEqual(unreadable, []);
  });

  it("every command package.json contributes has an id in a feature's commandIds.ts", () => {
    const listed = new Set(ids.map((i) => i.id));
    assert.deepEqual(
      [...contributed].filter((c) => !listed.has(c)),
      [],
    );
  });

  it('every id in a commandIds.ts is contributed in package.json, or listed as internal with its reason', () => {
    const stray = ids.filter((i) => !contributed.has(i.id) && !internal.get(i.id)?.trim()).map((i) => `${i.file}: ${i.name} = ${i.id}`);
    assert.deepEqual(stray, []);
    assert.deepEqual(unknownInternal, []);
    assert.deepEqual(
      [...internal.keys()].filter((id) => contributed.has(id)),
      [],
      'an id listed as internal is contributed after all',
    );
  });

  it('no id is listed twice', () => {
    const seen = new Map<string, string>();
    const twice = ids.filter((i) => seen.has(i.id) || !seen.set(i.id, i.name)).map((i) => `${i.id}: ${seen.get(i.id)} and ${i.name}`);
    assert.deepEqual(twice, []);
  });

  it("each context key in a commandIds.ts is read by package.json's when clauses", () => {
    const manifestText = JSON.stringify(manifest.contributes);
    assert.deepEqual(
      contextKeys.filter((k) => !manifestText.includes(k.id)).map((k) => `${k.name} = ${k.id}`),
      [],
    );
  });

  it('the commandIds.ts files import nothing (so any feature may import them; importGraph.folderCycles relies on it)', () => {
    assert.deepEqual(
      idFiles.filter((f) => imports(path.join(REPO, f)).length > 0),
      [],
    );
  });

  it('no command id, command link or context key of ours is spelled out in src/ outside the commandIds.ts files', function () {
    this.timeout(20000);
    const literals = files.filter((f) => rel(f).startsWith('src/') && !isCommandIds(rel(f))).flatMap(commandLiterals);
    assert.deepEqual(literals, []);
  });

  it('every listed id is a key of a command table, so a command in package.json has a handler', () => {
    const source = files
      .filter((f) => rel(f).startsWith('src/') && !isCommandIds(rel(f)))
      .map((f) => fs.readFileSync(f, 'utf8'))
      .join('\n');
    assert.deepEqual(
      ids.filter((i) => !source.includes(`[${i.name}]:`)).map((i) => `${i.name} = ${i.id}`),
      [],
    );
  });

  it('features register their commands through their command table (src/shared/commandTable.ts)', () => {
    const direct = files
      .filter((f) => rel(f).startsWith('src/') && !(rel(f) in REGISTERS_DIRECTLY))
      .filter((f) => /\bcommands\.register(TextEditor)?Command\(/.test(fs.readFileSync(f, 'utf8')))
      .map(rel);
    assert.deepEqual(direct, []);
  });
});
