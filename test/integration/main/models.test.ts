/**
 * The `vscode.lm` model backend against a real language model provider: the test-only
 * fixture extension test/fixtures/extensions/fake-model (installed by the launcher next to the
 * extension under test) registers the chat model `mcpwb-fake-echo` (vendor `mcpwb-fake`)
 * through the proposed API `chatProvider` in VS Code 1.100 and the stable
 * `registerLanguageModelChatProvider` in 1.139. It replies `fake reply to: <last user text>` in
 * several streamed parts; `[slow]` in the text slows the stream, `[fail]` makes it fail.
 * Sampling requests of the fixture server are answered through the approval service (as the
 * panel would) with that model; the extension's ModelService is the service's `models`.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ApprovalService } from '../../../src/approval/approvalService';
import type { SamplingView } from '../../../src/approval/common/approvalProtocol';
import type { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import { activateApi, running, setUserSetting, textOf, waitFor } from '../helpers';

type Outcome = {
  ok: boolean;
  result?: { role: string; content: { type: string; text: string }; model: string; stopReason: string };
  code?: number;
  message?: string;
};
type FakeRequest = { messages: { role: string; text: string }[]; modelOptions: Record<string, unknown>; parts: number; cancelled: boolean };

const FAKE_ID = 'vscode-lm:mcpwb-fake/mcpwb-fake-echo';
const FAKE_MODEL = 'mcpwb-fake-echo';

suite('Models: vscode.lm backend with the fake model provider', function () {
  this.timeout(60000);
  let service: ApprovalService;
  let connection: McpServerConnection;

  const call = (args: Record<string, unknown>) => connection.callTool('sample', args).then((r) => JSON.parse(textOf(r)) as Outcome);
  const sampling = (prompt: string) =>
    waitFor(
      () =>
        service
          .views()
          .find(
            (v): v is SamplingView =>
              v.kind === 'sampling' && v.messages[0]?.blocks[0]?.kind === 'text' && (v.messages[0].blocks[0] as { text: string }).text === prompt,
          ),
      `the sampling request "${prompt}" in the panel`,
    );
  const fakeRequests = async () => (await vscode.commands.executeCommand<FakeRequest[]>('mcpwbFakeModel.requests')) ?? [];

  suiteSetup(async () => {
    const api = await activateApi();
    connection = await running(api, 'fixture-stdio');
    service = (await vscode.commands.executeCommand<ApprovalService>('mcpWorkbench.showRequests'))!;
  });

  setup(() => service.resetSession());
  // A failed test must not leave its request queued for the next one.
  teardown(() => {
    for (const v of service.views()) if (v.kind === 'sampling') service.deny(v.id);
  });

  suiteTeardown(async () => {
    await setUserSetting('sampling.serverPolicies', undefined);
    for (const v of service?.views() ?? []) if (v.kind === 'sampling') service.deny(v.id);
  });

  test('the fake model is a vscode.lm chat model, listed first by the ModelService', async () => {
    const chat = await vscode.lm.selectChatModels({ vendor: 'mcpwb-fake' });
    assert.equal(
      chat.length,
      1,
      `the fixture extension's model (is test/fixtures/extensions/fake-model loaded?); all models: ${JSON.stringify((await vscode.lm.selectChatModels()).map((m) => `${m.vendor}/${m.id}`))}`,
    );
    assert.equal(chat[0].id, FAKE_MODEL);
    assert.equal(chat[0].family, 'fake-echo');
    const models = await service.models.models();
    assert.equal(models[0].id, FAKE_ID, `models: ${JSON.stringify(models.map((m) => m.id))}`);
    assert.deepEqual(models[0], { id: FAKE_ID, label: 'Fake Echo (mcpwb-fake)', model: FAKE_MODEL, backend: 'vscode-lm' });
    assert.equal(models[models.length - 1].id, 'manual');
    assert.equal((await service.models.pick({ hints: [{ name: 'fake-echo' }] }))?.id, FAKE_ID);
  });

  test('a sampling request answered through vscode.lm: edited prompt sent, reply streamed in parts, approved with truthful model and stopReason', async () => {
    const result = call({ prompt: 'Hello fake', systemPrompt: 'Be brief', maxTokens: 33, temperature: 0.5, hints: ['fake-echo'] });
    const view = await sampling('Hello fake');
    assert.equal(view.draft.modelId, FAKE_ID, 'the hint pre-selects the fake model');
    assert.ok(view.models.some((m) => m.id === FAKE_ID && m.backend === 'vscode-lm'));
    const before = (await fakeRequests()).length;
    const chunks: string[] = [];
    const sub = service.onDidStream((c) => c.requestId === view.id && chunks.push(c.text));
    assert.deepEqual(await service.send(view.id, { texts: { '0.0': 'Hello edited' }, systemPrompt: 'Be very brief' }), { ok: true });
    sub.dispose();
    assert.equal(chunks.join(''), 'fake reply to: Hello edited');
    assert.ok(chunks.length >= 3, `streamed in several parts: ${JSON.stringify(chunks)}`);
    // What the provider got: the system prompt first as a user message (the stable API has no
    // system role), then the edited prompt; maxTokens and temperature as modelOptions.
    const sent = (await fakeRequests()).slice(before);
    assert.equal(sent.length, 1);
    assert.deepEqual(sent[0].messages, [
      { role: 'user', text: 'Be very brief' },
      { role: 'user', text: 'Hello edited' },
    ]);
    assert.deepEqual(sent[0].modelOptions, { max_tokens: 33, temperature: 0.5 });
    assert.equal(sent[0].cancelled, false);
    const after = service.views().find((v): v is SamplingView => v.id === view.id)!;
    assert.equal(after.stage, 'response');
    assert.deepEqual(after.response, { model: FAKE_MODEL, stopReason: 'endTurn' });
    assert.equal(after.draft.responseText, 'fake reply to: Hello edited');
    assert.deepEqual(service.approve(view.id), { ok: true });
    const outcome = await result;
    assert.deepEqual(outcome, {
      ok: true,
      result: { role: 'assistant', content: { type: 'text', text: 'fake reply to: Hello edited' }, model: FAKE_MODEL, stopReason: 'endTurn' },
    });
  });

  test('the reply edited before Approve is what the server gets; model stays the one that generated', async () => {
    const result = call({ prompt: 'Edit me' });
    const view = await sampling('Edit me');
    assert.equal(view.draft.modelId, FAKE_ID, 'no hints: the first model (vscode.lm first)');
    assert.deepEqual(await service.send(view.id), { ok: true });
    assert.deepEqual(service.approve(view.id, { responseText: 'fake reply, edited by the user' }), { ok: true });
    const outcome = await result;
    assert.deepEqual(outcome.result, {
      role: 'assistant',
      content: { type: 'text', text: 'fake reply, edited by the user' },
      model: FAKE_MODEL,
      stopReason: 'endTurn',
    });
  });

  test('a stop sequence cuts the streamed reply: stopReason "stopSequence"', async () => {
    const result = call({ prompt: 'Stop here', stopSequences: ['to:'] });
    const view = await sampling('Stop here');
    assert.deepEqual(await service.send(view.id, { modelId: FAKE_ID }), { ok: true });
    const after = service.views().find((v): v is SamplingView => v.id === view.id)!;
    assert.deepEqual(after.response, { model: FAKE_MODEL, stopReason: 'stopSequence' });
    assert.equal(after.draft.responseText, 'fake reply ');
    service.approve(view.id);
    const outcome = await result;
    assert.equal(outcome.result?.content.text, 'fake reply ');
    assert.equal(outcome.result?.stopReason, 'stopSequence');
  });

  test('Stop ends the running generation at once; the request goes back to review and can be sent again', async () => {
    const result = call({ prompt: '[slow] take your time' });
    const view = await sampling('[slow] take your time');
    const chunks: string[] = [];
    const sub = service.onDidStream((c) => c.requestId === view.id && chunks.push(c.text));
    const sending = service.send(view.id, { modelId: FAKE_ID });
    await waitFor(() => chunks.length >= 1, 'the first streamed part');
    service.stop(view.id);
    const started = Date.now();
    const sent = await sending;
    sub.dispose();
    const elapsed = Date.now() - started;
    const provider = (await fakeRequests()).at(-1)!;
    assert.equal(provider.messages.at(-1)?.text, '[slow] take your time');
    // VS Code 1.100 forwards a sendRequest token's cancellation to the provider only while the
    // request is starting, so the provider may stream on; the backend stops reading at once.
    console.log(`      (provider: cancelled ${provider.cancelled}, ${provider.parts} of 4 parts sent; stopped after ${elapsed} ms)`);
    // Not before the rest of the stream (3 more parts, 300 ms apart): a 250 ms bound was a race on a loaded machine.
    assert.ok(elapsed < 900, `stopped before the rest of the slow stream came (${elapsed} ms)`);
    assert.equal(sent.ok, false);
    assert.match((sent as { reason: string }).reason, /Generation stopped/);
    assert.ok(!chunks.join('').includes('take your time'), `the stream ended early: ${JSON.stringify(chunks)}`);
    const after = service.views().find((v): v is SamplingView => v.id === view.id)!;
    assert.equal(after.stage, 'review');
    assert.match(String(after.error), /Generation stopped/);
    assert.equal(after.response, undefined);
    // Sent again, it completes; the server gets the full reply.
    assert.deepEqual(await service.send(view.id), { ok: true });
    service.approve(view.id);
    assert.equal((await result).result?.content.text, 'fake reply to: [slow] take your time');
  });

  test('a failing model: the error is shown on the request, which can still be denied', async () => {
    const result = call({ prompt: 'please [fail]' });
    const view = await sampling('please [fail]');
    const sent = await service.send(view.id, { modelId: FAKE_ID });
    assert.equal(sent.ok, false);
    assert.match((sent as { reason: string }).reason, /fake model failure/);
    const after = service.views().find((v): v is SamplingView => v.id === view.id)!;
    assert.equal(after.stage, 'review');
    assert.match(String(after.error), /fake model failure/);
    service.deny(view.id);
    const outcome = await result;
    assert.equal(outcome.ok, false);
    assert.match(String(outcome.message), /User rejected sampling request/);
  });

  test('policy "always" answers with the pre-selected vscode.lm model without asking', async () => {
    await service.setPolicy(connection.definition, 'always');
    try {
      const outcome = await call({ prompt: 'automatic', hints: ['fake-echo'] });
      assert.deepEqual(outcome, {
        ok: true,
        result: { role: 'assistant', content: { type: 'text', text: 'fake reply to: automatic' }, model: FAKE_MODEL, stopReason: 'endTurn' },
      });
      assert.equal(service.pendingCount, 0);
    } finally {
      await service.setPolicy(connection.definition, 'ask');
    }
  });
});
