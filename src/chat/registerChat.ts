/**
 * The `@mcp` chat participant (when this VS Code has chat), and the per-tool switch that
 * keeps a tool out of chat (`mcpWorkbench.enableToolInChat` / `disableToolInChat` on tool
 * nodes), persisted per workspace.
 */
import * as vscode from 'vscode';
import type { ToolRef } from '../shared/common/commandArgs';
import type { PromptPrompter } from '../prompts/common/promptFlow';
import type { Workbench } from '../workbench';
import { groupedByServer } from '../shared/serverGroupedItems';
import type { ToolApprovalGate } from '../toolRunner/common/toolApprovals';
import { revealControlCharacters } from '../shared/common/untrustedText';
import type { ChatDeps, ResourceChoice } from './chatHandler';
import type { SkillChoice } from './common/skillContext';
import type { Skill } from '../mcp/connection/serverSkills';
import { ChatCommands } from './common/commandIds';
import { registerCommandTable } from '../shared/commandTable';
import type { AppsChatLink } from '../apps/common/appChat';

export const CHAT_PARTICIPANT_ID = 'mcpWorkbench.mcp';
/** Its name in chat (`@mcp`; package.json `chatParticipants`). */
const CHAT_PARTICIPANT_NAME = 'mcp';

async function pickResource(choices: ResourceChoice[]): Promise<ResourceChoice | undefined> {
  const items = groupedByServer(choices, (choice) => ({
    label: choice.resource.title ?? choice.resource.name,
    description: choice.resource.uri,
    detail: choice.resource.description,
    choice,
  }));
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Attach MCP Resource'), matchOnDescription: true });
  return picked && 'choice' in picked ? picked.choice : undefined;
}

async function pickSkill(choices: SkillChoice<Skill>[]): Promise<SkillChoice<Skill> | undefined> {
  const items = groupedByServer(choices, (choice) => ({
    label: revealControlCharacters(choice.skillName),
    description: choice.skill.uri,
    detail: choice.description,
    choice,
  }));
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Use MCP Skill'), matchOnDescription: true, matchOnDetail: true });
  return picked && 'choice' in picked ? picked.choice : undefined;
}

/**
 * The `@mcp` handler with what the extension gives it (built also where this VS Code has no chat
 * API: the composition root hands it to registerChat and to the integration tests, which call it
 * with a fake model because the build under test may have no chat view to send a request from).
 * `gate`: Run Tool's approvals, so a "don't ask again" given in chat counts in Run Tool and back.
 * `prompter`: asks `/prompt`'s questions (the prompts feature's quick input, handed in by the composition root).
 * `apps`: the open MCP Apps' model contexts and tools for plain requests.
 */
export function createMcpChatHandler(workbench: Workbench, gate: ToolApprovalGate, prompter: PromptPrompter, apps?: AppsChatLink): vscode.ChatRequestHandler {
  const settings = workbench.chatTools;
  const deps: ChatDeps = {
    registry: workbench.registry,
    isToolDisabled: (server, tool) => settings.isDisabled(server, tool),
    maxTools: () => vscode.workspace.getConfiguration('mcpWorkbench').get<number>('chat.maxTools', 128),
    // Run Tool's own modal, with its "don't ask again" choices.
    confirm: (request) => gate.confirm(request.tool, request.serverLabel, request.input),
    approvals: gate.approvals,
    prompter,
    pickResource,
    pickSkill,
    ...(apps ? { apps } : {}),
  };
  // The handler's code loads with the first chat request (dist/features.js, esbuild.mjs lazyFeatures).
  let handler: vscode.ChatRequestHandler | undefined;
  return async (request, context, stream, token) => {
    handler ??= (await import('./chatHandler.js')).createChatHandler(deps);
    return handler(request, context, stream, token);
  };
}

/**
 * The `@mcp` participant (where this VS Code has a chat API) and the chat tool toggles.
 * `apps` is told once `@mcp` exists, so apps' `ui/message` can go to it.
 */
export function registerChat(workbench: Workbench, handler: vscode.ChatRequestHandler, apps?: AppsChatLink): vscode.Disposable[] {
  const settings = workbench.chatTools;
  const toggle =
    (enabled: boolean) =>
    async (ref?: ToolRef): Promise<string[] | undefined> => {
      const connection = ref?.serverId ? workbench.registry.find(ref.serverId) : undefined;
      if (!connection || !ref?.toolName) return undefined;
      const keys = await settings.setEnabled(connection.definition.name, ref.toolName, enabled);
      void vscode.window.setStatusBarMessage(
        enabled
          ? vscode.l10n.t('MCP tool "{0}" is offered in chat again', ref.toolName)
          : vscode.l10n.t('MCP tool "{0}" is no longer offered in chat', ref.toolName),
        3000,
      );
      return keys;
    };
  const disposables: vscode.Disposable[] = [
    ...registerCommandTable({
      [ChatCommands.enableTool]: toggle(true),
      [ChatCommands.disableTool]: toggle(false),
    }),
  ];
  // The chat API is missing where the build has no chat (e.g. the VS Code in code-server).
  const chat = (vscode as { chat?: typeof vscode.chat }).chat;
  if (typeof chat?.createChatParticipant === 'function') {
    try {
      const participant = chat.createChatParticipant(CHAT_PARTICIPANT_ID, handler);
      participant.iconPath = new vscode.ThemeIcon('server-process');
      disposables.push(participant);
      apps?.chatParticipantReady(CHAT_PARTICIPANT_NAME);
    } catch (error) {
      console.warn(`MCP Workbench: the @mcp chat participant is not available: ${String(error)}`);
    }
  }
  return disposables;
}
