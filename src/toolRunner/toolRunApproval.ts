/**
 * The one gate every tool call started outside the Run Tool form goes through (Inspector replay,
 * Activity re-run, VS Code's agent through our endpoint): it asks exactly when Run Tool would (a
 * tool not marked read-only, unless "don't ask again" allows it), with Run Tool's dialog, and
 * remembers the answer the same way.
 */
import type { Tool } from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../config/common/launchDefinition';
import type { McpServerConnection } from '../mcp/connection/serverConnection';
import { approvalServerKey } from './common/toolApprovals';
import { needsConfirmation } from './common/toolCall';
import { confirmWithModal, ToolRunnerPanel, type ConfirmCall } from './toolRunnerPanel';

/** `tool` undefined: the server does not list it (any more), and nothing says it is read-only. `asker`: who asks, when not the user here. */
export async function approveTool(definition: ServerDefinition, toolName: string, tool: Tool | undefined, args: Record<string, unknown>,
  confirm: ConfirmCall = confirmWithModal, asker?: string): Promise<boolean> {
  const known: Tool = tool ?? { name: toolName, inputSchema: { type: 'object' } };
  const serverKey = approvalServerKey(definition);
  if (!needsConfirmation(known) || ToolRunnerPanel.approvals?.allows(serverKey, toolName)) return true;
  const answer = await confirm(known, definition.label, args, asker);
  if (!answer) return false;
  if (answer !== true) await ToolRunnerPanel.approvals?.remember(answer, serverKey, toolName);
  return true;
}

/** The same, for a tool known by name: its annotations come from the server's list. */
export async function approveToolRun(connection: McpServerConnection, toolName: string, args: Record<string, unknown>, confirm: ConfirmCall = confirmWithModal): Promise<boolean> {
  const tools = await connection.list('tools').catch(() => [] as Tool[]);
  return approveTool(connection.definition, toolName, tools.find((t) => t.name === toolName), args, confirm);
}
