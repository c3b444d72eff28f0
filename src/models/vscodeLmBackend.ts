/**
 * Chat models of `vscode.lm` (Copilot or any extension that provides models). Stable API
 * only: there is no system role and no image input, so the system prompt goes first as a
 * user message and images/audio are described in text. Stop sequences are applied to the
 * stream here (the API has no option for them).
 */
import * as vscode from 'vscode';
import { applyStopSequences } from './common/modelSelection';
import type { ModelBackend, ModelContent, ModelInfo, ModelRequest, ModelResponse } from './common/modelBackend';

const PREFIX = 'vscode-lm:';

export class VscodeLmBackend implements ModelBackend {
  readonly kind = 'vscode-lm' as const;
  /** Not yet: tool calls via LanguageModelChatTool / LanguageModelToolCallPart are not wired up. */
  readonly supportsTools = false;

  async models(): Promise<ModelInfo[]> {
    let chatModels: vscode.LanguageModelChat[];
    try {
      chatModels = await vscode.lm.selectChatModels({});
    } catch {
      return [];
    }
    return chatModels.map((m) => ({ id: `${PREFIX}${m.vendor}/${m.id}`, label: `${m.name} (${m.vendor})`, model: m.id, backend: this.kind }));
  }

  async generate(model: ModelInfo, request: ModelRequest, onText: (chunk: string) => void, signal: AbortSignal): Promise<ModelResponse> {
    const [vendor, ...rest] = model.id.slice(PREFIX.length).split('/');
    const id = rest.join('/');
    const chat = (await vscode.lm.selectChatModels({ vendor, id }))[0];
    if (!chat) throw new Error(vscode.l10n.t('The language model "{0}" is no longer available.', model.label));
    const messages: vscode.LanguageModelChatMessage[] = [];
    if (request.systemPrompt) messages.push(vscode.LanguageModelChatMessage.User(request.systemPrompt, 'system'));
    for (const m of request.messages) {
      const text = m.content.map(contentAsText).join('\n');
      messages.push(m.role === 'assistant' ? vscode.LanguageModelChatMessage.Assistant(text) : vscode.LanguageModelChatMessage.User(text));
    }
    const source = new vscode.CancellationTokenSource();
    const onAbort = () => source.cancel();
    signal.addEventListener('abort', onAbort);
    try {
      const modelOptions: Record<string, unknown> = {};
      if (request.maxTokens !== undefined) modelOptions.max_tokens = request.maxTokens;
      if (request.temperature !== undefined) modelOptions.temperature = request.temperature;
      const response = await chat.sendRequest(
        messages,
        { justification: vscode.l10n.t('An MCP server asked to sample a reply (sampling/createMessage).'), modelOptions },
        source.token,
      );
      // VS Code (1.100) forwards the token's cancellation to the provider only while the
      // request is being started, not once it streams: the provider goes on. So stop reading
      // at once on abort instead of waiting for the stream's next part or end.
      const aborted = new Promise<never>((_, reject) => {
        const fail = () => reject(new Error(vscode.l10n.t('Cancelled')));
        if (signal.aborted) fail();
        else signal.addEventListener('abort', fail, { once: true });
      });
      aborted.catch(() => undefined);
      const parts = response.text[Symbol.asyncIterator]();
      let text = '';
      let emitted = 0;
      for (;;) {
        let next: IteratorResult<string>;
        try {
          next = await Promise.race([parts.next(), aborted]);
        } catch (error) {
          if (signal.aborted) void parts.return?.()?.catch(() => undefined);
          throw error;
        }
        if (next.done) break;
        const chunk = next.value;
        text += chunk;
        const cut = applyStopSequences(text, request.stopSequences);
        // Hold back what could still turn into a stop sequence only when one matched.
        if (cut.stopped) {
          if (cut.text.length > emitted) onText(cut.text.slice(emitted));
          source.cancel();
          void parts.return?.()?.catch(() => undefined);
          return { text: cut.text, stopReason: 'stopSequence', model: chat.id };
        }
        onText(text.slice(emitted));
        emitted = text.length;
      }
      if (signal.aborted) throw new Error(vscode.l10n.t('Cancelled'));
      return { text, stopReason: 'endTurn', model: chat.id };
    } finally {
      signal.removeEventListener('abort', onAbort);
      source.dispose();
    }
  }
}

function contentAsText(content: ModelContent): string {
  switch (content.type) {
    case 'text':
      return content.text;
    case 'image':
      return `[image ${content.mimeType}, ${Math.round((content.data.length * 3) / 4)} bytes, not sent: this model API takes text only]`;
    case 'audio':
      return `[audio ${content.mimeType}, ${Math.round((content.data.length * 3) / 4)} bytes, not sent: this model API takes text only]`;
    case 'tool_use':
      return `[tool call ${content.name} ${JSON.stringify(content.input)}]`;
    case 'tool_result':
      return `[tool result for ${content.toolUseId}: ${content.text}]`;
  }
}
