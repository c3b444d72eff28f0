/**
 * Fixed strings of the protocol and its extensions that the protocol core declares and the
 * features read too. They live here so that src/mcp imports no feature folder. No imports: the
 * webviews may read them as well.
 */

/** The mimeType of an MCP App resource (MCP Apps, SEP-1865). */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';
/** The extension id clients declare under `capabilities.extensions` for MCP Apps. */
export const APPS_EXTENSION_ID = 'io.modelcontextprotocol/ui';

/** The JSON-RPC error the spec shows for a sampling request the user rejected. */
export const USER_REJECTED_SAMPLING = 'User rejected sampling request';
