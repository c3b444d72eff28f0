/**
 * The server a test file names, as a ServerDefinition a connection can start: an entry of the
 * project's config (`.vscode/mcp.json`, `.mcp.json`) by name, or the file's own inline launch.
 * Also the `${env:…}` / `${input:…}` variables of the file. Pure: the caller reads the files and
 * passes the environment; input values never come from the test file itself.
 */
import * as path from 'node:path';
import { buildDefinitions, type ConfigDocument } from '../../config/common/definitionBuilder';
import type { Launch, ServerDefinition } from '../../config/common/launchDefinition';
import { DEFAULT_TIMEOUTS, parseConfigText } from '../../config/common/serverConfig';
import { resolveString, type VariableContext } from '../../config/common/variables';
import type { ServerSpec } from './testFormat';

export interface TestEnvironment {
  /** The folder of the test file: relative paths of an inline launch start there. */
  fileDir: string;
  /** The project folder (where its config was found), `${workspaceFolder}`; else the file's folder. */
  workspaceFolder?: string;
  /** The project's config files, read by the caller (see configDocument). */
  configs: readonly ConfigDocument[];
  env: Readonly<Record<string, string | undefined>>;
  /** `${input:id}` values: from the environment (inputEnvName) or the command line, never from the file. */
  inputs: Readonly<Record<string, string>>;
  userHome: string;
  /** Milliseconds the server may take to start (the file's `startTimeoutMs`). */
  startTimeoutMs?: number;
}

/** The config files a project may keep its servers in, in the order they are looked for. */
export const PROJECT_CONFIG_FILES = ['.vscode/mcp.json', '.mcp.json'] as const;

/** The environment variable that gives `${input:id}` its value: `MCPWB_INPUT_<ID>` (upper case, other characters `_`). */
export function inputEnvName(id: string): string {
  return `MCPWB_INPUT_${id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/** The value of `${input:id}`: given (command line), else from the environment (inputEnvName). */
export function inputValue(env: TestEnvironment, id: string): string | undefined {
  return env.inputs[id] ?? env.env[inputEnvName(id)];
}

/** A project config file as buildDefinitions wants it. */
export function configDocument(file: string, text: string, folderPath: string): ConfigDocument {
  return { source: { scope: 'workspace', label: path.relative(folderPath, file) || file, file }, parsed: parseConfigText(text), text, folderPath };
}

function variables(env: TestEnvironment, value: unknown): VariableContext {
  const folder = env.workspaceFolder ?? env.fileDir;
  const ids = [...(JSON.stringify(value) ?? '').matchAll(/\$\{input:([^}]*)\}/g)].map((m) => m[1]);
  const inputs = Object.fromEntries(ids.flatMap((id) => (inputValue(env, id) !== undefined ? [[id, inputValue(env, id)!]] : [])));
  return { workspaceFolder: folder, workspaceFolders: [{ name: path.basename(folder), path: folder }], userHome: env.userHome, env: env.env, inputs };
}

/** Every string inside `value` with its variables resolved; what could not be, as errors that say how to give a value. */
export function resolveVariables(value: unknown, env: TestEnvironment): { value: unknown; errors: string[] } {
  const errors: string[] = [];
  const ctx = variables(env, value);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return resolveString(v, ctx, errors);
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  const resolved = walk(value);
  const explained = [...new Set(errors)].map((e) => {
    const input = /^\$\{input:(.*)\} has no value\.$/.exec(e);
    return input ? `\${input:${input[1]}} has no value: set ${inputEnvName(input[1])} or pass --input ${input[1]}=<value>.` : e;
  });
  return { value: resolved, errors: explained };
}

/** The definition of the file's server, or why there is none. */
export function serverDefinitionFor(
  spec: ServerSpec,
  env: TestEnvironment,
): { definition: ServerDefinition; error?: undefined } | { definition?: undefined; error: string } {
  const timeouts = { ...DEFAULT_TIMEOUTS, connect: (env.startTimeoutMs ?? DEFAULT_TIMEOUTS.connect * 1000) / 1000 };
  if (typeof spec === 'string') {
    const folder = env.workspaceFolder ?? env.fileDir;
    const defs = buildDefinitions(env.configs, {
      workspaceFolders: [{ name: path.basename(folder), path: folder }],
      userHome: env.userHome,
      env: env.env,
      defaultTimeouts: timeouts,
      inputValue: (_doc, input) => inputValue(env, input.id) ?? input.default,
    });
    const def = defs.find((d) => d.name === spec);
    if (!def) {
      const where = env.configs.length
        ? env.configs.map((c) => c.source.file ?? c.source.label).join(', ')
        : `no ${PROJECT_CONFIG_FILES.join(' or ')} was found above ${env.fileDir}`;
      const known = defs.map((d) => d.name);
      return { error: `No server "${spec}" is configured (${where})${known.length ? `; configured: ${known.join(', ')}` : ''}.` };
    }
    if (def.error) return { error: def.error };
    if (def.missingInputs?.length)
      return {
        error: `Server "${spec}" needs ${def.missingInputs.map((id) => `\${input:${id}}`).join(', ')}: set ${def.missingInputs.map(inputEnvName).join(', ')} or pass --input <id>=<value>.`,
      };
    return { definition: { ...def, timeouts } };
  }
  const { value, errors } = resolveVariables(spec, env);
  if (errors.length) return { error: errors.join(' ') };
  const s = value as Exclude<ServerSpec, string>;
  const launch: Launch =
    'url' in s
      ? { type: s.type ?? 'http', url: s.url, headers: s.headers ?? {} }
      : { type: 'stdio', command: s.command, args: s.args ?? [], env: s.env ?? {}, cwd: path.resolve(env.fileDir, s.cwd ?? '.') };
  const name = 'url' in s ? s.url : path.basename(s.command);
  return {
    definition: {
      id: `mcptest::${name}`,
      name,
      label: name,
      source: { scope: 'workspace', label: 'test file' },
      disabled: false,
      timeouts,
      protocolEra: s.protocolEra ?? 'auto',
      launch,
      secrets: [...JSON.stringify(spec).matchAll(/\$\{input:([^}]*)\}/g)].map((m) => inputValue(env, m[1]) ?? '').filter(Boolean),
    },
  };
}
