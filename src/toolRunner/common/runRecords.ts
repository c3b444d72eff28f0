/**
 * What the Run Tool history and presets keep of a tool's runs: the records themselves, shared
 * by the history logic (`runHistory.ts`), the panel's messages and the webview.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';

/** How a run ended, in one word (the history list's status column). */
export type RunStatus = 'ok' | 'toolError' | 'protocolError' | 'failure' | 'cancelled';

/** One run of a tool as the history keeps it. */
export interface HistoryEntry {
  /** Unique within the tool's history. */
  id: string;
  /** When the run started (epoch ms). */
  time: number;
  durationMs: number;
  /** The arguments sent, secrets removed. */
  args: Record<string, unknown>;
  status: RunStatus;
  /** The tools/call result; absent for errors, and for results too large to keep (see `omitted`). */
  result?: CallToolResult;
  /** What went wrong, for protocol errors and failures. */
  error?: { code?: number; message: string; data?: string };
  /** Why the result is not kept ("312 KB, over the 256 KB kept per run"). */
  omitted?: string;
  /** Secret arguments were sent and not kept: `args` alone would not repeat this call. */
  secretsOmitted?: true;
  /** The top-level arguments that were secret (names only): Save as Test writes them as `${input:<name>}`. */
  secretArgs?: string[];
}

/** The history as the webview lists it: everything but the results. */
export type HistorySummary = Omit<HistoryEntry, 'result'>;

/** A named set of arguments the user saved for a tool (secrets removed). */
export interface ArgumentPreset {
  name: string;
  args: Record<string, unknown>;
}
