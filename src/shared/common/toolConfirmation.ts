/**
 * Confirming a tool call: whether a tool needs the user's yes first, and how its arguments are
 * shown when asking. Run Tool, Chat and MCP Apps all ask, so it is shared.
 */
import type { Tool } from '@modelcontextprotocol/client';
import * as l10n from '@vscode/l10n';

/**
 * Whether calling the tool needs an explicit yes first. The spec's defaults are
 * `readOnlyHint: false` and `destructiveHint: true`, so a tool confirms unless it says it is
 * read-only; a read-only tool that still claims to be destructive confirms too.
 */
export function needsConfirmation(tool: Pick<Tool, 'annotations'>): boolean {
  const a = tool.annotations ?? {};
  return a.destructiveHint === true || a.readOnlyHint !== true;
}

/** The arguments as the confirmation dialog shows them: pretty JSON, cut at `max` characters. */
export function argumentsPreview(args: Record<string, unknown>, max = 1500): string {
  const text = Object.keys(args).length ? JSON.stringify(args, null, 2) : l10n.t('(no arguments)');
  return text.length > max ? `${text.slice(0, max)}\n${l10n.t('… ({0} more characters)', text.length - max)}` : text;
}
