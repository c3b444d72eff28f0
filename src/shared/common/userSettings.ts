/**
 * Settings that route a secret (where the model API key is sent), loosen approval (sampling
 * policies, the rate limit, the model that answers unattended) or lift a memory cap may only
 * come from the user.
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
  // Memory caps (see USER_LEVEL_CAPS): a repository must not lift them.
  'maxMessageSizeMB',
  'activity.maxEntries',
  // A workspace must not loosen the sandbox of VS Code's `sandboxEnabled` servers, nor pick the program that sandboxes them.
  'sandbox.bwrapPath',
  'sandbox.allowUnsandboxed',
  'sandbox.networkWithDomains',
] as const;

/**
 * Bounds of the settings that cap memory: the value is read at user level and clamped here as
 * well as in package.json's schema (which VS Code only reports, never enforces). Without it a
 * workspace's `.vscode/settings.json` could let a server's single message, or the Activity
 * log, grow until the extension host runs out of memory.
 */
export const USER_LEVEL_CAPS = {
  /** MB of one message from a stdio server; a JavaScript string cannot hold much more than 512 MB anyway. */
  maxMessageSizeMB: { min: 1, max: 512, fallback: 64, integer: false },
  /** Entries of the Activity log (all servers). */
  'activity.maxEntries': { min: 1, max: 100_000, fallback: 1000, integer: true },
} as const;

/** A cap's user-level value, clamped to its bounds; its default when it is not a number. */
export function userLevelCap(key: keyof typeof USER_LEVEL_CAPS, inspected: InspectedSetting<unknown> | undefined): number {
  const { min, max, fallback, integer } = USER_LEVEL_CAPS[key];
  const value = userLevelValue<unknown>(inspected, fallback);
  if (typeof value !== 'number' || Number.isNaN(value)) return fallback;
  const clamped = Math.min(max, Math.max(min, value));
  return integer ? Math.floor(clamped) : clamped;
}
