/**
 * How a stdio server with VS Code's `"sandboxEnabled": true` is run here: under bubblewrap
 * (`bwrap`) on Linux, or not at all. A server the user sandboxed for VS Code must never run
 * unsandboxed without the user saying so (`mcpWorkbench.sandbox.allowUnsandboxed`, a user-level
 * setting a workspace cannot set). Pure: the caller resolves `bwrap` and says what exists on
 * disk; this builds the argv or the one-line reason. No `vscode` import.
 *
 * What the sandbox allows, beside what the file's `sandbox` declares (entryPolicy.ts):
 *  - the whole filesystem read-only (`--ro-bind / /`), a fresh `/dev` and `/proc`;
 *  - a `/tmp` of its own: an empty tmpfs (TMPDIR=/tmp), so it neither sees nor leaves files in
 *    the host's; nothing to clean up, and the SDK's era probe (a second spawn of the same argv)
 *    gets one of its own too;
 *  - writable: the declared `allowWrite` paths and what VS Code's sandbox adds to them (the
 *    server's `cwd` and `~/.npm`), bound over the rest (also inside `/tmp`); `denyWrite` paths
 *    stay read-only, `denyRead` ones are hidden (an empty folder, or `/dev/null` for a file);
 *  - network: none (`--unshare-net`: only a loopback of its own). bubblewrap cannot filter by
 *    domain, so a declared `allowedDomains` list is refused unless the user lets such servers
 *    reach any host (`mcpWorkbench.sandbox.networkWithDomains: "all"`). VS Code's own sandbox
 *    (which proxies) also lets every sandboxed server reach `registry.npmjs.org`; this does not.
 * The sandboxed process has a PID namespace of its own and dies with the extension host.
 */
import type { SandboxSettings } from '../../config/common/entryPolicy';

/** The user's sandbox settings (`mcpWorkbench.sandbox.*`), read at user level only. */
export interface SandboxHostSettings {
  /** `bwrap` as configured: a name looked up on PATH, or a path. */
  bwrapPath: string;
  /** Run a sandboxed server unsandboxed when it cannot be sandboxed here (with a line in its log). */
  allowUnsandboxed: boolean;
  /** What a sandbox that lists `network.allowedDomains` gets: `refuse` (not started) or `all` (any host). */
  networkWithDomains: 'refuse' | 'all';
}

export const DEFAULT_SANDBOX_SETTINGS: SandboxHostSettings = { bwrapPath: 'bwrap', allowUnsandboxed: false, networkWithDomains: 'refuse' };

export type SandboxPlan =
  /** Run `command args` (bwrap, then the server's own command line) with TMPDIR=/tmp (its own). */
  | { kind: 'sandboxed'; command: string; args: string[]; summary: string }
  /** Cannot be sandboxed here, and the user allowed running it anyway: `warning` goes to its log. */
  | { kind: 'unsandboxed'; warning: string }
  /** Not started: `reason` is the one line shown on the server. */
  | { kind: 'refused'; reason: string };

export interface SandboxInput {
  /** Names the server in messages, e.g. `server "weather"`. */
  who: string;
  sandbox: SandboxSettings;
  settings: SandboxHostSettings;
  platform: NodeJS.Platform;
  /** The absolute path `bwrap` resolved to, or undefined when it was not found. */
  bwrap: string | undefined;
  /** The server's own command line, as it would be spawned without the sandbox. */
  command: string;
  args: readonly string[];
  cwd: string | undefined;
  home: string;
  /** What is at a path: the sandbox can bind only what exists. */
  kindOf(path: string): 'dir' | 'file' | undefined;
}

const ALLOW_SETTING = 'mcpWorkbench.sandbox.allowUnsandboxed';
const NETWORK_SETTING = 'mcpWorkbench.sandbox.networkWithDomains';

export function planSandbox(input: SandboxInput): SandboxPlan {
  const { who, settings } = input;
  const cannot =
    input.platform !== 'linux'
      ? `${who} is sandboxed ("sandboxEnabled": true) and MCP Workbench can sandbox servers only on Linux, with bubblewrap`
      : !input.bwrap
        ? `${who} is sandboxed ("sandboxEnabled": true) and bubblewrap ("${settings.bwrapPath}") was not found: install it (Debian/Ubuntu: apt install bubblewrap) or set mcpWorkbench.sandbox.bwrapPath`
        : undefined;
  if (cannot) {
    return settings.allowUnsandboxed
      ? { kind: 'unsandboxed', warning: `${cannot}; it runs unsandboxed because ${ALLOW_SETTING} is on.` }
      : { kind: 'refused', reason: `${cannot}; not started. Turn on ${ALLOW_SETTING} (user settings) to run it unsandboxed.` };
  }
  const domains = input.sandbox.network?.allowedDomains ?? [];
  if (domains.length && settings.networkWithDomains !== 'all') {
    return {
      kind: 'refused',
      reason: `${who} may reach only ${domains.join(', ')} (sandbox.network.allowedDomains) and bubblewrap cannot filter by domain; not started. Set ${NETWORK_SETTING} to "all" to let it reach any host, or remove the list.`,
    };
  }
  const fs = input.sandbox.filesystem ?? {};
  const writable = [...new Set([...(input.cwd ? [input.cwd] : []), `${input.home}/.npm`, ...(fs.allowWrite ?? [])])].filter((p) => input.kindOf(p));
  const args = ['--die-with-parent', '--unshare-pid', ...(domains.length ? [] : ['--unshare-net'])];
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp');
  for (const p of writable) args.push('--bind', p, p);
  for (const p of fs.denyWrite ?? []) if (input.kindOf(p)) args.push('--ro-bind', p, p);
  // Last, so a hidden path stays hidden inside a writable one.
  for (const p of fs.denyRead ?? []) {
    const kind = input.kindOf(p);
    if (kind === 'dir') args.push('--tmpfs', p);
    else if (kind === 'file') args.push('--ro-bind', '/dev/null', p);
  }
  if (input.cwd) args.push('--chdir', input.cwd);
  args.push('--', input.command, ...input.args);
  const network = domains.length ? `any host (${NETWORK_SETTING} is "all")` : 'none';
  return {
    kind: 'sandboxed',
    command: input.bwrap!,
    args,
    summary: `sandboxed by bubblewrap: writes to ${[...writable, '/tmp (its own)'].join(', ')}; network: ${network}`,
  };
}
