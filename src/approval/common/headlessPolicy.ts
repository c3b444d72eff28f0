/**
 * The approval panel's headless counterpart. With approval rather than in src/mcp because it
 * fills elicitation forms (approval's job), and src/mcp imports no feature.
 */
import type { ElicitResult } from '@modelcontextprotocol/client';
import type { ClientFeatures } from '../../mcp/connection/connectionTypes';
import { createClientFeatures, samplingRejected } from '../../mcp/clientFeatures';
import { applyElicitationDefaults } from './elicitationForm';

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
