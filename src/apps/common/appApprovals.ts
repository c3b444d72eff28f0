/**
 * What the user answered to an app's tool calls, for one app session (one run of a tool with
 * an app, across its moves between Run Tool and its own tab). Pure: AppSession asks it whether
 * a call may run without asking, and records the answers.
 *
 * - "Allow for This App Session" allows the tool for the rest of the session.
 * - "Run Tool" allows that one call. A move to or from the editor tab builds a new frame, and an
 *   app that rebuilds its view there often repeats the calls it made before (fetched values).
 *   A call the user allowed once is therefore allowed once more in the next frame, but only when
 *   it is the very same call (tool and arguments) and the tool says repeating it changes nothing
 *   (`idempotentHint: true`, not destructive). Any other call asks again.
 * - How often a tool was asked in this session, so the question can offer the session-wide
 *   answer first to an app that keeps asking (one that polls a tool that is not read-only).
 */

export interface ToolHints {
  name: string;
  annotations?: { idempotentHint?: boolean; destructiveHint?: boolean };
}

/** The same JSON for the same arguments, whatever their key order. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const callKey = (tool: string, args: Record<string, unknown>) => `${tool}\u0000${stableJson(args)}`;

/** Whether the tool says that repeating a call with the same arguments changes nothing more. */
export const isRepeatable = (tool: ToolHints) => tool.annotations?.idempotentHint === true && tool.annotations?.destructiveHint !== true;

/** The answer to an app's tool call without asking, if there is one. */
export type StandingAnswer = 'allowedForSession' | 'carriedOverMove' | undefined;

export class AppApprovalMemory {
  private readonly sessionTools = new Set<string>();
  /** Calls allowed once in this session (repeatable tools only). */
  private readonly allowedOnce = new Set<string>();
  /** What the current frame may repeat without asking: the calls allowed once before it was built. */
  private carried = new Set<string>();
  private readonly asked = new Map<string, number>();

  /** A new frame of the same session (after a move): it may repeat the calls allowed once so far. */
  newFrame(): void {
    this.carried = new Set(this.allowedOnce);
  }

  /** Whether the call runs without asking, and why. A carried call is used up by this. */
  standing(tool: ToolHints, args: Record<string, unknown>): StandingAnswer {
    if (this.sessionTools.has(tool.name)) return 'allowedForSession';
    if (isRepeatable(tool) && this.carried.delete(callKey(tool.name, args))) return 'carriedOverMove';
    return undefined;
  }

  /** Counts a question about `tool`; returns how many times it was asked in this session, this one included. */
  asking(tool: ToolHints): number {
    const n = (this.asked.get(tool.name) ?? 0) + 1;
    this.asked.set(tool.name, n);
    return n;
  }

  answered(tool: ToolHints, args: Record<string, unknown>, answer: 'once' | 'session' | 'deny'): void {
    if (answer === 'session') this.sessionTools.add(tool.name);
    else if (answer === 'once' && isRepeatable(tool)) this.allowedOnce.add(callKey(tool.name, args));
  }
}
