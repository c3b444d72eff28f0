/**
 * Tool use in sampling (`sampling.tools`, MCP 2025-11-25), without `vscode`: MCP sampling
 * content blocks (text, image, audio, `tool_use`, `tool_result`) to the provider-neutral
 * model content, the tool calls the user reviews as editable JSON in the approval panel,
 * and the result content returned to the server (`tool_use` blocks, `stopReason: 'toolUse'`).
 */
import type { ModelContent, ModelTool, ModelToolCall } from './modelBackend';
import { errorMessage } from '../../shared/common/errors';

type Block = { type: string } & Record<string, unknown>;

/** One MCP sampling content block as model content; `editedText` replaces a text block's text. */
export function samplingBlockToModelContent(block: Block, editedText?: string): ModelContent {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: editedText ?? String(block.text ?? '') };
    case 'image':
    case 'audio':
      return { type: block.type, data: String(block.data), mimeType: String(block.mimeType) };
    case 'tool_use':
      return { type: 'tool_use', id: String(block.id), name: String(block.name), input: isRecord(block.input) ? block.input : {} };
    case 'tool_result':
      return { type: 'tool_result', toolUseId: String(block.toolUseId), text: toolResultText(block), ...(block.isError === true ? { isError: true } : {}) };
    default:
      return { type: 'text', text: JSON.stringify(block) };
  }
}

/** A tool result as text: its text blocks, other blocks as JSON, structured content as JSON when there is nothing else. */
export function toolResultText(block: Block): string {
  const parts = (Array.isArray(block.content) ? block.content : []).map((c: unknown) => {
    const b = c as Block;
    return b?.type === 'text' && typeof b.text === 'string' ? b.text : JSON.stringify(b);
  });
  if (!parts.length && block.structuredContent !== undefined) return JSON.stringify(block.structuredContent);
  return parts.join('\n');
}

/** The request's tools as the model gets them. */
export function modelTools(
  tools: readonly { name: string; description?: string; inputSchema: Record<string, unknown> }[] | undefined,
): ModelTool[] | undefined {
  return tools?.map((t) => ({ name: t.name, ...(t.description ? { description: t.description } : {}), inputSchema: t.inputSchema }));
}

/** Tool calls as the JSON the user reviews and edits (`[]` when there are none). */
export function toolCallsJson(calls: readonly ModelToolCall[] | undefined): string {
  return JSON.stringify(calls ?? [], null, 2);
}

/**
 * The user's (possibly edited) tool calls: a JSON array of `{id?, name, input}`, each `name`
 * one of the offered tools. Empty text means no calls. Missing ids are generated.
 */
export function parseToolCallsJson(
  json: string | undefined,
  offered: readonly { name: string }[],
): { ok: true; calls: ModelToolCall[] } | { ok: false; reason: string } {
  if (json === undefined || !json.trim()) return { ok: true, calls: [] };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return { ok: false, reason: `the tool calls are not valid JSON: ${errorMessage(error)}` };
  }
  if (!Array.isArray(value)) return { ok: false, reason: 'the tool calls must be a JSON array of {"name", "input"} objects' };
  const names = new Set(offered.map((t) => t.name));
  const calls: ModelToolCall[] = [];
  for (const [i, item] of value.entries()) {
    if (!isRecord(item) || typeof item.name !== 'string') return { ok: false, reason: `tool call ${i + 1} needs a "name"` };
    if (!names.has(item.name))
      return { ok: false, reason: `tool call ${i + 1} names "${item.name}", which is not one of the offered tools (${[...names].join(', ') || 'none'})` };
    if (item.input !== undefined && !isRecord(item.input)) return { ok: false, reason: `tool call ${i + 1}: "input" must be a JSON object` };
    if (item.id !== undefined && typeof item.id !== 'string') return { ok: false, reason: `tool call ${i + 1}: "id" must be a string` };
    calls.push({
      id: typeof item.id === 'string' && item.id ? item.id : `call_${i + 1}_${Date.now().toString(36)}`,
      name: item.name,
      input: (item.input as Record<string, unknown> | undefined) ?? {},
    });
  }
  return { ok: true, calls };
}

export type SamplingResultBlock = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

/**
 * The result's content and stop reason for a request that offered tools: the text (if any)
 * then one `tool_use` block per call; `toolUse` whenever there are calls. One block is sent
 * as is, several as an array.
 */
export function toolResultContent(
  text: string,
  calls: readonly ModelToolCall[],
  stopReason: string,
): { content: SamplingResultBlock | SamplingResultBlock[]; stopReason: string } {
  const blocks: SamplingResultBlock[] = [];
  if (text || !calls.length) blocks.push({ type: 'text', text });
  for (const c of calls) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: c.input });
  return {
    content: blocks.length === 1 ? blocks[0] : blocks,
    stopReason: calls.length ? 'toolUse' : stopReason === 'toolUse' ? 'endTurn' : stopReason,
  };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
