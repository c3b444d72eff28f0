/**
 * From a registry server to config entries: one install option per package and per remote,
 * each with the entry it writes, the inputs it needs, or the reason it cannot be installed.
 * Pure. VS Code's own gallery (platform/mcp/common/mcpManagementService.ts,
 * `getMcpServerConfigurationFromManifest`) maps the same way; the differences are said where
 * they are made.
 */
import type { InputDefinition, TransportType } from '../../config/common/serverConfig';
import type { RegistryArgument, RegistryKeyValue, RegistryPackage, RegistryServer, RegistryTransport } from './registryTypes';
import { hasConfigVariableSyntax, ValueCollector } from './registryValues';

/** The part of a server entry an install writes. */
export interface InstallEntry {
  type: TransportType;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
}

export interface InstallOption {
  /** `package:<index>` or `remote:<index>`. */
  key: string;
  kind: 'package' | 'remote';
  /** One line: what it is (`npm package @scope/name 1.2.0`, `remote streamable-http https://…`). */
  label: string;
  transport: string;
  /** The program a package runs with (`npx`, `uvx`, `docker`, `dnx`): it must be on PATH. */
  runtime?: string;
  /** Absent when the option cannot be installed (see `unavailable`). */
  entry?: InstallEntry;
  inputs: InputDefinition[];
  /** Optional values that were left out. */
  optional: string[];
  /** Things the user should know (a runtime hint that is not used, …). */
  notes: string[];
  /**
   * The registry's runtime arguments that are options of the runtime (start with `-`): they
   * can change what it runs (npx `--call=…` runs a shell command) or what the server may
   * access (docker `--privileged`), so the confirmation names them first.
   */
  runtimeOptions?: string[];
  /** Why this option cannot be installed. */
  unavailable?: string;
}

/** The program each supported package registry runs with. */
export const RUNTIMES: Readonly<Record<string, string>> = { npm: 'npx', pypi: 'uvx', oci: 'docker', nuget: 'dnx' };

/**
 * Package names and versions go onto a command line: one that starts with `-` would be an
 * option of npx/uvx/docker (npx `--call` runs a shell command), so only the characters the
 * registries themselves allow are accepted.
 */
const IDENTIFIER: Readonly<Record<string, RegExp>> = {
  npm: /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/i,
  pypi: /^[A-Za-z0-9][A-Za-z0-9._-]*(\[[A-Za-z0-9,._-]+\])?$/,
  oci: /^[a-z0-9][a-z0-9._\-/:@]*$/i,
  nuget: /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/,
};
const VERSION = /^[A-Za-z0-9][A-Za-z0-9.+_-]*$/;

/** A name for the config entry: the part after the namespace (`io.github.user/weather` → `weather`). */
export function suggestedEntryName(server: RegistryServer): string {
  const short = server.name.split('/').pop() ?? server.name;
  return (
    short
      .replace(/^(mcp-server-|server-)/, '')
      .replace(/(-mcp-server|-mcp)$/, '')
      .replace(/[^A-Za-z0-9_.-]+/g, '-') || 'server'
  );
}

export function installOptions(server: RegistryServer, idPrefix = suggestedEntryName(server)): InstallOption[] {
  return [...server.packages.map((pkg, i) => packageOption(pkg, i, idPrefix)), ...server.remotes.map((remote, i) => remoteOption(remote, i, idPrefix))];
}

function packageLabel(pkg: RegistryPackage): string {
  return `${pkg.registryType} package ${pkg.identifier}${pkg.version ? ` ${pkg.version}` : ''}`;
}

function packageOption(pkg: RegistryPackage, index: number, idPrefix: string): InstallOption {
  const base = {
    key: `package:${index}`,
    kind: 'package' as const,
    label: packageLabel(pkg),
    transport: pkg.transport.type,
    inputs: [],
    optional: [],
    notes: [],
  };
  const runtime = RUNTIMES[pkg.registryType];
  const unavailable = (reason: string): InstallOption => ({ ...base, runtime, unavailable: reason });
  if (pkg.registryType === 'mcpb')
    return unavailable('MCP bundles (.mcpb) must be downloaded, checked and unpacked first, which MCP Workbench does not do yet.');
  if (!runtime) return unavailable(`Packages from the "${pkg.registryType}" registry are not supported (supported: npm, pypi, oci, nuget).`);
  if (pkg.transport.type !== 'stdio') {
    return unavailable(`This package serves ${pkg.transport.type} on a port of its own; start it yourself and add its URL instead.`);
  }
  if (!IDENTIFIER[pkg.registryType].test(pkg.identifier) || (pkg.version !== undefined && !VERSION.test(pkg.version))) {
    return unavailable(`The package name or version ("${pkg.identifier}" ${pkg.version ?? ''}) is not a valid ${pkg.registryType} one.`);
  }
  if (hasConfigVariableSyntax(pkg)) return unavailable('The entry contains "${…}", which the config would read as a variable of this machine.');

  const values = new ValueCollector(idPrefix);
  const runtimeArgs = argumentsOf(pkg.runtimeArguments ?? [], values);
  const packageArgs = argumentsOf(pkg.packageArguments ?? [], values);
  const env = keyValues(pkg.environmentVariables ?? [], values);
  const notes: string[] = [];
  if (pkg.runtimeHint && pkg.runtimeHint !== runtime)
    notes.push(`The registry suggests running it with ${pkg.runtimeHint}; MCP Workbench runs ${pkg.registryType} packages with ${runtime}.`);

  let args: string[];
  switch (pkg.registryType) {
    case 'npm':
      // -y: npx would otherwise stop to ask whether to install, and a server has no terminal.
      args = [
        ...(runtimeArgs.some((a) => a === '-y' || a === '--yes') ? [] : ['-y']),
        ...runtimeArgs,
        pkg.version ? `${pkg.identifier}@${pkg.version}` : pkg.identifier,
        ...packageArgs,
      ];
      break;
    case 'pypi':
      args = [...runtimeArgs, pkg.version ? `${pkg.identifier}==${pkg.version}` : pkg.identifier, ...packageArgs];
      break;
    case 'oci': {
      // The variables reach docker through `env`; `-e NAME` hands each one on to the container.
      const passEnv = Object.keys(env).flatMap((name) => ['-e', name]);
      args = ['run', '-i', '--rm', ...runtimeArgs, ...passEnv, imageReference(pkg), ...packageArgs];
      break;
    }
    default:
      // nuget: `dnx <id>@<version> --yes [-- <args>]`, the convention of the registry's docs and VS Code.
      args = [
        ...runtimeArgs,
        pkg.version ? `${pkg.identifier}@${pkg.version}` : pkg.identifier,
        '--yes',
        ...(packageArgs.length ? ['--', ...packageArgs] : []),
      ];
  }
  const entry: InstallEntry = { type: 'stdio', command: runtime, args, ...(Object.keys(env).length ? { env } : {}) };
  const runtimeOptions = runtimeArgs.filter((a) => a.startsWith('-'));
  return { ...base, runtime, entry, inputs: values.inputs, optional: values.optional, notes, ...(runtimeOptions.length ? { runtimeOptions } : {}) };
}

/** OCI identifiers carry their tag (schema 2025-10-11); older entries gave it as `version`. */
function imageReference(pkg: RegistryPackage): string {
  const lastPart = pkg.identifier.split('/').pop() ?? '';
  const tagged = lastPart.includes(':') || pkg.identifier.includes('@');
  return pkg.version && !tagged ? `${pkg.identifier}:${pkg.version}` : pkg.identifier;
}

/**
 * Arguments as command-line words. Differences from VS Code: an optional argument without a
 * value or default is left out (VS Code asks for it on every start), and a required one
 * without a default is asked for.
 */
function argumentsOf(list: readonly RegistryArgument[], values: ValueCollector): string[] {
  const words: string[] = [];
  for (const arg of list) {
    if (arg.type === 'named') {
      if (!arg.name) continue;
      const key = arg.name.replace(/^-+/, '');
      const hasValue = arg.value !== undefined || arg.default !== undefined || arg.isRequired === true || arg.isSecret === true;
      if (!hasValue) {
        // A bare flag (`--stdio`) is part of the command; an optional parameter with a description is left out.
        if (arg.description || arg.valueHint) values.optional.push(arg.description ? `${arg.name} (${arg.description})` : arg.name);
        else words.push(arg.name);
        continue;
      }
      const value = values.resolve(arg, key, arg.name);
      if (value !== undefined) words.push(arg.name, value);
    } else {
      const key = arg.valueHint ?? `arg${words.length + 1}`;
      const value = values.resolve(arg, key, arg.valueHint ?? key);
      if (value !== undefined) words.push(value);
    }
  }
  return words;
}

function keyValues(list: readonly RegistryKeyValue[], values: ValueCollector): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of list) {
    const value = values.resolve(item, item.name, item.name);
    if (value !== undefined) out[item.name] = value;
  }
  return out;
}

function remoteOption(remote: RegistryTransport, index: number, idPrefix: string): InstallOption {
  const base = {
    key: `remote:${index}`,
    kind: 'remote' as const,
    label: `remote ${remote.type} ${remote.url ?? ''}`.trim(),
    transport: remote.type,
    inputs: [],
    optional: [],
    notes: [],
  };
  const type: TransportType | undefined = remote.type === 'streamable-http' ? 'http' : remote.type === 'sse' ? 'sse' : undefined;
  if (!type) return { ...base, unavailable: `The remote transport "${remote.type}" is not supported (supported: streamable-http, sse).` };
  if (!remote.url) return { ...base, unavailable: 'The remote has no URL.' };
  if (hasConfigVariableSyntax(remote)) return { ...base, unavailable: 'The entry contains "${…}", which the config would read as a variable of this machine.' };
  const values = new ValueCollector(idPrefix);
  const url = values.fill(remote.url, remote.variables, false);
  if (!/^https?:\/\//i.test(url) && !url.startsWith('${input:')) return { ...base, unavailable: `The remote URL "${remote.url}" is not an http(s) URL.` };
  const headers = keyValues(remote.headers ?? [], values);
  const entry: InstallEntry = { type, url, ...(Object.keys(headers).length ? { headers } : {}) };
  return { ...base, entry, inputs: values.inputs, optional: values.optional };
}

export interface OptionChoice {
  /** What to offer: the first package this machine can run, then every remote. */
  choices: InstallOption[];
  /** Why the others are not offered. */
  skipped: { option: InstallOption; reason: string }[];
}

/**
 * The options worth offering. `canRun(runtime)` says whether a program is on PATH. When
 * nothing can run here, the first installable package is still offered (with the missing
 * program said), so a config can be written before the runtime is installed.
 */
export function chooseOptions(options: readonly InstallOption[], canRun: (runtime: string) => boolean): OptionChoice {
  const skipped: OptionChoice['skipped'] = [];
  const installable = options.filter((o) => {
    if (o.unavailable) skipped.push({ option: o, reason: o.unavailable });
    return !o.unavailable;
  });
  const packages = installable.filter((o) => o.kind === 'package');
  const remotes = installable.filter((o) => o.kind === 'remote');
  const runnable = packages.find((o) => o.runtime && canRun(o.runtime));
  for (const o of packages) {
    if (o === runnable) continue;
    skipped.push({ option: o, reason: o.runtime && !canRun(o.runtime) ? `${o.runtime} was not found on PATH.` : 'Another package of this server is used.' });
  }
  const local = runnable ?? (remotes.length ? undefined : packages[0]);
  if (local && local !== runnable) {
    const i = skipped.findIndex((s) => s.option === local);
    if (i >= 0) skipped.splice(i, 1);
  }
  return { choices: [...(local ? [local] : []), ...remotes], skipped };
}
