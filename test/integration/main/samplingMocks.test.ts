/**
 * Sampling mock profiles inside a real VS Code: a config file with `samplingMocks` and two
 * fixture servers that use one, one of each protocol era (fixture-stdio's `sample` tools send
 * sampling/createMessage as a 2025-11-25 server → client request; the 2026-07-28 fixture's
 * `askModel` asks in an `input_required` round). The mock answers; the approval service (the
 * panel's controller) shows which profile answered and lets the user edit, approve or deny.
 * No model is configured or called. The config language server flags an unknown profile.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import type { ApprovalService } from '../../../src/approval/approvalService';
import type { SamplingView } from '../../../src/approval/common/approvalProtocol';
import { activateApi, folderUri, running, textOf, waitFor, writeText } from '../helpers';

type Outcome = { ok: boolean; result?: { content: unknown; model: string; stopReason: string }; code?: number; message?: string };

suite('Sampling mock profiles', function () {
  this.timeout(60000);
  let api: McpWorkbenchApi;
  let service: ApprovalService;
  const configFile = () => vscode.Uri.joinPath(folderUri('folder-b'), '.vscode', 'mcp.json');
  const config = (profile: Record<string, unknown>) =>
    JSON.stringify(
      {
        servers: {
          'mock-legacy': { command: 'node', args: ['${env:MCPWB_FIXTURES}/servers/stdioServer.js'], protocolEra: 'legacy', sampling: { mock: 'weather' } },
          'mock-modern': {
            command: 'node',
            args: ['${env:MCPWB_FIXTURES}/servers/modernStdioServer.js'],
            protocolEra: 'modern',
            sampling: { mock: 'weather' },
          },
          'mock-typo': { command: 'node', args: ['${env:MCPWB_FIXTURES}/servers/stdioServer.js'], sampling: { mock: 'wether' } },
        },
        samplingMocks: { weather: profile },
      },
      null,
      2,
    );
  const WEATHER = {
    description: 'Canned weather',
    model: 'mock-weather',
    rules: [
      { match: 'weather', reply: 'Sunny, 21 °C.' },
      { match: 'use the tool', reply: { text: 'Checking.', toolUse: { name: 'get_weather', input: { city: 'Paris' } } } },
    ],
    replies: ['first reply', 'second reply'],
  };
  const call = async (server: string, tool: string, args: Record<string, unknown>) => {
    const c = await running(api, server);
    return JSON.parse(textOf(await c.callTool(tool, args))) as Outcome;
  };
  const sampling = (server: string) =>
    waitFor(
      () => service.views().find((v): v is SamplingView => v.kind === 'sampling' && v.server.name === server),
      `a sampling request of ${server} in the panel`,
    );

  suiteSetup(async () => {
    api = await activateApi();
    service = (await vscode.commands.executeCommand<ApprovalService>('mcpWorkbench.showRequests'))!;
    service.resetSession();
    await writeText(configFile(), config(WEATHER));
    await running(api, 'mock-legacy');
    await running(api, 'mock-modern');
  });

  // A failed test must not leave its request for the next one to pick up.
  teardown(() => {
    for (const v of service.views()) if (v.kind === 'sampling') service.deny(v.id);
  });

  suiteTeardown(async () => {
    for (const v of service?.views() ?? []) if (v.kind === 'sampling') service.deny(v.id);
    const legacy = api?.server('mock-legacy');
    if (legacy) await service?.setPolicy(legacy.definition, 'ask');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(configFile()).then(undefined, () => undefined);
    await waitFor(() => !api.servers().some((s) => s.definition.name.startsWith('mock-')), 'the mock servers to go');
  });

  test("2025-11-25: the matching rule answers; the panel says which profile; the edited reply is approved with the profile's model", async () => {
    const result = call('mock-legacy', 'sample', { prompt: 'What is the weather in Paris?' });
    const view = await sampling('mock-legacy');
    assert.equal(view.stage, 'response', 'the mock reply is ready at once');
    assert.deepEqual(view.response, { model: 'mock-weather', stopReason: 'endTurn', mock: { profile: 'weather', source: 'rule 1 (match "weather")' } });
    assert.equal(view.draft.responseText, 'Sunny, 21 °C.');
    assert.equal(view.models[0].id, 'mock:weather');
    assert.equal(view.draft.modelId, 'mock:weather');
    assert.deepEqual(service.approve(view.id, { responseText: 'Sunny, 22 °C (edited).' }), { ok: true });
    assert.deepEqual(await result, {
      ok: true,
      result: { role: 'assistant', content: { type: 'text', text: 'Sunny, 22 °C (edited).' }, model: 'mock-weather', stopReason: 'endTurn' },
    });
  });

  test('2025-11-25: without a matching rule the replies come in turn; the user can still deny one', async () => {
    const first = call('mock-legacy', 'sample', { prompt: 'hello' });
    const v1 = await sampling('mock-legacy');
    assert.equal(v1.draft.responseText, 'first reply');
    assert.equal(v1.response?.mock?.source, 'reply 1 of 2');
    service.deny(v1.id);
    const denied = await first;
    assert.equal(denied.ok, false);
    assert.match(String(denied.message), /User rejected sampling request/);
    const second = call('mock-legacy', 'sample', { prompt: 'hello again' });
    const v2 = await sampling('mock-legacy');
    assert.equal(v2.draft.responseText, 'second reply');
    // Send again asks the mock again for the same turn: the edited message now matches a rule.
    assert.deepEqual(await service.send(v2.id, { texts: { '0.0': 'and the weather?' } }), { ok: true });
    const again = service.views().find((v): v is SamplingView => v.id === v2.id)!;
    assert.equal(again.draft.responseText, 'Sunny, 21 °C.');
    service.approve(v2.id);
    assert.equal((await second).result?.model, 'mock-weather');
  });

  test("2025-11-25 tools: the mock's tool call reaches the server as tool_use after approval", async () => {
    const result = call('mock-legacy', 'sampleWithTools', { prompt: 'Please use the tool.' });
    const view = await sampling('mock-legacy');
    assert.deepEqual(JSON.parse(view.draft.toolCallsJson!), [
      { id: view.draft.toolCallsJson && JSON.parse(view.draft.toolCallsJson)[0].id, name: 'get_weather', input: { city: 'Paris' } },
    ]);
    assert.equal(view.response?.stopReason, 'toolUse');
    // Send again asks the mock again, tools and all (no model backend is consulted for tool support).
    assert.deepEqual(await service.send(view.id), { ok: true });
    assert.equal(JSON.parse(service.views().find((v): v is SamplingView => v.id === view.id)!.draft.toolCallsJson!)[0].name, 'get_weather');
    service.approve(view.id);
    const outcome = await result;
    assert.equal(outcome.result?.stopReason, 'toolUse');
    assert.deepEqual(
      (outcome.result?.content as { type: string; name?: string }[]).map((b) => [b.type, b.name]),
      [
        ['text', undefined],
        ['tool_use', 'get_weather'],
      ],
    );
  });

  test('2026-07-28: the input_required sampling round is answered by the mock, shown and approved the same way', async () => {
    const modern = await running(api, 'mock-modern');
    assert.equal(modern.state.kind === 'running' && modern.state.protocolVersion, '2026-07-28');
    const result = modern.callTool('askModel', { prompt: 'weather tomorrow?' });
    const view = await sampling('mock-modern');
    assert.deepEqual(view.response?.mock, { profile: 'weather', source: 'rule 1 (match "weather")' });
    assert.deepEqual(service.approve(view.id), { ok: true });
    assert.equal(textOf(await result), 'model mock-weather said: Sunny, 21 °C.');
  });

  test('the user\'s own policy "always" lets the mock answer without asking; "never" still rejects', async () => {
    await service.setPolicy(api.server('mock-legacy')!.definition, 'always');
    const outcome = await call('mock-legacy', 'sample', { prompt: 'weather?' });
    assert.deepEqual(outcome.result, { role: 'assistant', content: { type: 'text', text: 'Sunny, 21 °C.' }, model: 'mock-weather', stopReason: 'endTurn' });
    assert.equal(service.pendingCount, 0);
    await service.setPolicy(api.server('mock-legacy')!.definition, 'never');
    assert.match(String((await call('mock-legacy', 'sample', { prompt: 'weather?' })).message), /User rejected sampling request/);
    await service.setPolicy(api.server('mock-legacy')!.definition, 'ask');
  });

  test('an unknown profile: the server runs, its request shows why, and the config file has an error on the name', async () => {
    const result = call('mock-typo', 'sample', { prompt: 'weather?' });
    const view = await sampling('mock-typo');
    assert.equal(view.stage, 'review');
    assert.match(String(view.error), /No sampling mock profile "wether" is defined in "samplingMocks" of \.vscode\/mcp\.json \(defined: "weather"\)/);
    assert.ok(!view.models.some((m) => m.backend === 'mock'));
    service.deny(view.id);
    assert.equal((await result).ok, false);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(configFile()));
    const diagnostic = await waitFor(
      () => vscode.languages.getDiagnostics(configFile()).find((d) => d.code === 'mcp.sampling-mock-unknown'),
      'the unknown-profile diagnostic',
    );
    assert.match(diagnostic.message, /No sampling mock profile "wether".*did you mean "weather"\?/);
    assert.equal(diagnostic.severity, vscode.DiagnosticSeverity.Error);
  });

  test('an edited profile answers the next request without a restart', async () => {
    const legacy = await running(api, 'mock-legacy');
    const pid = (legacy.client as unknown as { transport?: { pid?: number } }).transport?.pid;
    await writeText(configFile(), config({ ...WEATHER, rules: [{ match: 'weather', reply: 'Snow.' }] }));
    await waitFor(() => api.server('mock-legacy')?.definition.samplingMock?.profile?.rules[0]?.reply.text === 'Snow.', 'the edited profile');
    const result = call('mock-legacy', 'sample', { prompt: 'weather?' });
    const view = await sampling('mock-legacy');
    assert.equal(view.draft.responseText, 'Snow.');
    service.approve(view.id);
    await result;
    assert.equal((api.server('mock-legacy')!.client as unknown as { transport?: { pid?: number } }).transport?.pid, pid, 'not restarted');
  });
});
