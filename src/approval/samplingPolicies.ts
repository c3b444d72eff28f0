/**
 * Who decides a server's sampling requests (the user's `mcpWorkbench.sampling.serverPolicies`,
 * or a choice for this session) and how often a server may ask (the rate limit). Both are the
 * user's: read at user level only, so a workspace cannot let a server sample unasked. Policies
 * belong to one definition (where it is defined and what it runs, see policyKey): a workspace
 * server named like one of the user's does not get the user's "always".
 */
import * as vscode from 'vscode';
import { ProtocolError } from '@modelcontextprotocol/client';
import {
  RateLimiter,
  effectivePolicy,
  policyKey,
  rateLimitMessage,
  userPolicies,
  userRateLimit,
  withPolicy,
  type SamplingPolicy,
} from './common/approvalPolicy';
import type { ServerDefinition } from '../config/common/launchDefinition';

const config = () => vscode.workspace.getConfiguration('mcpWorkbench');

export class SamplingPolicies {
  private readonly session = new Map<string, SamplingPolicy>();
  private readonly limiter = new RateLimiter(60_000);

  /** `changed`: a policy changed (the panel shows each request's policy). */
  constructor(private readonly changed: () => void) {}

  /** The policy of this definition: keyed by where it is defined and what it runs (policyKey), not by its name alone. */
  of(server: ServerDefinition): SamplingPolicy {
    return effectivePolicy(server, userPolicies(config().inspect('sampling.serverPolicies')), this.session);
  }

  /**
   * Sets a server's sampling policy: `session` is remembered until VS Code closes; `always`,
   * `never` and `ask` are written to the user setting `mcpWorkbench.sampling.serverPolicies`,
   * under the server's policyKey.
   */
  async set(server: ServerDefinition, policy: SamplingPolicy): Promise<void> {
    const key = policyKey(server);
    if (policy === 'session') {
      this.session.set(key, 'session');
    } else {
      this.session.delete(key);
      const next = withPolicy(userPolicies(config().inspect('sampling.serverPolicies')), server, policy);
      await config().update('sampling.serverPolicies', Object.keys(next).length ? next : undefined, vscode.ConfigurationTarget.Global);
    }
    this.changed();
  }

  /** Takes one of the server's sampling slots of the last minute, or throws the rate-limit error. */
  acquire(server: ServerDefinition): void {
    const limit = userRateLimit(config().inspect('sampling.rateLimitPerMinute'));
    const slot = this.limiter.tryAcquire(server.id, limit, Date.now());
    if (!slot.ok) throw new ProtocolError(-32000, rateLimitMessage(server.label, limit, slot.retryAfterMs));
  }

  /** Forgets the session choices and rate-limit history (tests, "reset"). */
  reset(): void {
    this.session.clear();
    this.limiter.reset();
  }
}
