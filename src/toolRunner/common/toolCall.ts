/**
 * The decisions and display model around one tool call, without `vscode`: the annotation
 * badges, the storage key of remembered arguments (confirming a call: shared/common/toolConfirmation),
 * and how a result or an error becomes what the Run Tool panel shows.
 */
import { ProtocolError, SdkError, SdkErrorCode, type CallToolResult, type Tool } from '@modelcontextprotocol/client';
import * as l10n from '@vscode/l10n';
import { looksLikeMarkdown, renderMarkdown } from '../../shared/common/markdownLite';
import { validateAgainstSchema, formatIssue } from '../../jsonSchema/common/schemaValidation';
import type { HistoryEntry } from './runHistory';
import type { BlockExtras, ResultBlock, RunOutcome, ToolInfo } from './toolRunnerProtocol';
import { errorMessage } from '../../shared/common/errors';

/** Confirming a call is shared with Chat and Apps; Run Tool's callers keep importing it from here. */
export { argumentsPreview, needsConfirmation } from '../../shared/common/toolConfirmation';

/**
 * A tool's name short enough for an editor tab: long names lose their middle, not their end
 * (`github_create_pull_…_review_comment`), which tells tools of one family apart. The panel's
 * heading shows the whole name.
 */
export function shortToolLabel(label: string, max = 36): string {
  const chars = [...label];
  if (chars.length <= max) return label;
  const head = Math.ceil((max - 1) / 2);
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - (max - 1 - head)).join('')}`;
}

/** Badges for the annotations the tool states (nothing is shown for hints it leaves out). */
export function toolBadges(tool: Pick<Tool, 'annotations'>): ToolInfo['badges'] {
  const a = tool.annotations ?? {};
  const badges: ToolInfo['badges'] = [];
  if (a.readOnlyHint === true) badges.push({ label: l10n.t('read-only'), kind: 'safe' });
  if (a.readOnlyHint !== true && a.destructiveHint === true) badges.push({ label: l10n.t('destructive'), kind: 'warning' });
  if (a.readOnlyHint !== true && a.destructiveHint === false) badges.push({ label: l10n.t('non-destructive'), kind: 'info' });
  if (a.idempotentHint === true) badges.push({ label: l10n.t('idempotent'), kind: 'info' });
  if (a.openWorldHint === true) badges.push({ label: l10n.t('open-world'), kind: 'warning' });
  if (a.openWorldHint === false) badges.push({ label: l10n.t('closed-world'), kind: 'info' });
  return badges;
}

/** workspaceState key of a tool's last arguments: by server name (stable across restarts) and tool name. */
/** A key of the tool's input schema (its text hashed) under which the webview keeps what was typed into that form. */
export function schemaKeyOf(serverName: string, tool: Pick<Tool, 'name' | 'inputSchema'>): string {
  const text = JSON.stringify(tool.inputSchema);
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) | 0;
  return `${serverName}/${tool.name}/${(hash >>> 0).toString(36)}`;
}

export function rememberedArgumentsKey(serverName: string, toolName: string): string {
  return `mcpWorkbench.toolRunner.lastArguments/${JSON.stringify([serverName, toolName])}`;
}

const MIME = /^[\w.+-]+\/[\w.+-]+$/;
const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

function base64Bytes(data: string): number {
  const clean = data.replace(/\s/g, '');
  return Math.floor((clean.length * 3) / 4) - (clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0);
}

function dataUri(mimeType: unknown, data: unknown, family: 'image' | 'audio'): { mimeType: string; dataUri: string; bytes: number } | undefined {
  if (typeof mimeType !== 'string' || !MIME.test(mimeType) || !mimeType.startsWith(`${family}/`)) return undefined;
  if (typeof data !== 'string' || !BASE64.test(data)) return undefined;
  return { mimeType, dataUri: `data:${mimeType};base64,${data.replace(/\s/g, '')}`, bytes: base64Bytes(data) };
}

function unknownBlock(item: unknown): ResultBlock {
  const type = typeof (item as { type?: unknown })?.type === 'string' ? (item as { type: string }).type : 'unknown';
  return { kind: 'unknown', type, json: JSON.stringify(item, null, 2) };
}

/** The file name "Save…" offers for an embedded blob resource of a result. */
export function blobFileName(resourceUri: string): string {
  const last = resourceUri.split(/[/\\]/).filter(Boolean).pop() ?? 'resource';
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch {
    // The server's URI has a malformed %-escape: name the file after it as written.
  }
  return name.replace(/[^\w.-]+/g, '_') || 'resource';
}

/** The item's `annotations` and `_meta` as pretty JSON, when it has them. */
function blockExtras(item: unknown): BlockExtras {
  if (typeof item !== 'object' || item === null) return {};
  const { annotations, _meta: meta } = item as { annotations?: unknown; _meta?: unknown };
  return {
    ...(annotations !== undefined ? { annotations: JSON.stringify(annotations, null, 2) } : {}),
    ...(meta !== undefined ? { meta: JSON.stringify(meta, null, 2) } : {}),
  };
}

/** The text pretty-printed when all of it is a JSON object or array (tools often return JSON as text). */
export function prettyJsonText(text: string): string | undefined {
  const trimmed = text.trim();
  if (!/^[[{]/.test(trimmed)) return undefined;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    return typeof parsed === 'object' && parsed !== null ? JSON.stringify(parsed, null, 2) : undefined;
  } catch {
    return undefined;
  }
}

/** One content item of a result as a display block, with its annotations and `_meta`. Malformed items are shown as JSON. */
export function contentBlock(item: unknown, index: number): ResultBlock {
  const block = contentBlockBody(item, index);
  return block.kind === 'unknown' ? block : { ...block, ...blockExtras(item) };
}

function contentBlockBody(item: unknown, index: number): ResultBlock {
  const c = item as Record<string, unknown>;
  switch (c?.type) {
    case 'text': {
      if (typeof c.text !== 'string') return unknownBlock(item);
      const json = prettyJsonText(c.text);
      if (json !== undefined) return { kind: 'text', text: c.text, json };
      return looksLikeMarkdown(c.text) ? { kind: 'markdown', text: c.text, html: renderMarkdown(c.text) } : { kind: 'text', text: c.text };
    }
    case 'image':
    case 'audio': {
      const uri = dataUri(c.mimeType, c.data, c.type);
      return uri ? { kind: c.type, ...uri } : unknownBlock(item);
    }
    case 'resource_link':
      if (typeof c.uri !== 'string') return unknownBlock(item);
      return {
        kind: 'resourceLink',
        uri: c.uri,
        name: typeof c.name === 'string' ? c.name : c.uri,
        ...(typeof c.title === 'string' ? { title: c.title } : {}),
        ...(typeof c.description === 'string' ? { description: c.description } : {}),
        ...(typeof c.mimeType === 'string' ? { mimeType: c.mimeType } : {}),
        ...(typeof c.size === 'number' ? { size: c.size } : {}),
      };
    case 'resource': {
      const r = c.resource as Record<string, unknown> | undefined;
      if (typeof r?.uri !== 'string') return unknownBlock(item);
      const mimeType = typeof r.mimeType === 'string' ? { mimeType: r.mimeType } : {};
      if (typeof r.text === 'string') return { kind: 'resourceText', uri: r.uri, ...mimeType, text: r.text };
      if (typeof r.blob === 'string' && BASE64.test(r.blob)) return { kind: 'resourceBlob', uri: r.uri, ...mimeType, bytes: base64Bytes(r.blob), index };
      return unknownBlock(item);
    }
    default:
      return unknownBlock(item);
  }
}

/** A tools/call result as the panel shows it, with structuredContent checked against the outputSchema. */
export function resultOutcome(result: CallToolResult, tool: Pick<Tool, 'outputSchema'> | undefined, durationMs: number): RunOutcome {
  const content = Array.isArray(result.content) ? result.content : [];
  const outcome: Extract<RunOutcome, { kind: 'result' }> = {
    kind: 'result',
    isError: result.isError === true,
    blocks: content.map(contentBlock),
    ...(result._meta !== undefined ? { meta: JSON.stringify(result._meta, null, 2) } : {}),
    raw: JSON.stringify(result, null, 2),
    durationMs,
  };
  if (result.structuredContent !== undefined) {
    let validation: NonNullable<typeof outcome.structured>['validation'];
    if (tool?.outputSchema && !outcome.isError) {
      const checked = validateAgainstSchema(tool.outputSchema, result.structuredContent);
      validation = checked.valid === false ? { valid: false, issues: checked.issues.map((i) => formatIssue(i, 'The structured content')) } : checked;
    }
    outcome.structured = { json: JSON.stringify(result.structuredContent, null, 2), ...(validation ? { validation } : {}) };
  }
  return outcome;
}

/** A thrown error of a tools/call as the panel shows it. `cancelled` wins: the user asked for it. */
export function errorOutcome(error: unknown, durationMs: number, cancelled: boolean): RunOutcome {
  if (cancelled) return { kind: 'cancelled', durationMs };
  if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) {
    return { kind: 'failure', message: l10n.t('The connection to the server closed during the call ({0}).', error.message), durationMs };
  }
  if (error instanceof ProtocolError) {
    // A v1 SDK prefixes "MCP error <code>: " on each side, so an error relayed by one can carry it.
    const message = error.message.replace(/^(MCP error -?\d+: )+/, '');
    return {
      kind: 'protocolError',
      code: error.code,
      message,
      ...(error.data !== undefined ? { data: JSON.stringify(error.data, null, 2) } : {}),
      durationMs,
    };
  }
  return { kind: 'failure', message: errorMessage(error), durationMs };
}

/** The tool's header info for the panel. */
export function toolInfo(tool: Tool, serverLabel: string, notice?: string): ToolInfo {
  return {
    serverLabel,
    name: tool.name,
    ...((tool.title ?? tool.annotations?.title) ? { title: tool.title ?? tool.annotations?.title } : {}),
    ...(tool.description ? { description: tool.description } : {}),
    badges: toolBadges(tool),
    inputSchemaJson: JSON.stringify(tool.inputSchema, null, 2),
    hasOutputSchema: tool.outputSchema !== undefined,
    ...(notice ? { notice } : {}),
  };
}

/** An earlier run of the history as the panel shows it (the result is rendered again, for today's outputSchema). */
export function historyOutcome(entry: HistoryEntry, tool: Pick<Tool, 'outputSchema'> | undefined): RunOutcome {
  const durationMs = entry.durationMs;
  if (entry.result !== undefined) return resultOutcome(entry.result, tool, durationMs);
  switch (entry.status) {
    case 'cancelled':
      return { kind: 'cancelled', durationMs };
    case 'protocolError':
      return {
        kind: 'protocolError',
        code: entry.error?.code ?? 0,
        message: entry.error?.message ?? '',
        ...(entry.error?.data !== undefined ? { data: entry.error.data } : {}),
        durationMs,
      };
    case 'failure':
      return { kind: 'failure', message: entry.error?.message ?? '', durationMs };
    default: {
      const note = entry.omitted ?? l10n.t('The result was not kept.');
      return {
        kind: 'result',
        isError: entry.status === 'toolError',
        blocks: [{ kind: 'text', text: note }],
        raw: JSON.stringify({ omitted: note }, null, 2),
        durationMs,
      };
    }
  }
}
