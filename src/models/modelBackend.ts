/**
 * Models the extension can sample with, shared by sampling (server-initiated
 * `sampling/createMessage`) and prompts ("Run with model", the `@mcp` chat participant).
 *
 * Backends, tried in this order unless the user picks: `vscode.lm` chat models (Copilot or
 * any extension that provides models), an OpenAI-compatible chat-completions endpoint
 * configured by URL (key in SecretStorage), and "answer by hand" (the user types the reply).
 */

/** One message in provider-neutral form (MCP sampling content maps onto this). */
export interface ModelMessage {
  role: 'user' | 'assistant';
  content: ModelContent[];
}

export type ModelContent =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string };

export interface ModelRequest {
  messages: ModelMessage[];
  systemPrompt?: string;
  maxTokens?: number;
  temperature?: number;
  stopSequences?: string[];
}

export interface ModelInfo {
  /** Stable id used in settings and pickers, e.g. `vscode-lm:copilot/gpt-4o`, `openai:llama3`, `manual`. */
  id: string;
  /** Name for pickers. */
  label: string;
  /** Model name reported to the server as `model` in the sampling result. */
  model: string;
  backend: 'vscode-lm' | 'openai-compatible' | 'manual';
}

export interface ModelResponse {
  text: string;
  /** Truthful: `endTurn`, `maxTokens`, `stopSequence`, or what the backend reported. */
  stopReason: string;
  model: string;
}

export interface ModelBackend {
  readonly kind: ModelInfo['backend'];
  /** Models available now (may be empty). */
  models(): Promise<ModelInfo[]>;
  /** Generates a reply, streaming text chunks to `onText`; honours cancellation. */
  generate(model: ModelInfo, request: ModelRequest, onText: (chunk: string) => void, signal: AbortSignal): Promise<ModelResponse>;
}
