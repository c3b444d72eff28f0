/**
 * Finds state that lives in a module rather than in an object someone built and handed in:
 * top-level `let`/`var`, top-level `const` collections that the file mutates, module-level
 * instances of classes, and mutable `static` fields of classes. Read with the TypeScript parser
 * (syntax only, no type checking): what it cannot see (an object literal whose field is
 * replaced) it does not claim to. `node out/test/unit/moduleState.js` prints what it finds.
 */
import { readFileSync } from 'node:fs';
import * as ts from 'typescript';
import { files, rel } from './importGraph';

/** Classes whose instances hold no state worth a service (or none that anyone changes). */
const STATELESS_CLASSES = new Set(['RegExp', 'TextEncoder', 'TextDecoder', 'URL', 'Intl.Collator', 'Intl.NumberFormat', 'Intl.DateTimeFormat']);
const COLLECTIONS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet', 'Array']);
const MUTATORS = 'set|add|delete|clear|push|pop|shift|unshift|splice|sort|reverse|fill';

function className(expression: ts.Expression): string {
  return ts.isIdentifier(expression) || ts.isPropertyAccessExpression(expression) ? expression.getText() : '?';
}

/** Whether `initializer` builds something mutable: a collection, an array, an instance of a class with state. */
function mutableValue(initializer: ts.Expression | undefined): 'collection' | 'instance' | undefined {
  if (!initializer) return undefined;
  let value = initializer;
  while (ts.isAsExpression(value) || ts.isSatisfiesExpression(value) || ts.isParenthesizedExpression(value)) value = value.expression;
  if (ts.isArrayLiteralExpression(value)) return 'collection';
  if (!ts.isNewExpression(value)) return undefined;
  const name = className(value.expression);
  if (COLLECTIONS.has(name)) return 'collection';
  return STATELESS_CLASSES.has(name) ? undefined : 'instance';
}

function isReadonly(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ReadonlyKeyword);
}

function isStatic(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
}

/** `name.push(…)`, `name.set(…)`, `name[key] = …` anywhere in the file. */
function mutatedIn(text: string, name: string): boolean {
  return new RegExp(`\\b${name}\\s*\\.\\s*(${MUTATORS})\\s*\\(|\\b${name}\\s*\\[[^\\]]*\\]\\s*=[^=]`).test(text);
}

/** What one file keeps at module level, as `path: what`. */
export function moduleStateOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const name = rel(file);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      const isConst = (statement.declarationList.flags & ts.NodeFlags.Const) !== 0;
      for (const declaration of statement.declarationList.declarations) {
        const id = declaration.name.getText();
        if (!isConst) found.push(`${name}: let ${id}`);
        else {
          const kind = mutableValue(declaration.initializer);
          if (kind === 'instance') found.push(`${name}: const ${id} = new ${className((declaration.initializer as ts.NewExpression).expression)}`);
          else if (kind === 'collection' && ts.isIdentifier(declaration.name) && mutatedIn(text, id)) found.push(`${name}: const ${id} (mutated)`);
        }
      }
    }
    if (ts.isClassDeclaration(statement)) {
      for (const member of statement.members) {
        if (!ts.isPropertyDeclaration(member) || !isStatic(member)) continue;
        const field = `${statement.name?.text ?? '(class)'}.${member.name.getText()}`;
        if (!isReadonly(member)) found.push(`${name}: static ${field}`);
        else if (mutableValue(member.initializer)) found.push(`${name}: static readonly ${field} (mutable value)`);
      }
    }
  }
  return found;
}

/** Every file of src/: glue, the composition root, the protocol core, the pure common/ folders, the language server. */
export function moduleState(): string[] {
  return files
    .filter((file) => rel(file).startsWith('src/'))
    .flatMap(moduleStateOf)
    .sort();
}

if (require.main === module) {
  for (const line of moduleState()) console.log(line);
}
