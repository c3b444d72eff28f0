/**
 * What a server entry runs or connects to, as its config says it: the part of a definition's
 * identity that an edit of the config (a `git pull`) changes. Two things are bound to it:
 *  - each stored `${input:…}` value, to the targets it was entered for (inputStore.ts): an edit
 *    that points the server elsewhere asks for the value again instead of sending it there;
 *  - the sampling policies of `mcpWorkbench.sampling.serverPolicies` (src/approval).
 *
 * Pure. `${input:…}` and `${env:…}` stay as written: their values are often secrets, and a
 * target is shown in prompts and written to settings; neither is the config's to change
 * either. Folder variables are resolved: `node ${workspaceFolder}/server.js` in a user-level
 * entry runs another program in each folder.
 */
import type { OAuthSettings } from './oauthConfig';
import type { ServerEntry } from './serverConfig';
import type { Launch } from './launchDefinition';
import { resolveEntry, type VariableContext } from './variables';

export type TargetContext = Pick<VariableContext, 'workspaceFolder' | 'workspaceFolders' | 'userHome'>;

/** Kept as written: `${env:NAME}` and `${input:id}` read back as themselves. */
const asWritten = (kind: 'env' | 'input') =>
  new Proxy(
    {},
    {
      get: (_target, name) => (typeof name === 'string' ? `\${${kind}:${name}}` : undefined),
    },
  ) as Record<string, string>;

/**
 * The target of a configured entry: the URL's origin and path for `http`/`sse` (plus the
 * OAuth places configured secrets go to), the command line for `stdio` (plus `cwd` when the
 * entry sets one; the default is the config's own folder, which the file already pins).
 */
export function launchTarget(entry: ServerEntry, ctx: TargetContext): string {
  const { entry: resolved } = resolveEntry(entry, { ...ctx, env: asWritten('env'), inputs: asWritten('input') });
  if (resolved.type === 'stdio') {
    const line = commandLine(resolved.command ?? '', resolved.args ?? []);
    return resolved.cwd !== undefined ? `${line} (cwd ${resolved.cwd})` : line;
  }
  const places = oauthPlaces(resolved.oauth);
  return urlTarget(resolved.url ?? '') + (places.length ? ` (${places.join('; ')})` : '');
}

/**
 * The target of a launch that was not built from config (a debug session's inline server,
 * whose variables VS Code resolved already).
 */
export function resolvedLaunchTarget(launch: Launch): string {
  return launch.type === 'stdio'
    ? `${commandLine(launch.command, launch.args)}${launch.cwd !== undefined ? ` (cwd ${launch.cwd})` : ''}`
    : urlTarget(launch.url);
}

/** Origin and path of a URL: no query, fragment or user info (they may carry credentials). */
export function urlTarget(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return parsed.origin + parsed.pathname;
  } catch {
    // Not a URL yet (an `${input:…}` in its host): trimmed as text below.
  }
  return url.replace(/[?#][\s\S]*$/, '').replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/]*@/i, '$1');
}

function commandLine(command: string, args: readonly string[]): string {
  return [command, ...args].map((a) => (/^[^\s"'\\]+$/.test(a) ? a : JSON.stringify(a))).join(' ');
}

/** Where configured OAuth secrets are sent besides the server: the issuer and the identity provider. */
function oauthPlaces(oauth: OAuthSettings | undefined): string[] {
  if (!oauth) return [];
  return [
    oauth.issuer && `OAuth issuer ${oauth.issuer}`,
    oauth.idp?.issuer && `identity provider ${oauth.idp.issuer}`,
    oauth.idp?.tokenEndpoint && `identity provider token endpoint ${oauth.idp.tokenEndpoint}`,
  ].filter((p): p is string => !!p);
}

/** A stored input value and the targets the user entered (or confirmed) it for, oldest first. */
export interface BoundValue {
  value: string;
  targets: readonly string[];
}

/** How many targets one value keeps (one input shared by several servers of a file). */
const MAX_TARGETS = 16;

/** The value, if it may go to `target`: only where it was entered for. */
export function valueFor(stored: BoundValue | undefined, target: string): string | undefined {
  return stored?.targets.includes(target) ? stored.value : undefined;
}

/**
 * The binding after the user entered `value` for `target`: the same value keeps the targets it
 * had (two servers of one file share an input); a new value is bound to `target` alone.
 */
export function bind(previous: BoundValue | undefined, value: string, target: string): BoundValue {
  const kept = previous?.value === value ? previous.targets.filter((t) => t !== target) : [];
  return { value, targets: [...kept, target].slice(-MAX_TARGETS) };
}

/**
 * Why a stored value is asked for again before it goes to `target`: it was entered for another
 * target (`from`, the last one), or it was stored before values were bound (no targets: what it
 * was typed for is unknown, and the config may have changed since, so it is not trusted).
 */
export function rebindReason(stored: BoundValue | undefined, target: string): { kind: 'moved'; from: string } | { kind: 'unbound' } | undefined {
  if (!stored || stored.targets.includes(target)) return undefined;
  return stored.targets.length ? { kind: 'moved', from: stored.targets[stored.targets.length - 1] } : { kind: 'unbound' };
}
