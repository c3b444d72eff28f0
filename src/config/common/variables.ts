/**
 * `${...}` variable substitution for server entries. Pure: the caller supplies the folder
 * paths, the environment and any input values it already has.
 */
import type { ServerEntry } from './serverConfig';
import { mapOAuthStrings, oauthStrings } from './oauthConfig';

export interface VariableContext {
  /** The folder the config file belongs to (its `${workspaceFolder}`), if any. */
  workspaceFolder?: string;
  workspaceFolders: ReadonlyArray<{ name: string; path: string }>;
  userHome: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Values of `${input:id}` already known. */
  inputs: Readonly<Record<string, string>>;
}

const VARIABLE = /\$\{([^}]*)\}/g;

export const KNOWN_VARIABLES = ['workspaceFolder', 'workspaceFolderBasename', 'userHome', 'pathSeparator', '/', 'env:', 'input:', 'workspaceFolder:'];

/** Every `${input:id}` used anywhere in the entry, in order of first use. */
export function inputIdsUsed(entry: ServerEntry): string[] {
  const ids: string[] = [];
  for (const s of entryStrings(entry)) {
    for (const m of s.matchAll(VARIABLE)) {
      const v = m[1];
      if (v.startsWith('input:')) {
        const id = v.slice('input:'.length);
        if (!ids.includes(id)) ids.push(id);
      }
    }
  }
  return ids;
}

/** The NAMEs of `${env:NAME}` in a text. */
export function envNamesUsed(text: string | null | undefined): string[] {
  if (!text) return [];
  return [...text.matchAll(VARIABLE)]
    .map((m) => m[1])
    .filter((v) => v.startsWith('env:'))
    .map((v) => v.slice('env:'.length));
}

export function resolveString(text: string, ctx: VariableContext, errors: string[]): string {
  return text.replace(VARIABLE, (whole, name: string) => {
    const value = resolveVariable(name, ctx);
    if (value === undefined) {
      errors.push(describeUnresolved(name, ctx));
      return whole;
    }
    return value;
  });
}

function resolveVariable(name: string, ctx: VariableContext): string | undefined {
  if (name === 'workspaceFolder') return ctx.workspaceFolder ?? ctx.workspaceFolders[0]?.path;
  if (name === 'workspaceFolderBasename') {
    const folder = ctx.workspaceFolder ?? ctx.workspaceFolders[0]?.path;
    return folder?.split(/[\\/]/).filter(Boolean).pop();
  }
  if (name === 'userHome') return ctx.userHome;
  if (name === 'pathSeparator' || name === '/') return process.platform === 'win32' ? '\\' : '/';
  if (name.startsWith('workspaceFolder:')) {
    const folderName = name.slice('workspaceFolder:'.length);
    return ctx.workspaceFolders.find((f) => f.name === folderName)?.path;
  }
  if (name.startsWith('env:')) return ctx.env[name.slice('env:'.length)] ?? '';
  if (name.startsWith('input:')) return ctx.inputs[name.slice('input:'.length)];
  return undefined;
}

function describeUnresolved(name: string, ctx: VariableContext): string {
  if (name === 'workspaceFolder' || name === 'workspaceFolderBasename') {
    return `\${${name}} cannot be resolved: no folder is open.`;
  }
  if (name.startsWith('workspaceFolder:')) {
    const known = ctx.workspaceFolders.map((f) => f.name).join(', ') || 'none';
    return `\${${name}} names no open workspace folder (open folders: ${known}).`;
  }
  if (name.startsWith('input:')) return `\${${name}} has no value.`;
  return `Unknown variable \${${name}}; known: \${workspaceFolder}, \${workspaceFolder:name}, \${userHome}, \${env:NAME}, \${input:id}.`;
}

/** Returns the entry with every string field resolved, and what could not be resolved. */
export function resolveEntry(entry: ServerEntry, ctx: VariableContext): { entry: ServerEntry; errors: string[] } {
  const errors: string[] = [];
  const r = (s: string) => resolveString(s, ctx, errors);
  const mapValues = <T extends string | null>(m: Record<string, T> | undefined) =>
    m && (Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v === null ? null : r(v)])) as Record<string, T>);
  const resolved: ServerEntry = {
    ...entry,
    command: entry.command !== undefined ? r(entry.command) : undefined,
    args: entry.args?.map(r),
    env: mapValues(entry.env),
    envFile: entry.envFile !== undefined ? r(entry.envFile) : undefined,
    cwd: entry.cwd !== undefined ? r(entry.cwd) : undefined,
    url: entry.url !== undefined ? r(entry.url) : undefined,
    headers: mapValues(entry.headers),
    oauth: entry.oauth && mapOAuthStrings(entry.oauth, r),
  };
  return { entry: resolved, errors: [...new Set(errors)] };
}

function entryStrings(entry: ServerEntry): string[] {
  return [
    entry.command,
    ...(entry.args ?? []),
    entry.envFile,
    entry.cwd,
    entry.url,
    ...Object.values(entry.env ?? {}),
    ...Object.values(entry.headers ?? {}),
    ...oauthStrings(entry.oauth),
  ].filter((s): s is string => typeof s === 'string');
}
