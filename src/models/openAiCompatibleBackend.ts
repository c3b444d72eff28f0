/**
 * An OpenAI-compatible chat-completions endpoint (OpenAI, a local Ollama or LM Studio, vLLM…)
 * configured by URL and model name; the API key, if any, comes from SecretStorage. Streams
 * with server-sent events and also accepts a plain JSON answer.
 */
import { SseDataReader, applyStopSequences, stopReasonFromFinish } from '../common/modelSelection';
import type { ModelBackend, ModelContent, ModelInfo, ModelRequest, ModelResponse } from './modelBackend';

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
    const messages: unknown[] = [];
    if (request.systemPrompt) messages.push({ role: 'system', content: request.systemPrompt });
    for (const m of request.messages) messages.push({ role: m.role, content: m.content.length === 1 && m.content[0].type === 'text' ? m.content[0].text : m.content.map(toPart) });
    const body: Record<string, unknown> = { model: model.model, messages, stream: true };
    if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (request.stopSequences?.length) body.stop = request.stopSequences;
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
    if (type.includes('text/event-stream') && response.body) {
      const reader = new SseDataReader();
      const decoder = new TextDecoder();
      const handle = (data: string): boolean => {
        if (data.trim() === '[DONE]') return true;
        let event: { model?: string; choices?: { delta?: { content?: string | null }; finish_reason?: string | null }[]; error?: { message?: string } };
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
      const json = (await response.json()) as { model?: string; choices?: { message?: { content?: string | null }; finish_reason?: string | null }[] };
      const choice = json.choices?.[0];
      if (!choice) throw new Error('The model endpoint returned no choices.');
      text = choice.message?.content ?? '';
      finish = choice.finish_reason ?? undefined;
      reportedModel = json.model;
      if (text) onText(text);
    }
    // Endpoints that ignore `stop` still must not return text past a stop sequence.
    const cut = applyStopSequences(text, request.stopSequences);
    return { text: cut.text, stopReason: cut.stopped ? 'stopSequence' : stopReasonFromFinish(finish), model: reportedModel || model.model };
  }
}

function toPart(content: ModelContent): unknown {
  switch (content.type) {
    case 'text':
      return { type: 'text', text: content.text };
    case 'image':
      return { type: 'image_url', image_url: { url: `data:${content.mimeType};base64,${content.data}` } };
    case 'audio':
      return { type: 'input_audio', input_audio: { data: content.data, format: content.mimeType.includes('mp') ? 'mp3' : 'wav' } };
  }
}
