/**
 * What the extension exports from `activate()`: read access to the servers for other
 * extensions and for the integration tests (which drive the real extension through it).
 */
import type { AgentServers } from './coexistence/agentServers';
import type { McpServerConnection } from './mcp/connection/serverConnection';
import type { ServerTreeProvider } from './servers/serverTreeProvider';
import type { ActivityTreeProvider } from './activity/activityTreeProvider';
import type { ChatRequestHandler, Uri } from 'vscode';

export interface McpWorkbenchApi {
  /** Resolves when the configuration was read the first time and auto-start has run. */
  readonly ready: Promise<void>;
  /** Every configured server's connection. */
  servers(): McpServerConnection[];
  /** A server by id, label or name. */
  server(key: string): McpServerConnection | undefined;
  /** Re-reads all configuration now (normally done on file and settings changes). */
  reload(): Promise<void>;
  /** Fires when servers are added or removed or any server changes state. */
  onDidChange(listener: () => void): { dispose(): void };
  /**
   * Fires when a server restarted because a `dev.watch` file changed runs again: its config
   * name and id, and the full path of the (last) changed file.
   */
  onDidDevRestart(listener: (e: { serverName: string; serverId: string; changedFile: string }) => void): { dispose(): void };
  /** For this extension's own integration tests only (views' data providers); not a stable API. */
  readonly testing: {
    readonly serverTree: ServerTreeProvider;
    readonly activityTree: ActivityTreeProvider;
    /** This extension's log folder; VS Code's extension host log is in the folder above it. */
    readonly logUri: Uri;
    /** Delivers a link to the extension's URI handler, as a `vscode://mcp-workbench.mcp-workbench/…` link would. */
    handleUri(uri: Uri): void;
    /** How long this activation took, from performance marks the extension sets (see ActivationTiming). */
    activationTiming(): ActivationTiming;
    /** VS Code's own MCP host as detected, and this workspace's stored choice of who runs the shared servers. */
    /** `runner`: the stored choice; `decision`: who runs them now and whether the Servers view asks. */
    coexistence(): {
      builtinHostActive: boolean;
      agentCanUse: boolean;
      runner: 'vscode' | 'workbench' | undefined;
      decision: { runner: 'vscode' | 'workbench'; ask: boolean };
      /** Start said once in this window that VS Code may run another copy of a server it runs. */
      warnedAboutSecondCopy: boolean;
    };
    /** Mode 2: the servers given to VS Code's agent and our confirmation of its calls; undefined before VS Code 1.101. */
    agentServers(): AgentServers | undefined;
    /** The dev loop's quiet period before a restart, in ms (undefined: the default, 300 ms). */
    setDevWatchDelay(ms: number | undefined): void;
    /** The `@mcp` participant's handler with the dependencies the extension gave it (also where this VS Code has no chat API). */
    readonly chatHandler: ChatRequestHandler;
  };
}

/**
 * Performance marks of this activation (`performance.mark`): `mcpWorkbench/load` and `/loaded`
 * are the first and last statements of dist/extension.js (after Node compiled it), `mcpWorkbench/activate` and
 * `mcpWorkbench/activated` bracket `activate()`, `mcpWorkbench/deps` is when dist/deps.js (the
 * MCP SDK and ajv) was first required, if it was.
 */
export interface ActivationTiming {
  /** Reading and compiling the bundle in the loader (src/codeCacheLoader.ts); undefined when it was loaded without it. */
  compileMs?: number;
  /** Whether the loader compiled the bundle with V8's code cache (`used`), made one (`made`, the first activation), or could not. */
  codeCache?: 'used' | 'made' | 'rejected' | 'off';
  /** From the first to the last statement of the bundle (evaluating its modules; compiling it comes before). */
  evaluateMs: number;
  /** activate() itself. */
  activateMs: number;
  /** ms after activate() returned that the SDK was loaded; undefined: not loaded yet; negative: loaded during activation. */
  depsLoadedAfterMs?: number;
  /**
   * When dist/features.js (the code only commands, panels and sessions need; esbuild.mjs
   * lazyFeatures) loaded, ms after `activate()` returned; undefined while nothing needed it.
   */
  featuresLoadedAfterMs?: number;
  /** From compiling the bundle to the end of activate(): ms on a CPU and ms waiting for one (Linux only; see CodeCacheState). */
  cpuMs?: number;
  waitMs?: number;
}
