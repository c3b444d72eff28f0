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
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ElicitationCompleteNotificationSchema,
  McpError,
  type ClientCapabilities,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type ElicitRequestFormParams,
  type ElicitRequestURLParams,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { ServerDefinition } from '../config/common/launchDefinition';
import { applyElicitationDefaults } from '../approval/common/elicitationForm';
import { USER_REJECTED_SAMPLING } from '../approval/common/approvalPolicy';
import type { ClientFeatures } from './connection/connectionTypes';

export interface ClientFeatureHandlers {
  sample(server: ServerDefinition, params: CreateMessageRequestParams, signal: AbortSignal): Promise<CreateMessageResult>;
  elicitForm(server: ServerDefinition, params: ElicitRequestFormParams, signal: AbortSignal): Promise<ElicitResult>;
  elicitUrl(server: ServerDefinition, params: ElicitRequestURLParams, signal: AbortSignal): Promise<ElicitResult>;
  /** `notifications/elicitation/complete` from a server. */
  elicitationComplete(server: ServerDefinition, elicitationId: string): void;
}

export const CLIENT_FEATURE_CAPABILITIES: ClientCapabilities = { sampling: { tools: {} }, elicitation: { form: {}, url: {} } };

export function createClientFeatures(handlers: ClientFeatureHandlers): ClientFeatures {
  return {
    capabilities: () => structuredClone(CLIENT_FEATURE_CAPABILITIES),
    install(client: Client, server: ServerDefinition) {
      client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
        return handlers.sample(server, request.params, extra.signal);
      });
      client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
        const params = request.params;
        if (params.mode === 'url') return handlers.elicitUrl(server, params, extra.signal);
        return handlers.elicitForm(server, params as ElicitRequestFormParams, extra.signal);
      });
      client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => {
        handlers.elicitationComplete(server, notification.params.elicitationId);
      });
    },
  };
}

/** The JSON-RPC error for a sampling request the user (or the policy) rejected. */
export function samplingRejected(reason?: string): McpError {
  // -1 is the code the spec's example uses for "User rejected sampling request".
  return new McpError(-1, reason ? `${USER_REJECTED_SAMPLING}: ${reason}` : USER_REJECTED_SAMPLING);
}

/**
 * The policy when there is no user (conformance client, automation): form elicitations are
 * accepted with the schema's defaults (SEP-1034), URL elicitations declined (no browser),
 * sampling rejected (no model, no human).
 */
export function headlessClientFeatures(log: (message: string) => void = () => undefined): ClientFeatures {
  return createClientFeatures({
    sample: async (server) => {
      log(`sampling request from ${server.label} rejected (headless)`);
      throw samplingRejected('no user to approve it (headless client)');
    },
    elicitForm: async (server, params) => {
      const content = applyElicitationDefaults(params.requestedSchema, {});
      log(`elicitation from ${server.label} accepted with defaults: ${JSON.stringify(content)}`);
      return { action: 'accept', content: content as ElicitResult['content'] };
    },
    elicitUrl: async (server, params) => {
      log(`URL elicitation from ${server.label} declined (headless): ${params.url}`);
      return { action: 'decline' };
    },
    elicitationComplete: (server, id) => log(`elicitation ${id} of ${server.label} completed`),
  });
}
