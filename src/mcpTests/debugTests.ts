/**
 * The Debug profile of the MCP tests: before a file's steps run, its server is started (or
 * restarted) under the `mcp` debugger, the same way the tree's Debug command does it, so the
 * steps go to the debuggee and breakpoints in the server's source bind. The session is left
 * running afterwards, like the tree's Debug: the next run reuses it, the user stops it.
 */
import * as vscode from 'vscode';
import type { McpServerConnection } from '../mcp/connection/serverConnection';
import { detectRuntime } from '../debug/common/debugLaunch';
import { DebugCommands } from '../debug/common/commandIds';

/** The debugger the `mcp` adapter attaches to a Python server with (mcpDebugAdapter.ts says the same). */
const PYTHON_DEBUGGER_EXTENSION = 'ms-python.debugpy';

/** Why a server cannot be debugged for the tests, or undefined. */
function cannotDebug(connection: McpServerConnection): string | undefined {
  const def = connection.definition;
  const launch = def.launch;
  if (launch.type !== 'stdio')
    return vscode.l10n.t(
      'The server "{0}" is not started by a command ({1}), so the Debug profile cannot debug it: use Run, or debug it from an "mcp" launch configuration with "command".',
      def.label,
      launch.type,
    );
  const debugType = def.entry?.dev?.debug?.type;
  const runtime = debugType === 'node' ? 'node' : debugType === 'debugpy' ? 'python' : detectRuntime(launch);
  if (runtime === 'python' && !vscode.extensions.getExtension(PYTHON_DEBUGGER_EXTENSION))
    return vscode.l10n.t(
      'Debugging the Python server "{0}" needs the Python Debugger extension ({1}): install it, or use Run.',
      def.label,
      PYTHON_DEBUGGER_EXTENSION,
    );
  if (!runtime)
    return vscode.l10n.t(
      'Cannot tell which runtime the server "{0}" uses, so the Debug profile cannot debug it: debug it from an "mcp" launch configuration with "runtime", or use Run.',
      def.label,
    );
  return undefined;
}

/** Starts the server under the `mcp` debugger unless it already runs there; why not, when it cannot. */
export async function debugForTests(connection: McpServerConnection, output: (line: string) => void): Promise<string | undefined> {
  const problem = cannotDebug(connection);
  if (problem) return problem;
  const def = connection.definition;
  if (connection.launchOverride && connection.state.kind === 'running') return undefined;
  output(vscode.l10n.t('Starting {0} under the debugger for the tests…', def.label));
  // The tree's Debug: startDebugging resolves once the launch answered, i.e. the debuggee runs with the debugger attached (or failed).
  const ok = await vscode.commands.executeCommand<boolean>(DebugCommands.debugServer, { serverId: def.id });
  if (!ok || !connection.launchOverride || connection.state.kind !== 'running')
    return vscode.l10n.t('The server "{0}" did not start under the debugger: see the Debug Console, fix it, then debug the tests again.', def.label);
  return undefined;
}
