/**
 * What open MCP Apps bring to a plain `@mcp` request: their model contexts (the last
 * `ui/update-model-context` of each, given to the model before the question as the apps' data),
 * and the tools they registered for the model (`App.registerTool`), offered beside the servers'
 * tools and run by the app in its frame. Both come from AppsChatLink (apps/common/appChat.ts).
 */
import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import { appContextsMessage, type AppModelContext, type AppModelTool } from '../apps/common/appChat';
import { needsConfirmation } from '../shared/common/toolConfirmation';
import { codeSpan, escapeMarkdown } from '../shared/common/untrustedText';
import { errorMessage } from '../shared/common/errors';

/** Asks before a tool that is not read-only runs (the participant's confirmation; true or a scope = run). */
type Confirm = (request: { serverLabel: string; tool: Tool; input: Record<string, unknown> }) => Promise<unknown>;
type ToolCallRecord = { server: string; tool: string; chatName: string; outcome: 'ok' | 'error' | 'declined' | 'unknown' };

const sanitize = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '_');

/** The message with the apps' contexts (none without), shown in the answer so the user sees which apps. */
export function appContextMessages(contexts: AppModelContext[], stream: vscode.ChatResponseStream): vscode.LanguageModelChatMessage[] {
  if (!contexts.length) return [];
  // The labels are the servers' text: escaped.
  stream.markdown(`*${escapeMarkdown(vscode.l10n.t('With the context of open apps: {0}', contexts.map((c) => c.label).join(', ')))}*\n\n`);
  return [vscode.LanguageModelChatMessage.User(appContextsMessage(contexts))];
}

/** Chat names for the apps' tools (`app_<tool>`, numbered when two apps have the same), none taken by `taken`. */
export function nameAppTools(tools: AppModelTool[], taken: ReadonlySet<string>): Map<string, AppModelTool> {
  const names = new Map<string, AppModelTool>();
  for (const t of tools) {
    const base = `app_${sanitize(t.tool.name)}`.slice(0, 60);
    let name = base;
    for (let n = 2; taken.has(name) || names.has(name); n++) name = `${base}_${n}`;
    names.set(name, t);
  }
  return names;
}

export function appToolsForModel(names: Map<string, AppModelTool>): vscode.LanguageModelChatTool[] {
  return [...names].map(([name, t]) => ({
    name,
    description: `${t.tool.title ?? t.tool.name} (MCP App ${t.label}): ${t.tool.description ?? ''}`.slice(0, 1024),
    inputSchema: t.tool.inputSchema as object,
  }));
}

/** The model's call of an app's tool: run, recorded in `toolCalls`, answered with its result. */
export async function appToolCall(
  t: AppModelTool,
  call: vscode.LanguageModelToolCallPart,
  confirm: Confirm,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  toolCalls: ToolCallRecord[],
): Promise<vscode.LanguageModelToolResultPart> {
  const ran = await runAppTool(t, (call.input ?? {}) as Record<string, unknown>, confirm, stream, token);
  toolCalls.push({ server: t.label, tool: t.tool.name, chatName: call.name, outcome: ran.outcome });
  return new vscode.LanguageModelToolResultPart(call.callId, [new vscode.LanguageModelTextPart(ran.text)]);
}

/** Runs an app's tool for the model: asks first unless it is marked read-only, like a server's tool. */
async function runAppTool(
  t: AppModelTool,
  input: Record<string, unknown>,
  confirm: Confirm,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<{ text: string; outcome: 'ok' | 'error' | 'declined' }> {
  const tool = t.tool as Tool;
  const where = vscode.l10n.t('app {0}', t.label);
  if (needsConfirmation(tool) && !(await confirm({ serverLabel: where, tool, input }))) {
    stream.markdown(`\n\n> ${vscode.l10n.t('Declined: {0} on {1}', codeSpan(tool.name), escapeMarkdown(where))}\n\n`);
    return { text: 'The user declined to run this tool.', outcome: 'declined' };
  }
  const controller = new AbortController();
  const sub = token.onCancellationRequested(() => controller.abort());
  try {
    const result = await t.call(input, controller.signal);
    stream.markdown(`\n\n> ${vscode.l10n.t('Ran {0} on {1}', codeSpan(tool.name), escapeMarkdown(where))}\n\n`);
    const text = (Array.isArray(result.content) ? result.content : [])
      .map((c) => (typeof c === 'object' && c !== null && (c as { type?: unknown }).type === 'text' ? String((c as { text?: unknown }).text) : ''))
      .join('\n');
    const body = text || (result.structuredContent !== undefined ? JSON.stringify(result.structuredContent) : '(no content)');
    return { text: result.isError ? `Tool error: ${body}` : body, outcome: result.isError ? 'error' : 'ok' };
  } catch (error) {
    stream.markdown(`\n\n> ${vscode.l10n.t('{0} on {1} failed: {2}', codeSpan(tool.name), escapeMarkdown(where), escapeMarkdown(errorMessage(error)))}\n\n`);
    return { text: `The tool call failed: ${errorMessage(error)}`, outcome: 'error' };
  } finally {
    sub.dispose();
  }
}
