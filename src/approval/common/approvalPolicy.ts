/**
 * Who decides a server's sampling requests, and how often a server may ask. Pure: the
 * extension feeds it the settings and the clock.
 *
 * Policies: `ask` (default: every request waits in the approval panel), `session` (allowed
 * until VS Code closes: generated with the pre-selected model and returned without review),
 * `always` (the same, remembered in settings), `never` (rejected at once).
 */
import { userLevelValue, type InspectedSetting } from '../../shared/common/userSettings';

export type SamplingPolicy = 'ask' | 'session' | 'always' | 'never';

export const SAMPLING_POLICIES: readonly SamplingPolicy[] = ['ask', 'session', 'always', 'never'];

export function isSamplingPolicy(value: unknown): value is SamplingPolicy {
  return typeof value === 'string' && (SAMPLING_POLICIES as readonly string[]).includes(value);
}

/**
 * The effective policy of a server: a session choice wins over the setting; the setting
 * (`mcpWorkbench.sampling.serverPolicies`, by server name) only knows ask/always/never.
 */
export function effectivePolicy(server: string, settings: Readonly<Record<string, unknown>>, session: ReadonlyMap<string, SamplingPolicy>): SamplingPolicy {
  const chosen = session.get(server);
  if (chosen) return chosen;
  const configured = settings[server];
  return configured === 'always' || configured === 'never' || configured === 'ask' ? configured : 'ask';
}

/**
 * The user's `mcpWorkbench.sampling.serverPolicies` from `inspect()`: a workspace must not be
 * able to let servers sample without asking, so its value is never taken.
 */
export function userPolicies(inspected: InspectedSetting<Record<string, unknown>> | undefined): Record<string, unknown> {
  return userLevelValue(inspected, {});
}

/** The user's `mcpWorkbench.sampling.rateLimitPerMinute` from `inspect()` (a workspace could lift it). */
export function userRateLimit(inspected: InspectedSetting<number> | undefined): number {
  return userLevelValue(inspected, 10);
}

/** Whether a policy answers without showing the request. */
export function decidesAlone(policy: SamplingPolicy): 'allow' | 'reject' | undefined {
  return policy === 'never' ? 'reject' : policy === 'always' || policy === 'session' ? 'allow' : undefined;
}

/**
 * A sliding-window limit per key (server): at most `limit` accepted events in any
 * `windowMs`. A limit of 0 or less means no limit.
 */
export class RateLimiter {
  private readonly events = new Map<string, number[]>();

  constructor(private readonly windowMs = 60_000) {}

  /** Records an event if allowed; otherwise says when the next one would be. */
  tryAcquire(key: string, limit: number, now: number): { ok: true } | { ok: false; retryAfterMs: number } {
    if (!(limit > 0)) return { ok: true };
    const recent = (this.events.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (recent.length >= limit) {
      this.events.set(key, recent);
      return { ok: false, retryAfterMs: Math.max(0, recent[0] + this.windowMs - now) };
    }
    recent.push(now);
    this.events.set(key, recent);
    return { ok: true };
  }

  /** How many events of a key are in the current window. */
  count(key: string, now: number): number {
    return (this.events.get(key) ?? []).filter((t) => now - t < this.windowMs).length;
  }

  reset(key?: string): void {
    if (key === undefined) this.events.clear();
    else this.events.delete(key);
  }
}

export function rateLimitMessage(server: string, limit: number, retryAfterMs: number): string {
  return `Sampling rate limit exceeded: server "${server}" may send at most ${limit} sampling requests per minute `
    + `(setting mcpWorkbench.sampling.rateLimitPerMinute); retry in ${Math.ceil(retryAfterMs / 1000)} s.`;
}

/** The JSON-RPC error the spec shows for a sampling request the user rejected (a protocol fact). */
export { USER_REJECTED_SAMPLING } from '../../mcp/protocolFacts';
