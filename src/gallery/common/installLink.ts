/**
 * Install links, and what every install does before writing: input ids made unique in the
 * target file, and a summary of exactly what will run. Pure.
 *
 * The link format is VS Code's (`vscode:mcp/install?<url-encoded JSON>`, the JSON being the
 * entry plus `name` and optional `inputs`; workbench/contrib/mcp/browser/mcpUrlHandler.ts).
 * This extension's URI handler takes the same JSON at
 * `vscode://mcp-workbench.mcp-workbench/install?<json>` (or `/mcp/install`).
 * A link comes from any web page: only the entry's launch fields are kept, every `${input:…}`
 * must be defined by the link itself, and `${env:…}` reads are named in the confirmation.
 */
import type { InputDefinition } from '../../config/common/serverConfig';
import { revealControlCharacters } from '../../shared/common/untrustedText';
import type { InstallEntry } from './installPlan';

export interface LinkInstall {
  name: string;
  entry: InstallEntry;
  inputs: InputDefinition[];
  /** Fields of the link that are not written (`envFile`, `cwd`, `dev`, …). */
  ignored: string[];
}

/** Longer than any real entry; a link this size is not read. */
export const MAX_LINK_LENGTH = 32 * 1024;

const KEPT_FIELDS = new Set(['name', 'type', 'command', 'args', 'env', 'url', 'headers', 'inputs']);

/**
 * The JSON of a link: from `vscode:mcp/install?…`, `<scheme>://<extension>/install?…`, a query
 * (as a URI handler receives it, already decoded once) or the JSON itself.
 */
export function linkPayload(text: string): string {
  const trimmed = text.trim();
  const query = /^[a-z][a-z0-9+.-]*:(?:\/\/[^/?]*)?\/?(?:mcp\/)?install\?/i.exec(trimmed);
  return query ? trimmed.slice(query[0].length) : trimmed;
}

/** Parses a link (or its JSON); throws an Error saying what is wrong. */
export function parseInstallLink(text: string): LinkInstall {
  const payload = linkPayload(text);
  if (payload.length > MAX_LINK_LENGTH) throw new Error(`The link is longer than ${MAX_LINK_LENGTH / 1024} KB.`);
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    try {
      value = JSON.parse(decodeURIComponent(payload));
    } catch {
      throw new Error('The link does not hold a server configuration (JSON).');
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('The link does not hold a server configuration (JSON object).');
  const v = value as Record<string, unknown>;
  if (typeof v.name !== 'string' || v.name.trim() === '') throw new Error('The link has no server "name".');
  const strings = (x: unknown, what: string): string[] | undefined => {
    if (x === undefined) return undefined;
    if (!Array.isArray(x) || x.some((s) => typeof s !== 'string')) throw new Error(`"${what}" must be a list of strings.`);
    return x as string[];
  };
  const map = (x: unknown, what: string): Record<string, string> | undefined => {
    if (x === undefined) return undefined;
    if (typeof x !== 'object' || x === null || Array.isArray(x) || Object.values(x).some((s) => typeof s !== 'string'))
      throw new Error(`"${what}" must map names to strings.`);
    return x as Record<string, string>;
  };
  const url = typeof v.url === 'string' ? v.url : undefined;
  const type = v.type === 'http' || v.type === 'sse' || v.type === 'stdio' ? v.type : url ? 'http' : 'stdio';
  let entry: InstallEntry;
  if (type === 'stdio') {
    if (typeof v.command !== 'string' || v.command.trim() === '') throw new Error('The link has neither a "command" nor a "url".');
    const args = strings(v.args, 'args');
    const env = map(v.env, 'env');
    entry = { type, command: v.command, ...(args?.length ? { args } : {}), ...(env && Object.keys(env).length ? { env } : {}) };
  } else {
    if (!url || !/^https?:\/\//i.test(url)) throw new Error('The link\'s "url" must be an http(s) URL.');
    const headers = map(v.headers, 'headers');
    entry = { type, url, ...(headers && Object.keys(headers).length ? { headers } : {}) };
  }
  const inputs = readInputs(v.inputs);
  const defined = new Set(inputs.map((i) => i.id));
  const undefinedIds = inputIdsIn(entry).filter((id) => !defined.has(id));
  if (undefinedIds.length) throw new Error(`The link uses \${input:${undefinedIds[0]}} but does not define that input.`);
  const ignored = Object.keys(v).filter((k) => !KEPT_FIELDS.has(k));
  return { name: v.name.trim(), entry, inputs, ignored };
}

function readInputs(x: unknown): InputDefinition[] {
  if (x === undefined) return [];
  if (!Array.isArray(x)) throw new Error('"inputs" must be a list.');
  return x.map((raw) => {
    const i = raw as Record<string, unknown>;
    if (typeof i !== 'object' || i === null || typeof i.id !== 'string' || !/^[A-Za-z0-9_.-]+$/.test(i.id))
      throw new Error('Each input needs an "id" of letters, digits, ".", "_" or "-".');
    const type = i.type === 'pickString' ? 'pickString' : 'promptString';
    const options = Array.isArray(i.options) ? i.options.filter((o): o is string => typeof o === 'string') : undefined;
    return {
      id: i.id,
      type,
      ...(typeof i.description === 'string' ? { description: i.description } : {}),
      ...(typeof i.default === 'string' ? { default: i.default } : {}),
      ...(i.password === true ? { password: true } : {}),
      ...(type === 'pickString' && options?.length ? { options } : {}),
    };
  });
}

function entryStrings(entry: InstallEntry): string[] {
  return [entry.command ?? '', ...(entry.args ?? []), ...Object.values(entry.env ?? {}), entry.url ?? '', ...Object.values(entry.headers ?? {})];
}

/** The ids of every `${input:id}` in an entry. */
export function inputIdsIn(entry: InstallEntry): string[] {
  const ids = entryStrings(entry).flatMap((s) => [...s.matchAll(/\$\{input:([^}]*)\}/g)].map((m) => m[1]));
  return [...new Set(ids)];
}

/** The NAMEs of every `${env:NAME}` in an entry: values of this machine the server would get. */
export function envReadsIn(entry: InstallEntry): string[] {
  const names = entryStrings(entry).flatMap((s) => [...s.matchAll(/\$\{env:([^}]*)\}/g)].map((m) => m[1]));
  return [...new Set(names)];
}

/**
 * The entry and inputs with every input id that is already defined in the target file renamed
 * (`token` → `token-2`). Without it a new entry could name an input the user already gave a
 * value (a token for another server) and receive that value.
 */
export function withUniqueInputIds(
  entry: InstallEntry,
  inputs: readonly InputDefinition[],
  existingIds: readonly string[],
): { entry: InstallEntry; inputs: InputDefinition[] } {
  const taken = new Set(existingIds);
  const renames = new Map<string, string>();
  const renamed = inputs.map((input) => {
    let id = input.id;
    for (let n = 2; taken.has(id); n++) id = `${input.id}-${n}`;
    taken.add(id);
    if (id !== input.id) renames.set(input.id, id);
    return { ...input, id };
  });
  if (!renames.size) return { entry, inputs: renamed };
  const swap = (s: string) => s.replace(/\$\{input:([^}]*)\}/g, (whole, id: string) => (renames.has(id) ? `\${input:${renames.get(id)}}` : whole));
  const swapMap = (m: Record<string, string> | undefined) => (m ? Object.fromEntries(Object.entries(m).map(([k, v]) => [k, swap(v)])) : undefined);
  const out: InstallEntry = { ...entry };
  if (entry.args) out.args = entry.args.map(swap);
  if (entry.env) out.env = swapMap(entry.env);
  if (entry.url) out.url = swap(entry.url);
  if (entry.headers) out.headers = swapMap(entry.headers);
  return { entry: out, inputs: renamed };
}

/**
 * Environment variables that make a program load or run code of their choosing before (or
 * instead of) the server: Node's and the dynamic linker's preloads, interpreters' startup
 * files and search paths, runtimes' option variables, npm's config (`npm_config_call` is
 * npx's `--call`), and PATH, which picks the program itself.
 */
const LOADER_ENV =
  /^(NODE_OPTIONS|NODE_PATH|LD_[A-Z_]+|DYLD_[A-Z_]+|PYTHONSTARTUP|PYTHONPATH|PYTHONHOME|PERL5OPT|PERL5LIB|RUBYOPT|RUBYLIB|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|DOTNET_STARTUP_HOOKS|CORECLR_[A-Z_]+|BASH_ENV|ENV|ZDOTDIR|PATH|NPM_CONFIG_[A-Z0-9_]+|UV_[A-Z0-9_]+|PIP_[A-Z0-9_]+|GIT_CONFIG_[A-Z0-9_]+|GIT_SSH_COMMAND|DOCKER_HOST)$/i;

/** The names of an entry's `env` that can make the program load other code (see LOADER_ENV). */
export function loaderEnvNames(entry: InstallEntry): string[] {
  return Object.keys(entry.env ?? {}).filter((name) => LOADER_ENV.test(name));
}

/**
 * Text of a link or the registry as one line of the confirmation: line breaks and tabs, like
 * bidi overrides and invisible characters, shown as `\u000A`. Without it a value could push
 * what really runs below blank lines, out of the dialog's view.
 */
export function oneLine(text: string): string {
  return revealControlCharacters(text).replace(/[\t\n\r]/g, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}

/**
 * What the confirmation must say first: loader variables in `env`, and `runtimeOptions`
 * (options of npx/uvx/docker/dnx that the registry entry adds, such as npx `--call=…`, which
 * runs a shell command, or docker `--privileged`).
 */
export function installWarnings(entry: InstallEntry, runtimeOptions: readonly string[] = []): string[] {
  const warnings: string[] = [];
  if (runtimeOptions.length) {
    warnings.push(
      `Warning: the registry adds options for ${oneLine(entry.command ?? '')}: ${runtimeOptions.map(oneLine).join(' ')}. They change what it runs or what the server may access; install only if you expected them.`,
    );
  }
  const loaders = loaderEnvNames(entry);
  if (loaders.length) {
    warnings.push(
      `Warning: sets ${loaders.map(oneLine).join(', ')}, which can make the program load other code before the server; install only if you expected it.`,
    );
  }
  return warnings;
}

/**
 * Lines saying exactly what an install writes and runs, for the confirmation; warnings first.
 * Every value is shown on one line (see oneLine).
 */
export function installSummary(
  entry: InstallEntry,
  inputs: readonly InputDefinition[],
  extra: { optional?: readonly string[]; notes?: readonly string[]; runtimeOptions?: readonly string[] } = {},
): string[] {
  const lines: string[] = [...installWarnings(entry, extra.runtimeOptions)];
  const quote = (w: string) => (/^[A-Za-z0-9_@%+=:,./${}-]+$/.test(w) ? w : `"${oneLine(w.replace(/(["\\])/g, '\\$1'))}"`);
  if (entry.type === 'stdio') {
    lines.push(`Runs: ${[entry.command ?? '', ...(entry.args ?? [])].map(quote).join(' ')}`);
    for (const [k, v] of Object.entries(entry.env ?? {})) lines.push(`Environment: ${oneLine(k)}=${oneLine(v)}`);
  } else {
    lines.push(`Connects to (${entry.type}): ${oneLine(entry.url ?? '')}`);
    for (const [k, v] of Object.entries(entry.headers ?? {})) lines.push(`Header: ${oneLine(k)}: ${oneLine(v)}`);
  }
  for (const input of inputs) {
    lines.push(
      `Asks on first start for ${input.id}${input.description ? ` (${oneLine(input.description)})` : ''}${input.password ? ', kept in secret storage' : ''}`,
    );
  }
  const env = envReadsIn(entry);
  if (env.length) lines.push(`Reads from your environment: ${env.map(oneLine).join(', ')}`);
  if (extra.optional?.length) lines.push(`Optional, not set: ${extra.optional.map(oneLine).join('; ')}`);
  for (const note of extra.notes ?? []) lines.push(oneLine(note));
  return lines;
}
