/**
 * Settings that route a secret (where the model API key is sent) or loosen approval (sampling
 * policies, the rate limit, the model that answers unattended) may only come from the user.
 * package.json gives them `application` scope, which a workspace cannot set; the
 * code reads them through here as well, so a workspace value is never used even where VS Code
 * would still pass one on (an older VS Code, a setting whose scope a later change loosened).
 */

/** The parts of `WorkspaceConfiguration.inspect()` this needs. */
export interface InspectedSetting<T> {
  defaultValue?: T;
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

/** The user-level value, else the default, else `fallback`. */
export function userLevelValue<T>(inspected: InspectedSetting<T> | undefined, fallback: T): T {
  return inspected?.globalValue ?? inspected?.defaultValue ?? fallback;
}

/** The keys (below `mcpWorkbench.`) read only at user level. */
export const USER_ONLY_SETTINGS = [
  'models.openaiCompatible.url',
  'models.preferred',
  'sampling.serverPolicies',
  'sampling.rateLimitPerMinute',
  // Where the server gallery looks for servers: a workspace must not point it at its own registry.
  'registry.url',
  // The inputs of the user's servers setting: a workspace must not define what they ask for.
  'inputs',
] as const;
