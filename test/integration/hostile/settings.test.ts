/**
 * A trusted single-folder workspace whose `.vscode/settings.json` (see
 * test/fixtures/workspaces/hostile/) tries to send the user's model key to its own endpoint,
 * pick the model, answer sampling without asking, lift the rate limit and the memory caps. None of it may take
 * effect: the user's settings (test/fixtures/workspaces/hostile.settings.json and what this
 * suite sets at user level) are what counts.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import type { ActivityLog } from '../../../src/traffic/common/activityLog';
import type { ApprovalService } from '../../../src/approval/approvalService';
import { startFakeOpenAi, type FakeOpenAi } from '../fakeOpenAi';
import { activateApi, running, setUserSetting, textOf, waitFor, writeText } from '../helpers';

const KEY = 'sk-user-key-0123456789';
const GUARDED = [
  'models.openaiCompatible.url',
  'models.preferred',
  'sampling.serverPolicies',
  'sampling.rateLimitPerMinute',
  'maxMessageSizeMB',
  'activity.maxEntries',
];

suite('A workspace cannot redirect the model key or loosen sampling approval', function () {
  this.timeout(90000);
  let api: McpWorkbenchApi;
  let service: ApprovalService;
  let user: FakeOpenAi;
  let attacker: FakeOpenAi;
  const cfg = () => vscode.workspace.getConfiguration('mcpWorkbench');
  const settingsFile = () => vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, '.vscode', 'settings.json');
  const window = vscode.window as unknown as Record<string, unknown>;
  const originalInputBox = vscode.window.showInputBox;

  suiteSetup(async () => {
    api = await activateApi();
    service = (await vscode.commands.executeCommand<ApprovalService>('mcpWorkbench.showRequests'))!;
    user = await startFakeOpenAi();
    attacker = await startFakeOpenAi();
    await setUserSetting('models.openaiCompatible.url', user.url);
    // The workspace's endpoint becomes a live server that records what reaches it.
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(settingsFile()));
    await writeText(
      settingsFile(),
      text
        .replace('http://127.0.0.1:9/v1', attacker.url)
        .replace('"attacker-model"', '"attacker-model-2"')
        .replace('"openai:attacker-model"', '"openai:attacker-model-2"'),
    );
    await waitFor(() => cfg().inspect('models.openaiCompatible.model')?.workspaceValue === 'attacker-model-2', 'the rewritten workspace settings');
    // "MCP: Set OpenAI-Compatible API Key": the user types the key into the real command's input box.
    window.showInputBox = async () => KEY;
    try {
      await vscode.commands.executeCommand('mcpWorkbench.setOpenAiApiKey');
    } finally {
      window.showInputBox = originalInputBox;
    }
  });

  suiteTeardown(async () => {
    for (const v of service?.views() ?? []) if (v.kind === 'sampling') service.deny(v.id);
    await setUserSetting('models.openaiCompatible.url', undefined);
    await user?.close();
    await attacker?.close();
  });

  test('what VS Code reports for the guarded settings (inspect)', () => {
    for (const key of GUARDED) {
      const inspected = cfg().inspect(key);
      console.log(
        `      ${key}: get=${JSON.stringify(cfg().get(key))} global=${JSON.stringify(inspected?.globalValue)} workspace=${JSON.stringify(inspected?.workspaceValue)}`,
      );
    }
    assert.equal(cfg().get('models.openaiCompatible.url'), user.url, "the effective endpoint is the user's");
  });

  test('sampling asks the user despite the workspace policy "always", and the rate limit stays', async () => {
    const c = await running(api, 'user-server');
    const before = attacker.requests.length + user.requests.length;
    const result = c.callTool('sampleMany', { prompt: 'unattended?', count: 11 });
    await waitFor(
      () => service.views().filter((v) => v.kind === 'sampling').length === 10,
      `10 requests waiting for the user (now ${service.views().length}, attacker got ${attacker.requests.length})`,
      30000,
    );
    for (const v of service.views()) if (v.kind === 'sampling') service.deny(v.id);
    const outcomes = JSON.parse(textOf(await result)) as { ok: boolean; message?: string }[];
    assert.equal(outcomes.filter((o) => /rate limit/i.test(o.message ?? '')).length, 1, JSON.stringify(outcomes));
    assert.equal(attacker.requests.length + user.requests.length, before, 'no model was asked without the user');
    assert.equal(service.policyOf(c.definition), 'ask');
    assert.equal(service.models.preferredModelId(), undefined, 'the workspace does not choose the model');
  });

  test('the OpenAI-compatible backend sends the key to the user-level URL only', async () => {
    const model = (await service.models.models()).find((m) => m.backend === 'openai-compatible');
    assert.ok(model, 'the OpenAI-compatible model is listed');
    assert.ok(model.label.includes(new URL(user.url).host), model.label);
    await service.models.generate(model, { messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }] });
    assert.equal(
      attacker.requests.length,
      0,
      `the workspace's endpoint got ${attacker.requests.length} request(s) with ${JSON.stringify(attacker.authorizations)}`,
    );
    assert.equal(user.requests.length, 1);
    assert.equal(user.authorizations[0], `Bearer ${KEY}`);
  });

  test("the memory caps stay the user's: the Activity log keeps its default bound", async () => {
    const log = (await vscode.commands.executeCommand<ActivityLog>('_mcpWorkbench.activityLog'))!;
    assert.equal(log.maxEntries, 1000, "the workspace's 10,000,000 is not used");
  });

  test('mcpWorkbench.servers in workspace settings defines no server', async () => {
    await running(api, 'user-server');
    assert.equal(api.server('settings-server'), undefined);
  });
});
