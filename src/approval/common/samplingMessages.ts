/**
 * A sampling request as the approval panel shows it and as a model gets it, and the result
 * returned to the server. Pure: shared by the approval service and its tests.
 */
import type { CreateMessageRequestParams, CreateMessageResult, SamplingMessage } from '@modelcontextprotocol/client';
import type { MessageBlockView, SamplingDraft, SamplingView } from './approvalProtocol';
import type { SamplingPolicy } from './approvalPolicy';
import type { SamplingStage } from './approvalQueue';
import type { ModelInfo } from '../../models/common/modelBackend';
import { modelTools, samplingBlockToModelContent, toolResultContent } from '../../models/common/samplingTools';
import type { ModelMessage, ModelRequest, ModelResponse } from '../../models/common/modelBackend';

export function blocksOf(message: SamplingMessage): SamplingMessage['content'] extends infer C ? (C extends unknown[] ? C : C[]) : never {
  return (Array.isArray(message.content) ? message.content : [message.content]) as never;
}

export function blockView(block: { type: string } & Record<string, unknown>): MessageBlockView {
  if (block.type === 'text' && typeof block.text === 'string') return { kind: 'text', text: block.text };
  if ((block.type === 'image' || block.type === 'audio') && typeof block.data === 'string' && typeof block.mimeType === 'string') {
    return {
      kind: block.type,
      mimeType: block.mimeType,
      dataUri: `data:${block.mimeType};base64,${block.data}`,
      bytes: Math.round((block.data.length * 3) / 4),
    };
  }
  return { kind: 'other', type: block.type, json: JSON.stringify(block, null, 2) };
}

/**
 * The sampling result: plain text as before when the request offered no tools; with tools,
 * the text and `tool_use` blocks, `stopReason: 'toolUse'` when there are calls.
 */
export function resultOf(
  params: CreateMessageRequestParams,
  text: string,
  calls: NonNullable<ModelResponse['toolCalls']>,
  model: string,
  stopReason: string,
): CreateMessageResult {
  if (!params.tools?.length && !params.toolChoice) return { role: 'assistant', content: { type: 'text', text }, model, stopReason };
  const withTools = toolResultContent(text, calls, stopReason);
  return { role: 'assistant', content: withTools.content, model, stopReason: withTools.stopReason } as unknown as CreateMessageResult;
}

/** The request as the model gets it: the user's edits of text blocks and system prompt applied. */
export function toModelRequest(params: CreateMessageRequestParams, draft: SamplingDraft): ModelRequest {
  const messages: ModelMessage[] = params.messages.map((m, mi) => ({
    role: m.role,
    content: (blocksOf(m) as ({ type: string } & Record<string, unknown>)[]).map((b, bi) => samplingBlockToModelContent(b, draft.texts[`${mi}.${bi}`])),
  }));
  const tools = modelTools(params.tools as never);
  const systemPrompt = draft.systemPrompt ?? params.systemPrompt;
  return {
    messages,
    ...(systemPrompt ? { systemPrompt } : {}),
    maxTokens: params.maxTokens,
    ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
    ...(params.stopSequences?.length ? { stopSequences: params.stopSequences } : {}),
    ...(tools?.length ? { tools } : {}),
    ...(tools?.length && params.toolChoice?.mode ? { toolChoice: params.toolChoice.mode } : {}),
  };
}

/** What the panel shows of a sampling request, but for the queue entry's id, server and times. */
export function samplingViewOf(
  d: { params: CreateMessageRequestParams; models: ModelInfo[]; draft: SamplingDraft; response?: SamplingView['response']; error?: string },
  stage: SamplingStage,
  policy: SamplingPolicy,
): Omit<SamplingView, 'id' | 'server' | 'receivedAt' | 'deadline'> {
  const p = d.params;
  const prefs = p.modelPreferences;
  return {
    kind: 'sampling',
    stage,
    messages: p.messages.map((m) => ({ role: m.role, blocks: blocksOf(m).map(blockView) })),
    ...(p.systemPrompt !== undefined ? { systemPrompt: p.systemPrompt } : {}),
    ...(p.includeContext ? { includeContext: p.includeContext } : {}),
    ...(prefs
      ? {
          modelPreferences: {
            hints: (prefs.hints ?? []).map((h) => h.name ?? '').filter(Boolean),
            costPriority: prefs.costPriority,
            speedPriority: prefs.speedPriority,
            intelligencePriority: prefs.intelligencePriority,
          },
        }
      : {}),
    maxTokens: p.maxTokens,
    ...(p.temperature !== undefined ? { temperature: p.temperature } : {}),
    ...(p.stopSequences?.length ? { stopSequences: p.stopSequences } : {}),
    ...(p.tools?.length
      ? {
          tools: p.tools.map((t) => ({
            name: t.name,
            ...(t.description ? { description: t.description } : {}),
            inputSchema: JSON.stringify(t.inputSchema, null, 2),
          })),
        }
      : {}),
    ...(p.toolChoice?.mode ? { toolChoice: p.toolChoice.mode } : {}),
    models: d.models.map((m) => ({ id: m.id, label: m.label, backend: m.backend })),
    policy,
    draft: d.draft,
    ...(d.response ? { response: d.response } : {}),
    ...(d.error ? { error: d.error } : {}),
  };
}
