/**
 * Fixed strings of the protocol and its extensions that the protocol core declares and the
 * features read too. They live here so that src/mcp imports no feature folder. No imports: the
 * webviews may read them as well.
 */

/** The mimeType of an MCP App resource (MCP Apps, SEP-1865). */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';
/** The extension id clients declare under `capabilities.extensions` for MCP Apps. */
export const APPS_EXTENSION_ID = 'io.modelcontextprotocol/ui';
/**
 * The extension id clients declare for Skills over MCP (SEP-2640): the SDK's SKILLS_EXTENSION_ID,
 * copied because the declaration is built when the extension loads, and reading it from
 * `@modelcontextprotocol/client/ext/skills` then would load the SDK at activation (it is
 * required on first use, see esbuild.mjs). test/unit/bundle.test.ts checks the copy.
 */
export const SKILLS_EXTENSION_ID = 'io.modelcontextprotocol/skills';

/** The JSON-RPC error the spec shows for a sampling request the user rejected. */
export const USER_REJECTED_SAMPLING = 'User rejected sampling request';
