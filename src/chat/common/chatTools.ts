/**
 * MCP tools offered to a chat model, without `vscode`: names that satisfy the model APIs'
 * constraints and map back to (server, tool), the relevance ranking behind the tool budget,
 * the workspaceState key of the tools disabled for chat, and a tool result as the model reads it.
 */
import type { CallToolResult, PromptMessage } from '@modelcontextprotocol/client';
import { contentText } from '../../prompts/common/promptPreview';

/** Tool names models accept (OpenAI's and VS Code's common subset). */
export const CHAT_TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_NAME = 64;

export interface ChatToolSource {
  serverId: string;
  /** Server name as configured (readable, used in the chat tool name). */
  serverName: string;
  toolName: string;
  title?: string;
  description?: string;
}

function sanitize(text: string): string {
  return (
    text
      .replace(/[^A-Za-z0-9_-]+/g, '_')
      .replace(/_+/g, '_')
      .replace(/^_|_$/g, '') || 'x'
  );
}

/** A short stable hash (FNV-1a, base 36) that keeps shortened names distinct. */
function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36);
}

/**
 * Chat names for tools: `<server>_<tool>` made of `[A-Za-z0-9_-]`, at most 64 characters,
 * unique. A name that had to be cut or changed, or that collides, gets a hash of its origin, so
 * the same tool gets the same name on every request. Returns name → source.
 */
export function assignChatToolNames<T extends ChatToolSource>(tools: readonly T[]): Map<string, T> {
  const names = new Map<string, T>();
  for (const tool of tools) {
    const origin = `${tool.serverName}\u0000${tool.toolName}`;
    let name = `${sanitize(tool.serverName)}_${sanitize(tool.toolName)}`;
    const exact = name === `${tool.serverName}_${tool.toolName}`;
    if (!exact || name.length > MAX_NAME || names.has(name)) {
      const suffix = `_${shortHash(origin)}`;
      name = `${name.slice(0, MAX_NAME - suffix.length)}${suffix}`;
    }
    for (let n = 2; names.has(name); n++) {
      const suffix = `_${shortHash(origin)}${n}`;
      name = `${name.slice(0, MAX_NAME - suffix.length)}${suffix}`;
    }
    names.set(name, tool);
  }
  return names;
}

const STOP_WORDS = new Set([
  'the',
  'and',
  'for',
  'with',
  'that',
  'this',
  'from',
  'into',
  'what',
  'which',
  'use',
  'using',
  'please',
  'can',
  'you',
  'are',
  'is',
  'of',
  'to',
  'in',
  'on',
  'a',
  'an',
  'it',
  'me',
  'my',
  'or',
  'be',
  'do',
  'how',
  'tool',
  'tools',
]);

/** Lower-case words of a text, camelCase and snake_case split, stop words left out. */
export function terms(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t.length > 1 && !STOP_WORDS.has(t));
}

/**
 * How relevant a tool is to a request: each request term found in the tool's name or title
 * counts 3, in its description 1; a term matches when one is a prefix of the other (so
 * "files" finds "file"), at least 3 characters long.
 */
export function relevance(request: string, tool: Pick<ChatToolSource, 'toolName' | 'title' | 'description' | 'serverName'>): number {
  const wanted = new Set(terms(request));
  if (!wanted.size) return 0;
  const nameTerms = new Set(terms(`${tool.toolName} ${tool.title ?? ''} ${tool.serverName}`));
  const descTerms = new Set(terms(tool.description ?? ''));
  const hit = (set: Set<string>, t: string) => set.has(t) || [...set].some((s) => Math.min(s.length, t.length) >= 3 && (s.startsWith(t) || t.startsWith(s)));
  let score = 0;
  for (const t of wanted) {
    if (hit(nameTerms, t)) score += 3;
    else if (hit(descTerms, t)) score += 1;
  }
  return score;
}

export interface BudgetResult<T> {
  offered: T[];
  /** Left out because the budget was reached (least relevant ones). */
  dropped: T[];
  /** Left out because the user disabled them for chat. */
  disabled: T[];
}

/**
 * The tools to offer: the enabled ones, most relevant to the request first, at most `max`.
 * Equal scores keep the given order (servers, then the server's own tool order).
 */
export function applyToolBudget<T extends ChatToolSource>(
  tools: readonly T[],
  request: string,
  max: number,
  isDisabled: (tool: T) => boolean,
): BudgetResult<T> {
  const disabled = tools.filter(isDisabled);
  const enabled = tools.filter((t) => !isDisabled(t));
  const ranked = enabled
    .map((tool, index) => ({ tool, index, score: relevance(request, tool) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((r) => r.tool);
  const limit = Math.max(0, Math.floor(max));
  return { offered: ranked.slice(0, limit), dropped: ranked.slice(limit), disabled };
}

/** workspaceState key holding the tools disabled for chat, as `toolKey` strings. */
export const DISABLED_CHAT_TOOLS_KEY = 'mcpWorkbench.chat.disabledTools';

/** A tool's identity across restarts: server name and tool name. */
export function toolKey(serverName: string, toolName: string): string {
  return JSON.stringify([serverName, toolName]);
}

/** The text of a tool result for the model; errors are marked so the model can react. */
export function toolResultText(result: CallToolResult): string {
  const text = (Array.isArray(result.content) ? result.content : []).map((c) => contentText(c as PromptMessage['content'])).join('\n');
  const structured = result.structuredContent !== undefined && !text.trim() ? JSON.stringify(result.structuredContent) : '';
  const body = text || structured || '(no content)';
  return result.isError ? `Tool error: ${body}` : body;
}
