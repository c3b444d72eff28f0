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
  | { type: 'audio'; data: string; mimeType: string }
  /** The assistant asked to call a tool (MCP `tool_use`). */
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  /** The result of a tool call (MCP `tool_result`), flattened to text (structured content as JSON). */
  | { type: 'tool_result'; toolUseId: string; text: string; isError?: boolean };

/** A tool the model may call (MCP sampling `tools`). */
export interface ModelTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

/** A tool call in a model's reply. */
export interface ModelToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export interface ModelRequest {
  messages: ModelMessage[];
  systemPrompt?: string;
  maxTokens?: number;
  temperature?: number;
  stopSequences?: string[];
  /** Tools the model may call; only for backends with `supportsTools`. */
  tools?: ModelTool[];
  /** MCP `toolChoice.mode` (default `auto`). */
  toolChoice?: 'auto' | 'required' | 'none';
}

export interface ModelInfo {
  /** Stable id used in settings and pickers, e.g. `vscode-lm:copilot/gpt-4o`, `openai:llama3`, `manual`. */
  id: string;
  /** Name for pickers. */
  label: string;
  /** Model name reported to the server as `model` in the sampling result. */
  model: string;
  /** `mock`: a server's sampling mock profile (src/models/common/mockReplies.ts), offered for that server's requests only. */
  backend: 'vscode-lm' | 'openai-compatible' | 'manual' | 'mock';
}

export interface ModelResponse {
  text: string;
  /** Truthful: `endTurn`, `maxTokens`, `stopSequence`, or what the backend reported. */
  stopReason: string;
  model: string;
  /** Tools the model called (then `stopReason` is `toolUse`). */
  toolCalls?: ModelToolCall[];
}

export interface ModelBackend {
  readonly kind: ModelInfo['backend'];
  /** Whether `generate` honours `tools` (tool calls in the reply, tool_use/tool_result in messages). */
  readonly supportsTools: boolean;
  /** Models available now (may be empty). */
  models(): Promise<ModelInfo[]>;
  /** Generates a reply, streaming text chunks to `onText`; honours cancellation. */
  generate(model: ModelInfo, request: ModelRequest, onText: (chunk: string) => void, signal: AbortSignal): Promise<ModelResponse>;
}
