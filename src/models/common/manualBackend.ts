/**
 * "Answer by hand": the user types the assistant message. Makes sampling usable for testing
 * servers with no model at all. The approval panel lets the user type the reply in its own
 * response editor; other callers (prompts, chat) get an input box, replaceable via `answer`.
 */
import type { ModelBackend, ModelInfo, ModelRequest, ModelResponse } from './modelBackend';

export const MANUAL_MODEL: ModelInfo = { id: 'manual', label: 'Answer by hand', model: 'human', backend: 'manual' };

/** Asks the user for the reply; undefined when they gave none (then generation fails as cancelled). */
export type ManualAnswer = (request: ModelRequest, signal: AbortSignal) => Promise<string | undefined>;

/** The user gave no answer (dismissed the input box) or the run was cancelled: a cancel, not a model failure. */
export class NoManualAnswerError extends Error {
  constructor() {
    super('No answer was typed.');
    this.name = 'NoManualAnswerError';
  }
}

export class ManualBackend implements ModelBackend {
  readonly kind = 'manual' as const;
  /** The user can type tool calls (as JSON) in the approval panel. */
  readonly supportsTools = true;

  constructor(public answer: ManualAnswer) {}

  async models(): Promise<ModelInfo[]> {
    return [MANUAL_MODEL];
  }

  async generate(_model: ModelInfo, request: ModelRequest, onText: (chunk: string) => void, signal: AbortSignal): Promise<ModelResponse> {
    const text = await this.answer(request, signal);
    if (text === undefined || signal.aborted) throw new NoManualAnswerError();
    onText(text);
    return { text, stopReason: 'endTurn', model: MANUAL_MODEL.model };
  }
}
