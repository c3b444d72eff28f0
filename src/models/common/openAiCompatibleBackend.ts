/**
 * An OpenAI-compatible chat-completions endpoint (OpenAI, a local Ollama or LM Studio, vLLM…)
 * configured by URL and model name; the API key, if any, comes from SecretStorage. Streams
 * with server-sent events and also accepts a plain JSON answer.
 */
import { SseDataReader, applyStopSequences, stopReasonFromFinish } from './modelSelection';
import type { ModelBackend, ModelContent, ModelInfo, ModelRequest, ModelResponse, ModelToolCall } from './modelBackend';

export interface OpenAiCompatibleSettings {
  /** The endpoint: a base URL (`http://localhost:11434/v1`) or the full `/chat/completions` URL. */
  url: string;
  model: string;
}

export const OPENAI_KEY_SECRET = 'mcpWorkbench.models.openaiCompatible.apiKey';

export function chatCompletionsUrl(url: string): string {
  const trimmed = url.trim().replace(/\/+$/, '');
  return /\/chat\/completions$/.test(trimmed) ? trimmed : `${trimmed}/chat/completions`;
}

export class OpenAiCompatibleBackend implements ModelBackend {
  readonly kind = 'openai-compatible' as const;
  /** Tools go out as `tools` (function calling), calls come back as `tool_calls`. */
  readonly supportsTools = true;

  constructor(
    private readonly settings: () => OpenAiCompatibleSettings | undefined,
    private readonly apiKey: () => Promise<string | undefined>,
  ) {}

  async models(): Promise<ModelInfo[]> {
    const s = this.settings();
    if (!s?.url || !s.model) return [];
    let host = s.url;
    try {
      host = new URL(s.url).host;
    } catch {
      // shown as configured
    }
    return [{ id: `openai:${s.model}`, label: `${s.model} (${host})`, model: s.model, backend: this.kind }];
  }

  async generate(model: ModelInfo, request: ModelRequest, onText: (chunk: string) => void, signal: AbortSignal): Promise<ModelResponse> {
    const s = this.settings();
    if (!s?.url) throw new Error('No OpenAI-compatible endpoint is configured (setting mcpWorkbench.models.openaiCompatible.url).');
    const key = await this.apiKey();
    const body: Record<string, unknown> = { model: model.model, messages: toOpenAiMessages(request), stream: true };
    if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (request.stopSequences?.length) body.stop = request.stopSequences;
    if (request.tools?.length) {
      body.tools = toOpenAiTools(request);
      if (request.toolChoice) body.tool_choice = request.toolChoice;
    }
    const response = await fetch(chatCompletionsUrl(s.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream, application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify(body),
      signal,
    });
    if (!response.ok) {
      const detail = (await response.text().catch(() => '')).slice(0, 500);
      throw new Error(`The model endpoint answered HTTP ${response.status} ${response.statusText}${detail ? `: ${detail}` : ''}`);
    }
    const type = response.headers.get('content-type') ?? '';
    let text = '';
    let finish: string | undefined;
    let reportedModel: string | undefined;
    const calls = new ToolCallAccumulator();
    if (type.includes('text/event-stream') && response.body) {
      const reader = new SseDataReader();
      const decoder = new TextDecoder();
      const handle = (data: string): boolean => {
        if (data.trim() === '[DONE]') return true;
        let event: {
          model?: string;
          choices?: { delta?: { content?: string | null; tool_calls?: OpenAiToolCallDelta[] }; finish_reason?: string | null }[];
          error?: { message?: string };
        };
        try {
          event = JSON.parse(data);
        } catch {
          return false;
        }
        if (event.error) throw new Error(`The model endpoint reported an error: ${event.error.message ?? JSON.stringify(event.error)}`);
        if (event.model) reportedModel = event.model;
        const choice = event.choices?.[0];
        const chunk = choice?.delta?.content;
        if (chunk) {
          text += chunk;
          onText(chunk);
        }
        for (const delta of choice?.delta?.tool_calls ?? []) calls.push(delta);
        if (choice?.finish_reason) finish = choice.finish_reason;
        return false;
      };
      let done = false;
      for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
        for (const data of reader.push(decoder.decode(bytes, { stream: true }))) {
          // One read can hold several events: none is delivered after an abort.
          signal.throwIfAborted();
          done = handle(data) || done;
        }
        if (done) break;
      }
      if (!done) for (const data of reader.flush()) handle(data);
    } else {
      const json = (await response.json()) as {
        model?: string;
        choices?: { message?: { content?: string | null; tool_calls?: OpenAiToolCallDelta[] }; finish_reason?: string | null }[];
      };
      const choice = json.choices?.[0];
      if (!choice) throw new Error('The model endpoint returned no choices.');
      text = choice.message?.content ?? '';
      finish = choice.finish_reason ?? undefined;
      reportedModel = json.model;
      (choice.message?.tool_calls ?? []).forEach((c, i) => calls.push({ index: i, ...c }));
      if (text) onText(text);
    }
    // Endpoints that ignore `stop` still must not return text past a stop sequence.
    const cut = applyStopSequences(text, request.stopSequences);
    const toolCalls = request.tools?.length ? calls.result() : [];
    if (toolCalls.length) return { text: cut.text, stopReason: 'toolUse', model: reportedModel || model.model, toolCalls };
    return { text: cut.text, stopReason: cut.stopped ? 'stopSequence' : stopReasonFromFinish(finish), model: reportedModel || model.model };
  }
}

/** One entry of `delta.tool_calls` (streamed: `arguments` arrives in pieces) or of `message.tool_calls`. */
export interface OpenAiToolCallDelta {
  index?: number;
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
}

/** Collects streamed `tool_calls` deltas (by index) into complete calls. */
export class ToolCallAccumulator {
  private readonly calls = new Map<number, { id: string; name: string; args: string }>();

  push(delta: OpenAiToolCallDelta): void {
    const index = delta.index ?? this.calls.size;
    const call = this.calls.get(index) ?? { id: '', name: '', args: '' };
    if (delta.id) call.id = delta.id;
    if (delta.function?.name) call.name += delta.function.name;
    if (delta.function?.arguments) call.args += delta.function.arguments;
    this.calls.set(index, call);
  }

  /** The calls in index order; arguments that are not a JSON object throw (the reply cannot be used). */
  result(): ModelToolCall[] {
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, c]) => {
        let input: unknown = {};
        if (c.args.trim()) {
          try {
            input = JSON.parse(c.args);
          } catch {
            throw new Error(`The model called tool "${c.name}" with arguments that are not JSON: ${c.args.slice(0, 200)}`);
          }
        }
        if (typeof input !== 'object' || input === null || Array.isArray(input))
          throw new Error(`The model called tool "${c.name}" with arguments that are not a JSON object.`);
        return { id: c.id || `call_${index}`, name: c.name, input: input as Record<string, unknown> };
      });
  }
}

/** The request's `tools` in OpenAI's function-calling format. */
export function toOpenAiTools(request: ModelRequest): unknown[] {
  return (request.tools ?? []).map((t) => ({
    type: 'function',
    function: { name: t.name, ...(t.description ? { description: t.description } : {}), parameters: t.inputSchema },
  }));
}

/**
 * The messages in chat-completions form: the system prompt first; an assistant message's
 * `tool_use` blocks become its `tool_calls`; a user message's `tool_result` blocks become
 * `role: tool` messages (in order, before the rest of that user message, if any).
 */
export function toOpenAiMessages(request: ModelRequest): unknown[] {
  const messages: unknown[] = [];
  if (request.systemPrompt) messages.push({ role: 'system', content: request.systemPrompt });
  for (const m of request.messages) {
    const plain = m.content.filter((c) => c.type !== 'tool_use' && c.type !== 'tool_result');
    if (m.role === 'assistant') {
      const uses = m.content.filter((c): c is Extract<ModelContent, { type: 'tool_use' }> => c.type === 'tool_use');
      const text = plain.map((c) => (c.type === 'text' ? c.text : '')).join('');
      if (!uses.length) {
        messages.push({ role: 'assistant', content: contentOf(plain) });
        continue;
      }
      messages.push({
        role: 'assistant',
        content: text || null,
        tool_calls: uses.map((u) => ({ id: u.id, type: 'function', function: { name: u.name, arguments: JSON.stringify(u.input) } })),
      });
      continue;
    }
    for (const c of m.content) {
      if (c.type === 'tool_result') messages.push({ role: 'tool', tool_call_id: c.toolUseId, content: c.isError ? `Error: ${c.text}` : c.text });
    }
    if (plain.length || !m.content.length) messages.push({ role: 'user', content: contentOf(plain) });
  }
  return messages;
}

function contentOf(content: ModelContent[]): unknown {
  return content.length === 1 && content[0].type === 'text' ? content[0].text : content.map(toPart);
}

function toPart(content: ModelContent): unknown {
  switch (content.type) {
    case 'text':
      return { type: 'text', text: content.text };
    case 'image':
      return { type: 'image_url', image_url: { url: `data:${content.mimeType};base64,${content.data}` } };
    case 'audio':
      return { type: 'input_audio', input_audio: { data: content.data, format: content.mimeType.includes('mp') ? 'mp3' : 'wav' } };
    case 'tool_use':
    case 'tool_result':
      // Handled by toOpenAiMessages: never reaches a content part.
      return { type: 'text', text: JSON.stringify(content) };
  }
}
