/**
 * What a check reads from a running server, gathered the same way by MCP: Check Server and by
 * `mcp-workbench check`: the four lists fresh, each read-only tool that needs no arguments
 * called (its result is then checked from the recording), each skill's SKILL.md read and
 * verified, and the recorded exchanges. Pure: the callers bring progress and cancellation.
 */
import type { McpServerConnection } from '../../mcp/connection/serverConnection';
import type { ActivityEntry } from '../../traffic/common/activityEntry';
import { callableForCheck, DEFAULT_BUDGETS, type CheckBudgets, type CheckInput, type ListedTool } from './checkTypes';
import { collectSkills } from './skillChecks';

/** The parts of a connection a check uses. */
export type CheckedServer = Pick<McpServerConnection, 'advertises' | 'refresh' | 'callTool' | 'skills' | 'state'>;

/** Where the gathering is, for a progress line (each caller words it in its own UI). */
export type GatherProgress = { step: 'list' } | { step: 'call'; tool: string; index: number; total: number } | { step: 'skills' };

export interface GatherOptions {
  /** The server's recorded exchanges, oldest first, read after the calls (so they are included). */
  messages: () => readonly ActivityEntry[];
  budgets?: CheckBudgets;
  /** The server's known secret values (`ServerDefinition.secrets`): text that carries one is a finding. */
  secrets?: readonly string[];
  progress?: (at: GatherProgress) => void;
  /** Aborting stops between steps and aborts the tool call under way; the gathering then resolves undefined. */
  signal?: AbortSignal;
  /** Extra input for the checks that only the extension has (the dev loop's last capability diff). */
  extra?: Pick<CheckInput, 'devRestart'>;
}

/** The server stopped (or failed) while it was being checked: nothing left to check. */
export class StoppedWhileCheckedError extends Error {
  constructor() {
    super('The server stopped while it was being checked.');
    this.name = 'StoppedWhileCheckedError';
  }
}

const LISTS = ['tools', 'prompts', 'resources', 'resourceTemplates'] as const;

/**
 * The input of the checks, or undefined when `signal` aborted. Throws StoppedWhileCheckedError
 * when the server is not running at the end.
 */
export async function gatherCheckInput(c: CheckedServer, options: GatherOptions): Promise<CheckInput | undefined> {
  const { signal } = options;
  options.progress?.({ step: 'list' });
  // A list the server fails to answer (many answer `resources/templates/list` with "Method
  // not found") is checked as empty: the other checks still run, the error is in the recording.
  const [tools, prompts, resources, resourceTemplates] = await Promise.all(LISTS.map((kind) => (c.advertises(kind) ? c.refresh(kind).catch(() => []) : [])));
  const toCall = (tools as ListedTool[]).filter(callableForCheck);
  for (const [i, tool] of toCall.entries()) {
    if (signal?.aborted) return undefined;
    options.progress?.({ step: 'call', tool: String(tool.name), index: i + 1, total: toCall.length });
    // Its result is checked from the recording, like every other; a failure is a finding of its own kind, not the check's.
    await c.callTool(String(tool.name), {}, { signal }).catch(() => undefined);
  }
  if (signal?.aborted) return undefined;
  if (c.skills.offered) options.progress?.({ step: 'skills' });
  // A server whose skills cannot be listed is checked without them; the error is in the recording.
  const skills = await collectSkills(c.skills, () => signal?.aborted === true).catch(() => undefined);
  if (signal?.aborted) return undefined;
  const state = c.state;
  if (state.kind !== 'running') throw new StoppedWhileCheckedError();
  return {
    protocolVersion: state.protocolVersion,
    era: state.era,
    transport: state.transport,
    capabilities: state.capabilities,
    tools: tools as ListedTool[],
    prompts,
    resources,
    resourceTemplates,
    messages: options.messages(),
    budgets: options.budgets ?? DEFAULT_BUDGETS,
    secrets: options.secrets ?? [],
    ...(skills ? { skills } : {}),
    ...options.extra,
  };
}
