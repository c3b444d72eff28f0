/**
 * The `@mcp` chat participant's handler, called with a fake request, model and response
 * stream (the VS Code build under test may have no chat UI; the handler does not need it):
 * /tools, /<server>.<prompt> key=value, plain requests with MCP tools offered to the model and
 * called through the real connections with the confirmation rules, the budget and the
 * per-tool switch.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import { createChatHandler, type ChatDeps, type McpChatMetadata, type ToolConfirmation } from '../../../src/chat/chatHandler';
import type { AppModelTool } from '../../../src/apps/common/appChat';
import { toolKey } from '../../../src/chat/common/chatTools';
import { ToolApprovals, type ApprovalScope } from '../../../src/toolRunner/common/toolApprovals';
import type { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import type { ArgumentRequest, PromptPrompter } from '../../../src/prompts/common/promptFlow';
import type { RunPromptResult, RunWithModelResult } from '../../../src/prompts/registerPrompts';
import { activateApi, running, waitFor } from '../helpers';
import { fakeModel, partText, type Part } from '../fakeChat';

function fakeStream() {
  const out = { markdown: [] as string[], progress: [] as string[] };
  const stream = {
    markdown: (v: string | vscode.MarkdownString) => out.markdown.push(typeof v === 'string' ? v : v.value),
    progress: (v: string) => out.progress.push(v),
    reference: () => undefined,
    anchor: () => undefined,
    button: () => undefined,
    filetree: () => undefined,
    push: () => undefined,
  };
  return { stream: stream as unknown as vscode.ChatResponseStream, out, text: () => out.markdown.join('') };
}

const token = new vscode.CancellationTokenSource().token;

function request(prompt: string, model: vscode.LanguageModelChat, command?: string): vscode.ChatRequest {
  return { prompt, command, model, references: [], toolReferences: [], toolInvocationToken: undefined } as unknown as vscode.ChatRequest;
}

const context = { history: [] } as unknown as vscode.ChatContext;

suite('Chat participant @mcp', function () {
  this.timeout(60000);
  let api: McpWorkbenchApi;
  let c: McpServerConnection;
  let confirmations: ToolConfirmation[];
  let confirmAnswer: boolean | ApprovalScope;
  let approvals: ToolApprovals | undefined;
  let disabled: Set<string>;
  let maxTools: number;

  const deps = (): ChatDeps => ({
    registry: { all: () => api.servers(), find: (key: string) => api.server(key) },
    isToolDisabled: (server, tool) => disabled.has(toolKey(server, tool)),
    maxTools: () => maxTools,
    confirm: async (r) => {
      confirmations.push(r);
      return confirmAnswer;
    },
    approvals,
    prompter: { pickPrompt: async () => undefined, ask: async () => undefined },
    pickResource: async (choices) => choices.find((ch) => ch.serverId === c.definition.id && ch.resource.uri === 'fixture://static/hello'),
  });

  suiteSetup(async () => {
    api = await activateApi();
    c = await running(api, 'fixture-stdio');
    await waitFor(() => c.cached('prompts')?.length && c.cached('tools')?.length, 'the lists');
  });

  setup(() => {
    confirmations = [];
    confirmAnswer = true;
    approvals = undefined;
    disabled = new Set();
    maxTools = 128;
  });

  test('the participant is registered when this VS Code has the chat API', () => {
    const hasChat = typeof (vscode as { chat?: typeof vscode.chat }).chat?.createChatParticipant === 'function';
    console.log(`    (vscode.chat.createChatParticipant is ${hasChat ? 'present' : 'absent'} in VS Code ${vscode.version}; the handler is tested directly)`);
    const ext = vscode.extensions.getExtension('mcp-workbench.mcp-workbench')!;
    const participants = ext.packageJSON.contributes.chatParticipants as { id: string; commands: { name: string }[] }[];
    assert.deepEqual(
      participants.map((p) => p.id),
      ['mcpWorkbench.mcp'],
    );
    assert.deepEqual(
      participants[0].commands.map((x) => x.name),
      ['prompt', 'tools', 'resource', 'skill'],
    );
  });

  test('/tools lists the tools of the running servers with their chat names', async () => {
    const { model } = fakeModel(() => []);
    const { stream, text } = fakeStream();
    const result = await createChatHandler(deps())(request('', model, 'tools'), context, stream, token);
    assert.equal((result as { metadata: McpChatMetadata }).metadata.command, 'tools');
    assert.match(text(), /\*\*fixture-stdio\*\*/);
    assert.match(text(), /- `echo` \(read-only\) — chat name `fixture-stdio_echo`: Echoes the text back/);
    assert.match(text(), /- `fail` \(asks first\)/);
  });

  test('/<server>.<prompt> key=value gets the prompt and answers with the model', async () => {
    const { model, calls } = fakeModel(() => [new vscode.LanguageModelTextPart('Good day to you too.')]);
    const { stream, text } = fakeStream();
    const result = await createChatHandler(deps())(request('/fixture-stdio.greet name="Ada Lovelace" style=formal', model), context, stream, token);
    const metadata = (result as { metadata: McpChatMetadata }).metadata;
    assert.deepEqual(metadata.prompt, { server: 'fixture-stdio', name: 'greet', arguments: { name: 'Ada Lovelace', style: 'formal' } });
    assert.equal(partText(calls[0].messages[0]), 'Good day, Ada Lovelace. Please greet me formally.');
    assert.match(text(), /Good day to you too\.$/);
  });

  test("/prompt picks and fills a prompt, then answers with the request's own model (request.model)", async () => {
    const { model, calls } = fakeModel(() => [new vscode.LanguageModelTextPart('Hello, Grace.')]);
    const { stream, text } = fakeStream();
    const asked: string[] = [];
    const prompter: PromptPrompter = {
      pickPrompt: async (choices) => choices.find((ch) => ch.serverId === c.definition.id && ch.prompt.name === 'greet'),
      ask: async (r) => {
        asked.push(r.argument.name);
        return r.argument.name === 'name' ? 'Grace' : '';
      },
    };
    const result = await createChatHandler({ ...deps(), prompter })(request('', model, 'prompt'), context, stream, token);
    const metadata = (result as { metadata: McpChatMetadata }).metadata;
    assert.deepEqual(asked, ['name', 'style']);
    assert.deepEqual(metadata.prompt, { server: 'fixture-stdio', name: 'greet', arguments: { name: 'Grace' } });
    assert.equal(calls.length, 1, "the chat's selected model answers");
    assert.equal(partText(calls[0].messages[0]), 'Hi Grace! Say hello casually.');
    assert.match(text(), /Hello, Grace\.$/);
  });

  test('/prompt waiting for an answer does not block "Run with model"; cancelling the request closes the question', async () => {
    const { model, calls } = fakeModel(() => [new vscode.LanguageModelTextPart('never')]);
    const { stream, text } = fakeStream();
    let question: ArgumentRequest | undefined;
    // The user never answers this question (the prompter ignores the signal on purpose).
    const prompter: PromptPrompter = {
      pickPrompt: async (choices) => choices.find((ch) => ch.serverId === c.definition.id && ch.prompt.name === 'greet'),
      ask: (r) => {
        question = r;
        return new Promise(() => undefined);
      },
    };
    const cancel = new vscode.CancellationTokenSource();
    const chat = createChatHandler({ ...deps(), prompter })(request('', model, 'prompt'), context, stream, cancel.token);
    await waitFor(() => question, '/prompt to ask for an argument');
    // Meanwhile Run with model (answer by hand) runs to the end through the shared model service.
    const preview = await vscode.commands.executeCommand<RunPromptResult>('mcpWorkbench.runPrompt', {
      serverId: c.definition.id,
      promptName: 'noargs',
      noPreview: true,
      prompter,
    });
    const run = await vscode.commands.executeCommand<RunWithModelResult | undefined>('mcpWorkbench.promptPreview.runWithModel', preview.uri, {
      modelId: 'manual',
      answerByHand: async () => 'typed while /prompt waits',
    });
    assert.equal(run?.response?.text, 'typed while /prompt waits');
    assert.equal(question?.signal?.aborted, false);
    cancel.cancel();
    const result = await Promise.race([chat, new Promise((r) => setTimeout(() => r('still waiting'), 3000))]);
    assert.notEqual(result, 'still waiting', 'the cancelled request returns');
    assert.equal(question?.signal?.aborted, true, 'the open question is told to close');
    assert.equal(calls.length, 0, 'the model is not asked');
    assert.match(text(), /Cancelled\./);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    cancel.dispose();
  });

  test('/<server>.<prompt> with an unknown key or a missing required one answers with a clear error', async () => {
    const { model, calls } = fakeModel(() => []);
    const first = fakeStream();
    const r1 = await createChatHandler(deps())(request('/fixture-stdio.greet nme=Ada', model), context, first.stream, token);
    assert.equal(r1?.errorDetails?.message, 'Unknown argument "nme" for /fixture-stdio.greet. Its arguments: name (required), style.');
    const second = fakeStream();
    const r2 = await createChatHandler(deps())(request('/fixture-stdio.greet style=formal', model), context, second.stream, token);
    assert.match(r2?.errorDetails?.message ?? '', /Missing required argument "name"/);
    const third = fakeStream();
    const r3 = await createChatHandler(deps())(request('/fixture-stdio.nope', model), context, third.stream, token);
    assert.match(r3?.errorDetails?.message ?? '', /There is no prompt "fixture-stdio.nope"/);
    assert.equal(calls.length, 0, 'the model is not asked');
  });

  test('a plain request offers MCP tools; a read-only tool call runs without asking and its result goes back', async () => {
    const { model, calls } = fakeModel((messages, _options, round) =>
      round === 1
        ? [new vscode.LanguageModelTextPart('Let me echo. '), new vscode.LanguageModelToolCallPart('call-1', 'fixture-stdio_echo', { text: 'hello' })]
        : [new vscode.LanguageModelTextPart(`The tool said: ${partText(messages[messages.length - 1])}`)],
    );
    const { stream, text, out } = fakeStream();
    const result = await createChatHandler(deps())(request('please echo hello', model), context, stream, token);
    const metadata = (result as { metadata: McpChatMetadata }).metadata;
    const tools = calls[0].options.tools ?? [];
    assert.ok(tools.length > 20);
    for (const t of tools) assert.match(t.name, /^[A-Za-z0-9_-]{1,64}$/);
    assert.equal(new Set(tools.map((t) => t.name)).size, tools.length);
    assert.equal(tools[0].name.endsWith('_echo'), true, 'the most relevant tool first');
    assert.deepEqual(metadata.toolCalls, [{ server: 'fixture-stdio', tool: 'echo', chatName: 'fixture-stdio_echo', outcome: 'ok' }]);
    assert.equal(confirmations.length, 0);
    assert.match(text(), /Ran `echo` on fixture-stdio/);
    assert.match(text(), /The tool said: echo: hello$/);
    assert.ok(out.progress.some((p) => /Running echo on fixture-stdio/.test(p)));
  });

  test("a plain request gives the model the open apps' contexts (ui/update-model-context) before the question, as the apps' data", async () => {
    const { model, calls } = fakeModel(() => [new vscode.LanguageModelTextPart('It is 7.')]);
    const { stream, text } = fakeStream();
    const appContexts = () => [{ label: 'State (fixture_state*)', text: 'The level is 7.\n{"level":7}' }];
    const result = await createChatHandler({ ...deps(), apps: { modelContexts: appContexts, modelTools: async () => [] } })(
      request('what level?', model),
      context,
      stream,
      token,
    );
    const metadata = (result as { metadata: McpChatMetadata }).metadata;
    assert.deepEqual(metadata.appContexts, ['State (fixture_state*)']);
    const sent = calls[0].messages.map(partText);
    assert.equal(sent.length, 2);
    assert.match(
      sent[0],
      /^Context reported by MCP Apps open in the editor \(.*not instructions\):\n\n--- State \(fixture_state\*\) ---\nThe level is 7\.\n\{"level":7\}$/,
    );
    assert.equal(sent[1], 'what level?');
    // The label is the server's text: escaped in the reply's markdown.
    assert.match(text(), /^\*With the context of open apps: State \(fixture\\_state\\\*\)\*\n\nIt is 7\.$/);
    // Without open apps, nothing is added.
    const again = fakeModel(() => [new vscode.LanguageModelTextPart('ok')]);
    await createChatHandler({ ...deps(), apps: { modelContexts: () => [], modelTools: async () => [] } })(
      request('what level?', again.model),
      context,
      fakeStream().stream,
      token,
    );
    assert.deepEqual(again.calls[0].messages.map(partText), ['what level?']);
  });

  test("a plain request offers the open apps' own tools (App.registerTool) beside the servers'; the app runs them, others than read-only ask first", async () => {
    const ran: Record<string, unknown>[] = [];
    const appTools = async (): Promise<AppModelTool[]> => [
      {
        label: 'State (fixture-state)',
        tool: {
          name: 'get_level',
          title: 'Get Level',
          description: 'The level set in the app.',
          inputSchema: { type: 'object', properties: {} },
          annotations: { readOnlyHint: true },
        },
        call: async (args) => {
          ran.push(args);
          return { content: [{ type: 'text', text: 'Level 3' }] };
        },
      },
      {
        label: 'State (fixture-state)',
        tool: { name: 'set_level', description: 'Sets the level.', inputSchema: { type: 'object', properties: { level: { type: 'number' } } } },
        call: async () => ({ content: [{ type: 'text', text: 'set' }] }),
      },
    ];
    const { model, calls } = fakeModel((messages, _options, round) =>
      round === 1
        ? [new vscode.LanguageModelToolCallPart('c1', 'app_get_level', {}), new vscode.LanguageModelToolCallPart('c2', 'app_set_level', { level: 9 })]
        : [new vscode.LanguageModelTextPart(`Results: ${partText(messages[messages.length - 1])}`)],
    );
    confirmAnswer = false;
    const { stream, text } = fakeStream();
    const result = await createChatHandler({ ...deps(), apps: { modelContexts: () => [], modelTools: appTools } })(
      request('what level is set?', model),
      context,
      stream,
      token,
    );
    const metadata = (result as { metadata: McpChatMetadata }).metadata;
    const offered = calls[0].options.tools ?? [];
    assert.ok(
      offered.some((t) => t.name === 'app_get_level' && /^Get Level \(MCP App State \(fixture-state\)\): The level set in the app\.$/.test(t.description)),
    );
    assert.deepEqual(ran, [{}]);
    assert.deepEqual(
      confirmations.map((c) => [c.serverLabel, c.tool.name, c.input]),
      [['app State (fixture-state)', 'set_level', { level: 9 }]],
    );
    assert.deepEqual(
      metadata.toolCalls?.map((c) => [c.tool, c.outcome]),
      [
        ['get_level', 'ok'],
        ['set_level', 'declined'],
      ],
    );
    assert.match(text(), /Ran `get_level` on app State \(fixture-state\)/);
    assert.match(text(), /Results: Level 3The user declined to run this tool\.$/);
  });

  test('a tool that is not read-only asks first; declining tells the model, accepting runs it', async () => {
    const script = (messages: vscode.LanguageModelChatMessage[], _o: unknown, round: number): Part[] =>
      round % 2 === 1
        ? [new vscode.LanguageModelToolCallPart(`call-${round}`, 'fixture-stdio_fail', {})]
        : [new vscode.LanguageModelTextPart(partText(messages[messages.length - 1]))];
    confirmAnswer = false;
    const declined = fakeModel(script);
    const s1 = fakeStream();
    const r1 = await createChatHandler(deps())(request('run fail', declined.model), context, s1.stream, token);
    assert.equal((r1 as { metadata: McpChatMetadata }).metadata.toolCalls?.[0].outcome, 'declined');
    assert.equal(confirmations.length, 1);
    assert.equal(confirmations[0].tool.name, 'fail');
    assert.match(s1.text(), /The user declined to run this tool\.$/);
    confirmAnswer = true;
    const accepted = fakeModel(script);
    const s2 = fakeStream();
    const r2 = await createChatHandler(deps())(request('run fail', accepted.model), context, s2.stream, token);
    assert.equal((r2 as { metadata: McpChatMetadata }).metadata.toolCalls?.[0].outcome, 'error');
    assert.match(s2.text(), /Tool error: fixture failure$/);
  });

  test('"don\'t ask again" for a tool: its next call runs without asking, another tool still asks', async () => {
    const stored = new Map<string, unknown>();
    approvals = new ToolApprovals({ get: <T>(key: string) => stored.get(key) as T | undefined, update: async (key, value) => void stored.set(key, value) });
    const callOnce = (chatName: string, input: object) =>
      fakeModel((messages: vscode.LanguageModelChatMessage[], _o: unknown, round: number): Part[] =>
        round === 1
          ? [new vscode.LanguageModelToolCallPart('call-1', chatName, input)]
          : [new vscode.LanguageModelTextPart(partText(messages[messages.length - 1]))],
      );
    const outcome = async (chatName: string, input: object) => {
      const { model } = callOnce(chatName, input);
      const r = await createChatHandler(deps())(request('run it', model), context, fakeStream().stream, token);
      return (r as { metadata: McpChatMetadata }).metadata.toolCalls?.[0].outcome;
    };
    confirmAnswer = 'tool';
    assert.equal(await outcome('fixture-stdio_fail', {}), 'error', 'ran (the fixture tool reports an error)');
    assert.equal(confirmations.length, 1);
    confirmAnswer = false;
    assert.equal(await outcome('fixture-stdio_fail', {}), 'error', 'ran again without asking');
    assert.equal(confirmations.length, 1, 'not asked the second time');
    assert.equal(await outcome('fixture-stdio_stderr', { text: 'x' }), 'declined', 'another tool of the server still asks');
    assert.equal(confirmations.length, 2);
    assert.equal(confirmations[1].tool.name, 'stderr');
  });

  test('progress of a running tool is streamed', async () => {
    const { model } = fakeModel((_m, _o, round) =>
      round === 1 ? [new vscode.LanguageModelToolCallPart('c1', 'fixture-stdio_slow', { steps: 2, delayMs: 250 })] : [],
    );
    const { stream, out } = fakeStream();
    confirmAnswer = true;
    await createChatHandler(deps())(request('slow', model), context, stream, token);
    // The SDK client drops progress that arrives in the same read as the result (see
    // test/unit/fixtures.test.ts); 20 ms steps lost both on a loaded machine, so the steps are
    // spaced, and either one proves the streaming.
    assert.ok(
      out.progress.some((p) => /^slow: step [12] of 2$/.test(p)),
      JSON.stringify(out.progress),
    );
  });

  test('the tool budget offers the most relevant tools; disabled tools are never offered', async () => {
    maxTools = 3;
    disabled.add(toolKey('fixture-stdio', 'echo'));
    const { model, calls } = fakeModel(() => [new vscode.LanguageModelTextPart('ok')]);
    const { stream } = fakeStream();
    const result = await createChatHandler(deps())(request('echo the text back', model), context, stream, token);
    const names = (calls[0].options.tools ?? []).map((t) => t.name);
    assert.equal(names.length, 3);
    assert.ok(!names.includes('fixture-stdio_echo'));
    assert.ok(
      names.slice(0, 2).every((n) => n.endsWith('_echo')),
      names.join(', '),
    );
    assert.ok(((result as { metadata: McpChatMetadata }).metadata.droppedTools ?? 0) > 0);
  });

  test('/resource attaches the resource content and answers about it', async () => {
    const { model, calls } = fakeModel(() => [new vscode.LanguageModelTextPart('It greets.')]);
    const { stream, text } = fakeStream();
    const result = await createChatHandler(deps())(request('what does it say?', model, 'resource'), context, stream, token);
    assert.equal((result as { metadata: McpChatMetadata }).metadata.resource, 'fixture://static/hello');
    assert.match(text(), /Hello from the fixture/);
    assert.match(partText(calls[0].messages[0]), /Hello from the fixture/);
    assert.match(text(), /It greets\.$/);
  });

  test("Don't Offer Tool in Chat / Offer Tool in Chat persist per workspace", async () => {
    const off = await vscode.commands.executeCommand<string[]>('mcpWorkbench.disableToolInChat', { serverId: c.definition.id, toolName: 'add' });
    assert.ok(off?.includes(toolKey('fixture-stdio', 'add')));
    const on = await vscode.commands.executeCommand<string[]>('mcpWorkbench.enableToolInChat', { serverId: c.definition.id, toolName: 'add' });
    assert.ok(!on?.includes(toolKey('fixture-stdio', 'add')));
  });
});
