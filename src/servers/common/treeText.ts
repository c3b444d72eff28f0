/**
 * What the Servers tree shows, without `vscode`: item labels and descriptions, and tooltips as
 * markdown parts. The tree turns the parts
 * into a MarkdownString (`markdown` appended as is, `text` with appendText, which escapes,
 * `code` with appendCodeblock). Names, titles, URIs and states come from servers and from
 * workspace config files, so they are hostile.
 */
import type { Prompt, Resource, ResourceTemplateType as ResourceTemplate, Tool } from '@modelcontextprotocol/client';
import * as l10n from '@vscode/l10n';
import { describeProtocol, type EraSource, type ServerState } from '../../mcp/serverState';
import { firstSentence } from './failureText';
import { codeSpan, escapeMarkdown, revealControlCharacters } from '../../shared/common/untrustedText';
import { describeTask, type ToolTask } from '../../mcp/connection/toolTasks';

/** Label and description of a tree item. */
export interface ItemText {
  label: string;
  description?: string;
}

/** Names with bidi overrides or invisible characters show them as `\u202E`, so none can pose as another. */
function itemText(label: string, description?: string): ItemText {
  return { label: revealControlCharacters(label), ...(description !== undefined ? { description: revealControlCharacters(description) } : {}) };
}

export function serverItemText(label: string, description: string): ItemText {
  return itemText(label, description);
}

/**
 * A server that is not running, as its tree description: the state and the first sentence of
 * why, in the message's own case (a command or a path must not be lowercased), the rest being
 * in the tooltip. `words` are the translated state names.
 */
export function stateSummary(state: Exclude<ServerState, { kind: 'running' }>, words: Record<'stopped' | 'starting' | 'error' | 'needsAuth', string>): string {
  const why = state.kind === 'stopped' ? state.reason : state.kind === 'error' || state.kind === 'needsAuth' ? state.message : undefined;
  return why ? `${words[state.kind]}: ${firstSentence(why)}` : words[state.kind];
}

/** `notInChat`: the translated note for a tool kept out of chat. */
export function toolItemText(tool: Tool, badges: readonly string[], notInChat?: string): ItemText {
  const title = tool.title ?? tool.annotations?.title;
  return itemText(title ?? tool.name, [title && title !== tool.name ? tool.name : undefined, ...badges, notInChat].filter(Boolean).join(' · '));
}

export function resourceItemText(r: Resource): ItemText {
  return itemText(r.title ?? r.name, r.uri);
}

export function templateItemText(t: ResourceTemplate): ItemText {
  return itemText(t.title ?? t.name, t.uriTemplate);
}

export function promptItemText(p: Prompt): ItemText {
  const args = p.arguments ?? [];
  return itemText(p.title ?? p.name, args.length ? args.map((a) => (a.required ? `${a.name}*` : a.name)).join(', ') : undefined);
}

export type MarkdownPart = { markdown: string } | { text: string } | { code: string; language: string };

export function toolTooltip(tool: Tool, badges: readonly string[], note?: string): MarkdownPart[] {
  const title = tool.title ?? tool.annotations?.title;
  const parts: MarkdownPart[] = [{ markdown: `**${escapeMarkdown(title ?? tool.name)}**${title ? ` ${codeSpan(tool.name)}` : ''}\n\n` }];
  if (tool.description) parts.push({ text: tool.description + '\n\n' });
  if (badges.length) parts.push({ markdown: `_${escapeMarkdown(badges.join(', '))}_\n\n` });
  if (note) parts.push({ markdown: `${escapeMarkdown(note)}\n\n` });
  parts.push({ markdown: 'Input schema:\n' }, { code: JSON.stringify(tool.inputSchema, null, 2), language: 'json' });
  if (tool.outputSchema) parts.push({ markdown: 'Output schema:\n' }, { code: JSON.stringify(tool.outputSchema, null, 2), language: 'json' });
  return parts;
}

export function resourceTooltip(r: Resource): MarkdownPart[] {
  const parts: MarkdownPart[] = [{ markdown: `**${escapeMarkdown(r.title ?? r.name)}**\n\n` }, { code: r.uri, language: 'text' }];
  if (r.description) parts.push({ text: r.description + '\n\n' });
  if (r.mimeType) parts.push({ markdown: `MIME type: ${codeSpan(r.mimeType)}` });
  if (r.size !== undefined) parts.push({ markdown: ` · ${r.size} bytes` });
  return parts;
}

export function templateTooltip(t: ResourceTemplate): MarkdownPart[] {
  const parts: MarkdownPart[] = [{ markdown: `**${escapeMarkdown(t.title ?? t.name)}**\n\n` }, { code: t.uriTemplate, language: 'text' }];
  if (t.description) parts.push({ text: t.description });
  return parts;
}

export function promptTooltip(p: Prompt): MarkdownPart[] {
  const parts: MarkdownPart[] = [{ markdown: `**${escapeMarkdown(p.title ?? p.name)}**${p.title ? ` ${codeSpan(p.name)}` : ''}\n\n` }];
  if (p.description) parts.push({ text: p.description + '\n\n' });
  // One line per argument: a description's line breaks must not end the list item.
  for (const a of p.arguments ?? []) {
    parts.push({
      markdown: `- ${codeSpan(a.name)}${a.required ? ' (required)' : ''}${a.description ? `: ${escapeMarkdown(a.description.replace(/\s*[\r\n]+\s*/g, ' '))}` : ''}\n`,
    });
  }
  return parts;
}

/** What a server's tooltip shows; the strings are already translated, the state described. */
export interface ServerTooltipInfo {
  label: string;
  stateText: string;
  launch: { type: 'stdio'; command: string } | { type: 'http' | 'sse'; url: string };
  running?: {
    serverName: string;
    version: string;
    /** e.g. `MCP 2026-07-28 (stateless)` */ protocolVersion: string;
    capabilities: string[];
    instructions?: string;
  };
  needsAuth?: string;
  error?: { message: string; detail?: string };
  config: { folder?: string; label: string; line?: number };
  /** "Found by discovery in the config of …:" and the file, for servers of other apps' configs. */
  discovered?: { note: string; file: string };
}

/** For a MarkdownString that renders theme icons (`$(globe)`). */
export function serverTooltip(s: ServerTooltipInfo): MarkdownPart[] {
  const parts: MarkdownPart[] = [{ markdown: `**${escapeMarkdown(s.label)}** — ${escapeMarkdown(s.stateText)}\n\n` }];
  // A broken entry may have no command or url at all: then there is nothing to show but its transport.
  const target =
    s.launch.type === 'stdio'
      ? s.launch.command && `$(terminal) ${iconSafeCode(s.launch.command)} `
      : s.launch.url && `$(globe) ${escapeMarkdown(s.launch.url)} `;
  parts.push({ markdown: `${target}(${s.launch.type})\n\n` });
  if (s.running) {
    parts.push({ markdown: `Server: **${escapeMarkdown(s.running.serverName)}** ${escapeMarkdown(s.running.version)}  \n` });
    // Plain escaped text, not code: it reads as a sentence ("MCP 2026-07-28 (stateless)").
    parts.push({ markdown: `Protocol: ${escapeMarkdown(s.running.protocolVersion)}  \n` });
    parts.push({ markdown: `Capabilities: ${s.running.capabilities.length ? s.running.capabilities.map(iconSafeCode).join(', ') : 'none'}\n\n` });
    if (s.running.instructions) {
      const text = s.running.instructions;
      parts.push({ markdown: 'Instructions:\n\n' }, { text: text.length > 1200 ? text.slice(0, 1200) + '…' : text }, { markdown: '\n\n' });
    }
  }
  if (s.needsAuth !== undefined) parts.push({ markdown: '$(account) Sign in required:\n\n' }, { text: s.needsAuth }, { markdown: '\n\n' });
  if (s.error) {
    parts.push({ markdown: 'Last error:\n\n' }, { text: s.error.message }, { markdown: '\n\n' });
    if (s.error.detail) parts.push({ code: s.error.detail.slice(-1500), language: 'text' });
  }
  const c = s.config;
  parts.push({
    markdown: `Config: ${escapeMarkdown(c.folder ? `${c.folder}/` : '')}${escapeMarkdown(c.label)}${c.line !== undefined ? `, line ${c.line + 1}` : ''}`,
  });
  if (s.discovered) parts.push({ markdown: `\n\n$(info) ${escapeMarkdown(s.discovered.note)} ${iconSafeCode(s.discovered.file)}` });
  return parts;
}

/**
 * Inline code in a MarkdownString that renders theme icons, where VS Code would still draw a
 * `$(name)` inside code as an icon: such text is shown escaped instead.
 */
function iconSafeCode(text: string): string {
  return text.includes('$(') ? escapeMarkdown(text) : codeSpan(text);
}

/** A task of a server: its tool (or id, for tasks the server listed), and its state in one line. */
export function taskItemText(task: ToolTask): ItemText {
  return itemText(task.toolName ?? task.taskId, describeTask(task));
}

export function taskTooltip(task: ToolTask): MarkdownPart[] {
  const parts: MarkdownPart[] = [{ markdown: `**${escapeMarkdown(task.toolName ?? 'Task')}** ${codeSpan(task.taskId)}\n\n` }];
  parts.push({ text: describeTask(task) + '\n\n' });
  if (task.createdAt) parts.push({ markdown: `Created ${escapeMarkdown(task.createdAt)}` });
  if (task.lastUpdatedAt) parts.push({ markdown: `${task.createdAt ? ' · ' : ''}updated ${escapeMarkdown(task.lastUpdatedAt)}` });
  if (task.pollIntervalMs !== undefined) parts.push({ markdown: ` · polled every ${task.pollIntervalMs} ms` });
  return parts;
}

/**
 * A running server's protocol and where its era came from, as the tree's tooltip and the
 * Inspector's handshake row say it (issue 30: "show the era decision"):
 * `MCP 2025-11-25 (initialize handshake), era remembered from …`.
 */
export function protocolAndEra(state: Extract<ServerState, { kind: 'running' }>): string {
  return describeProtocol(state) + (state.eraSource ? `, ${eraSourceWords(state.eraSource)}` : '');
}

/** Where a running server's era came from (see EraSource). */
function eraSourceWords(source: EraSource): string {
  switch (source.kind) {
    case 'probed':
      return l10n.t('era probed at this start');
    case 'remembered':
      return source.confirmed
        ? l10n.t('era remembered from {0}, confirmed at this start', new Date(source.since).toLocaleDateString())
        : l10n.t('era remembered from {0}', new Date(source.since).toLocaleDateString());
    case 'configured':
      return l10n.t('era set by config');
  }
}
