/**
 * A `prompts/get` result as people and models read it, without `vscode`: a markdown document
 * (roles as headings, text as written, images inline when small, embedded resources as
 * fenced blocks), the plain text sent to chat or copied, and provider-neutral model messages.
 */
import type { GetPromptResult, PromptMessage } from '@modelcontextprotocol/client';
import type { ModelMessage, ModelContent } from '../../models/common/modelBackend';

/** Images up to this many base64 characters are embedded as data URIs in the preview. */
export const INLINE_IMAGE_LIMIT = 256 * 1024;

export interface PreviewHeader {
  serverLabel: string;
  promptName: string;
  title?: string;
  arguments?: Record<string, string>;
}

const ROLE_LABEL: Record<string, string> = { user: 'User', assistant: 'Assistant' };

function base64Bytes(data: string): number {
  const clean = data.replace(/\s/g, '');
  return Math.floor((clean.length * 3) / 4) - (clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0);
}

/** A fence longer than any backtick run inside `text`, so content never closes it early. */
function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(longest + 1);
}

const LANGUAGE_BY_MIME: Record<string, string> = {
  'application/json': 'json',
  'text/markdown': 'markdown',
  'text/html': 'html',
  'text/x-python': 'python',
  'text/javascript': 'javascript',
  'application/javascript': 'javascript',
  'text/typescript': 'typescript',
  'application/xml': 'xml',
  'text/xml': 'xml',
  'text/css': 'css',
  'application/yaml': 'yaml',
  'text/yaml': 'yaml',
};

function codeBlock(text: string, mimeType?: string): string {
  const f = fence(text);
  return `${f}${(mimeType && LANGUAGE_BY_MIME[mimeType]) ?? ''}\n${text}${text.endsWith('\n') ? '' : '\n'}${f}`;
}

function escapeInline(text: string): string {
  return text.replace(/[\\`*_[\]<>|]/g, '\\$&');
}

/**
 * One content item of a prompt message as markdown. Images become reference-style links whose
 * data URIs `images` collects, so the long base64 sits at the end of the document, not in the text.
 */
export function contentMarkdown(content: PromptMessage['content'], images: string[] = []): string {
  const c = content as Record<string, unknown>;
  switch (c.type) {
    case 'text':
      return String(c.text ?? '');
    case 'image': {
      const data = String(c.data ?? '');
      const mime = String(c.mimeType ?? 'image/*');
      const label = `image (${mime}, ${base64Bytes(data)} bytes)`;
      if (data.length > INLINE_IMAGE_LIMIT || !/^image\/[\w.+-]+$/.test(mime) || !/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(data)) {
        return `*[${label}: not shown inline]*`;
      }
      images.push(`data:${mime};base64,${data.replace(/\s/g, '')}`);
      return `![${label}][image-${images.length}]`;
    }
    case 'audio':
      return `*[audio (${String(c.mimeType ?? 'audio/*')}, ${base64Bytes(String(c.data ?? ''))} bytes)]*`;
    case 'resource_link':
      return `Resource link: [${escapeInline(String(c.title ?? c.name ?? c.uri))}](${String(c.uri)})${c.description ? ` — ${escapeInline(String(c.description))}` : ''}`;
    case 'resource': {
      const r = (c.resource ?? {}) as Record<string, unknown>;
      const head = `Embedded resource \`${String(r.uri)}\`${r.mimeType ? ` (${String(r.mimeType)})` : ''}`;
      if (typeof r.text === 'string') return `${head}:\n\n${codeBlock(r.text, typeof r.mimeType === 'string' ? r.mimeType : undefined)}`;
      if (typeof r.blob === 'string') return `${head}: ${base64Bytes(r.blob)} bytes of binary data`;
      return head;
    }
    default:
      return codeBlock(JSON.stringify(content, null, 2), 'application/json');
  }
}

/** The whole result as a markdown document: a header, then each message under its role. */
export function promptResultMarkdown(result: GetPromptResult, header: PreviewHeader): string {
  const lines: string[] = [];
  lines.push(`# ${escapeInline(header.title ?? header.promptName)}`, '');
  const meta = [`Prompt \`${header.promptName}\` of MCP server **${escapeInline(header.serverLabel)}**`];
  const args = Object.entries(header.arguments ?? {});
  if (args.length) meta.push(`arguments: ${args.map(([k, v]) => `\`${k}\` = ${inlineCode(v)}`).join(', ')}`);
  lines.push(meta.join(' · '), '');
  if (result.description) lines.push(`> ${escapeInline(result.description).replace(/\n/g, '\n> ')}`, '');
  if (!result.messages.length) lines.push('*The server returned no messages.*', '');
  const images: string[] = [];
  result.messages.forEach((message, i) => {
    lines.push(`## ${i + 1}. ${ROLE_LABEL[message.role] ?? message.role}`, '', contentMarkdown(message.content, images), '');
  });
  if (images.length) lines.push('<!-- images -->', ...images.map((uri, i) => `[image-${i + 1}]: ${uri}`), '');
  return lines.join('\n');
}

function inlineCode(value: string): string {
  const short = value.length > 80 ? `${value.slice(0, 80)}…` : value;
  const oneLine = short.replace(/\n/g, '⏎');
  const ticks = oneLine.includes('`') ? '``' : '`';
  return `${ticks}${ticks.length > 1 ? ' ' : ''}${oneLine}${ticks.length > 1 ? ' ' : ''}${ticks}`;
}

/** One content item as plain text (what chat, the clipboard and an editor get). */
export function contentText(content: PromptMessage['content']): string {
  const c = content as Record<string, unknown>;
  switch (c.type) {
    case 'text':
      return String(c.text ?? '');
    case 'resource': {
      const r = (c.resource ?? {}) as Record<string, unknown>;
      if (typeof r.text === 'string') return `${String(r.uri)}:\n${codeBlock(r.text, typeof r.mimeType === 'string' ? r.mimeType : undefined)}`;
      return `[resource ${String(r.uri)}${r.mimeType ? ` (${String(r.mimeType)})` : ''}]`;
    }
    case 'resource_link':
      return `[resource ${String(c.uri)}]`;
    case 'image':
    case 'audio':
      return `[${String(c.type)} ${String(c.mimeType ?? '')}]`;
    default:
      return JSON.stringify(content);
  }
}

/**
 * The messages as one text. A single user message is its text alone; a conversation gets a
 * role line per message so who said what survives.
 */
export function promptResultText(result: GetPromptResult): string {
  if (result.messages.length === 1 && result.messages[0].role === 'user') return contentText(result.messages[0].content);
  return result.messages.map((m) => `${ROLE_LABEL[m.role] ?? m.role}:\n${contentText(m.content)}`).join('\n\n');
}

/** The messages for a model: consecutive messages of one role merge; resources become text. */
export function promptResultModelMessages(result: GetPromptResult): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const message of result.messages) {
    const c = message.content as Record<string, unknown>;
    let part: ModelContent;
    if ((c.type === 'image' || c.type === 'audio') && typeof c.data === 'string' && typeof c.mimeType === 'string') {
      part = { type: c.type, data: c.data, mimeType: c.mimeType };
    } else {
      part = { type: 'text', text: contentText(message.content) };
    }
    const last = out[out.length - 1];
    if (last?.role === message.role) last.content.push(part);
    else out.push({ role: message.role, content: [part] });
  }
  return out;
}
