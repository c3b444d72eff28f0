/**
 * Sampling and elicitation on the SDK client: the capabilities declared in `initialize` and
 * the handlers installed on every new client. No `vscode` import: the extension plugs in its
 * approval panel, the headless conformance client a policy without a user.
 *
 * Declared: `sampling` with `tools` (2025-11-25: the OpenAI-compatible backend and "answer
 * by hand" can return tool calls; a request with tools for a model whose backend cannot gets
 * a JSON-RPC error naming why; no `context`: includeContext is shown but not acted on) and
 * `elicitation` with `form` and `url`.
 */
import {
  ProtocolError,
  type Client,
  type ClientCapabilities,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type ElicitRequestFormParams,
  type ElicitRequestURLParams,
  type ElicitResult,
} from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../config/common/launchDefinition';
import type { ClientFeatures } from './connection/connectionTypes';
import { APP_MIME_TYPE, APPS_EXTENSION_ID, SKILLS_EXTENSION_ID, USER_REJECTED_SAMPLING } from './protocolFacts';

export interface ClientFeatureHandlers {
  sample(server: ServerDefinition, params: CreateMessageRequestParams, signal: AbortSignal): Promise<CreateMessageResult>;
  elicitForm(server: ServerDefinition, params: ElicitRequestFormParams, signal: AbortSignal): Promise<ElicitResult>;
  elicitUrl(server: ServerDefinition, params: ElicitRequestURLParams, signal: AbortSignal): Promise<ElicitResult>;
  /** `notifications/elicitation/complete` from a server. */
  elicitationComplete(server: ServerDefinition, elicitationId: string): void;
}

export const CLIENT_FEATURE_CAPABILITIES: ClientCapabilities = {
  sampling: { tools: {} },
  elicitation: { form: {}, url: {} },
  // MCP Apps (SEP-1865): servers may attach `ui://` apps to tools; Run Tool renders them (src/apps).
  // Skills over MCP (SEP-2640): the Servers tree lists a server's skills and shows, verifies and
  // offers to chat a SKILL.md when the user asks (src/mcp/connection/serverSkills.ts).
  extensions: { [APPS_EXTENSION_ID]: { mimeTypes: [APP_MIME_TYPE] }, [SKILLS_EXTENSION_ID]: {} },
};

export function createClientFeatures(handlers: ClientFeatureHandlers): ClientFeatures {
  return {
    capabilities: () => structuredClone(CLIENT_FEATURE_CAPABILITIES),
    install(client: Client, server: ServerDefinition) {
      // 2025-11-25 servers send these as requests; for 2026-07-28 servers the SDK calls the same
      // handlers to answer the `inputRequests` of an `input_required` result, then retries.
      client.setRequestHandler('sampling/createMessage', async (request, ctx) => {
        return handlers.sample(server, request.params, ctx.mcpReq.signal);
      });
      client.setRequestHandler('elicitation/create', async (request, ctx) => {
        const params = request.params;
        if (params.mode === 'url') return handlers.elicitUrl(server, params, ctx.mcpReq.signal);
        return handlers.elicitForm(server, params as ElicitRequestFormParams, ctx.mcpReq.signal);
      });
      client.setNotificationHandler('notifications/elicitation/complete', (notification) => {
        handlers.elicitationComplete(server, notification.params.elicitationId);
      });
    },
  };
}

/** The JSON-RPC error for a sampling request the user (or the policy) rejected. */
export function samplingRejected(reason?: string): ProtocolError {
  // -1 is the code the spec's example uses for "User rejected sampling request".
  return new ProtocolError(-1, reason ? `${USER_REJECTED_SAMPLING}: ${reason}` : USER_REJECTED_SAMPLING);
}
