/**
 * Pure helpers for model backends: choosing a model from MCP `modelPreferences`, applying
 * stop sequences, mapping provider finish reasons to MCP stop reasons, and reading an
 * OpenAI-style server-sent-event stream. No `vscode` import: unit-tested on plain Node.
 */

/** The part of MCP `ModelPreferences` the choice reads. */
export interface ModelPreferencesLike {
  hints?: { name?: string }[];
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
}

export interface SelectableModel {
  id: string;
  label: string;
  model: string;
}

/**
 * The model to pre-select: the user's preferred one when available; else the first model
 * whose id, label or name contains a hint (hints are tried in order, as the spec says);
 * else the first model (backends are listed in priority order).
 */
export function chooseModel<T extends SelectableModel>(models: readonly T[], preferences?: ModelPreferencesLike, preferredId?: string): T | undefined {
  if (preferredId) {
    const preferred = models.find((m) => m.id === preferredId);
    if (preferred) return preferred;
  }
  for (const hint of preferences?.hints ?? []) {
    const name = hint.name?.trim().toLowerCase();
    if (!name) continue;
    const match = models.find((m) => [m.id, m.label, m.model].some((s) => s.toLowerCase().includes(name)));
    if (match) return match;
  }
  return models[0];
}

/**
 * Cuts text at the first stop sequence. Backends that cannot pass stop sequences to the
 * model apply them here, so `stopReason: "stopSequence"` is only reported when one matched.
 */
export function applyStopSequences(text: string, stopSequences: readonly string[] | undefined): { text: string; stopped: boolean } {
  let cut = -1;
  for (const stop of stopSequences ?? []) {
    if (!stop) continue;
    const at = text.indexOf(stop);
    if (at >= 0 && (cut < 0 || at < cut)) cut = at;
  }
  return cut < 0 ? { text, stopped: false } : { text: text.slice(0, cut), stopped: true };
}

/** OpenAI `finish_reason` → MCP `stopReason` (unknown reasons are passed through as they are). */
export function stopReasonFromFinish(finish: string | null | undefined): string {
  switch (finish) {
    case 'stop':
    case undefined:
    case null:
    case '':
      return 'endTurn';
    case 'length':
      return 'maxTokens';
    case 'tool_calls':
    case 'function_call':
      return 'toolUse';
    default:
      return finish;
  }
}

/**
 * Splits an SSE byte stream (already decoded to text) into `data:` payloads. Feed chunks in
 * order; returns the complete events seen so far and keeps the unfinished rest.
 */
export class SseDataReader {
  private buffer = '';

  push(chunk: string): string[] {
    this.buffer += chunk.replace(/\r\n?/g, '\n');
    const events: string[] = [];
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const data = block
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).replace(/^ /, ''));
      if (data.length) events.push(data.join('\n'));
    }
    return events;
  }

  /** What is left when the stream ended without a blank line. */
  flush(): string[] {
    const rest = this.buffer;
    this.buffer = '';
    return rest.trim() ? this.push(`${rest}\n\n`) : [];
  }
}
