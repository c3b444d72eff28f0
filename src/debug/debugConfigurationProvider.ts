/**
 * The `mcp` debug type's configurations: initial and dynamic ones ("Debug MCP server: <name>"
 * for each stdio server of the config), and the resolvers that fill defaults and check a
 * configuration before the adapter starts. The registry comes in through `DebugServers`.
 */
import * as vscode from 'vscode';
import { isHttpUrl } from './common/debugLaunch';
import type { ServerDefinition } from '../config/common/launchDefinition';

export const DEBUG_TYPE = 'mcp';

/** A launch configuration of type `mcp`, as written in launch.json. */
export interface McpDebugConfiguration extends vscode.DebugConfiguration {
  type: typeof DEBUG_TYPE;
  request: 'launch';
  /**
   * Name, label or id of a configured server: a stdio server runs its own command; an
   * `http`/`sse` server needs `command` here (its config has none) and is reached at its url.
   */
  server?: string;
  command?: string;
  /** The server started by `command` serves MCP over HTTP here (inline, or instead of a configured server's url). */
  url?: string;
  /** Seconds to wait for `url` to answer once the debugger is attached (default 60). */
  urlTimeout?: number;
  /** Seconds the runtime's debugger may take to attach to the started server (default 30). */
  attachTimeout?: number;
  args?: string[];
  env?: Record<string, string | null>;
  envFile?: string;
  cwd?: string;
  runtime?: 'auto' | 'node' | 'python';
  sourceMaps?: boolean;
  outFiles?: string[];
  watch?: string | string[];
}

/** What the provider needs to know about configured servers. */
export interface DebugServers {
  stdioServers(): ServerDefinition[];
  find(key: string): ServerDefinition | undefined;
}

export function serverConfiguration(def: ServerDefinition): McpDebugConfiguration {
  return { type: DEBUG_TYPE, request: 'launch', name: `Debug MCP server: ${def.label}`, server: def.label };
}

export const INLINE_EXAMPLE: McpDebugConfiguration = {
  type: DEBUG_TYPE,
  request: 'launch',
  name: 'Debug MCP server',
  command: 'node',
  args: ['${workspaceFolder}/dist/index.js'],
  cwd: '${workspaceFolder}',
  sourceMaps: true,
  outFiles: ['${workspaceFolder}/dist/**/*.js'],
};

/** Initial configurations (launch.json creation) and the dynamic list in the Run view. */
export class McpDebugConfigurationProvider implements vscode.DebugConfigurationProvider {
  constructor(private readonly servers: DebugServers) {}

  provideDebugConfigurations(folder: vscode.WorkspaceFolder | undefined): McpDebugConfiguration[] {
    const defs = this.servers.stdioServers().filter((d) => !folder || !d.source.folder || d.source.folder === folder.name);
    return defs.length ? defs.map(serverConfiguration) : [INLINE_EXAMPLE];
  }
}

export class McpDynamicConfigurationProvider implements vscode.DebugConfigurationProvider {
  constructor(private readonly servers: DebugServers) {}

  provideDebugConfigurations(): McpDebugConfiguration[] {
    return this.servers.stdioServers().map(serverConfiguration);
  }
}

/**
 * Fills defaults (F5 without launch.json debugs the first stdio server) and checks the
 * configuration once variables are substituted. Returning undefined aborts the launch.
 */
export class McpDebugConfigurationResolver implements vscode.DebugConfigurationProvider {
  constructor(
    private readonly servers: DebugServers,
    private readonly showError: (message: string) => void,
  ) {}

  resolveDebugConfiguration(_folder: vscode.WorkspaceFolder | undefined, config: vscode.DebugConfiguration): vscode.DebugConfiguration | undefined {
    if (!config.type && !config.request && !config.name) {
      const first = this.servers.stdioServers()[0];
      if (!first) {
        this.showError(
          vscode.l10n.t('There is no stdio MCP server to debug. Add one to .vscode/mcp.json or write an "mcp" launch configuration with a "command".'),
        );
        return undefined;
      }
      return serverConfiguration(first);
    }
    return { ...config, type: DEBUG_TYPE, request: config.request ?? 'launch', name: config.name ?? 'Debug MCP server' };
  }

  resolveDebugConfigurationWithSubstitutedVariables(
    _folder: vscode.WorkspaceFolder | undefined,
    config: vscode.DebugConfiguration,
  ): vscode.DebugConfiguration | undefined {
    const problem = validateConfiguration(config as McpDebugConfiguration, this.servers);
    if (problem) {
      this.showError(problem);
      return undefined;
    }
    return config;
  }
}

/** Why a configuration cannot be launched, or undefined. */
export function validateConfiguration(config: McpDebugConfiguration, servers: DebugServers): string | undefined {
  if (config.request !== 'launch') return vscode.l10n.t('The "mcp" debug type supports only "request": "launch".');
  if (config.server !== undefined) {
    const def = servers.find(config.server);
    if (!def) return vscode.l10n.t('There is no MCP server "{0}" in the configuration.', config.server);
    if (def.launch.type === 'stdio') {
      if (config.url !== undefined) return vscode.l10n.t('MCP server "{0}" is a stdio server; "url" applies only to servers that serve HTTP.', config.server);
    } else if (!config.command) {
      return vscode.l10n.t(
        'MCP server "{0}" is a remote ({1}) server: add "command" (and "args") that start it, and it is debugged at its url.',
        config.server,
        def.launch.type,
      );
    }
  } else if (!config.command) {
    return vscode.l10n.t('The "mcp" launch configuration "{0}" needs "server" (a configured server) or "command".', config.name);
  }
  if (config.url !== undefined && !isHttpUrl(config.url)) return vscode.l10n.t('"url" must be an http:// or https:// URL, not "{0}".', String(config.url));
  if (config.urlTimeout !== undefined && !(typeof config.urlTimeout === 'number' && config.urlTimeout > 0)) {
    return vscode.l10n.t('"urlTimeout" must be a number of seconds greater than 0.');
  }
  if (config.attachTimeout !== undefined && !(typeof config.attachTimeout === 'number' && config.attachTimeout > 0)) {
    return vscode.l10n.t('"attachTimeout" must be a number of seconds greater than 0.');
  }
  if (config.args !== undefined && (!Array.isArray(config.args) || config.args.some((a) => typeof a !== 'string'))) {
    return vscode.l10n.t('"args" must be an array of strings.');
  }
  if (config.runtime !== undefined && !['auto', 'node', 'python'].includes(config.runtime)) {
    return vscode.l10n.t('"runtime" must be "auto", "node" or "python".');
  }
  return undefined;
}
