/**
 * What the extension's one model service offers the features that sample with it (sampling in
 * src/approval, "Run with model" in src/prompts). The composition root (src/extension.ts) builds
 * the service (src/models/modelService.ts) and hands it in; a feature needs only this type, not
 * the models glue.
 */
import type { ModelInfo, ModelRequest, ModelResponse } from './modelBackend';
import type { ModelPreferencesLike } from './modelSelection';

export interface ModelService {
  /** The id of the user's `mcpWorkbench.models.preferred`, if set. */
  preferredModelId(): string | undefined;
  /** Whether the model's backend can take `tools` and return tool calls. */
  supportsTools(model: ModelInfo): boolean;
  /** Every model available now, backends in priority order (a failing backend lists none). */
  models(): Promise<ModelInfo[]>;
  /**
   * The model to use: the user's `mcpWorkbench.models.preferred` when available, else the
   * first matching a hint of the (MCP) model preferences, else the first available.
   */
  pick(preferences?: ModelPreferencesLike, models?: ModelInfo[]): Promise<ModelInfo | undefined>;
  /** Generates with the model's backend; `onText` receives streamed chunks. */
  generate(model: ModelInfo, request: ModelRequest, onText?: (chunk: string) => void, signal?: AbortSignal): Promise<ModelResponse>;
}

/** Why a model cannot answer a request that offers tools. */
export function toolsUnsupportedMessage(model: ModelInfo): string {
  const backend = model.backend === 'vscode-lm' ? 'VS Code language model (vscode.lm)' : model.backend;
  return `The model "${model.label}" cannot use tools: its backend (${backend}) does not support tool calls in MCP Workbench. Choose an OpenAI-compatible endpoint (setting mcpWorkbench.models.openaiCompatible.url) or answer by hand.`;
}
