/**
 * What the `mcp` debug adapter starts: the command of a launch configuration, the definition
 * of a server written inline in it, a free port for the debugger, the first line of a script
 * (for shebangs).
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import type { Launch, ServerDefinition, StdioLaunch } from '../config/common/launchDefinition';
import { DEFAULT_TIMEOUTS } from '../config/common/serverConfig';
import { resolveCommand } from '../mcp/process/commandResolution';
import { normalizeWatch } from './common/devWatch';
import type { McpDebugConfiguration } from './debugConfigurationProvider';

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The command of a launch configuration (`command`, `args`, `env`, `envFile`, `cwd`). */
export function processLaunch(config: McpDebugConfiguration, session: vscode.DebugSession): StdioLaunch {
  const folder = session.workspaceFolder?.uri.fsPath;
  const cwd = config.cwd ? path.resolve(folder ?? process.cwd(), config.cwd) : folder;
  return {
    type: 'stdio',
    command: config.command!,
    args: config.args ?? [],
    env: config.env ?? {},
    cwd,
    ...(config.envFile ? { envFile: path.resolve(cwd ?? process.cwd(), config.envFile) } : {}),
  };
}

/** The definition of a server written inline in the launch configuration (not in mcp.json). */
export function inlineDefinition(config: McpDebugConfiguration, session: vscode.DebugSession): ServerDefinition {
  const dev = config.watch ? { dev: { watch: normalizeWatch(config.watch) } } : {};
  const launch: Launch = config.url ? { type: 'http', url: config.url, headers: {} } : processLaunch(config, session);
  return {
    id: `debug::${session.id}`,
    name: config.name,
    label: config.name,
    source: { scope: 'user', label: 'launch configuration', folder: session.workspaceFolder?.name },
    disabled: false,
    timeouts: { ...DEFAULT_TIMEOUTS },
    launch,
    secrets: [],
    entry: config.url ? { type: 'http', url: config.url, ...dev } : { type: 'stdio', command: config.command, args: config.args, ...dev },
  };
}

/** First line of the file a command names (for shebangs), looked up like the server's own start. */
export function readFirstLine(command: string, cwd: string | undefined): string | undefined {
  try {
    const found = resolveCommand(command, { pathValue: process.env.PATH ?? '', pathExt: process.env.PATHEXT, cwd });
    const file = found.resolved;
    if (!file) return undefined;
    const fd = fs.openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(256);
      const n = fs.readSync(fd, buffer, 0, buffer.length, 0);
      return buffer.subarray(0, n).toString('utf8').split(/\r?\n/)[0];
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
}
