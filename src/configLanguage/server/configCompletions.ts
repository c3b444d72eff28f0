/**
 * Completions the schema cannot give: variables after `${`, input ids inside `${input:…}`,
 * environment names inside `${env:…}`, folder names inside `${workspaceFolder:…}`, the
 * executables on PATH for `command`, for `npx` servers the npm packages the workspace
 * already uses, and the profiles of `samplingMocks` for `sampling.mock`. Keys and `type` values come from the schema.
 */
import { WORKBENCH_FILE_PATH } from '../../config/common/ownKeys/workbenchFile';
import { workbenchFileProfiles } from './ownKeyPlace';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as jsonc from 'jsonc-parser';
import { CompletionItemKind, type CompletionItem, type Position } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { VARIABLES } from './configDiagnostics';
import type { ConfigModel } from './configModel';
import { readTextOnDisk, type LanguageContext } from './serverContext';

/** Commands most servers are started with, offered first. */
const COMMON_COMMANDS = ['npx', 'uvx', 'node', 'python3', 'python', 'uv', 'docker', 'deno', 'bun', 'bunx', 'pnpm', 'dotnet', 'java'];

export function completeVariablesAndCommands(model: ConfigModel, doc: TextDocument, position: Position, ctx: LanguageContext): CompletionItem[] {
  if (model.parsed.tooDeep) return [];
  const offset = doc.offsetAt(position);
  const location = jsonc.getLocation(model.text, offset);
  const node = location.previousNode;
  if (!node || node.type !== 'string' || location.isAtPropertyKey || offset <= node.offset || offset > node.offset + node.length) return [];
  const before = model.text.slice(node.offset + 1, offset);
  const open = before.lastIndexOf('${');
  if (open >= 0 && !before.slice(open).includes('}')) {
    return completeVariable(model, doc, before.slice(open + 2), node.offset + 1 + open + 2, offset, ctx);
  }
  const p = location.path;
  if (model.mapKey && p.length === 3 && p[0] === model.mapKey && p[2] === 'command') {
    const replace = { start: doc.positionAt(node.offset), end: doc.positionAt(Math.max(offset, node.offset + node.length)) };
    return executablesOnPath(ctx).map((name, i) => ({
      label: name,
      kind: CompletionItemKind.File,
      detail: 'on PATH',
      filterText: JSON.stringify(name),
      sortText: `${COMMON_COMMANDS.includes(name) ? '0' : '1'}${String(i).padStart(5, '0')}`,
      textEdit: { range: replace, newText: JSON.stringify(name) },
    }));
  }
  if (model.mapKey && p.length === 4 && p[0] === model.mapKey && p[2] === 'sampling' && p[3] === 'mock') {
    const replace = { start: doc.positionAt(node.offset), end: doc.positionAt(Math.max(offset, node.offset + node.length)) };
    const inFile = model.samplingMocks.map(({ name, valueNode }) => {
      const description = valueNode.type === 'object' ? jsonc.findNodeAtLocation(valueNode, ['description']) : undefined;
      return {
        label: name,
        kind: CompletionItemKind.Value,
        detail: 'sampling mock profile',
        ...(description?.type === 'string' ? { documentation: String(description.value) } : {}),
        filterText: JSON.stringify(name),
        textEdit: { range: replace, newText: JSON.stringify(name) },
      };
    });
    // And the profiles of .vscode/mcp-workbench.json, where they belong for this file.
    const beside = workbenchFileProfiles(ctx.workbenchFile)
      .filter((name) => !model.samplingMocks.some((m) => m.name === name))
      .map((name) => ({
        label: name,
        kind: CompletionItemKind.Value,
        detail: `sampling mock profile (${WORKBENCH_FILE_PATH})`,
        filterText: JSON.stringify(name),
        textEdit: { range: replace, newText: JSON.stringify(name) },
      }));
    return [...inFile, ...beside];
  }
  if (model.mapKey && p.length === 4 && p[0] === model.mapKey && p[2] === 'args' && commandOf(model, String(p[1])) === 'npx') {
    const replace = { start: doc.positionAt(node.offset), end: doc.positionAt(Math.max(offset, node.offset + node.length)) };
    return workspacePackages(model, ctx).map(({ name, from }) => ({
      label: name,
      kind: CompletionItemKind.Module,
      detail: from,
      filterText: JSON.stringify(name),
      textEdit: { range: replace, newText: JSON.stringify(name) },
    }));
  }
  return [];
}

function commandOf(model: ConfigModel, server: string): string | undefined {
  const root = model.root;
  const command = root && jsonc.findNodeAtLocation(root, [model.mapKey!, server, 'command']);
  return typeof command?.value === 'string' ? command.value.replace(/(\.cmd)?$/i, '') : undefined;
}

/**
 * npm packages already in use here: those other npx servers of this file run, then the
 * dependencies of the workspace folders' package.json files.
 */
function workspacePackages(model: ConfigModel, ctx: LanguageContext): { name: string; from: string }[] {
  const found = new Map<string, string>();
  const root = model.root;
  const servers = root && model.mapKey ? jsonc.findNodeAtLocation(root, [model.mapKey]) : undefined;
  for (const entry of servers?.children ?? []) {
    const value = entry.children?.[1] && (jsonc.getNodeValue(entry.children[1]) as { command?: unknown; args?: unknown });
    if (value?.command !== 'npx' || !Array.isArray(value.args)) continue;
    const pkg = value.args.find((a): a is string => typeof a === 'string' && !a.startsWith('-'));
    if (pkg && !found.has(pkg)) found.set(pkg, `used by "${String(entry.children?.[0]?.value)}"`);
  }
  const read = ctx.readText ?? readTextOnDisk;
  for (const folder of ctx.workspaceFolders) {
    const text = read(path.join(folder.path, 'package.json'));
    if (!text) continue;
    let manifest: Record<string, unknown>;
    try {
      manifest = JSON.parse(text) as Record<string, unknown>;
    } catch {
      continue;
    }
    for (const field of ['dependencies', 'devDependencies']) {
      const deps = manifest[field];
      if (!deps || typeof deps !== 'object') continue;
      for (const name of Object.keys(deps)) if (!found.has(name)) found.set(name, `${field} of ${folder.name}/package.json`);
    }
  }
  return [...found].map(([name, from]) => ({ name, from }));
}

function completeVariable(model: ConfigModel, doc: TextDocument, typed: string, start: number, offset: number, ctx: LanguageContext): CompletionItem[] {
  const closed = model.text[offset] === '}';
  const range = { start: doc.positionAt(start), end: doc.positionAt(closed ? offset + 1 : offset) };
  const item = (name: string, kind: CompletionItemKind, detail: string, documentation?: string): CompletionItem => ({
    label: name,
    kind,
    detail,
    documentation: documentation ? { kind: 'markdown', value: documentation } : undefined,
    filterText: name,
    textEdit: { range, newText: `${name}}` },
  });
  if (typed.startsWith('input:')) {
    return model.inputs.map((i) => item(`input:${i.id}`, CompletionItemKind.Variable, i.password ? 'password input' : 'input', i.description));
  }
  if (typed.startsWith('env:')) {
    return Object.keys(ctx.env)
      .sort()
      .map((name) => item(`env:${name}`, CompletionItemKind.Variable, 'environment variable'));
  }
  if (typed.startsWith('workspaceFolder:')) {
    return ctx.workspaceFolders.map((f) => item(`workspaceFolder:${f.name}`, CompletionItemKind.Folder, f.path));
  }
  const items: CompletionItem[] = [];
  for (const v of VARIABLES) {
    if (!v.family) {
      items.push(item(v.name, CompletionItemKind.Variable, 'variable', v.description));
    } else {
      // Families complete to their prefix and ask for the rest at once.
      items.push({
        label: v.name,
        kind: CompletionItemKind.Module,
        detail: 'variable',
        documentation: { kind: 'markdown', value: v.description },
        filterText: v.name,
        textEdit: { range: { start: range.start, end: doc.positionAt(offset) }, newText: v.name },
        command: { title: 'Suggest', command: 'editor.action.triggerSuggest' },
      });
    }
  }
  for (const i of model.inputs) items.push(item(`input:${i.id}`, CompletionItemKind.Variable, 'input', i.description));
  return items;
}

let executablesCache: { key: string; names: string[] } | undefined;

/** Executable names on the PATH servers start with, common ones first; cached per PATH. */
export function executablesOnPath(ctx: LanguageContext): string[] {
  const key = `${ctx.platform}\0${ctx.pathValue}`;
  if (executablesCache?.key === key) return executablesCache.names;
  const win = ctx.platform === 'win32';
  const exts = (ctx.env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').toLowerCase().split(';').filter(Boolean);
  const found = new Set<string>();
  for (const dir of ctx.pathValue.split(win ? ';' : ':').filter(Boolean)) {
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      if (win) {
        const ext = path.extname(name).toLowerCase();
        if (exts.includes(ext)) found.add(name.slice(0, -ext.length));
      } else if (!found.has(name) && (ctx.isExecutableFile ?? isExecutable)(path.join(dir, name))) {
        found.add(name);
      }
    }
  }
  const names = [...COMMON_COMMANDS.filter((c) => found.has(c)), ...[...found].filter((n) => !COMMON_COMMANDS.includes(n)).sort()];
  executablesCache = { key, names };
  return names;
}

function isExecutable(file: string): boolean {
  try {
    const s = fs.statSync(file);
    if (!s.isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
