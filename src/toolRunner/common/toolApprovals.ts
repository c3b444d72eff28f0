/**
 * "Don't ask again" for tools that are not marked read-only. Approvals live in VS Code's own
 * per-workspace storage (workspaceState), never in a file of the workspace, so a cloned
 * repository cannot arrive pre-approved. They are keyed by what the server runs (its config
 * entry's identity and launch, hashed): a workspace that changes the command or URL of an
 * approved server is asked again. Pure: the storage is given.
 */
import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../../config/common/launchDefinition';
import type { McpServerConnection } from '../../mcp/connection/serverConnection';

/** `tool` and `server` are kept for the workspace; `session` (all of the server's tools) until the window closes. */
export type ApprovalScope = 'tool' | 'server' | 'session';

/** The part of a vscode.Memento used here. */
export interface ApprovalStorage {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

/**
 * Asks the user whether to run a tool that is not marked read-only. This is the one step
 * that needs a human, so it is a replaceable function: tests set `panel.confirm`.
 */
export type ConfirmCall = (tool: Tool, serverLabel: string, args: Record<string, unknown>, asker?: string) => Promise<boolean | ApprovalScope>;

/**
 * The one gate every tool call from the user's side goes through (Run Tool, Inspector replay,
 * Activity re-run, VS Code's agent through our endpoint). Built once by the composition root
 * (src/extension.ts) and handed in; the glue that asks is src/toolRunner/toolRunApproval.ts.
 */
export interface ToolApprovalGate {
  /** The remembered "don't ask again" answers (chat asks with its own modal, then remembers here). */
  readonly approvals: ToolApprovals;
  /** How it asks when none is given: Run Tool's modal with the "don't ask again" choices. */
  readonly confirm: ConfirmCall;
  /** `tool` undefined: the server does not list it (any more), and nothing says it is read-only. `asker`: who asks, when not the user here. */
  approve(
    definition: ServerDefinition,
    toolName: string,
    tool: Tool | undefined,
    args: Record<string, unknown>,
    confirm?: ConfirmCall,
    asker?: string,
  ): Promise<boolean>;
  /** The same, for a tool known by name: its annotations come from the server's list. */
  approveRun(connection: McpServerConnection, toolName: string, args: Record<string, unknown>, confirm?: ConfirmCall): Promise<boolean>;
}

export const TOOL_APPROVALS_KEY = 'mcpWorkbench.toolApprovals';

interface Stored {
  servers: string[];
  tools: string[];
}

/** The identity of a server for approvals: its config id and what it launches (a hash: the launch may hold secrets). */
export function approvalServerKey(def: { id: string; launch: unknown }): string {
  return createHash('sha256')
    .update(JSON.stringify([def.id, def.launch]))
    .digest('hex')
    .slice(0, 32);
}

export class ToolApprovals {
  private readonly session = new Set<string>();

  constructor(private readonly storage: ApprovalStorage) {}

  /** Whether a call of `toolName` on the server may run without asking. */
  allows(serverKey: string, toolName: string): boolean {
    const stored = this.stored();
    return this.session.has(serverKey) || stored.servers.includes(serverKey) || stored.tools.includes(toolKey(serverKey, toolName));
  }

  async remember(scope: ApprovalScope, serverKey: string, toolName: string): Promise<void> {
    if (scope === 'session') {
      this.session.add(serverKey);
      return;
    }
    const stored = this.stored();
    const list = scope === 'server' ? stored.servers : stored.tools;
    const entry = scope === 'server' ? serverKey : toolKey(serverKey, toolName);
    if (!list.includes(entry)) list.push(entry);
    await this.storage.update(TOOL_APPROVALS_KEY, stored);
  }

  /** How many approvals there are (workspace and session), for the reset message. */
  count(): number {
    const stored = this.stored();
    return stored.servers.length + stored.tools.length + this.session.size;
  }

  /** Forgets every approval of the workspace and the session. */
  async reset(): Promise<void> {
    this.session.clear();
    await this.storage.update(TOOL_APPROVALS_KEY, undefined);
  }

  private stored(): Stored {
    const raw = this.storage.get<Partial<Stored>>(TOOL_APPROVALS_KEY);
    const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
    return { servers: strings(raw?.servers), tools: strings(raw?.tools) };
  }
}

function toolKey(serverKey: string, toolName: string): string {
  return `${serverKey}#${toolName}`;
}
