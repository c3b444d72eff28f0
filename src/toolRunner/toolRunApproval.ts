/**
 * The one gate every user-started tool call outside the Run Tool form goes through (Inspector
 * replay, Activity re-run): it asks exactly when Run Tool would (a tool not marked read-only,
 * unless "don't ask again" allows it), with Run Tool's dialog, and remembers the answer the same way.
 */
import type { Tool } from '@modelcontextprotocol/client';
import type { McpServerConnection } from '../mcp/connection/serverConnection';
import { approvalServerKey } from './common/toolApprovals';
import { needsConfirmation } from './common/toolCall';
import { confirmWithModal, ToolRunnerPanel, type ConfirmCall } from './toolRunnerPanel';

export async function approveToolRun(connection: McpServerConnection, toolName: string, args: Record<string, unknown>, confirm: ConfirmCall = confirmWithModal): Promise<boolean> {
  // A tool the server does not list (any more) asks too: nothing says it is read-only.
  const tools = await connection.list('tools').catch(() => [] as Tool[]);
  const tool: Tool = tools.find((t) => t.name === toolName) ?? { name: toolName, inputSchema: { type: 'object' } };
  const serverKey = approvalServerKey(connection.definition);
  if (!needsConfirmation(tool) || ToolRunnerPanel.approvals?.allows(serverKey, tool.name)) return true;
  const answer = await confirm(tool, connection.definition.label, args);
  if (!answer) return false;
  if (answer !== true) await ToolRunnerPanel.approvals?.remember(answer, serverKey, tool.name);
  return true;
}
