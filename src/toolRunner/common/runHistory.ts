/**
 * The Run Tool history of one tool and its named argument presets, as kept in the workspace
 * state: the shapes, the caps (entries, bytes) and the storage keys. Pure; the store in
 * `../toolRunStore.ts` reads and writes them through a vscode.Memento.
 *
 * Arguments are stored without the fields the schema marks secret (`withoutSecrets`), like
 * the remembered arguments: the workspace state is a plain file on disk.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { secretValues } from '../../jsonSchema/common/formValues';
import type { ObjectField } from '../../jsonSchema/common/schemaFields';
import { redactValue } from '../../shared/common/redact';
import type { ArgumentPreset, HistoryEntry, HistorySummary, RunStatus } from './runRecords';
import type { RunOutcome } from './toolRunnerProtocol';

export type { ArgumentPreset, HistoryEntry, HistorySummary, RunStatus } from './runRecords';

export interface HistoryLimits {
  /** Newest runs kept per tool. */
  maxEntries: number;
  /** A result larger than this (bytes of JSON) is not kept; the entry says so. */
  maxResultBytes: number;
}

export const DEFAULT_HISTORY_LIMITS: HistoryLimits = { maxEntries: 50, maxResultBytes: 256 * 1024 };

/** workspaceState key of a tool's history: by server name (stable across restarts) and tool name. */
export function historyKey(serverName: string, toolName: string): string {
  return `mcpWorkbench.toolRunner.history/${JSON.stringify([serverName, toolName])}`;
}

/** workspaceState key of a tool's argument presets. */
export function presetsKey(serverName: string, toolName: string): string {
  return `mcpWorkbench.toolRunner.presets/${JSON.stringify([serverName, toolName])}`;
}

function formatKb(bytes: number): string {
  return `${Math.round(bytes / 1024)} KB`;
}

/**
 * The history entry of a finished run. `args` must already be without secrets. A result over
 * `maxResultBytes` is left out with a note (the entry still shows when, how long, with what).
 */
export function historyEntry(
  id: string,
  time: number,
  args: Record<string, unknown>,
  outcome: RunOutcome,
  result: CallToolResult | undefined,
  limits: HistoryLimits = DEFAULT_HISTORY_LIMITS,
): HistoryEntry {
  const base = { id, time, durationMs: outcome.durationMs, args };
  switch (outcome.kind) {
    case 'result': {
      const status: RunStatus = outcome.isError ? 'toolError' : 'ok';
      const bytes = result === undefined ? 0 : new TextEncoder().encode(JSON.stringify(result)).length;
      if (result === undefined) return { ...base, status };
      if (bytes > limits.maxResultBytes) {
        return { ...base, status, omitted: `The result (${formatKb(bytes)}) is over the ${formatKb(limits.maxResultBytes)} kept per run, so it was not kept.` };
      }
      return { ...base, status, result };
    }
    case 'protocolError':
      return {
        ...base,
        status: 'protocolError',
        error: { code: outcome.code, message: outcome.message, ...(outcome.data !== undefined ? { data: outcome.data } : {}) },
      };
    case 'failure':
      return { ...base, status: 'failure', error: { message: outcome.message } };
    case 'cancelled':
      return { ...base, status: 'cancelled' };
  }
}

/** The history with `entry` added first (newest first), cut to `maxEntries`. */
/** One call of the Run Tool panel, as its history entry needs it. */
export interface CallForHistory {
  requestId: string;
  startedAt: number;
  /** The form's root: which arguments are secret. */
  root: ObjectField;
  args: Record<string, unknown>;
  /** The arguments without their secrets (what is kept). */
  storedArgs: Record<string, unknown>;
  serverSecrets: readonly string[];
}

/**
 * The history entry of a call. A result may echo a secret argument (or the server's own
 * secrets): they are redacted before it is kept, and the secret arguments' names are noted
 * (their values never are), so a re-run knows to ask for them.
 */
export function historyEntryOfCall(call: CallForHistory, outcome: RunOutcome, result: CallToolResult | undefined): HistoryEntry {
  const { root, args } = call;
  const secrets = [...secretValues(root, args), ...call.serverSecrets];
  const entry = historyEntry(call.requestId, call.startedAt, call.storedArgs, redactValue(outcome, secrets), result && redactValue(result, secrets));
  if (secretValues(root, args).length) entry.secretsOmitted = true;
  const secretArgs = root.fields.flatMap((f) => (f.secret && f.name !== undefined && args[f.name] !== undefined ? [f.name] : []));
  if (secretArgs.length) entry.secretArgs = secretArgs;
  return entry;
}

export function addToHistory(history: readonly HistoryEntry[], entry: HistoryEntry, limits: HistoryLimits = DEFAULT_HISTORY_LIMITS): HistoryEntry[] {
  return [entry, ...history.filter((e) => e.id !== entry.id)].slice(0, Math.max(1, limits.maxEntries));
}

/** What a stored history looks like once checked: malformed entries (an older format, a hand edit) are dropped. */
export function parseHistory(stored: unknown): HistoryEntry[] {
  if (!Array.isArray(stored)) return [];
  return stored.filter(
    (e): e is HistoryEntry =>
      typeof e === 'object' &&
      e !== null &&
      typeof e.id === 'string' &&
      typeof e.time === 'number' &&
      typeof e.durationMs === 'number' &&
      typeof e.args === 'object' &&
      e.args !== null &&
      !Array.isArray(e.args) &&
      typeof e.status === 'string',
  );
}

export function summarize(entry: HistoryEntry): HistorySummary {
  const { result: _result, ...summary } = entry;
  return summary;
}

/**
 * What a diff of two runs compares: the result, or for a run without one, what it ended with
 * (so "worked, then failed" shows up as a change too).
 */
export function diffSubject(entry: HistoryEntry): unknown {
  if (entry.result !== undefined) return entry.result;
  if (entry.error) return { error: entry.error };
  if (entry.omitted) return { omitted: entry.omitted };
  return { status: entry.status };
}

// ---------------------------------------------------------------------------------------
// presets

export const MAX_PRESET_NAME = 80;

/** The name as stored: trimmed, one line; undefined when nothing is left. */
export function presetName(name: string): string | undefined {
  const clean = name.replace(/\s+/g, ' ').trim().slice(0, MAX_PRESET_NAME);
  return clean || undefined;
}

/** The presets with `preset` saved: a preset of the same name is replaced in place, a new one goes last. */
export function savePreset(presets: readonly ArgumentPreset[], preset: ArgumentPreset): ArgumentPreset[] {
  const index = presets.findIndex((p) => p.name === preset.name);
  if (index < 0) return [...presets, preset];
  return presets.map((p, i) => (i === index ? preset : p));
}

export function deletePreset(presets: readonly ArgumentPreset[], name: string): ArgumentPreset[] {
  return presets.filter((p) => p.name !== name);
}

export function parsePresets(stored: unknown): ArgumentPreset[] {
  if (!Array.isArray(stored)) return [];
  return stored.filter(
    (p): p is ArgumentPreset =>
      typeof p === 'object' && p !== null && typeof p.name === 'string' && typeof p.args === 'object' && p.args !== null && !Array.isArray(p.args),
  );
}
