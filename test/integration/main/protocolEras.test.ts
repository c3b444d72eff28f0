/**
 * The main flows inside a real VS Code against a server of each protocol era: fixture-modern
 * (SDK v2, MCP 2026-07-28) and fixture-stdio (SDK v1, MCP 2025-11-25), both under
 * `protocolEra: auto`. And a 2026 tool that asks for input: the question goes to the MCP
 * Requests panel, the answer reaches the tool's result, the rounds are grouped in Activity.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import type { ActivityLog } from '../../../src/traffic/common/activityLog';
import { factsOf } from '../../../src/traffic/common/exchangeFacts';
import type { InspectorRow } from '../../../src/inspector/common/inspectorRows';
import { buildRows } from '../../../src/inspector/common/rowsModel';
import type { ApprovalService } from '../../../src/approval/approvalService';
import type { ElicitFormView } from '../../../src/approval/common/approvalProtocol';
import type { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import type { PromptPrompter } from '../../../src/prompts/common/promptFlow';
import type { RunPromptResult } from '../../../src/prompts/registerPrompts';
import type { OpenResult } from '../../../src/resources/resourceCommands';
import type { ServerNode } from '../../../src/servers/serverTreeNodes';
import type { SubmitResult, ToolRunnerPanel } from '../../../src/toolRunner/toolRunnerPanel';
import { activateApi, running, waitFor } from '../helpers';

const noQuestions: PromptPrompter = {
  pickPrompt: async () => undefined,
  ask: async (request) => {
    throw new Error(`unexpected question for ${request.argument.name}`);
  },
};

suite('Protocol eras (2026-07-28 and 2025-11-25)', function () {
  this.timeout(60000);
  let api: McpWorkbenchApi;
  let modern: McpServerConnection;
  let legacy: McpServerConnection;
  const panels: ToolRunnerPanel[] = [];
  const both = () =>
    [
      { c: modern, era: 'modern', version: '2026-07-28' },
      { c: legacy, era: 'legacy', version: '2025-11-25' },
    ] as const;

  async function runTool(c: McpServerConnection, toolName: string, args: Record<string, unknown>): Promise<SubmitResult> {
    await c.list('tools');
    const panel = await vscode.commands.executeCommand<ToolRunnerPanel | undefined>('mcpWorkbench.runTool', { serverId: c.definition.id, toolName });
    assert.ok(panel, `no panel for ${toolName}`);
    panels.push(panel);
    panel.confirm = async () => true;
    return panel.submit(args);
  }

  const resultText = (outcome: SubmitResult) =>
    outcome.kind === 'result' ? outcome.blocks.map((b) => (b.kind === 'text' ? b.text : '')).join('') : `${outcome.kind}`;

  suiteSetup(async () => {
    api = await activateApi();
    modern = await running(api, 'fixture-modern');
    legacy = await running(api, 'fixture-stdio');
  });

  suiteTeardown(async () => {
    for (const panel of panels) panel.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('each server runs in its era, and the tree says which', async () => {
    const tree = api.testing.serverTree;
    const nodes = (await tree.getChildren()) as ServerNode[];
    for (const { c, era, version } of both()) {
      assert.equal(c.state.kind === 'running' && c.state.era, era, c.definition.name);
      assert.equal(c.state.kind === 'running' && c.state.protocolVersion, version);
      const item = tree.getTreeItem(nodes.find((n) => n.connection === c)!);
      assert.match(String(item.description), new RegExp(`stdio · ${version}`));
      const tooltip = (item.tooltip as vscode.MarkdownString).value;
      assert.match(tooltip, era === 'modern' ? /Protocol: MCP 2026-07-28 \(stateless\)/ : /Protocol: MCP 2025-11-25 \(initialize handshake\)/);
      // Where the era came from (issue 30): probed, or remembered from an earlier start of the same launch.
      assert.match(tooltip, /Protocol: MCP [^\n]*, era (probed at this start|remembered from [^\n]+)/);
    }
  });

  test("the Inspector's handshake row says how the era was decided: a restart remembers it", async () => {
    const log = (await vscode.commands.executeCommand<ActivityLog>('_mcpWorkbench.activityLog'))!;
    const flat = (rows: readonly InspectorRow[]): InspectorRow[] => rows.flatMap((r) => [r, ...flat(r.children)]);
    for (const { c, era, version } of both()) {
      // A restart is a second start of the same launch: its era comes from the first one's verdict.
      const before = log.entries()[0]?.seq ?? 0;
      await c.restart();
      await waitFor(() => c.state.kind === 'running', `${c.definition.name} running again`);
      const handshake = await waitFor(
        () =>
          log
            .entries()
            .find(
              (e) => e.seq > before && e.serverId === c.definition.id && e.kind === 'request' && /^(initialize|server\/discover)$/.test(e.method) && e.note,
            ),
        `the noted handshake of ${c.definition.name}`,
      );
      // The rows the Inspector builds from the log (the same model its panel uses).
      const row = flat(buildRows(log.entries(), factsOf)).find((r) => r.seq === handshake.seq);
      const protocol = era === 'modern' ? `MCP ${version} \\(stateless\\)` : `MCP ${version} \\(initialize handshake\\)`;
      assert.match(
        row?.note ?? '',
        new RegExp(`^${protocol}, era remembered from .+`),
        `${c.definition.name}: ${handshake.method} row ${JSON.stringify(row?.note)}`,
      );
    }
  });

  test('Run Tool runs a tool on either era', async () => {
    for (const { c } of both()) {
      const outcome = await runTool(c, 'echo', { text: `hi ${c.definition.name}` });
      assert.equal(outcome.kind, 'result', JSON.stringify(outcome));
      assert.match(resultText(outcome), new RegExp(`hi ${c.definition.name}`));
    }
  });

  test('a resource opens from either era', async () => {
    for (const [c, uri, text] of [
      [modern, 'fixture://static/readme', 'Modern fixture read-me.'],
      [legacy, 'fixture://static/hello', 'Hello from the fixture'],
    ] as const) {
      const result = await vscode.commands.executeCommand<OpenResult | undefined>('mcpWorkbench.openResource', { serverId: c.definition.id, uri });
      assert.equal(result?.shownAs, 'text');
      assert.equal(vscode.window.activeTextEditor?.document.getText(), text);
    }
  });

  test('an open 2026 resource is followed over subscriptions/listen, and let go when closed', async () => {
    const uri = 'fixture://static/readme';
    await vscode.commands.executeCommand('mcpWorkbench.openResource', { serverId: modern.definition.id, uri });
    await waitFor(async () => vscode.commands.executeCommand<boolean>('_mcpWorkbench.resourceSubscribed', modern.definition.id, uri), 'the subscription');
    const log = (await vscode.commands.executeCommand<ActivityLog>('_mcpWorkbench.activityLog'))!;
    await waitFor(
      () => log.entries().find((e) => e.serverId === modern.definition.id && e.method === 'subscriptions/listen' && JSON.stringify(e.request).includes(uri)),
      'a listen request for the resource',
    );
    assert.ok(!log.entries().some((e) => e.serverId === modern.definition.id && e.method === 'resources/subscribe'));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await waitFor(
      async () => !(await vscode.commands.executeCommand<boolean>('_mcpWorkbench.resourceSubscribed', modern.definition.id, uri)),
      'the subscription to end',
    );
  });

  test('a prompt runs on either era', async () => {
    for (const { c, era } of both()) {
      // The old fixture's review prompt also has an optional `focus`; given, nothing is asked.
      const args = era === 'legacy' ? { code: 'x = 1', language: 'python', focus: 'naming' } : { code: 'x = 1', language: 'python' };
      const result = await vscode.commands.executeCommand<RunPromptResult | undefined>('mcpWorkbench.runPrompt', {
        serverId: c.definition.id,
        promptName: 'review',
        arguments: args,
        prompter: noQuestions,
      });
      assert.ok(result, c.definition.name);
      assert.match(result.text, /x = 1/);
    }
  });

  test("a 2026 server's list changes reach the tree over subscriptions/listen", async () => {
    const tree = api.testing.serverTree;
    const node = ((await tree.getChildren()) as ServerNode[]).find((n) => n.connection === modern)!;
    await modern.list('tools');
    await modern.callTool('addTool', { name: 'added-in-vscode-2026' });
    await waitFor(() => modern.cached('tools')?.some((t) => t.name === 'added-in-vscode-2026'), 'the tool list to follow the change');
    const groups = await tree.getChildren(node);
    const tools = groups.find((g) => tree.getTreeItem(g).label === 'Tools')!;
    const names = (await tree.getChildren(tools)).map((t) => String(tree.getTreeItem(t).label));
    assert.ok(names.includes('added-in-vscode-2026'), names.join());
  });

  test('a 2026 tool that elicits: the MCP Requests panel asks, the answer reaches the result, Activity groups the rounds', async () => {
    const service = (await vscode.commands.executeCommand<ApprovalService>('mcpWorkbench.showRequests'))!;
    const log = (await vscode.commands.executeCommand<ActivityLog>('_mcpWorkbench.activityLog'))!;
    const outcome = runTool(modern, 'askName', {});
    const view = await waitFor(
      () => service.views().find((v): v is ElicitFormView => v.kind === 'elicitForm' && v.server.id === modern.definition.id),
      'the elicitation form',
    );
    assert.equal(view.message, 'What is your name?');
    assert.deepEqual(service.accept(view.id, { name: 'Grace' }), { ok: true });
    assert.equal(resultText(await outcome), 'hello, Grace');
    const first = log.topLevel().find((e) => e.serverId === modern.definition.id && e.method === 'tools/call' && e.inputRequired);
    assert.ok(first, 'the first round is in Activity, marked input required');
    const rounds = log.rounds(first);
    assert.deepEqual(
      rounds.map((r) => r.round),
      [2],
    );
    assert.match(JSON.stringify(rounds[0].response), /hello, Grace/);
  });
});
