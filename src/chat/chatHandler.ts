/**
 * The `@mcp` chat participant's request handler: `/tools`, `/prompt`, `/resource`,
 * `/<server>.<prompt> key=value …`, and plain requests answered by the chat's model with the
 * MCP tools of running servers offered to it. Everything it talks to comes in through
 * `ChatDeps`, so tests call it with a fake request, model and stream.
 */
import * as vscode from 'vscode';
import { isModelVisible } from '../apps/common/appTools';
import type { AppsChatLink } from '../apps/common/appChat';
import { appContextMessages, appToolCall, appToolsForModel, nameAppTools } from './chatApps';
import type { Resource, Tool } from '@modelcontextprotocol/client';
import { applyToolBudget, assignChatToolNames, toolKey, toolResultText, type ChatToolSource } from './common/chatTools';
import { bindPromptArguments, parsePromptCommandLine, quoteArgument, resolvePromptTarget } from '../prompts/common/promptCommandLine';
import { promptResultText } from '../prompts/common/promptPreview';
import { needsConfirmation } from '../shared/common/toolConfirmation';
import { toolHiddenByConfig } from '../config/common/entryPolicy';
import type { McpServerConnection } from '../mcp/connection/serverConnection';
import type { ServerRegistry } from '../mcp/serverRegistry';
import { choosePromptAndArguments, NoPromptsError, promptChoices, type PromptPrompter } from '../prompts/common/promptFlow';
import { approvalServerKey, type ApprovalScope, type ToolApprovals } from '../toolRunner/common/toolApprovals';
import { codeSpan, escapeMarkdown } from '../shared/common/untrustedText';
import { errorMessage } from '../shared/common/errors';
import { SkillVerificationError, type Skill } from '../mcp/connection/serverSkills';
import { skillName, skillRefusal } from '../servers/common/skillText';
import { fenceFor, findSkillChoice, limitSkillText, skillContextMessage, splitSkillTarget, type SkillChoice } from './common/skillContext';

/** Rounds of tool calls one request may take before the answer is cut off. */
const MAX_TOOL_ROUNDS = 10;

export interface ToolConfirmation {
  serverLabel: string;
  tool: Tool;
  input: Record<string, unknown>;
}

export interface ChatDeps {
  registry: Pick<ServerRegistry, 'all' | 'find'>;
  /** Tools disabled for chat, by `toolKey(serverName, toolName)`. */
  isToolDisabled(serverName: string, toolName: string): boolean;
  /** The tool budget (`mcpWorkbench.chat.maxTools`). */
  maxTools(): number;
  /** Asks before a tool that is not read-only runs; true = run it. */
  confirm(request: ToolConfirmation): Promise<boolean | ApprovalScope>;
  /**
   * The "don't ask again" approvals, shared with Run Tool (kept in workspace state, keyed by
   * what the server launches): a tool approved in either place runs in both without asking.
   */
  approvals?: Pick<ToolApprovals, 'allows' | 'remember'>;
  /** Answers `/prompt`'s questions. */
  prompter: PromptPrompter;
  /** Picks the resource for `/resource`; undefined = cancelled. */
  pickResource(choices: ResourceChoice[]): Promise<ResourceChoice | undefined>;
  /** Picks the skill for `/skill` when the request names none; undefined = cancelled. */
  pickSkill?(choices: SkillChoice<Skill>[]): Promise<SkillChoice<Skill> | undefined>;
  /** The open MCP Apps: their model contexts (`ui/update-model-context`) and own tools go to the model with a plain request. */
  apps?: Pick<AppsChatLink, 'modelContexts' | 'modelTools'>;
}

export interface ResourceChoice {
  serverId: string;
  serverLabel: string;
  resource: Resource;
}

/** `ChatResult.metadata` of this participant: what happened, for follow-ups and tests. */
export interface McpChatMetadata {
  command: string;
  /** Tools called, in order, with the outcome. */
  toolCalls?: { server: string; tool: string; chatName: string; outcome: 'ok' | 'error' | 'declined' | 'unknown' }[];
  /** Tools offered to the model (chat names). */
  offeredTools?: string[];
  droppedTools?: number;
  prompt?: { server: string; name: string; arguments: Record<string, string> };
  resource?: string;
  /** `/skill`: the skill's URI, and whether its SKILL.md was refused. */
  skill?: { uri: string; refused: boolean };
  /** Apps whose model context went to the model (their labels). */
  appContexts?: string[];
}

function historyMessages(context: vscode.ChatContext): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = [];
  for (const turn of context.history ?? []) {
    if (turn instanceof vscode.ChatRequestTurn) {
      if (turn.prompt) out.push(vscode.LanguageModelChatMessage.User(turn.prompt));
    } else if (turn instanceof vscode.ChatResponseTurn) {
      const text = turn.response.map((p) => (p instanceof vscode.ChatResponseMarkdownPart ? p.value.value : '')).join('');
      if (text) out.push(vscode.LanguageModelChatMessage.Assistant(text));
    }
  }
  return out;
}

export function createChatHandler(deps: ChatDeps): vscode.ChatRequestHandler {
  const running = () => deps.registry.all().filter((c) => c.state.kind === 'running');

  /** Streams the model's text answer to `messages` (no tools). */
  async function answer(
    model: vscode.LanguageModelChat,
    messages: vscode.LanguageModelChatMessage[],
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const response = await model.sendRequest(messages, { justification: vscode.l10n.t('Answer with the MCP prompt you chose.') }, token);
    for await (const chunk of response.text) stream.markdown(chunk);
  }

  async function listTools(stream: vscode.ChatResponseStream): Promise<vscode.ChatResult> {
    const servers = running().filter((c) => c.advertises('tools'));
    if (!servers.length) {
      stream.markdown(vscode.l10n.t('No running MCP server offers tools.'));
      return { metadata: { command: 'tools' } satisfies McpChatMetadata };
    }
    const sources = await collectTools(servers);
    const names = assignChatToolNames(sources);
    const byTool = new Map([...names].map(([name, s]) => [s, name]));
    let lastServer: string | undefined;
    for (const s of sources) {
      if (s.serverId !== lastServer) {
        lastServer = s.serverId;
        stream.markdown(`\n\n**${escapeMarkdown(s.serverLabel)}**\n\n`);
      }
      const flags = [
        needsConfirmation(s.tool) ? vscode.l10n.t('asks first') : vscode.l10n.t('read-only'),
        deps.isToolDisabled(s.serverName, s.toolName) ? vscode.l10n.t('disabled in chat') : undefined,
      ]
        .filter(Boolean)
        .join(', ');
      stream.markdown(
        `- ${codeSpan(s.toolName)} (${flags}) — chat name ${codeSpan(byTool.get(s) ?? '')}${s.description ? `: ${escapeMarkdown(s.description.split('\n')[0])}` : ''}\n`,
      );
    }
    stream.markdown(
      `\n${vscode.l10n.t('{0} tools; at most {1} are offered to the model per request (setting mcpWorkbench.chat.maxTools).', sources.length, deps.maxTools())}`,
    );
    return { metadata: { command: 'tools' } satisfies McpChatMetadata };
  }

  async function runChosenPrompt(request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
    let filled;
    // A cancelled request closes the open question instead of waiting for it forever.
    const controller = new AbortController();
    const sub = token.onCancellationRequested(() => controller.abort());
    try {
      filled = await choosePromptAndArguments(deps.registry, deps.prompter, undefined, undefined, controller.signal);
    } catch (error) {
      stream.markdown(escapeMarkdown(error instanceof NoPromptsError ? error.message : vscode.l10n.t('Could not list prompts: {0}', errorMessage(error))));
      return { metadata: { command: 'prompt' } satisfies McpChatMetadata };
    } finally {
      sub.dispose();
    }
    if (!filled) {
      stream.markdown(vscode.l10n.t('Cancelled.'));
      return { metadata: { command: 'prompt' } satisfies McpChatMetadata };
    }
    return getAndAnswer(filled.connection, filled.prompt.name, filled.arguments, request, stream, token, 'prompt');
  }

  async function getAndAnswer(
    connection: McpServerConnection,
    promptName: string,
    args: Record<string, string>,
    request: vscode.ChatRequest,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
    command: string,
  ): Promise<vscode.ChatResult> {
    const metadata: McpChatMetadata = { command, prompt: { server: connection.definition.name, name: promptName, arguments: args } };
    const shown = Object.entries(args)
      .map(([k, v]) => `${k}=${quoteArgument(v)}`)
      .join(' ');
    stream.progress(vscode.l10n.t('Getting prompt {0} from {1}…', promptName, connection.definition.label));
    const controller = new AbortController();
    const sub = token.onCancellationRequested(() => controller.abort());
    let text: string;
    try {
      const result = await connection.getPrompt(promptName, args, { signal: controller.signal });
      text = promptResultText(result);
    } catch (error) {
      stream.markdown(
        escapeMarkdown(vscode.l10n.t('MCP server "{0}" could not produce prompt "{1}": {2}', connection.definition.label, promptName, errorMessage(error))),
      );
      return { errorDetails: { message: errorMessage(error) }, metadata };
    } finally {
      sub.dispose();
    }
    stream.markdown(`*${vscode.l10n.t('Prompt')} ${codeSpan(`${connection.definition.name}.${promptName}`)}${shown ? ` ${escapeMarkdown(shown)}` : ''}*\n\n`);
    await answer(request.model, [vscode.LanguageModelChatMessage.User(text)], stream, token);
    return { metadata };
  }

  async function promptByName(request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
    const fail = (message: string): vscode.ChatResult => {
      stream.markdown(escapeMarkdown(message));
      return { errorDetails: { message }, metadata: { command: 'promptByName' } satisfies McpChatMetadata };
    };
    const parsed = parsePromptCommandLine(request.prompt);
    if (!parsed.ok) return fail(parsed.error);
    const choices = await promptChoices(deps.registry);
    const targets = choices.map((c) => ({ serverName: deps.registry.find(c.serverId)?.definition.name ?? c.serverLabel, promptName: c.prompt.name, data: c }));
    const target = resolvePromptTarget(parsed.value.target, targets);
    if (!target.ok) return fail(target.error);
    const choice = target.value.data;
    const usage = `/${target.value.serverName}.${choice.prompt.name}`;
    const bound = bindPromptArguments(choice.prompt.arguments ?? [], parsed.value, usage);
    if (!bound.ok) return fail(bound.error);
    const connection = deps.registry.find(choice.serverId);
    if (!connection) return fail(vscode.l10n.t('The server of this prompt is gone.'));
    return getAndAnswer(connection, choice.prompt.name, bound.value, request, stream, token, 'promptByName');
  }

  async function attachResource(request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
    const servers = running().filter((c) => c.advertises('resources'));
    const lists = await Promise.all(servers.map((c) => c.list('resources').catch(() => [] as Resource[])));
    const choices = servers.flatMap((c, i) => lists[i].map((resource) => ({ serverId: c.definition.id, serverLabel: c.definition.label, resource })));
    if (!choices.length) {
      stream.markdown(vscode.l10n.t('No running MCP server offers resources.'));
      return { metadata: { command: 'resource' } satisfies McpChatMetadata };
    }
    const picked = await deps.pickResource(choices);
    const connection = picked && deps.registry.find(picked.serverId);
    if (!picked || !connection) {
      stream.markdown(vscode.l10n.t('Cancelled.'));
      return { metadata: { command: 'resource' } satisfies McpChatMetadata };
    }
    const uri = picked.resource.uri;
    stream.progress(vscode.l10n.t('Reading {0}…', uri));
    let text: string;
    try {
      const result = await connection.readResource(uri);
      text = result.contents.map((c) => ('text' in c && typeof c.text === 'string' ? c.text : `[${c.mimeType ?? 'binary'} content, not text]`)).join('\n');
    } catch (error) {
      stream.markdown(escapeMarkdown(vscode.l10n.t('Could not read {0}: {1}', uri, errorMessage(error))));
      return { errorDetails: { message: errorMessage(error) }, metadata: { command: 'resource', resource: uri } satisfies McpChatMetadata };
    }
    const fenceTicks = '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
    stream.markdown(
      `**${escapeMarkdown(picked.resource.title ?? picked.resource.name)}** (${codeSpan(uri)}, ${escapeMarkdown(picked.serverLabel)})\n\n${fenceTicks}\n${text}\n${fenceTicks}\n`,
    );
    if (request.prompt.trim()) {
      await answer(
        request.model,
        [vscode.LanguageModelChatMessage.User(`Resource ${uri}:\n${fenceTicks}\n${text}\n${fenceTicks}`), vscode.LanguageModelChatMessage.User(request.prompt)],
        stream,
        token,
      );
    }
    return { metadata: { command: 'resource', resource: uri } satisfies McpChatMetadata };
  }

  /**
   * `/skill [<server>/<skill>] [question]`: a skill's SKILL.md, read now and verified by the SDK
   * (digest, size, frontmatter), as context for the question. A refused one is not used.
   */
  async function attachSkill(request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
    const servers = running().filter((c) => c.skills.offered);
    const listings = await Promise.all(
      servers.map((c) =>
        c.skills.list().then(
          (l) => l.skills,
          () => [] as Skill[],
        ),
      ),
    );
    const choices: SkillChoice<Skill>[] = servers.flatMap((c, i) =>
      listings[i].map((skill) => ({
        serverId: c.definition.id,
        serverName: c.definition.name,
        serverLabel: c.definition.label,
        skillName: skillName(skill),
        description: typeof skill.frontmatter.description === 'string' ? skill.frontmatter.description : undefined,
        skill,
      })),
    );
    if (!choices.length) {
      stream.markdown(vscode.l10n.t('No running MCP server offers skills.'));
      return { metadata: { command: 'skill' } satisfies McpChatMetadata };
    }
    const { target, rest } = splitSkillTarget(request.prompt);
    const named = target ? findSkillChoice(choices, target) : undefined;
    const picked = named ?? (await deps.pickSkill?.(choices));
    const connection = picked && deps.registry.find(picked.serverId);
    if (!picked || !connection) {
      stream.markdown(vscode.l10n.t('Cancelled.'));
      return { metadata: { command: 'skill' } satisfies McpChatMetadata };
    }
    const question = named ? rest : request.prompt.trim();
    const uri = picked.skill.uri;
    stream.progress(vscode.l10n.t('Reading skill {0}…', picked.skillName));
    let markdown: string;
    try {
      const file = await connection.skills.read(picked.skill);
      markdown = file.text ?? new TextDecoder().decode(file.bytes);
    } catch (error) {
      const message =
        error instanceof SkillVerificationError
          ? skillRefusal(error.reason, picked.skillName, picked.serverLabel)
          : vscode.l10n.t(
              'Could not read skill "{0}" of {1}: {2}. Check that the server runs, then try again.',
              picked.skillName,
              picked.serverLabel,
              errorMessage(error),
            );
      stream.markdown(escapeMarkdown(message));
      return {
        errorDetails: { message },
        metadata: { command: 'skill', skill: { uri, refused: error instanceof SkillVerificationError } } satisfies McpChatMetadata,
      };
    }
    if (token.isCancellationRequested) return { metadata: { command: 'skill', skill: { uri, refused: false } } satisfies McpChatMetadata };
    const context = skillContextMessage(picked.skillName, picked.serverLabel, uri, markdown);
    stream.markdown(
      `*${vscode.l10n.t('Skill')} **${escapeMarkdown(picked.skillName)}** (${codeSpan(uri)}, ${escapeMarkdown(picked.serverLabel)}, ${vscode.l10n.t('verified')})*\n\n`,
    );
    if (context.truncated) stream.markdown(`> ${escapeMarkdown(vscode.l10n.t('Only the first part of this long SKILL.md is used as context.'))}\n\n`);
    if (question) {
      await answer(request.model, [vscode.LanguageModelChatMessage.User(context.message), vscode.LanguageModelChatMessage.User(question)], stream, token);
    } else {
      const shown = limitSkillText(markdown).text;
      const fence = fenceFor(shown);
      stream.markdown(
        `${fence}markdown\n${shown}\n${fence}\n\n${escapeMarkdown(vscode.l10n.t("Ask your question after the skill's name, e.g. /skill {0}/{1} <question>.", picked.serverName, picked.skillName))}`,
      );
    }
    return { metadata: { command: 'skill', skill: { uri, refused: false } } satisfies McpChatMetadata };
  }

  async function answerWithTools(
    request: vscode.ChatRequest,
    context: vscode.ChatContext,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
  ): Promise<vscode.ChatResult> {
    const sources = await collectTools(running().filter((c) => c.advertises('tools')));
    const budget = applyToolBudget(sources, request.prompt, deps.maxTools(), (s) => deps.isToolDisabled(s.serverName, s.toolName));
    const names = assignChatToolNames(budget.offered);
    const tools: vscode.LanguageModelChatTool[] = [...names].map(([name, s]) => ({
      name,
      description: `${s.tool.title ?? s.tool.annotations?.title ?? s.toolName} (MCP server ${s.serverLabel}): ${s.description ?? ''}`.slice(0, 1024),
      inputSchema: s.tool.inputSchema,
    }));
    // The open apps' own tools (App.registerTool), run by the apps: see chatApps.ts.
    const appTools = nameAppTools((await deps.apps?.modelTools()) ?? [], new Set(names.keys()));
    const offeredTools = [...names.keys(), ...appTools.keys()];
    tools.push(...appToolsForModel(appTools));
    const metadata: McpChatMetadata = { command: 'tools-answer', toolCalls: [], offeredTools, droppedTools: budget.dropped.length };
    if (budget.dropped.length) {
      stream.progress(
        vscode.l10n.t(
          '{0} of {1} MCP tools offered (most relevant first; setting mcpWorkbench.chat.maxTools).',
          tools.length,
          sources.length - budget.disabled.length,
        ),
      );
    }
    // What open apps show now (their last ui/update-model-context), before the question.
    const appContexts = deps.apps?.modelContexts() ?? [];
    if (appContexts.length) metadata.appContexts = appContexts.map((c) => c.label);
    const messages = [...historyMessages(context), ...appContextMessages(appContexts, stream), vscode.LanguageModelChatMessage.User(request.prompt)];
    for (let round = 0; round < MAX_TOOL_ROUNDS; round++) {
      const response = await request.model.sendRequest(messages, { tools, justification: vscode.l10n.t('Answer with the tools of your MCP servers.') }, token);
      const said: vscode.LanguageModelTextPart[] = [];
      const calls: vscode.LanguageModelToolCallPart[] = [];
      for await (const part of response.stream) {
        if (part instanceof vscode.LanguageModelTextPart) {
          said.push(part);
          stream.markdown(part.value);
        } else if (part instanceof vscode.LanguageModelToolCallPart) {
          calls.push(part);
        }
      }
      if (!calls.length) return { metadata };
      messages.push(vscode.LanguageModelChatMessage.Assistant([...said, ...calls]));
      const results: vscode.LanguageModelToolResultPart[] = [];
      for (const call of calls) {
        if (token.isCancellationRequested) return { metadata };
        const source = names.get(call.name);
        const appTool = appTools.get(call.name);
        if (appTool) {
          results.push(await appToolCall(appTool, call, deps.confirm, stream, token, metadata.toolCalls!));
          continue;
        }
        if (!source) {
          metadata.toolCalls!.push({ server: '', tool: '', chatName: call.name, outcome: 'unknown' });
          results.push(new vscode.LanguageModelToolResultPart(call.callId, [new vscode.LanguageModelTextPart(`There is no tool named ${call.name}.`)]));
          continue;
        }
        const text = await runTool(source, call, stream, token, metadata);
        results.push(new vscode.LanguageModelToolResultPart(call.callId, [new vscode.LanguageModelTextPart(text)]));
      }
      messages.push(vscode.LanguageModelChatMessage.User(results));
    }
    stream.markdown(`\n\n${vscode.l10n.t('Stopped after {0} rounds of tool calls.', MAX_TOOL_ROUNDS)}`);
    return { metadata };
  }

  async function runTool(
    source: ToolSource,
    call: vscode.LanguageModelToolCallPart,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
    metadata: McpChatMetadata,
  ): Promise<string> {
    const input = (call.input ?? {}) as Record<string, unknown>;
    const record = { server: source.serverName, tool: source.toolName, chatName: call.name };
    const connection = deps.registry.find(source.serverId);
    if (!connection?.client) {
      metadata.toolCalls!.push({ ...record, outcome: 'error' });
      return `MCP server ${source.serverLabel} is not running any more.`;
    }
    const serverKey = approvalServerKey(connection.definition);
    if (needsConfirmation(source.tool) && !deps.approvals?.allows(serverKey, source.tool.name)) {
      const answer = await deps.confirm({ serverLabel: source.serverLabel, tool: source.tool, input });
      if (!answer) {
        metadata.toolCalls!.push({ ...record, outcome: 'declined' });
        stream.markdown(`\n\n> ${vscode.l10n.t('Declined: {0} on {1}', codeSpan(source.toolName), escapeMarkdown(source.serverLabel))}\n\n`);
        return 'The user declined to run this tool.';
      }
      if (answer !== true) await deps.approvals?.remember(answer, serverKey, source.tool.name);
    }
    stream.progress(vscode.l10n.t('Running {0} on {1}…', source.toolName, source.serverLabel));
    const controller = new AbortController();
    const sub = token.onCancellationRequested(() => controller.abort());
    try {
      const result = await connection.callTool(source.toolName, input, {
        signal: controller.signal,
        onprogress: (p) => stream.progress(`${source.toolName}: ${p.message ?? `${p.progress}${p.total ? `/${p.total}` : ''}`}`),
      });
      metadata.toolCalls!.push({ ...record, outcome: result.isError ? 'error' : 'ok' });
      const tool = codeSpan(source.toolName);
      const server = escapeMarkdown(source.serverLabel);
      stream.markdown(
        `\n\n> ${result.isError ? vscode.l10n.t('{0} on {1} reported an error', tool, server) : vscode.l10n.t('Ran {0} on {1}', tool, server)}\n\n`,
      );
      return toolResultText(result);
    } catch (error) {
      metadata.toolCalls!.push({ ...record, outcome: 'error' });
      stream.markdown(
        `\n\n> ${vscode.l10n.t('{0} on {1} failed: {2}', codeSpan(source.toolName), escapeMarkdown(source.serverLabel), escapeMarkdown(errorMessage(error)))}\n\n`,
      );
      return `The tool call failed: ${errorMessage(error)}`;
    } finally {
      sub.dispose();
    }
  }

  return async (request, context, stream, token) => {
    try {
      switch (request.command) {
        case 'tools':
          return await listTools(stream);
        case 'prompt':
          return await runChosenPrompt(request, stream, token);
        case 'resource':
          return await attachResource(request, stream, token);
        case 'skill':
          return await attachSkill(request, stream, token);
        default:
          if (request.prompt.trimStart().startsWith('/')) return await promptByName(request, stream, token);
          return await answerWithTools(request, context, stream, token);
      }
    } catch (error) {
      if (token.isCancellationRequested) return {};
      const message = errorMessage(error);
      stream.markdown(escapeMarkdown(vscode.l10n.t('Something went wrong: {0}', message)));
      return { errorDetails: { message } };
    }
  };
}

export interface ToolSource extends ChatToolSource {
  serverLabel: string;
  tool: Tool;
}

async function collectTools(servers: McpServerConnection[]): Promise<ToolSource[]> {
  const lists = await Promise.all(servers.map((c) => c.list('tools').catch(() => [] as Tool[])));
  // Tools only apps may call (`_meta.ui.visibility: ["app"]`, MCP Apps) are not the model's, nor those the entry's includeTools/excludeTools leave out.
  return servers.flatMap((c, i) =>
    lists[i]
      .filter((tool) => isModelVisible(tool) && !toolHiddenByConfig(c.definition.toolLists, tool.name))
      .map((tool) => ({
        serverId: c.definition.id,
        serverName: c.definition.name,
        serverLabel: c.definition.label,
        toolName: tool.name,
        title: tool.title ?? tool.annotations?.title,
        description: tool.description,
        tool,
      })),
  );
}

export { toolKey, toolResultText };
