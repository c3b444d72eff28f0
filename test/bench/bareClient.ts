/**
 * The "bare SDK" contestant: the SDK the extension ships, used the plainest way, with nothing of
 * the extension around it. Everything that names the SDK is in this one file, so when the
 * extension moves to another SDK (the v2 migration: `@modelcontextprotocol/client`) the
 * benchmark keeps comparing against what ships by editing only this file. The runner refuses
 * to call the comparison honest if BARE_SDK_PACKAGE is not a dependency in package.json.
 *
 * The SDK's classes come from the very file the extension runs them from, dist/deps.js (the
 * package, bundled), not from node_modules. The contestants share one process, and with two
 * copies of the same SDK code the host's copy ran one call in three or four while the others'
 * copy ran the rest: the host was measured on colder code than a user's extension host ever
 * runs (there, its copy is the only one). Measured with the host and the bare client unchanged
 * (both 3 runs, same machine): host ÷ bare p50 was 1.14–1.22 when a fourth contestant ran on
 * the node_modules copy and 1.03–1.06 when it ran on the bundle's.
 */
import * as path from 'node:path';
import type { Client as ClientType, StreamableHTTPClientTransport as HttpTransportType } from '@modelcontextprotocol/client';
import type { StdioClientTransport as StdioTransportType } from '@modelcontextprotocol/client/stdio';

/** The SDK as the extension loads it on first use (esbuild.mjs: the lazily required dist/deps.js). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const shippedDeps = require(path.resolve(__dirname, '../../../dist/deps.js')).default as {
  '@modelcontextprotocol/client': { Client: typeof ClientType; StreamableHTTPClientTransport: typeof HttpTransportType };
  '@modelcontextprotocol/client/stdio': { StdioClientTransport: typeof StdioTransportType };
};
const { Client, StreamableHTTPClientTransport } = shippedDeps['@modelcontextprotocol/client'];
const { StdioClientTransport } = shippedDeps['@modelcontextprotocol/client/stdio'];
type Client = ClientType;

/** The host's page cap (src/mcp/connection/connectionTransports.ts), so both walk the same pages. */
const LIST_MAX_PAGES = 10_000;

/** The npm package this contestant runs on (must be what package.json ships). */
export const BARE_SDK_PACKAGE = '@modelcontextprotocol/client';

export interface BareClient {
  /** tools/call as the extension sends it (with a progress token). */
  callTool(name: string, args: Record<string, unknown>): Promise<unknown>;
  /** tools/call without a progress token: what the token costs (a diagnostic). */
  callToolWithoutProgress(name: string, args: Record<string, unknown>): Promise<unknown>;
  /** Every page of tools/list, then every page of resources/list, as a host would fetch them. */
  listToolsAndResources(): Promise<{ tools: number; resources: number }>;
  /** Every page of tools/list. */
  listTools(): Promise<number>;
  /** Counts notifications/message from the server. */
  onLogMessage(listener: () => void): void;
  close(): Promise<void>;
}

/** Every page of tools/list, counted: the paging a host does, nothing more. */
async function countTools(client: Client): Promise<number> {
  let count = 0;
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    count += page.tools.length;
    cursor = page.nextCursor;
  } while (cursor);
  return count;
}

async function countResources(client: Client): Promise<number> {
  let count = 0;
  let cursor: string | undefined;
  do {
    const page = await client.listResources(cursor ? { cursor } : undefined);
    count += page.resources.length;
    cursor = page.nextCursor;
  } while (cursor);
  return count;
}

function wrap(client: Client): BareClient {
  return {
    // The same request on the wire as the extension's: a plain request (it avoids
    // client.callTool, which validates structuredContent against the tool's outputSchema and so
    // would do more work than it), with a progress token, which the extension puts on every
    // tools/call so that progress keeps a long call alive. Same payload, same server work; what
    // the token costs is in the stdio table's "bare SDK, no progress token" row.
    callTool: (name, args) => client.request({ method: 'tools/call', params: { name, arguments: args } }, { onprogress: () => undefined }),
    callToolWithoutProgress: (name, args) => client.request({ method: 'tools/call', params: { name, arguments: args } }),
    async listToolsAndResources() {
      return { tools: await countTools(client), resources: await countResources(client) };
    },
    listTools: () => countTools(client),
    onLogMessage(listener) {
      client.fallbackNotificationHandler = async (n) => {
        if (n.method === 'notifications/message') listener();
      };
    },
    close: () => client.close(),
  };
}

/**
 * Spawns `command args` and runs `initialize` (stderr ignored: a bare client has nowhere to show
 * it). `auto`: the SDK's era negotiation instead of its default (`legacy`, initialize only): it
 * probes `server/discover` on a disposable sibling process first, as a client that does not
 * know the server's era must.
 */
export async function connectBareStdio(command: string, args: string[], env: Record<string, string | undefined>, auto = false): Promise<BareClient> {
  const client = new Client({ name: 'bench-bare', version: '0' }, { listMaxPages: LIST_MAX_PAGES, ...(auto ? { versionNegotiation: { mode: 'auto' as const } } : {}) });
  await client.connect(new StdioClientTransport({ command, args, env: env as Record<string, string>, stderr: 'ignore' }));
  return wrap(client);
}

/** Streamable HTTP to `url`, through `initialize`. */
export async function connectBareHttp(url: string): Promise<BareClient> {
  const client = new Client({ name: 'bench-bare', version: '0' }, { listMaxPages: LIST_MAX_PAGES });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return wrap(client);
}

/**
 * The other bare SDK line: SDK v1 (`@modelcontextprotocol/sdk`, a devDependency kept for this
 * comparison), what a host built on v1 pays per call (issue 30). The same request on the wire
 * (progress token included), validated against v1's CallToolResultSchema as v1's plain
 * `client.request` requires. Its own package from node_modules: there is no v1 in dist/deps.js.
 */
export const BARE_SDK_V1_PACKAGE = '@modelcontextprotocol/sdk';

interface V1Client {
  connect(transport: unknown): Promise<void>;
  request(request: { method: string; params?: unknown }, schema: unknown, options?: { onprogress?: () => void }): Promise<unknown>;
  close(): Promise<void>;
}
interface V1Sdk {
  Client: new (info: { name: string; version: string }) => V1Client;
  StdioClientTransport: new (params: { command: string; args: string[]; env: Record<string, string>; stderr: 'ignore' }) => unknown;
  StreamableHTTPClientTransport: new (url: URL) => unknown;
  CallToolResultSchema: unknown;
}

function v1Sdk(): V1Sdk {
  /* eslint-disable @typescript-eslint/no-require-imports */
  return {
    ...(require('@modelcontextprotocol/sdk/client/index.js') as Pick<V1Sdk, 'Client'>),
    ...(require('@modelcontextprotocol/sdk/client/stdio.js') as Pick<V1Sdk, 'StdioClientTransport'>),
    ...(require('@modelcontextprotocol/sdk/client/streamableHttp.js') as Pick<V1Sdk, 'StreamableHTTPClientTransport'>),
    ...(require('@modelcontextprotocol/sdk/types.js') as Pick<V1Sdk, 'CallToolResultSchema'>),
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
}

/** What the per-call scenarios need of a v1 client. */
export interface BareClientV1 {
  callTool(name: string, args: Record<string, unknown>): Promise<unknown>;
  close(): Promise<void>;
}

async function connectV1(transport: (sdk: V1Sdk) => unknown): Promise<BareClientV1> {
  const sdk = v1Sdk();
  const client = new sdk.Client({ name: 'bench-bare-v1', version: '0' });
  await client.connect(transport(sdk));
  return {
    callTool: (name, args) => client.request({ method: 'tools/call', params: { name, arguments: args } }, sdk.CallToolResultSchema, { onprogress: () => undefined }),
    close: () => client.close(),
  };
}

/** SDK v1 over stdio, through `initialize`. */
export function connectBareStdioV1(command: string, args: string[], env: Record<string, string | undefined>): Promise<BareClientV1> {
  return connectV1((sdk) => new sdk.StdioClientTransport({ command, args, env: env as Record<string, string>, stderr: 'ignore' }));
}

/** SDK v1 over Streamable HTTP, through `initialize`. */
export function connectBareHttpV1(url: string): Promise<BareClientV1> {
  return connectV1((sdk) => new sdk.StreamableHTTPClientTransport(new URL(url)));
}
