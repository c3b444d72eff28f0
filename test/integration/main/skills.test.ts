/**
 * Skills over MCP (SEP-2640) in a real VS Code, against the skills fixture (test/fixtures/
 * servers/skillsServer.ts, the SDK v2 server's SkillsExtension): the Servers tree has a Skills
 * group for it (and none for a server without skills), listing reads no SKILL.md, opening the
 * good skill shows its verified SKILL.md (markdown preview, and as text), and opening the one
 * whose listed digest is wrong is refused with one line and shows nothing; `@mcp /skill` gives the
 * model the verified SKILL.md (the handler called with a fake request, model and stream, as in
 * chat.test.ts: the VS Code build under test may have no chat UI) and refuses the bad one.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import type { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import type { ServerNode, SkillNode, TreeNode } from '../../../src/servers/serverTreeNodes';
import { createChatHandler, type McpChatMetadata } from '../../../src/chat/chatHandler';
import { GOOD_SKILL_MD } from '../../fixtures/servers/skillsServer';
import { fakeModel, partText } from '../fakeChat';
import { activateApi, recordNotifications, running, waitFor } from '../helpers';

const FIXTURES = process.env.MCPWB_FIXTURES ?? '';

suite('Skills (SEP-2640)', function () {
  this.timeout(60000);
  let api: McpWorkbenchApi;
  let original: Record<string, unknown> | undefined;
  let notifications: ReturnType<typeof recordNotifications>;
  let c: McpServerConnection;
  let recordDir: string;
  const record = () => path.join(recordDir, 'reads.jsonl');
  const reads = () =>
    fs.existsSync(record())
      ? fs
          .readFileSync(record(), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => (JSON.parse(l) as { read: string }).read)
      : [];
  const cfg = () => vscode.workspace.getConfiguration('mcpWorkbench');
  const tree = () => api.testing.serverTree;
  const tabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs);

  async function groupsOf(connection: McpServerConnection): Promise<TreeNode[]> {
    const server = (await tree().getChildren()).find((n) => n.kind === 'server' && n.connection === connection) as ServerNode;
    return tree().getChildren(server);
  }

  async function skillNodes(): Promise<SkillNode[]> {
    const group = (await groupsOf(c)).find((n) => n.kind === 'skills');
    assert.ok(group, 'a Skills group');
    return (await tree().getChildren(group)) as SkillNode[];
  }

  suiteSetup(async () => {
    api = await activateApi();
    notifications = recordNotifications();
    recordDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-skills-'));
    original = cfg().inspect<Record<string, unknown>>('servers')?.globalValue;
    await cfg().update(
      'servers',
      {
        ...original,
        'skills-fixture': { type: 'stdio', command: 'node', args: [path.join(FIXTURES, 'servers', 'skillsServer.js')], env: { FIXTURE_RECORD: record() } },
      },
      vscode.ConfigurationTarget.Global,
    );
    c = await running(api, 'skills-fixture');
  });

  suiteTeardown(async () => {
    notifications.dispose();
    await cfg().update('servers', original, vscode.ConfigurationTarget.Global);
    await waitFor(() => !api.servers().some((s) => s.definition.name === 'skills-fixture'), 'the skills server to go');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(recordDir, { recursive: true, force: true });
  });

  test('the Servers tree has a Skills group for a server that offers skills, with each skill, and reads no SKILL.md for it', async () => {
    const group = await waitFor(async () => (await groupsOf(c)).find((n) => n.kind === 'skills'), 'the Skills group');
    const groupItem = tree().getTreeItem(group);
    assert.equal(groupItem.label, 'Skills');
    const nodes = await skillNodes();
    const items = nodes.map((n) => tree().getTreeItem(n));
    assert.deepEqual(items.map((i) => [i.label, i.description]).sort(), [
      ['broken-digest', 'A skill whose listed digest does not match its SKILL.md'],
      ['code-review', 'Review a change for correctness, tests and clear names'],
    ]);
    assert.equal(items[0].contextValue, 'skill');
    assert.equal(items[0].command?.command, '_mcpWorkbench.openSelectedServerItem');
    assert.equal((nodes[0] as SkillNode).openCommand().command, 'mcpWorkbench.openSkill');
    await waitFor(() => tree().getTreeItem(group).description === '2', 'the group to count 2 skills');
    assert.deepEqual(reads(), [], 'listing fetched no skill file');
    const legacy = await running(api, 'fixture-stdio');
    assert.ok(!(await groupsOf(legacy)).some((n) => n.kind === 'skills'), 'no Skills group for a server without the extension');
  });

  test('opening a skill shows its verified SKILL.md in the markdown preview, and as text', async () => {
    const node = (await skillNodes()).find((n) => n.skill.frontmatter.name === 'code-review')!;
    const opened = await vscode.commands.executeCommand<string | undefined>('mcpWorkbench.openSkill', { serverId: c.definition.id, skillUri: node.skillUri });
    assert.ok(opened, `not opened; notifications: ${notifications.messages.join(' | ')}`);
    const uri = vscode.Uri.parse(opened);
    assert.equal(uri.scheme, 'mcp-skill');
    assert.equal((await vscode.workspace.openTextDocument(uri)).getText(), GOOD_SKILL_MD);
    await waitFor(
      () => tabs().some((t) => /SKILL\.md/.test(t.label)),
      () =>
        `a SKILL.md preview tab; tabs: ${tabs()
          .map((t) => t.label)
          .join(', ')}`,
    );
    assert.deepEqual(reads(), ['skill://code-review/SKILL.md'], "only the opened skill's SKILL.md was fetched");

    const source = await vscode.commands.executeCommand<string | undefined>('mcpWorkbench.openSkillSource', {
      serverId: c.definition.id,
      skillUri: node.skillUri,
    });
    assert.equal(source, opened);
    const editor = await waitFor(
      () => vscode.window.activeTextEditor?.document.uri.toString() === opened && vscode.window.activeTextEditor,
      'the SKILL.md as text',
    );
    assert.equal(editor.document.languageId, 'markdown');
    assert.equal(editor.document.getText(), GOOD_SKILL_MD);
  });

  test('a skill whose SKILL.md does not match its listed digest is refused with one line, and not shown', async () => {
    const node = (await skillNodes()).find((n) => n.skill.frontmatter.name === 'broken-digest')!;
    const before = notifications.messages.length;
    const opened = await vscode.commands.executeCommand<string | undefined>('mcpWorkbench.openSkill', { serverId: c.definition.id, skillUri: node.skillUri });
    assert.equal(opened, undefined);
    const refusal = await waitFor(
      () => notifications.messages.slice(before).find((m) => m.startsWith('Refused skill')),
      () => `a refusal; got: ${notifications.messages.slice(before).join(' | ')}`,
    );
    assert.equal(
      refusal,
      'Refused skill "broken-digest" of skills-fixture: its SKILL.md does not match the digest the server listed. Ask the server\'s author to republish it; details are in the server\'s log.',
    );
    assert.ok(!tabs().some((t) => /broken-digest/.test(String((t.input as { uri?: vscode.Uri } | undefined)?.uri ?? ''))), 'no tab shows the refused skill');
  });

  /** The shared fake model answering "ok" (what it was sent: `sent`, one text per message); a stream that records the markdown. */
  function fakeChat() {
    const { model, calls } = fakeModel(() => [new vscode.LanguageModelTextPart('ok')]);
    const markdown: string[] = [];
    const stream = {
      markdown: (v: string | vscode.MarkdownString) => markdown.push(typeof v === 'string' ? v : v.value),
      progress: () => undefined,
    } as unknown as vscode.ChatResponseStream;
    const handler = createChatHandler({
      registry: { all: () => api.servers(), find: (key: string) => api.server(key) },
      isToolDisabled: () => false,
      maxTools: () => 128,
      confirm: async () => false,
      prompter: { pickPrompt: async () => undefined, ask: async () => undefined },
      pickResource: async () => undefined,
    });
    const ask = async (prompt: string) =>
      (await handler(
        { prompt, command: 'skill', model, references: [], toolReferences: [], toolInvocationToken: undefined } as unknown as vscode.ChatRequest,
        { history: [] } as unknown as vscode.ChatContext,
        stream,
        new vscode.CancellationTokenSource().token,
      )) as vscode.ChatResult & { metadata: McpChatMetadata };
    return {
      ask,
      get sent() {
        return calls.map((c) => c.messages.map(partText));
      },
      markdown,
    };
  }

  test('@mcp /skill gives the model the verified SKILL.md with the question, and refuses a skill that fails verification', async () => {
    const chat = fakeChat();
    const good = await chat.ask('skills-fixture/code-review how do I review this change?');
    assert.deepEqual(good.metadata.skill, { uri: 'skill://code-review/SKILL.md', refused: false });
    assert.equal(chat.sent.length, 1);
    const [context, question] = chat.sent[0];
    assert.ok(context.includes(GOOD_SKILL_MD), context);
    assert.match(context, /^The user chose the skill "code-review" \(skill:\/\/code-review\/SKILL\.md\) of the MCP server "skills-fixture"/);
    assert.equal(question, 'how do I review this change?');

    const bad = await chat.ask('skills-fixture/broken-digest what now?');
    assert.deepEqual(bad.metadata.skill, { uri: 'skill://broken-digest/SKILL.md', refused: true });
    assert.equal(chat.sent.length, 1, 'nothing was sent to the model for the refused skill');
    assert.match(chat.markdown.join(''), /Refused skill "broken\\?-digest" of skills\\?-fixture: its SKILL\\?\.md does not match the digest/);
  });
});
