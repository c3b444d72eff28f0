/**
 * The one gate every tool call from the user's side goes through (the Run Tool form, Inspector
 * replay, Activity re-run, VS Code's agent through our endpoint): it asks for a tool not marked
 * read-only, unless a "don't ask again" answer allows it, with Run Tool's dialog, and remembers
 * the answer in the workspace's approvals.
 */
import type { Tool } from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../config/common/launchDefinition';
import type { McpServerConnection } from '../mcp/connection/serverConnection';
import { approvalServerKey, type ConfirmCall, type ToolApprovalGate, type ToolApprovals } from './common/toolApprovals';
import { needsConfirmation } from './common/toolCall';
import { confirmWithModal } from './confirmCall';

/**
 * Built once by the composition root (extension.ts) over the workspace's remembered answers and
 * handed to every feature that runs a tool for the user: one gate, so an answer given in one
 * place counts in all of them.
 */
export class ModalApprovalGate implements ToolApprovalGate {
  readonly confirm: ConfirmCall = confirmWithModal;

  constructor(readonly approvals: ToolApprovals) {}

  /** `tool` undefined: the server does not list it (any more), and nothing says it is read-only. `asker`: who asks, when not the user here. */
  async approve(
    definition: ServerDefinition,
    toolName: string,
    tool: Tool | undefined,
    args: Record<string, unknown>,
    confirm: ConfirmCall = this.confirm,
    asker?: string,
  ): Promise<boolean> {
    const known: Tool = tool ?? { name: toolName, inputSchema: { type: 'object' } };
    const serverKey = approvalServerKey(definition);
    if (!needsConfirmation(known) || this.approvals.allows(serverKey, toolName)) return true;
    const answer = await confirm(known, definition.label, args, asker);
    if (!answer) return false;
    if (answer !== true) await this.approvals.remember(answer, serverKey, toolName);
    return true;
  }

  /** The same, for a tool known by name: its annotations come from the server's list. */
  async approveRun(connection: McpServerConnection, toolName: string, args: Record<string, unknown>, confirm: ConfirmCall = this.confirm): Promise<boolean> {
    const tools = await connection.list('tools').catch(() => [] as Tool[]);
    return this.approve(
      connection.definition,
      toolName,
      tools.find((t) => t.name === toolName),
      args,
      confirm,
    );
  }
}
