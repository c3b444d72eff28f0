/**
 * Headless MCP client for the official conformance suite (@modelcontextprotocol/conformance).
 * It drives the extension's own connection code, McpServerConnection, with a headless host.
 *
 * The suite starts a test server per scenario and runs `<command> <server-url>`, with the
 * scenario name in the MCP_CONFORMANCE_SCENARIO environment variable (and, for some auth
 * scenarios, a JSON object in MCP_CONFORMANCE_CONTEXT). Run it as
 *   MCP_CONFORMANCE_SCENARIO=tools_call node out/test/conformance/client.js http://localhost:1234/mcp
 * Exit code 0 when the flow succeeded, 1 otherwise; everything is logged to stderr.
 *
 * Scenarios:
 *  - initialize: connect (initialize + notifications/initialized), then disconnect.
 *  - everything else (tools_call, sse-retry, ...): connect, list the tools, call each with
 *    arguments made from its input schema, disconnect. sse-retry needs nothing more: the
 *    SDK's Streamable HTTP transport reconnects (GET + Last-Event-ID after `retry` ms)
 *    when the server closes the tools/call stream early.
 *  - auth/*: the same flow against a protected server. The connection runs the extension's
 *    OAuth client (src/mcp/auth/oauthProvider.ts) with a memory store, and the "browser" is headless:
 *    it follows the authorization URL with fetch and takes the code from the redirect. The
 *    auth/pre-registration context's client_id/client_secret play the role of the `oauth`
 *    config field; the Client ID Metadata Document URL is the one the suite expects a client
 *    to have published (the extension itself publishes none yet).
 *  - sep-2640-client-*: the connection lists the server's skills; the verify-* scenarios then open
 *    the first one as a user would (see useSkills).
 *  - elicitation/sampling requests from the server during those calls are answered by the
 *    headless policy of src/mcp/clientFeatures.ts (the extension's own handler code, without
 *    a user): form elicitations accepted with the schema's defaults (SEP-1034), URL
 *    elicitations declined, sampling rejected.
 */
import { McpServerConnection } from '../../src/mcp/connection/serverConnection';
import type { ConnectionHost, ServerLog } from '../../src/mcp/connection/connectionTypes';
import { errorMessage } from '../../src/shared/common/errors';
import { DEFAULT_TIMEOUTS } from '../../src/config/common/serverConfig';
import { formatTrace } from '../../src/mcp/trace';
import type { ServerDefinition } from '../../src/config/common/launchDefinition';
import { oauthSecrets, type OAuthSettings } from '../../src/config/common/oauthConfig';
import { MemoryOAuthStore, WorkbenchOAuthProvider, followAuthorizationHeadlessly } from '../../src/mcp/auth/oauthProvider';
import type { Tool } from '@modelcontextprotocol/client';
import { headlessClientFeatures } from '../../src/approval/common/headlessPolicy';

const started = Date.now();

/** The Client ID Metadata Document URL the suite's auth/basic-cimd scenario expects as client_id. */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
const REDIRECT_URL = 'http://127.0.0.1:33418/oauth/callback';

function say(message: string): void {
  process.stderr.write(`[conformance-client +${Date.now() - started}ms] ${message}\n`);
}

/** JSON-ish value for one input-schema property: its default, first enum value, or a type sample. */
function sampleValue(schema: Record<string, unknown> | undefined): unknown {
  if (!schema) return 'test';
  if ('default' in schema) return schema.default;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return sampleArguments(schema);
    case 'null':
      return null;
    default:
      return 'test';
  }
}

/** Arguments for a tool: a value for every property of its input schema. */
function sampleArguments(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  const properties = (schema?.properties ?? {}) as Record<string, Record<string, unknown>>;
  return Object.fromEntries(Object.entries(properties).map(([name, prop]) => [name, sampleValue(prop)]));
}

async function main(): Promise<number> {
  const url = process.argv[process.argv.length - 1];
  if (process.argv.length < 3 || !/^https?:\/\//.test(url)) {
    say('usage: client.js <server-url>   (scenario in MCP_CONFORMANCE_SCENARIO)');
    return 2;
  }
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  say(`scenario "${scenario || '(none)'}", server ${url}`);
  const context = parseContext(process.env.MCP_CONFORMANCE_CONTEXT);
  // Only the keys, never the values: the context may carry a client secret.
  if (context) say(`context keys: ${Object.keys(context).join(', ')}`);
  const oauth = oauthSettingsFor(scenario, context);

  const definition: ServerDefinition = {
    id: 'user/conformance',
    name: 'conformance',
    label: 'conformance',
    source: { scope: 'user', label: 'conformance' },
    disabled: false,
    timeouts: { ...DEFAULT_TIMEOUTS },
    launch: { type: 'http', url, headers: {}, ...(oauth ? { oauth } : {}) },
    // The extension's default: probe with server/discover, fall back to initialize.
    protocolEra: 'auto',
    secrets: oauthSecrets(oauth),
  };
  const store = new MemoryOAuthStore();
  // The same host policy as the extension, minus VS Code: no roots, the extension's default
  // log level ("info"), every JSON-RPC message traced to stderr.
  const host: ConnectionHost = {
    clientInfo: { name: 'mcp-workbench', version: process.env.npm_package_version ?? '0.1.0' },
    roots: () => [],
    baseEnv: async () => ({ ...process.env }),
    serverLogLevel: () => 'info',
    trace: (def, record) => say(formatTrace(def.label, record, 'verbose', def.secrets)),
    clientFeatures: headlessClientFeatures(say),
    auth: {
      provider: (_def, launch) =>
        new WorkbenchOAuthProvider({
          keyPrefix: launch.url,
          store,
          redirectUrl: REDIRECT_URL,
          settings: launch.oauth,
          clientMetadataUrl: CLIENT_METADATA_URL,
          authorize: async (authorizationUrl, redirectUrl) => {
            say(`authorizing (headless) at ${authorizationUrl.origin}${authorizationUrl.pathname}`);
            return followAuthorizationHeadlessly(authorizationUrl, redirectUrl);
          },
        }),
      // Headless: there is no user to ask, every authorization is followed at once.
      mayPrompt: () => true,
    },
  };
  const log: ServerLog = {
    log: (level, message) => say(`${level}: ${message}`),
    stderr: (line) => say(`stderr: ${line}`),
  };

  const connection = new McpServerConnection(definition, host, log);
  let ok = true;
  try {
    await connection.start();
    const state = connection.state;
    if (state.kind !== 'running') {
      say(
        `could not connect: ${state.kind === 'error' || state.kind === 'needsAuth' ? state.message + (state.detail ? `\n${state.detail}` : '') : state.kind}`,
      );
      return 1;
    }
    say(`connected: ${state.serverInfo.name} ${state.serverInfo.version}, protocol ${state.protocolVersion}, over ${state.transport}`);

    if (scenario.startsWith('sep-2640-client-')) ok = await useSkills(connection, scenario);
    else if (scenario !== 'initialize') ok = await callEveryTool(connection, scenario, context);
  } catch (error) {
    say(`failed: ${errorMessage(error)}`);
    ok = false;
  } finally {
    await connection.stop().catch((error) => say(`stop failed: ${errorMessage(error)}`));
  }
  return ok ? 0 : 1;
}

/**
 * The `oauth` field a user would write for the scenario: the context plays the user's config
 * (client id, secrets, keys, tokens), as a `.vscode/mcp.json` entry with `${input:…}` values
 * would after resolution. Scenarios without a context use the default (authorization code with
 * CIMD or dynamic registration); the DPoP ones are servers the user marked `"dpop": true`.
 */
function oauthSettingsFor(scenario: string, context: Record<string, unknown> | undefined): OAuthSettings | undefined {
  const text = (key: string) => (typeof context?.[key] === 'string' ? (context[key] as string) : undefined);
  switch (scenario) {
    case 'auth/dpop':
    case 'auth/dpop-nonce':
      return { dpop: true };
    case 'auth/client-credentials-basic':
      return {
        grantType: 'client_credentials',
        clientId: text('client_id'),
        clientSecret: text('client_secret'),
        tokenEndpointAuthMethod: 'client_secret_basic',
      };
    case 'auth/client-credentials-jwt':
      return {
        grantType: 'client_credentials',
        clientId: text('client_id'),
        privateKey: text('private_key_pem'),
        signingAlgorithm: text('signing_algorithm'),
        tokenEndpointAuthMethod: 'private_key_jwt',
      };
    case 'auth/wif-jwt-bearer':
      return { grantType: 'jwt_bearer', clientId: text('client_id'), assertion: text('valid_jwt'), tokenEndpointAuthMethod: 'none' };
    case 'auth/enterprise-managed-authorization':
      return {
        grantType: 'enterprise_managed',
        clientId: text('client_id'),
        clientSecret: text('client_secret'),
        tokenEndpointAuthMethod: 'client_secret_basic',
        idp: { issuer: text('idp_issuer'), tokenEndpoint: text('idp_token_endpoint'), clientId: text('idp_client_id'), idToken: text('idp_id_token') },
      };
    default:
      // auth/pre-registration: a client registered beforehand, pinned to its issuer.
      return text('client_id') ? { clientId: text('client_id'), clientSecret: text('client_secret'), issuer: text('issuer') } : undefined;
  }
}

function parseContext(text: string | undefined): Record<string, unknown> | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    say('MCP_CONFORMANCE_CONTEXT is not JSON; ignored');
    return undefined;
  }
}

/** Tool calls a scenario prescribes (http-custom-headers: exactly the context's toolCalls). */
function prescribedCalls(context: Record<string, unknown> | undefined): { name: string; arguments: Record<string, unknown> }[] | undefined {
  const calls = context?.toolCalls;
  if (!Array.isArray(calls)) return undefined;
  return calls
    .filter(
      (c): c is { name: string; arguments?: Record<string, unknown> } => !!c && typeof c === 'object' && typeof (c as { name?: unknown }).name === 'string',
    )
    .map((c) => ({ name: c.name, arguments: c.arguments ?? {} }));
}

/** Arguments for one listed tool; json_schema_echo gets the schema it must echo back (SEP-1613). */
function argumentsFor(tool: Tool, tools: Tool[]): Record<string, unknown> {
  if (tool.name === 'json_schema_echo') {
    const source = tools.find((t) => t.name === 'json_schema_2020_12_tool');
    if (source) return { schema: source.inputSchema };
  }
  return sampleArguments(tool.inputSchema as Record<string, unknown>);
}

/** Tools whose call may fail without failing the run (the check is that the client refuses). */
const TOLERATED_FAILURES: Record<string, string[]> = {
  // A 2026 result without resultType is rejected by the SDK: what the check wants.
  'sep-2322-client-request-state': ['test_mrtr_no_result_type'],
};

async function callEveryTool(connection: McpServerConnection, scenario: string, context: Record<string, unknown> | undefined): Promise<boolean> {
  let tools: Tool[];
  try {
    tools = await connection.list('tools');
  } catch (error) {
    say(`tools/list failed: ${errorMessage(error)}`);
    return false;
  }
  say(`tools: ${tools.map((t) => t.name).join(', ') || '(none)'}`);
  // json-schema-ref-no-deref: the test server has no tools/call; listing is the whole test.
  if (scenario === 'json-schema-ref-no-deref') return true;
  const calls = prescribedCalls(context) ?? tools.map((tool) => ({ name: tool.name, arguments: argumentsFor(tool, tools) }));
  let ok = true;
  for (const call of calls) {
    say(`calling ${call.name} ${JSON.stringify(call.arguments)}`);
    try {
      const result = await connection.callTool(call.name, call.arguments, {
        onprogress: (p) => say(`progress ${p.progress}${p.total !== undefined ? `/${p.total}` : ''}${p.message ? ` ${p.message}` : ''}`),
      });
      say(`${call.name} → ${result.isError ? 'error result' : 'ok'}: ${JSON.stringify(result.content ?? result)}`);
    } catch (error) {
      const tolerated = TOLERATED_FAILURES[scenario]?.includes(call.name);
      say(`${call.name} failed${tolerated ? ' (expected)' : ''}: ${errorMessage(error)}`);
      if (!tolerated) ok = false;
    }
  }
  return ok;
}

/**
 * Skills over MCP (SEP-2640), the way the extension uses them: the connection lists the skills
 * when it connects (and reads no file: sep-2640-client-no-prefetch ends there, as a user who
 * only looks at the Servers tree). The verify-* scenarios play a user who opens the first skill:
 * its SKILL.md is read and verified (size, digest, frontmatter), and only a verified skill goes
 * on to its other files, as a host loading the skill would; a refused one stops there.
 */
async function useSkills(connection: McpServerConnection, scenario: string): Promise<boolean> {
  let skills;
  try {
    skills = (await connection.skills.list()).skills;
  } catch (error) {
    say(`skills/list failed: ${errorMessage(error)}`);
    return false;
  }
  say(`skills: ${skills.map((s) => s.uri).join(', ') || '(none)'}`);
  if (scenario === 'sep-2640-client-no-prefetch' || !skills.length) return true;
  const skill = skills[0];
  try {
    const manifest = await connection.skills.read(skill);
    say(`loaded ${skill.uri} (${manifest.bytes.byteLength} bytes, verified)`);
  } catch (error) {
    // The refusal is the point of these scenarios; its details are in the log above.
    say(`refused ${skill.uri}: ${errorMessage(error)}`);
    return true;
  }
  for (const file of Array.isArray(skill.resources) ? skill.resources.filter((r) => r.uri !== skill.uri) : []) {
    try {
      await connection.skills.read(skill, file.uri);
      say(`loaded ${file.uri} (verified)`);
    } catch (error) {
      say(`refused ${file.uri}: ${errorMessage(error)}`);
      return true;
    }
  }
  return true;
}

main().then(
  (code) => {
    say(`exit ${code}`);
    // Open sockets (a standalone SSE GET the server keeps open) must not keep us alive.
    process.exit(code);
  },
  (error) => {
    say(`crashed: ${error instanceof Error ? error.stack : String(error)}`);
    process.exit(1);
  },
);
