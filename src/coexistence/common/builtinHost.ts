/**
 * VS Code's own MCP host, beside ours: whether it is active (from VS Code's version and its
 * `chat.*` settings) and, per workspace, who runs the servers of the config files both hosts
 * read. Pure: the glue (../coexistence.ts) reads the settings and the workspace state.
 */
import type { ServerSource } from '../../config/common/launchDefinition';

/** The `chat.*` settings VS Code's MCP host follows, as read (undefined: not set and no default known). */
export interface BuiltinHostSettings {
  /** `chat.mcp.access` (1.101+): "none" | "registry" | "all". */
  access?: unknown;
  /** `chat.mcp.enabled` (1.99 – 1.100; default true). */
  enabled?: unknown;
  /** `chat.disableAIFeatures` (later versions): chat, and with it its MCP host, is off. */
  disableAIFeatures?: unknown;
}

/** VS Code ships MCP from 1.99 on; 1.101 replaced `chat.mcp.enabled` by `chat.mcp.access`. */
const FIRST_WITH_MCP = [1, 99];
const FIRST_WITH_ACCESS = [1, 101];
/** 1.102 moved the user's MCP servers from the `mcp` setting into the profile's `mcp.json`. */
const FIRST_WITH_PROFILE_MCP_JSON = [1, 102];

/**
 * 1.140 brought the Copilot agent host ("harness"), which reads GitHub Copilot's places
 * (`.github/mcp.json`, `~/.copilot/mcp-config.json`) natively and starts their servers whatever
 * `chat.mcp.autostart` says (microsoft/vscode#332782, microsoft/vscode-docs#10227). Not seen
 * running here: the newest VS Code the tests run is 1.139.1.
 */
const FIRST_WITH_AGENT_HOST = [1, 140];

/** Whether this VS Code has the Copilot agent host, which reads GitHub Copilot's config places. */
export function hasCopilotAgentHost(version: string): boolean {
  const parsed = parseVersion(version);
  return parsed !== undefined && compare(parsed, FIRST_WITH_AGENT_HOST) >= 0;
}

/** Whether this VS Code reads the user profile's `mcp.json` (before 1.102 the file means nothing to it). */
export function readsProfileMcpJson(version: string): boolean {
  const parsed = parseVersion(version);
  return parsed !== undefined && compare(parsed, FIRST_WITH_PROFILE_MCP_JSON) >= 0;
}

/**
 * Whether VS Code's own MCP host may start the servers of `.vscode/mcp.json` and `.mcp.json`
 * in this window. `version` is `vscode.version` ("1.139.1", "1.101.0-insider").
 */
export function builtinHostActive(version: string, settings: BuiltinHostSettings): boolean {
  const parsed = parseVersion(version);
  if (!parsed || compare(parsed, FIRST_WITH_MCP) < 0) return false;
  if (settings.disableAIFeatures === true) return false;
  if (compare(parsed, FIRST_WITH_ACCESS) < 0) return settings.enabled !== false;
  // `false` is not a value VS Code defines, but a hand-written one means "off" all the same.
  return settings.access !== 'none' && settings.access !== false;
}

/** Who runs the servers of the config files both hosts read, chosen per workspace. */
export type WorkspaceServersRunner = 'vscode' | 'workbench';

/** The config files VS Code's own host reads too (workspace-relative, as ServerSource labels them). */
export const SHARED_CONFIG_FILES: readonly string[] = ['.vscode/mcp.json', '.mcp.json'];

/**
 * Whether a server comes from a file VS Code's own host reads as well: a workspace config file,
 * not the `mcpWorkbench.servers` setting and not another app's file found by discovery.
 */
export function isSharedSource(source: ServerSource): boolean {
  return source.scope === 'workspace' && source.discovered === undefined && SHARED_CONFIG_FILES.includes(source.label);
}

/** The tree's and lenses' words for a server left to VS Code (a stopped reason). */
export const RUN_BY_VSCODE_REASON = "run by VS Code's own MCP support";
/** The same for a server of GitHub Copilot's places, left to VS Code's Copilot agent host (1.140+). */
export const RUN_BY_AGENT_HOST_REASON = "run by VS Code's Copilot agent host";

/** Whether a stopped reason means the server is left to VS Code (the row then offers "Run Here"). */
export function leftToVsCode(reason: string | undefined): boolean {
  return reason === RUN_BY_VSCODE_REASON || reason === RUN_BY_AGENT_HOST_REASON;
}

/**
 * Whether the workspace's runner choice covers a server: the files both hosts read, and from
 * 1.140 on (`agentHost`) `.github/mcp.json`, which VS Code's Copilot agent host reads.
 */
export function coveredByRunnerChoice(source: ServerSource, agentHost: boolean): boolean {
  return isSharedSource(source) || (agentHost && source.copilotPlace === true && source.scope === 'workspace');
}

/**
 * Whether a server row says that VS Code's Copilot agent host may run its own copy: we run a
 * server of GitHub Copilot's places and that host is there too (1.140+, its host on): that host starts its own copy whatever
 * `chat.mcp.autostart` says, so only turning VS Code's MCP off keeps one process.
 */
export function agentHostMayRunCopy(source: ServerSource, builtinActive: boolean, agentHost: boolean): boolean {
  return source.copilotPlace === true && builtinActive && agentHost;
}

/** What, beside a server's source and the runner chosen, decides whether VS Code runs it. */
export interface HostFacts {
  /** VS Code's own MCP host is active (MCP access and AI features on). */
  builtinActive: boolean;
  /** VS Code reads the profile's `mcp.json` (1.102+); before, its user-level `mcp` setting. */
  readsProfile?: boolean;
  /** The user chose "Run Here" for this one server. */
  runHere?: boolean;
  /** VS Code's Copilot agent host is there (1.140+): it reads GitHub Copilot's places. */
  agentHost?: boolean;
}

/**
 * Why we do not start a server on our own, or undefined when we do: while VS Code's host is
 * active, servers of the shared files are left to it unless the user chose that we run them
 * (the default while unanswered: nothing starts twice), and the servers of VS Code's own user
 * config are always left to it (the choice is about the workspace's): the profile's `mcp.json`
 * where VS Code reads it (`readsProfile`: 1.102+), the user-level `mcp` setting where it reads
 * that instead (1.99 – 1.101). The user's Start still starts it.
 */
export function heldBackReason(
  source: ServerSource,
  runner: WorkspaceServersRunner | undefined,
  { builtinActive, readsProfile = true, runHere = false, agentHost = false }: HostFacts,
): string | undefined {
  if (!builtinActive || runHere) return undefined;
  // GitHub Copilot's places: before 1.140 nothing in VS Code reads them, so they are ours alone.
  // From 1.140 the Copilot agent host does: the user's file is VS Code's own config then (as the
  // profile's mcp.json), `.github/mcp.json` a workspace file that follows the runner choice.
  if (source.copilotPlace) {
    if (!agentHost) return undefined;
    if (source.scope === 'user') return RUN_BY_AGENT_HOST_REASON;
    return (runner ?? 'vscode') === 'vscode' ? RUN_BY_AGENT_HOST_REASON : undefined;
  }
  if (source.vscodeProfile) return readsProfile ? RUN_BY_VSCODE_REASON : undefined;
  // The `mcp` setting is where VS Code kept them before the profile's mcp.json (it moves them there from 1.102).
  if (source.vscodeSetting) return readsProfile ? undefined : RUN_BY_VSCODE_REASON;
  if (!isSharedSource(source)) return undefined;
  return (runner ?? 'vscode') === 'vscode' ? RUN_BY_VSCODE_REASON : undefined;
}

/** Shown, for a few seconds at most, on a server whose start waits until the chat models were looked at. */
export const DECIDING_RUNNER_REASON = "waiting to learn whether VS Code's agent runs it";

/**
 * Whether this server's first start must wait for the chat models to be looked at: only when
 * who starts it depends on that answer (VS Code's agent could use it, and nobody chose yet).
 * Every other server starts at once: the read can take VS Code seconds (it activates the
 * extensions that offer models), and the user's own servers would wait for it for nothing.
 */
export function waitsForRunnerDecision(source: ServerSource, stored: WorkspaceServersRunner | undefined, facts: HostFacts): boolean {
  return !stored && heldBackReason(source, 'workbench', facts) !== heldBackReason(source, 'vscode', facts);
}

/**
 * Whether VS Code's agent can use the workspace's MCP servers in this window: its MCP host is on
 * (`builtinHostActive`: MCP access, AI features) and there is a chat model to drive it
 * (`vscode.lm.selectChatModels()` found one). Without a model nothing in VS Code calls them.
 */
export function agentCanUseServers(builtinActive: boolean, hasChatModel: boolean): boolean {
  return builtinActive && hasChatModel;
}

/** Who runs the shared servers now, and whether the Servers view asks the user. */
export interface RunnerDecision {
  runner: WorkspaceServersRunner;
  /** Show the choice in the Servers view (no answer yet, VS Code's agent could run them). */
  ask: boolean;
}

/**
 * The first-open rule: a stored choice is followed; with none, when VS Code's agent cannot use
 * the servers (no chat model, chat or MCP off) we run them with no question (so a new user sees
 * their tools); when it can, the view asks, and until then VS Code runs them (nothing starts
 * twice), unless this window already started them here under the first rule (`startedHereUnasked`:
 * a chat model that appears later does not stop what the user is looking at).
 */
export function decideRunner(agentCanUse: boolean, stored: WorkspaceServersRunner | undefined, startedHereUnasked = false): RunnerDecision {
  if (stored) return { runner: stored, ask: false };
  if (!agentCanUse) return { runner: 'workbench', ask: false };
  return { runner: startedHereUnasked ? 'workbench' : 'vscode', ask: true };
}

/** The options of a choice: "Run them here" may also keep VS Code from starting copies. */
export interface ChooseOptions {
  /** Also write `"chat.mcp.autostart": "never"` to the workspace settings. */
  autostartNever?: boolean;
}

/** Whether the Servers view shows the choice: it is needed and there are shared servers to choose for. */
export function shouldAskRunner(decision: RunnerDecision, sharedServerCount: number): boolean {
  return decision.ask && sharedServerCount > 0;
}

/**
 * Whether VS Code's agent is offered one of our servers through the loopback endpoint (mode 2):
 * a server of the shared files, running here, while VS Code's host is on and the user chose
 * that we run them. Servers only we know are not offered: VS Code's agent never had them.
 */
export function offeredToAgent(source: ServerSource, running: boolean, builtinActive: boolean, runner: WorkspaceServersRunner | undefined): boolean {
  return builtinActive && runner === 'workbench' && running && isSharedSource(source);
}

/**
 * Whether "Run them here" also offers to set `chat.mcp.autostart` to "never" for the workspace
 * (so VS Code starts no copies of its own): only where VS Code has that setting (1.101+
 * registers it: `known`) and it does not already say "never".
 */
export function shouldOfferAutostartNever(known: boolean, effective: unknown): boolean {
  return known && effective !== 'never';
}

/** A stored or passed value as a runner, or undefined when it is none (workspace state is not typed). */
export function parseRunner(value: unknown): WorkspaceServersRunner | undefined {
  return value === 'vscode' || value === 'workbench' ? value : undefined;
}

function parseVersion(version: string): number[] | undefined {
  const m = /^(\d+)\.(\d+)/.exec(version.trim());
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

function compare(a: number[], b: number[]): number {
  return a[0] !== b[0] ? a[0] - b[0] : a[1] - b[1];
}
