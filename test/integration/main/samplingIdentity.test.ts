/**
 * Sampling policies belong to one definition, not to a name (issue 26, finding 2): a workspace
 * server named like the user's own server (`user-server` of the user settings, here launched
 * with the very same command) does not get the user's policy "always": it is asked, and
 * "Always" in its panel is recorded for it alone.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import type { ApprovalService } from '../../../src/approval/approvalService';
import type { SamplingView } from '../../../src/approval/common/approvalProtocol';
import type { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import { startFakeOpenAi, type FakeOpenAi } from '../fakeOpenAi';
import { activateApi, folderUri, setUserSetting, textOf, waitFor, writeText } from '../helpers';

type Outcome = { ok: boolean; result?: { content: { text: string } }; message?: string };

const configFile = () => vscode.Uri.joinPath(folderUri('folder-b'), '.vscode', 'mcp.json');
const cfg = () => vscode.workspace.getConfiguration('mcpWorkbench');

suite('Sampling policies belong to one definition, not to a name', function () {
  this.timeout(90000);
  let api: McpWorkbenchApi;
  let service: ApprovalService;
  let fake: FakeOpenAi;
  const byScope = (scope: 'user' | 'workspace') => api.servers().find((s) => s.definition.name === 'user-server' && s.definition.source.scope === scope);
  const runningIn = (scope: 'user' | 'workspace') =>
    waitFor(() => {
      const c = byScope(scope);
      return c?.state.kind === 'running' && c;
    }, `the ${scope} "user-server" to run`);
  const sample = (c: McpServerConnection, prompt: string) =>
    c.callTool('sample', { prompt, hints: ['fake-model'] }).then((r) => JSON.parse(textOf(r)) as Outcome);

  suiteSetup(async () => {
    api = await activateApi();
    service = (await vscode.commands.executeCommand<ApprovalService>('mcpWorkbench.showRequests'))!;
    service.resetSession();
    fake = await startFakeOpenAi();
    await setUserSetting('models.openaiCompatible.url', fake.url);
    await setUserSetting('models.openaiCompatible.model', 'fake-model');
    // The user trusts their own "user-server" (the name-only key of earlier versions).
    await setUserSetting('sampling.serverPolicies', { 'user-server': 'always' });
    // The workspace brings a server of the same name, launched exactly like the user's.
    await writeText(
      configFile(),
      JSON.stringify({
        servers: { 'user-server': { command: 'node', args: ['${env:MCPWB_FIXTURES}/servers/stdioServer.js'], env: { FIXTURE_SERVER_NAME: 'lookalike' } } },
      }),
    );
    await runningIn('workspace');
  });

  teardown(() => {
    for (const v of service.views()) if (v.kind === 'sampling') service.deny(v.id);
  });

  suiteTeardown(async () => {
    for (const v of service?.views() ?? []) if (v.kind === 'sampling') service.deny(v.id);
    await setUserSetting('sampling.serverPolicies', undefined);
    await setUserSetting('models.openaiCompatible.url', undefined);
    await setUserSetting('models.openaiCompatible.model', undefined);
    await vscode.workspace.fs.delete(configFile()).then(undefined, () => undefined);
    await waitFor(() => !byScope('workspace'), 'the workspace lookalike to go');
    await fake?.close();
  });

  test("the user's server samples without asking; the workspace one named like it is asked", async () => {
    const mine = await runningIn('user');
    const answered = await sample(mine, 'mine');
    assert.equal(answered.ok, true, JSON.stringify(answered));
    assert.equal(answered.result?.content.text, 'fake says: mine');

    const theirs = await runningIn('workspace');
    const before = fake.requests.length;
    const result = sample(theirs, 'theirs');
    // On the old code the name key answered for it: the call returned with the model's reply and nothing waited.
    const view = await Promise.race([
      waitFor(
        () => service.views().find((v): v is SamplingView => v.kind === 'sampling' && v.server.id === theirs.definition.id),
        "the workspace server's request in the panel",
      ),
      result.then((outcome) => assert.fail(`the workspace server's request was answered without asking: ${JSON.stringify(outcome)}`)),
    ]);
    assert.equal(fake.requests.length, before, 'no model was asked for the workspace server');
    assert.equal(service.policyOf(theirs.definition), 'ask');
    service.deny(view.id);
    assert.equal((await result).ok, false);
  });

  test('"Always" in the workspace server\'s request is recorded for that definition only', async () => {
    const theirs = await runningIn('workspace');
    const result = sample(theirs, 'again');
    const view = await waitFor(
      () => service.views().find((v): v is SamplingView => v.kind === 'sampling' && v.server.id === theirs.definition.id),
      'the request in the panel',
    );
    // What the panel's policy menu does.
    assert.deepEqual(await service.setPolicyOfRequest(view.id, 'always'), { ok: true });
    service.deny(view.id);
    await result;
    const stored = cfg().inspect<Record<string, string>>('sampling.serverPolicies')?.globalValue ?? {};
    const key = Object.keys(stored).find((k) => k !== 'user-server');
    assert.ok(key, JSON.stringify(stored));
    assert.equal(stored[key], 'always');
    assert.ok(key.startsWith(`user-server@${configFile().fsPath} node `), key);
    assert.ok(key.endsWith(path.join('servers', 'stdioServer.js')), key);
    assert.equal(stored['user-server'], 'always', "the user's own name key is left to the user's server");
    const outcome = await sample(theirs, 'now trusted');
    assert.equal(outcome.result?.content.text, 'fake says: now trusted');
  });
});
