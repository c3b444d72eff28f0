/**
 * Sampling inside a real VS Code: the fixture server's `sample` / `sampleMany` tools send
 * sampling/createMessage; the approval service (the panel's controller, returned by
 * `mcpWorkbench.showRequests`) answers as the user would. Backends: "answer by hand" and the
 * OpenAI-compatible endpoint against a fake server on 127.0.0.1. `sampleWithTools` offers a
 * tool (sampling.tools): the fake endpoint calls it, the server gets `tool_use`, then a second
 * round with the `tool_result` gets a text answer.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ApprovalService } from '../../../src/approval/approvalService';
import type { SamplingView } from '../../../src/approval/common/approvalProtocol';
import type { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import { echoScript, startFakeOpenAi, type FakeOpenAi } from '../fakeOpenAi';
import { activateApi, running, setUserSetting, textOf, waitFor } from '../helpers';

type Outcome = { ok: boolean; result?: { content: { text: string }; model: string; stopReason: string }; code?: number; message?: string };

suite('Sampling', function () {
  this.timeout(60000);
  let service: ApprovalService;
  let connection: McpServerConnection;
  let fake: FakeOpenAi;
  let fakeUrl = '';

  async function sampling(): Promise<SamplingView> {
    return waitFor(() => service.views().find((v): v is SamplingView => v.kind === 'sampling'), 'a sampling request in the panel');
  }
  const call = (name: string, args: Record<string, unknown>) => connection.callTool(name, args).then((r) => JSON.parse(textOf(r)) as Outcome);

  suiteSetup(async () => {
    const api = await activateApi();
    connection = await running(api, 'fixture-stdio');
    service = (await vscode.commands.executeCommand<ApprovalService>('mcpWorkbench.showRequests'))!;
    service.resetSession();
    fake = await startFakeOpenAi();
    fakeUrl = fake.url;
  });

  suiteTeardown(async () => {
    await fake?.close();
    await setUserSetting('models.openaiCompatible.url', undefined);
    await setUserSetting('models.openaiCompatible.model', undefined);
    await setUserSetting('sampling.serverPolicies', undefined);
    await setUserSetting('approval.timeoutSeconds', undefined);
    await setUserSetting('sampling.rateLimitPerMinute', undefined);
  });

  setup(() => service.resetSession());

  test('the client declares sampling (with tools), elicitation form + url and MCP Apps; the badge follows the queue', async () => {
    const caps = service.features.capabilities();
    assert.deepEqual(caps, {
      sampling: { tools: {} },
      elicitation: { form: {}, url: {} },
      extensions: { 'io.modelcontextprotocol/skills': {}, 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
    });
  });

  test('answer by hand: the request is shown, the typed reply is approved with model "human"', async () => {
    const result = call('sample', {
      prompt: 'Say hi',
      maxTokens: 42,
      systemPrompt: 'Be brief',
      temperature: 0.3,
      stopSequences: ['END'],
      hints: ['nothing-matches'],
      image: true,
    });
    const view = await sampling();
    assert.equal(view.server.name, 'fixture-stdio');
    assert.equal(view.maxTokens, 42);
    assert.equal(view.systemPrompt, 'Be brief');
    assert.equal(view.temperature, 0.3);
    assert.deepEqual(view.stopSequences, ['END']);
    assert.deepEqual(view.modelPreferences?.hints, ['nothing-matches']);
    assert.deepEqual(view.messages[0].blocks, [{ kind: 'text', text: 'Say hi' }]);
    assert.equal(view.messages[1].blocks[0].kind, 'image');
    assert.equal(service.pendingCount, 1, 'badge count');
    // No hint matches: the first model is pre-selected (vscode.lm models come first: the test
    // fixture extension's fake model when the launcher loaded it), "answer by hand" is last.
    assert.equal(view.draft.modelId, view.models[0].id);
    assert.equal(view.models[view.models.length - 1].id, 'manual');
    assert.deepEqual(service.approve(view.id), { ok: false, reason: 'there is no response to approve yet: Send first' });
    assert.deepEqual(await service.send(view.id, { modelId: 'manual' }), { ok: true });
    // "Answer by hand" opens an empty reply; an empty reply is not approved (Deny is the way to refuse).
    assert.deepEqual(service.approve(view.id, { responseText: '  \n' }), { ok: false, reason: 'the reply is empty: write one, or Deny' });
    assert.deepEqual(service.approve(view.id, { responseText: 'Hi there' }), { ok: true });
    const outcome = await result;
    assert.deepEqual(outcome, { ok: true, result: { role: 'assistant', content: { type: 'text', text: 'Hi there' }, model: 'human', stopReason: 'endTurn' } });
    assert.equal(service.pendingCount, 0);
  });

  test('deny returns the JSON-RPC error "User rejected sampling request"', async () => {
    const result = call('sample', { prompt: 'no' });
    const view = await sampling();
    service.deny(view.id);
    const outcome = await result;
    assert.equal(outcome.ok, false);
    assert.equal(outcome.code, -1);
    assert.match(String(outcome.message), /User rejected sampling request/);
  });

  test('OpenAI-compatible backend: hints pre-select it; edited prompt is sent; edited reply approved; stopReason and model truthful', async () => {
    await setUserSetting('models.openaiCompatible.url', fakeUrl);
    await setUserSetting('models.openaiCompatible.model', 'fake-model');
    const result = call('sample', { prompt: 'original prompt', hints: ['fake-model'], maxTokens: 7 });
    const view = await sampling();
    assert.equal(view.draft.modelId, 'openai:fake-model');
    const chunks: string[] = [];
    const sub = service.onDidStream((c) => chunks.push(c.text));
    assert.deepEqual(await service.send(view.id, { texts: { '0.0': 'edited prompt' }, systemPrompt: 'edited system' }), { ok: true });
    sub.dispose();
    const sent = fake.requests[fake.requests.length - 1] as { messages: { role: string; content: string }[]; max_tokens: number; model: string };
    assert.deepEqual(sent.messages, [
      { role: 'system', content: 'edited system' },
      { role: 'user', content: 'edited prompt' },
    ]);
    assert.equal(sent.max_tokens, 7);
    assert.equal(chunks.join(''), 'fake says: edited prompt');
    const after = service.views().find((v): v is SamplingView => v.id === view.id)!;
    assert.equal(after.stage, 'response');
    assert.equal(after.draft.responseText, 'fake says: edited prompt');
    service.approve(view.id, { responseText: 'fake says: edited by the user' });
    const outcome = await result;
    assert.deepEqual(outcome.result, {
      role: 'assistant',
      content: { type: 'text', text: 'fake says: edited by the user' },
      model: 'fake-model-1',
      stopReason: 'maxTokens',
    });
  });

  test('tools: the fake endpoint calls the offered tool, the user reviews and approves; the server gets tool_use and stopReason toolUse; the tool_result round gets text', async () => {
    await setUserSetting('models.openaiCompatible.url', fakeUrl);
    await setUserSetting('models.openaiCompatible.model', 'fake-model');
    fake.script = (answer) => {
      const last = answer.body.messages[answer.body.messages.length - 1];
      if (answer.body.tools?.length && last.role !== 'tool') {
        answer.chunk('Let me check. ');
        answer.toolCall(0, 'call_weather_1', 'get_weather', { city: 'Paris' });
        answer.finish('tool_calls');
      } else {
        answer.chunk(`It is ${String(last.content)} in Paris.`);
        answer.finish('stop');
      }
    };
    try {
      // Round 1: the model calls the tool.
      const first = call('sampleWithTools', { prompt: 'What is the weather in Paris?', hints: ['fake-model'], toolChoice: 'auto' });
      const view = await sampling();
      assert.deepEqual(
        view.tools?.map((t) => t.name),
        ['get_weather'],
      );
      assert.match(view.tools![0].inputSchema, /"city"/);
      assert.equal(view.toolChoice, 'auto');
      assert.ok(
        view.models.every((m) => m.backend !== 'vscode-lm'),
        'models without tool calls are not offered',
      );
      assert.equal(view.draft.modelId, 'openai:fake-model');
      assert.deepEqual(await service.send(view.id), { ok: true });
      const sent = fake.requests[fake.requests.length - 1];
      assert.deepEqual(sent.tools, [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'The current weather in a city',
            parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
        },
      ]);
      assert.equal(sent.tool_choice, 'auto');
      const shown = service.views().find((v): v is SamplingView => v.id === view.id)!;
      assert.equal(shown.response?.stopReason, 'toolUse');
      assert.equal(shown.draft.responseText, 'Let me check. ');
      assert.deepEqual(JSON.parse(shown.draft.toolCallsJson!), [{ id: 'call_weather_1', name: 'get_weather', input: { city: 'Paris' } }]);
      // A tool call naming a tool that was not offered cannot be approved.
      const bad = service.approve(view.id, { toolCallsJson: '[{"name":"rm_rf","input":{}}]' });
      assert.equal(bad.ok, false);
      assert.match((bad as { reason: string }).reason, /not one of the offered tools/);
      // The user edits the call's input and drops the text, then approves.
      assert.deepEqual(
        service.approve(view.id, { responseText: '', toolCallsJson: '[{"id":"call_weather_1","name":"get_weather","input":{"city":"Paris, FR"}}]' }),
        { ok: true },
      );
      const outcome1 = (await first) as unknown as { ok: boolean; result: Record<string, unknown> };
      assert.deepEqual(outcome1, {
        ok: true,
        result: {
          role: 'assistant',
          content: { type: 'tool_use', id: 'call_weather_1', name: 'get_weather', input: { city: 'Paris, FR' } },
          model: 'fake-model-1',
          stopReason: 'toolUse',
        },
      });

      // Round 2: the server sends the tool_result; the model answers in text.
      const second = call('sampleWithTools', {
        prompt: 'What is the weather in Paris?',
        hints: ['fake-model'],
        toolUse: { id: 'call_weather_1', name: 'get_weather', input: { city: 'Paris, FR' } },
        toolResult: 'sunny',
      });
      const view2 = await sampling();
      assert.equal(view2.messages[1].blocks[0].kind, 'other');
      assert.deepEqual(await service.send(view2.id), { ok: true });
      const sent2 = fake.requests[fake.requests.length - 1];
      assert.deepEqual(sent2.messages, [
        { role: 'user', content: 'What is the weather in Paris?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_weather_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris, FR"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_weather_1', content: 'sunny' },
      ]);
      const shown2 = service.views().find((v): v is SamplingView => v.id === view2.id)!;
      assert.deepEqual(JSON.parse(shown2.draft.toolCallsJson!), []);
      assert.deepEqual(service.approve(view2.id), { ok: true });
      const outcome2 = (await second) as unknown as { ok: boolean; result: Record<string, unknown> };
      assert.deepEqual(outcome2, {
        ok: true,
        result: { role: 'assistant', content: { type: 'text', text: 'It is sunny in Paris.' }, model: 'fake-model-1', stopReason: 'endTurn' },
      });
    } finally {
      fake.script = echoScript;
    }
  });

  test('tools: a model whose backend cannot call tools gets a JSON-RPC error naming why', async () => {
    await setUserSetting('models.preferred', 'vscode-lm:mcpwb-fake/mcpwb-fake-echo');
    await service.setPolicy(connection.definition, 'always');
    try {
      const outcome = await call('sampleWithTools', { prompt: 'weather?' });
      assert.equal(outcome.ok, false);
      assert.equal(outcome.code, -32600);
      assert.match(String(outcome.message), /cannot use tools.*vscode\.lm/);
      assert.equal(service.pendingCount, 0);
    } finally {
      await service.setPolicy(connection.definition, 'ask');
      await setUserSetting('models.preferred', undefined);
    }
  });

  test('policy "always" answers without asking; "never" rejects at once', async () => {
    await setUserSetting('models.openaiCompatible.url', fakeUrl);
    await setUserSetting('models.openaiCompatible.model', 'fake-model');
    await service.setPolicy(connection.definition, 'always');
    const outcome = await call('sample', { prompt: 'auto', hints: ['fake-model'] });
    assert.equal(outcome.ok, true);
    assert.equal(outcome.result?.content.text, 'fake says: auto');
    assert.equal(service.pendingCount, 0);
    await service.setPolicy(connection.definition, 'never');
    const rejected = await call('sample', { prompt: 'nope' });
    assert.equal(rejected.ok, false);
    assert.match(String(rejected.message), /User rejected sampling request.*never/);
    await service.setPolicy(connection.definition, 'ask');
    assert.equal(service.policyOf(connection.definition), 'ask');
  });

  test('several concurrent requests queue up; the rate limit rejects beyond it with a clear error', async () => {
    await setUserSetting('sampling.rateLimitPerMinute', 3);
    const result = call('sampleMany', { prompt: 'many', count: 5 }) as unknown as Promise<Outcome[]>;
    await waitFor(() => service.pendingCount === 3, '3 queued requests');
    for (const v of service.views()) service.deny(v.id);
    const outcomes = (await result) as unknown as Outcome[];
    assert.equal(outcomes.length, 5);
    assert.equal(outcomes.filter((o) => /rate limit/.test(String(o.message))).length, 2);
    assert.match(String(outcomes.find((o) => /rate limit/.test(String(o.message)))?.message), /mcpWorkbench\.sampling\.rateLimitPerMinute/);
    await setUserSetting('sampling.rateLimitPerMinute', undefined);
  });

  test('a request nobody answers times out cleanly', async () => {
    await setUserSetting('approval.timeoutSeconds', 1);
    const outcome = await call('sample', { prompt: 'wait' });
    assert.equal(outcome.ok, false);
    assert.match(String(outcome.message), /not answered within 1 s/);
    assert.equal(service.pendingCount, 0);
    await setUserSetting('approval.timeoutSeconds', undefined);
  });
});
