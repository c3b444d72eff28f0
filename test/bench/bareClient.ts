/**
 * The "bare SDK" contestant: the SDK the extension ships, used the plainest way, with nothing of
 * the extension around it. Everything that names the SDK is in this one file, so when the
 * extension moves to another SDK (the v2 migration: `@modelcontextprotocol/client`) the
 * benchmark keeps comparing against what ships by editing only this file. The runner refuses
 * to call the comparison honest if BARE_SDK_PACKAGE is not a dependency in package.json.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

/** The host's page cap (src/mcp/connection/connectionTransports.ts), so both walk the same pages. */
const LIST_MAX_PAGES = 10_000;

/** The npm package this contestant runs on (must be what package.json ships). */
export const BARE_SDK_PACKAGE = '@modelcontextprotocol/client';

export interface BareClient {
  callTool(name: string, args: Record<string, unknown>): Promise<unknown>;
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
    // The same plain request the extension sends (it avoids client.callTool, which validates
    // structuredContent against the tool's outputSchema and so would do more work than it).
    callTool: (name, args) => client.request({ method: 'tools/call', params: { name, arguments: args } }),
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

/** Spawns `command args` and runs `initialize` (stderr ignored: a bare client has nowhere to show it). */
export async function connectBareStdio(command: string, args: string[], env: Record<string, string | undefined>): Promise<BareClient> {
  const client = new Client({ name: 'bench-bare', version: '0' }, { listMaxPages: LIST_MAX_PAGES });
  await client.connect(new StdioClientTransport({ command, args, env: env as Record<string, string>, stderr: 'ignore' }));
  return wrap(client);
}

/** Streamable HTTP to `url`, through `initialize`. */
export async function connectBareHttp(url: string): Promise<BareClient> {
  const client = new Client({ name: 'bench-bare', version: '0' }, { listMaxPages: LIST_MAX_PAGES });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return wrap(client);
}
