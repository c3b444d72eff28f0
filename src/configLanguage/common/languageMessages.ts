/**
 * The contract between the config language client (src/configLanguage/, in the extension host)
 * and the config language server (src/configLanguage/server/, its own Node process). Defined once here so
 * both sides agree; plain types and method names only, no `vscode` and no LSP library.
 */

/** Passed by the client as `initializationOptions` when it starts the server. */
export interface McpLanguageServerOptions {
  /**
   * True when VS Code's JSON language features are active: they already validate these files
   * against schemas/mcp-config.schema.json (contributes.jsonValidation) and offer its key
   * completions and hovers, so the server leaves schema work to them to avoid every message
   * and completion showing twice. False (or absent) makes the server do it itself.
   */
  hostProvidesJsonSchema: boolean;
  /** The PATH stdio servers start with, as the extension knows it when it starts the server. */
  spawnPath: string;
}

/**
 * Client → server notification, sent when the PATH stdio servers start with changes (the login
 * shell answered, or `mcpWorkbench.useLoginShellPath` changed), so command diagnostics follow the
 * PATH the extension will spawn servers with. The extension asks the login shell; the server
 * starts none of its own.
 */
export const SpawnPathNotification = 'mcpWorkbench/spawnPath';
export interface SpawnPathParams {
  spawnPath: string;
}

/**
 * Server → client request, sent while building a hover over `${input:id}`: stored input
 * values live in the extension's SecretStorage / workspace state, which only the client can
 * read. The client answers whether a value is stored and returns it only when `secret` is
 * false, so a password never crosses into the server process.
 */
export const InputValueRequest = 'mcpWorkbench/inputValue';
export interface InputValueParams {
  /** Absolute path of the config file that defines the input (stored values are per file). */
  file: string;
  id: string;
  /** The input is `"password": true`, or its value looks like a secret: never send the value. */
  secret: boolean;
}
export interface InputValueResult {
  stored: boolean;
  /** Present only when stored and not secret. */
  value?: string;
}

/**
 * Client → server notification with the servers the extension knows (its registry: the same set
 * the views show and a saved test's `server` may name) and, for each, the tools, prompts and
 * resources as it last listed them. Sent when the language server starts and whenever that
 * changes; the server completes and checks `*.mcptest.json` files with it. Built by
 * common/serverCatalog.ts.
 */
export const ServerCatalogNotification = 'mcpWorkbench/serverCatalog';
export interface ServerCatalogParams {
  servers: CatalogServer[];
}
export interface CatalogServer {
  name: string;
  /** The workspace folder of its config file; absent for user-level servers. */
  folder?: string;
  scope: 'workspace' | 'user';
  /** Where it is configured, as the views say it (`folder-a: .vscode/mcp.json`). */
  where: string;
  /** Absent while the extension has not listed them: nothing is completed or checked then. */
  tools?: CatalogTool[];
  prompts?: CatalogPrompt[];
  resources?: CatalogResource[];
}
/** A tool with only what completion and checks use of its inputSchema. */
export interface CatalogTool {
  name: string;
  title?: string;
  description?: string;
  arguments: CatalogArgument[];
  required: string[];
  /** The inputSchema says `"additionalProperties": false`: an argument it does not name is refused. */
  closed: boolean;
}
export interface CatalogArgument {
  name: string;
  /** The JSON Schema type(s), `string | number`; absent when the schema gives none. */
  type?: string;
  description?: string;
  enum?: unknown[];
}
export interface CatalogPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments: { name: string; description?: string; required: boolean }[];
}
export interface CatalogResource {
  uri: string;
  name: string;
  description?: string;
  mimeType?: string;
}
