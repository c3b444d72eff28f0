/**
 * Who decides a server's sampling requests, and how often a server may ask. Pure: the
 * extension feeds it the settings and the clock.
 *
 * Policies: `ask` (default: every request waits in the approval panel), `session` (allowed
 * until VS Code closes: generated with the pre-selected model and returned without review),
 * `always` (the same, remembered in settings), `never` (rejected at once).
 */
import { userLevelValue, type InspectedSetting } from '../../shared/common/userSettings';
import type { ServerDefinition, ServerSource } from '../../config/common/launchDefinition';
import { resolvedLaunchTarget } from '../../config/common/launchTarget';

// The type lives with the webview protocol (which the panel compiles without Node's types);
// this module resolves launch targets, so it is host-only.
import type { SamplingPolicy } from './approvalProtocol';
export type { SamplingPolicy };

export const SAMPLING_POLICIES: readonly SamplingPolicy[] = ['ask', 'session', 'always', 'never'];

export function isSamplingPolicy(value: unknown): value is SamplingPolicy {
  return typeof value === 'string' && (SAMPLING_POLICIES as readonly string[]).includes(value);
}

/**
 * Where a definition comes from, as a policy key says it: `user` for the user settings
 * (`mcpWorkbench.servers`, VS Code's `mcp`), `profile` for the profile's `mcp.json`, the
 * path of any other config file (a workspace's `.vscode/mcp.json`, another app's config).
 */
export function policyScope(source: ServerSource): string {
  if (source.vscodeProfile) return 'profile';
  if (source.file) return source.file;
  if (source.scope === 'user' && (source.userSettings || source.vscodeSetting)) return 'user';
  // Not from a config file or setting (a debug session's inline server): its label, and folder.
  return source.folder ? `${source.label} of ${source.folder}` : source.label;
}

/**
 * The key of a server's policy, in the setting and for the session: `name@scope target`, e.g.
 * `github@user https://api.githubcopilot.com/mcp` or
 * `docs@/home/me/app/.vscode/mcp.json node /home/me/app/server.js`. A server with the same
 * name in another file, or one whose config now points elsewhere, has another key: a policy
 * given to one server never carries over to another by name.
 */
export function policyKey(server: PolicyServer): string {
  return `${server.name}@${policyScope(server.source)} ${server.target ?? resolvedLaunchTarget(server.launch)}`;
}

/**
 * Whether a key that is only a server name (as earlier versions wrote it, or as a user types
 * it) applies: only to servers of the user's own configuration (settings, profile, other apps'
 * user-level files), never to one a workspace (or its launch configuration) defines.
 */
export function nameKeyApplies(source: ServerSource): boolean {
  return source.scope === 'user' && (source.file !== undefined || source.userSettings === true || source.vscodeSetting === true);
}

/**
 * The effective policy of a server: a session choice wins over the setting; the setting
 * (`mcpWorkbench.sampling.serverPolicies`, by policyKey, or by name for the user's own
 * servers) only knows ask/always/never.
 */
export function effectivePolicy(
  server: PolicyServer,
  settings: Readonly<Record<string, unknown>>,
  session: ReadonlyMap<string, SamplingPolicy>,
): SamplingPolicy {
  const key = policyKey(server);
  const chosen = session.get(key);
  if (chosen) return chosen;
  const configured = Object.hasOwn(settings, key)
    ? settings[key]
    : nameKeyApplies(server.source) && Object.hasOwn(settings, server.name)
      ? settings[server.name]
      : undefined;
  return configured === 'always' || configured === 'never' || configured === 'ask' ? configured : 'ask';
}

/**
 * The setting after the user chose `policy` for a server: written under its policyKey (`ask`,
 * the default, removes it); a name-only key that applied to it goes, so that it is not still
 * in force behind the new choice.
 */
export function withPolicy(settings: Readonly<Record<string, unknown>>, server: PolicyServer, policy: 'ask' | 'always' | 'never'): Record<string, unknown> {
  const next = { ...settings };
  if (nameKeyApplies(server.source)) delete next[server.name];
  const key = policyKey(server);
  if (policy === 'ask') delete next[key];
  else next[key] = policy;
  return next;
}

export type PolicyServer = Pick<ServerDefinition, 'name' | 'source' | 'target' | 'launch'>;

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
  return (
    `Sampling rate limit exceeded: server "${server}" may send at most ${limit} sampling requests per minute ` +
    `(setting mcpWorkbench.sampling.rateLimitPerMinute); retry in ${Math.ceil(retryAfterMs / 1000)} s.`
  );
}

/** The JSON-RPC error the spec shows for a sampling request the user rejected (a protocol fact). */
export { USER_REJECTED_SAMPLING } from '../../mcp/protocolFacts';
