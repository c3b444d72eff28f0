/**
 * The servers the extension knows, as the language server gets them (ServerCatalogNotification):
 * each with the tools, prompts and resources it last listed, cut down to what saved-test
 * completion and checks use, so a server with a thousand tools stays a small message.
 * Pure: the extension host passes the definitions and the lists it holds.
 */
import type { CatalogArgument, CatalogPrompt, CatalogResource, CatalogServer, CatalogTool } from './languageMessages';

/** The parts of a ServerDefinition the catalog uses. */
export interface CatalogDefinition {
  name: string;
  source: { scope: 'workspace' | 'user'; label: string; folder?: string };
}

/** Lists as the MCP SDK types them, loosely: a server may send anything. */
export interface CatalogLists {
  tools?: readonly { name: string; title?: string; description?: string; inputSchema?: unknown }[];
  prompts?: readonly {
    name: string;
    title?: string;
    description?: string;
    arguments?: readonly { name: string; description?: string; required?: boolean }[];
  }[];
  resources?: readonly { uri: string; name: string; description?: string; mimeType?: string }[];
}

export function catalogServer(def: CatalogDefinition, lists: CatalogLists): CatalogServer {
  const server: CatalogServer = {
    name: def.name,
    scope: def.source.scope,
    where: def.source.folder ? `${def.source.folder}: ${def.source.label}` : def.source.label,
  };
  if (def.source.folder) server.folder = def.source.folder;
  if (lists.tools) server.tools = lists.tools.map(catalogTool);
  if (lists.prompts) server.prompts = lists.prompts.map(catalogPrompt);
  if (lists.resources) server.resources = lists.resources.map(catalogResource);
  return server;
}

export function catalogTool(tool: NonNullable<CatalogLists['tools']>[number]): CatalogTool {
  const schema = (isObject(tool.inputSchema) ? tool.inputSchema : {}) as { properties?: unknown; required?: unknown; additionalProperties?: unknown };
  const properties = isObject(schema.properties) ? schema.properties : {};
  const args: CatalogArgument[] = Object.entries(properties).map(([name, value]) => {
    const p = (isObject(value) ? value : {}) as { type?: unknown; description?: unknown; enum?: unknown };
    const type = typeof p.type === 'string' ? p.type : Array.isArray(p.type) ? p.type.filter((t) => typeof t === 'string').join(' | ') : undefined;
    return {
      name,
      ...(type ? { type } : {}),
      ...(typeof p.description === 'string' ? { description: p.description } : {}),
      ...(Array.isArray(p.enum) ? { enum: p.enum } : {}),
    };
  });
  return {
    name: tool.name,
    ...(typeof tool.title === 'string' ? { title: tool.title } : {}),
    ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
    arguments: args,
    required: Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [],
    closed: schema.additionalProperties === false,
  };
}

function catalogPrompt(prompt: NonNullable<CatalogLists['prompts']>[number]): CatalogPrompt {
  return {
    name: prompt.name,
    ...(typeof prompt.title === 'string' ? { title: prompt.title } : {}),
    ...(typeof prompt.description === 'string' ? { description: prompt.description } : {}),
    arguments: (Array.isArray(prompt.arguments) ? prompt.arguments : [])
      .filter((a) => typeof a?.name === 'string')
      .map((a) => ({ name: a.name, ...(typeof a.description === 'string' ? { description: a.description } : {}), required: a.required === true })),
  };
}

function catalogResource(resource: NonNullable<CatalogLists['resources']>[number]): CatalogResource {
  return {
    uri: resource.uri,
    name: resource.name,
    ...(typeof resource.description === 'string' ? { description: resource.description } : {}),
    ...(typeof resource.mimeType === 'string' ? { mimeType: resource.mimeType } : {}),
  };
}

/**
 * The entry a test file's `server` name means, as the Testing view's run picks its connection:
 * the one of the file's own workspace folder, else a user-level one, else the first.
 */
export function resolveCatalogServer(servers: readonly CatalogServer[], name: string, folder: string | undefined): CatalogServer | undefined {
  const named = servers.filter((s) => s.name === name);
  return named.find((s) => s.folder !== undefined && s.folder === folder) ?? named.find((s) => s.scope === 'user') ?? named[0];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
