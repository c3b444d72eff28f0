/**
 * `mcp-workbench check`: Check Server's findings on the command line. Starts the server, gathers
 * what a check reads exactly as MCP: Check Server does in VS Code (src/check/common/gatherInput.ts:
 * the lists, the read-only tools called, the skills read and verified, the recorded exchanges)
 * and runs the pure checks of src/check/common over it. Exit 1 when a finding is an error.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CheckInput } from '../check/common/checkTypes';
import { gatherCheckInput, StoppedWhileCheckedError } from '../check/common/gatherInput';
import { runChecks, summaryOf } from '../check/common/runChecks';
import type { ConnectionHost } from '../mcp/connection/connectionTypes';
import { McpServerConnection } from '../mcp/connection/serverConnection';
import { serverDefinitionFor } from '../mcpTests/common/testServer';
import type { ServerSpec } from '../mcpTests/common/testFormat';
import { ActivityLog } from '../traffic/common/activityLog';
import { projectConfig } from './projectFiles';

export const CHECK_USAGE = `  mcp-workbench check <server> [--json] | check --url <url> [--json] | check [--json] -- <command> [args…]
      Checks a server as MCP: Check Server does: a name from .vscode/mcp.json or .mcp.json, a URL or a command.
      --json              the findings as JSON on stdout`;

export interface CheckIo {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  stdout(text: string): void;
  stderr(text: string): void;
}

function parseCheckArgs(args: string[]): { spec: ServerSpec; json: boolean } | string {
  const dashes = args.indexOf('--');
  const own = dashes >= 0 ? args.slice(0, dashes) : args;
  const command = dashes >= 0 ? args.slice(dashes + 1) : [];
  let json = false;
  let url: string | undefined;
  const names: string[] = [];
  for (let i = 0; i < own.length; i++) {
    if (own[i] === '--json') json = true;
    else if (own[i] === '--url') url = own[++i];
    else if (own[i].startsWith('--url=')) url = own[i].slice('--url='.length);
    else if (own[i].startsWith('-')) return `Unknown option ${own[i]}.`;
    else names.push(own[i]);
  }
  const given = [names.length > 0, url !== undefined, command.length > 0].filter(Boolean).length;
  if (given !== 1 || names.length > 1) return 'check needs one server: a configured name, --url <url>, or -- <command> [args…].';
  if (url !== undefined) return url ? { spec: { url }, json } : '--url needs a URL.';
  if (command.length) return { spec: { command: command[0], args: command.slice(1) }, json };
  return { spec: names[0], json };
}

export async function checkCommand(args: string[], io: CheckIo): Promise<number> {
  const parsed = parseCheckArgs(args);
  if (typeof parsed === 'string') {
    io.stderr(`${parsed}\nUsage:\n${CHECK_USAGE}\n`);
    return 2;
  }
  const { folder, configs } = projectConfig(io.cwd);
  const env = { fileDir: io.cwd, workspaceFolder: folder, configs, env: io.env, inputs: {}, userHome: os.homedir() };
  const resolved = serverDefinitionFor(parsed.spec, env);
  if (!resolved.definition) {
    io.stderr(`${resolved.error}\n`);
    return 2;
  }
  const def = resolved.definition;
  const log = new ActivityLog(10_000);
  const recorded = { id: def.id, label: def.label, secrets: def.secrets };
  const workspace = folder ?? io.cwd;
  const stderr: string[] = [];
  const host: ConnectionHost = {
    clientInfo: { name: 'mcp-workbench-cli', version: '0' },
    roots: () => [{ uri: pathToFileURL(workspace).href, name: path.basename(workspace) }],
    baseEnv: async () => ({ ...io.env }),
    serverLogLevel: () => undefined,
    trace: (_server, record) => log.record(recorded, record, Date.now()),
  };
  const connection = new McpServerConnection(def, host, { log: () => undefined, stderr: (line) => stderr.push(line) });
  try {
    await connection.start();
    if (connection.state.kind !== 'running') {
      const state = connection.state;
      const why = state.kind === 'error' || state.kind === 'needsAuth' ? state.message : state.kind;
      io.stderr(`The server "${def.name}" did not start: ${why}\n${stderr.slice(-10).join('\n')}\n`);
      return 1;
    }
    let input: CheckInput | undefined;
    try {
      input = await gatherCheckInput(connection, { secrets: def.secrets, messages: () => log.entries().reverse() });
    } catch (error) {
      if (!(error instanceof StoppedWhileCheckedError)) throw error;
    }
    const state = connection.state;
    if (!input || state.kind !== 'running') {
      io.stderr(`The server "${def.name}" stopped while it was being checked.\n`);
      return 1;
    }
    const report = runChecks(input);
    if (parsed.json) io.stdout(`${JSON.stringify({ server: def.name, protocolVersion: state.protocolVersion, ...report }, null, 2)}\n`);
    else {
      const lines = [
        `Check of ${def.name} (${state.serverInfo.name} ${state.serverInfo.version}, protocol ${state.protocolVersion}): ${summaryOf(report.counts)}`,
      ];
      for (const f of report.findings) lines.push(`  ${f.severity.padEnd(7)} ${f.check}: ${f.message}`, `          ${f.spec.title}: ${f.spec.url}`);
      io.stdout(`${lines.join('\n')}\n`);
    }
    return report.counts.error ? 1 : 0;
  } finally {
    await connection.dispose();
  }
}
