/**
 * What the extension exports from `activate()`: read access to the servers for other
 * extensions and for the integration tests (which drive the real extension through it).
 */
import type { McpServerConnection } from './mcp/connection/serverConnection';
import type { ServerTreeProvider } from './servers/serverTreeProvider';
import type { Uri } from 'vscode';

export interface McpWorkbenchApi {
  /** Resolves when the configuration was read the first time and auto-start has run. */
  readonly ready: Promise<void>;
  /** Every configured server's connection. */
  servers(): McpServerConnection[];
  /** A server by id, label or name. */
  server(key: string): McpServerConnection | undefined;
  /** Re-reads all configuration now (normally done on file and settings changes). */
  reload(): Promise<void>;
  /** Fires when servers are added or removed or any server changes state. */
  onDidChange(listener: () => void): { dispose(): void };
  /** For this extension's own integration tests only (views' data providers); not a stable API. */
  readonly testing: {
    readonly serverTree: ServerTreeProvider;
    /** Delivers a link to the extension's URI handler, as a `vscode://mcp-workbench.mcp-workbench/…` link would. */
    handleUri(uri: Uri): void;
  };
}
