/**
 * The shapes of the MCP registry API (`GET /v0.1/servers`) and of `server.json`, as published in
 * modelcontextprotocol/registry (docs/reference/api/openapi.yaml, server-json/server.schema.json,
 * schema 2025-12-11), and the reading of a response into them. Pure.
 *
 * A registry is a remote service: every field is checked on the way in, and an entry that is
 * not a server (no name) is dropped rather than failing the whole page.
 */

/** An input's description (`Input` in the schema): how a value is given or asked for. */
export interface RegistryInput {
  description?: string;
  isRequired?: boolean;
  format?: string;
  /** A fixed value; `{name}` in it refers to `variables`. */
  value?: string;
  isSecret?: boolean;
  default?: string;
  placeholder?: string;
  choices?: string[];
  /** Values `{name}` in `value` (or a remote URL) refers to. */
  variables?: Record<string, RegistryInput>;
}

/** A command-line argument: `positional` (a value) or `named` (`--flag` and maybe a value). */
export interface RegistryArgument extends RegistryInput {
  type: 'positional' | 'named';
  /** The flag, with its dashes, for `named`. */
  name?: string;
  /** A label for a positional argument (not part of the command line). */
  valueHint?: string;
  isRepeated?: boolean;
}

/** An environment variable or an HTTP header. */
export interface RegistryKeyValue extends RegistryInput {
  name: string;
}

export interface RegistryTransport {
  type: string;
  url?: string;
  headers?: RegistryKeyValue[];
  /** Remotes only: values for `{name}` in `url`. */
  variables?: Record<string, RegistryInput>;
}

export interface RegistryPackage {
  registryType: string;
  registryBaseUrl?: string;
  identifier: string;
  version?: string;
  fileSha256?: string;
  runtimeHint?: string;
  transport: RegistryTransport;
  runtimeArguments?: RegistryArgument[];
  packageArguments?: RegistryArgument[];
  environmentVariables?: RegistryKeyValue[];
}

/** `ServerDetail`: one version of one server. */
export interface RegistryServer {
  name: string;
  title?: string;
  description: string;
  version: string;
  websiteUrl?: string;
  repository?: { url?: string; source?: string; subfolder?: string };
  packages: RegistryPackage[];
  remotes: RegistryTransport[];
}

/** What the registry adds (`_meta["io.modelcontextprotocol.registry/official"]`). */
export interface RegistryStatus {
  status?: 'active' | 'deprecated' | 'deleted' | string;
  statusMessage?: string;
  isLatest?: boolean;
  publishedAt?: string;
  updatedAt?: string;
}

export interface RegistryEntry {
  server: RegistryServer;
  official: RegistryStatus;
}

export interface RegistryPage {
  entries: RegistryEntry[];
  /** Absent or empty when there are no more pages. */
  nextCursor?: string;
}

export const OFFICIAL_META = 'io.modelcontextprotocol.registry/official';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function readInput(v: Json): RegistryInput {
  const variables = isObject(v.variables)
    ? Object.fromEntries(
        Object.entries(v.variables)
          .filter(([, x]) => isObject(x))
          .map(([k, x]) => [k, readInput(x as Json)]),
      )
    : undefined;
  const choices = Array.isArray(v.choices) ? v.choices.filter((c): c is string => typeof c === 'string') : undefined;
  return {
    description: str(v.description),
    isRequired: bool(v.isRequired),
    format: str(v.format),
    value: str(v.value),
    isSecret: bool(v.isSecret),
    default: str(v.default),
    placeholder: str(v.placeholder),
    choices: choices?.length ? choices : undefined,
    variables: variables && Object.keys(variables).length ? variables : undefined,
  };
}

function readArgument(v: unknown): RegistryArgument | undefined {
  if (!isObject(v) || (v.type !== 'positional' && v.type !== 'named')) return undefined;
  return { ...readInput(v), type: v.type, name: str(v.name), valueHint: str(v.valueHint), isRepeated: bool(v.isRepeated) };
}

function readKeyValue(v: unknown): RegistryKeyValue | undefined {
  if (!isObject(v) || typeof v.name !== 'string' || v.name === '') return undefined;
  return { ...readInput(v), name: v.name };
}

function defined<T>(items: (T | undefined)[]): T[] {
  return items.filter((x): x is T => x !== undefined);
}

function readTransport(v: unknown): RegistryTransport | undefined {
  if (!isObject(v) || typeof v.type !== 'string') return undefined;
  const variables = isObject(v.variables)
    ? Object.fromEntries(
        Object.entries(v.variables)
          .filter(([, x]) => isObject(x))
          .map(([k, x]) => [k, readInput(x as Json)]),
      )
    : undefined;
  return {
    type: v.type,
    url: str(v.url),
    headers: defined(list(v.headers).map(readKeyValue)),
    variables: variables && Object.keys(variables).length ? variables : undefined,
  };
}

function readPackage(v: unknown): RegistryPackage | undefined {
  if (!isObject(v) || typeof v.registryType !== 'string' || typeof v.identifier !== 'string') return undefined;
  return {
    registryType: v.registryType,
    registryBaseUrl: str(v.registryBaseUrl),
    identifier: v.identifier,
    version: str(v.version),
    fileSha256: str(v.fileSha256),
    runtimeHint: str(v.runtimeHint),
    // Older entries have no transport; stdio is what they meant.
    transport: readTransport(v.transport) ?? { type: 'stdio' },
    runtimeArguments: defined(list(v.runtimeArguments).map(readArgument)),
    packageArguments: defined(list(v.packageArguments).map(readArgument)),
    environmentVariables: defined(list(v.environmentVariables).map(readKeyValue)),
  };
}

/** One `server.json` (a `ServerDetail`), or undefined when it has no name. */
export function readServer(v: unknown): RegistryServer | undefined {
  if (!isObject(v) || typeof v.name !== 'string' || v.name === '') return undefined;
  const repository = isObject(v.repository)
    ? { url: str(v.repository.url), source: str(v.repository.source), subfolder: str(v.repository.subfolder) }
    : undefined;
  return {
    name: v.name,
    title: str(v.title),
    description: str(v.description) ?? '',
    version: str(v.version) ?? '',
    websiteUrl: str(v.websiteUrl),
    repository,
    packages: defined(list(v.packages).map(readPackage)),
    remotes: defined(list(v.remotes).map(readTransport)),
  };
}

/** The registry's own metadata of an entry; older registries put it flat in `_meta`. */
function readStatus(meta: unknown): RegistryStatus {
  if (!isObject(meta)) return {};
  const official = isObject(meta[OFFICIAL_META]) ? meta[OFFICIAL_META] : meta;
  return {
    status: str(official.status),
    statusMessage: str(official.statusMessage),
    isLatest: bool(official.isLatest),
    publishedAt: str(official.publishedAt),
    updatedAt: str(official.updatedAt),
  };
}

/** One `ServerResponse` (`{ server, _meta }`). */
export function readEntry(v: unknown): RegistryEntry | undefined {
  if (!isObject(v)) return undefined;
  const server = readServer(v.server);
  return server ? { server, official: readStatus(v._meta) } : undefined;
}

/**
 * A `ServerList` response. Throws when the body is not one at all (a web page, another API),
 * so the caller can say the URL is wrong instead of showing an empty list.
 */
export function readServerList(body: unknown): RegistryPage {
  if (!isObject(body) || !Array.isArray(body.servers)) throw new Error('the response has no "servers" list');
  const entries = defined(body.servers.map(readEntry))
    // Only the newest version of each server, and never one the registry has deleted.
    .filter((e) => e.official.isLatest !== false && e.official.status !== 'deleted');
  const nextCursor = isObject(body.metadata) ? str(body.metadata.nextCursor) : undefined;
  return { entries, nextCursor: nextCursor || undefined };
}

/** What a quick pick shows as the transports of a server: `stdio (npm)`, `streamable-http`. */
export function transportSummary(server: RegistryServer): string {
  const parts = [...server.packages.map((p) => `${p.transport.type} (${p.registryType})`), ...server.remotes.map((r) => r.type)];
  return [...new Set(parts)].join(', ');
}
