/**
 * A hostile server's words never become live markup: errors that carry a
 * `[click](command:workbench.action.quit)` link reach notifications (start failure, re-run,
 * prompt) and chat as plain text. Two fixture servers from the user setting do it: one answers
 * `initialize` with such an error, the other has a tool and a prompt that fail with it.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import type { ActivityLog } from '../../../src/traffic/common/activityLog';
import { createChatHandler } from '../../../src/chat/chatHandler';
import type { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import { activateApi, NOTIFICATION_LINK, recordNotifications, running, setUserSetting, waitFor } from '../helpers';

const LINK = '[click](command:workbench.action.quit)';
/** A markdown link whose brackets are not backslash-escaped. */
const LIVE_MARKDOWN_LINK = /(?<!\\)\[[^\]]*(?<!\\)\]\(/;

suite('Hostile server text', function () {
  this.timeout(60000);
  let api: McpWorkbenchApi;
  let hostile: McpServerConnection;
  let recorder: ReturnType<typeof recordNotifications>;
  const cfg = () => vscode.workspace.getConfiguration('mcpWorkbench');
  let original: Record<string, unknown> | undefined;
  const fixture = (env: Record<string, string>) => ({ command: 'node', args: ['${env:MCPWB_FIXTURES}/servers/stdioServer.js'], env });

  suiteSetup(async () => {
    api = await activateApi();
    recorder = recordNotifications();
    original = cfg().inspect<Record<string, unknown>>('servers')?.globalValue;
    await setUserSetting('servers', {
      ...original,
      'hostile-text': fixture({ FIXTURE_HOSTILE_TEXT: LINK }),
      'hostile-start': fixture({ FIXTURE_FAIL_INITIALIZE: `${LINK} to fix it` }),
    });
    hostile = await running(api, 'hostile-text');
  });

  suiteTeardown(async () => {
    recorder?.dispose();
    await setUserSetting('servers', original);
    await waitFor(() => !api.servers().some((s) => s.definition.name.startsWith('hostile-')), 'the hostile servers to go');
  });

  const shown = (part: string) =>
    waitFor(() => recorder.messages.find((m) => m.includes(part)), `a notification with "${part}" (seen: ${JSON.stringify(recorder.messages)})`);

  const assertPlain = (message: string) => {
    assert.doesNotMatch(message, NOTIFICATION_LINK, `a live link in: ${message}`);
    assert.ok(message.includes('[click] (command:workbench.action.quit)'), `the text is still shown: ${message}`);
  };

  test('a start failure with a command link is shown without a live link', async () => {
    const failed = await waitFor(() => api.server('hostile-start')?.state.kind === 'error' && api.server('hostile-start'), 'hostile-start to fail');
    assert.ok(failed.state.kind === 'error' && failed.state.message.includes(LINK), JSON.stringify(failed.state));
    assertPlain(await shown('to fix it'));
  });

  test('a re-run tool error with a command link is shown without a live link', async () => {
    await assert.rejects(hostile.callTool('hostile', {}), /click/);
    const log = (await vscode.commands.executeCommand<ActivityLog>('_mcpWorkbench.activityLog'))!;
    const entry = await waitFor(
      () => log.entries().find((e) => e.serverId === hostile.definition.id && e.rerun?.name === 'hostile' && e.status.kind === 'error'),
      'the failed call',
    );
    await vscode.commands.executeCommand('mcpWorkbench.rerunActivityEntry', entry);
    assertPlain(await shown('Re-running tool hostile'));
  });

  test('a prompt error with a command link is shown without a live link', async () => {
    const prompter = { pickPrompt: async () => undefined, ask: async () => undefined };
    await vscode.commands.executeCommand('mcpWorkbench.runPrompt', { serverId: hostile.definition.id, promptName: 'hostile' }, { prompter, noPreview: true });
    assertPlain(await shown('could not produce prompt "hostile"'));
  });

  test("chat shows the server's error and tool description as text, not as a link", async () => {
    const markdown: string[] = [];
    const stream = {
      markdown: (v: string | vscode.MarkdownString) => markdown.push(typeof v === 'string' ? v : v.value),
      progress: () => undefined,
    } as unknown as vscode.ChatResponseStream;
    const handler = createChatHandler({
      registry: { all: () => api.servers(), find: (key: string) => api.server(key) },
      isToolDisabled: () => false,
      maxTools: () => 128,
      confirm: async () => true,
      prompter: { pickPrompt: async () => undefined, ask: async () => undefined },
      pickResource: async () => undefined,
    });
    const model = {} as vscode.LanguageModelChat;
    const token = new vscode.CancellationTokenSource().token;
    const context = { history: [] } as unknown as vscode.ChatContext;
    const ask = (prompt: string, command?: string) =>
      handler(
        { prompt, command, model, references: [], toolReferences: [], toolInvocationToken: undefined } as unknown as vscode.ChatRequest,
        context,
        stream,
        token,
      );
    await ask('/hostile-text.hostile');
    await ask('', 'tools');
    const text = markdown.join('\n');
    assert.ok(text.includes('could not produce prompt'), text);
    assert.ok(text.includes('Fails with'), text);
    assert.doesNotMatch(text, LIVE_MARKDOWN_LINK, text);
  });
});
