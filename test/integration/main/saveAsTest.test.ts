/**
 * Save as Test in a real VS Code: a call run in the Run Tool panel (fixture-stdio) is saved as a
 * test case into a `*.mcptest.json` file of the fixture workspace, without its secret argument,
 * and the Testing view's controller runs the saved file: it passes, and fails once the
 * expectation no longer holds. The file pick and the save dialog are the human steps: tests
 * replace `panel.saveAsTestUi` (as they replace `panel.confirm`), and record what they were offered.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpTestsTesting } from '../../../src/mcpTests/registerMcpTests';
import type { SaveAsTestUi, SavedTest, TestFileChoice } from '../../../src/toolRunner/saveRunAsTest';
import type { ActivityLog } from '../../../src/traffic/common/activityLog';
import type { ToolRunnerPanel } from '../../../src/toolRunner/toolRunnerPanel';
import { parseTestFile } from '../../../src/mcpTests/common/parseTestFile';
import { activateApi, folderUri, running, waitFor } from '../helpers';

suite('Save as Test from Run Tool', function () {
  this.timeout(90000);
  let serverId: string;
  let tests: McpTestsTesting;
  const opened: ToolRunnerPanel[] = [];
  const target = vscode.Uri.joinPath(folderUri('folder-a'), 'mcp-tests', `saved-${Date.now().toString(36)}.mcptest.json`);
  const relative = `folder-a/mcp-tests/${target.path.split('/').pop()}`;
  const secret = 'sk-save-as-test-0815';

  async function open(toolName: string): Promise<ToolRunnerPanel> {
    const panel = await vscode.commands.executeCommand<ToolRunnerPanel | undefined>('mcpWorkbench.runTool', { serverId, toolName });
    assert.ok(panel, `no panel for ${toolName}`);
    opened.push(panel);
    panel.confirm = async () => true;
    return panel;
  }

  const read = async () => new TextDecoder().decode(await vscode.workspace.fs.readFile(target));

  suiteSetup(async () => {
    const api = await activateApi();
    const c = await running(api, 'fixture-stdio');
    serverId = c.definition.id;
    tests = (await vscode.commands.executeCommand<McpTestsTesting>('_mcpWorkbench.testing.mcpTests'))!;
  });

  suiteTeardown(async () => {
    for (const panel of opened) panel.dispose();
    delete process.env.MCPWB_INPUT_APIKEY;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(target).then(undefined, () => undefined);
  });

  test('a run saved as a new test file is valid, opens in an editor and passes when run', async () => {
    const panel = await open('add');
    const outcome = await panel.submit({ a: 2, b: 3 });
    assert.equal(outcome.kind, 'result');
    const offered: { files?: TestFileChoice[]; defaultUri?: string } = {};
    panel.saveAsTestUi = {
      pickFile: async (files) => ((offered.files = files), 'new'),
      newFile: async (defaultUri) => ((offered.defaultUri = defaultUri?.path), target),
    };
    // The palette's command saves the active panel's last run (the panel just opened is the active tab).
    const saved = await vscode.commands.executeCommand<SavedTest | undefined>('mcpWorkbench.saveRunAsTest');
    assert.equal(saved?.uri.toString(), target.toString());
    assert.equal(saved?.name, 'add {"a":2,"b":3}');
    assert.ok(
      offered.files?.some((f) => f.uri.path.endsWith('/folder-a/mcp-tests/fixture.mcptest.json')),
      "the server's existing test files are offered",
    );
    assert.ok(!offered.files?.some((f) => f.uri.path.endsWith('broken.mcptest.json')), 'a file of another server is not');
    assert.match(offered.defaultUri ?? '', /\/tests\/fixture-stdio\.mcptest\.json$/);
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), target.toString(), 'the file is open for the user to tighten');

    const parsed = parseTestFile(await read());
    assert.deepEqual(parsed.problems, []);
    // The parser's objects have no prototype; compared as plain JSON.
    assert.deepEqual(JSON.parse(JSON.stringify(parsed.file)), {
      server: 'fixture-stdio',
      tests: [
        {
          name: 'add {"a":2,"b":3}',
          steps: [{ callTool: { name: 'add', arguments: { a: 2, b: 3 } }, expect: { isError: false, match: { structuredContent: { sum: 5 } } } }],
        },
      ],
    });
    await waitFor(
      async () => (await tests.discover()).find((f) => f.file === relative && !f.error && f.tests.length === 1),
      'the Testing view to find the saved file',
    );
    const outcomes = await tests.run([relative]);
    assert.deepEqual(
      outcomes.map((o) => `${o.id}: ${o.state}`),
      ['add {"a":2,"b":3}: passed'],
      JSON.stringify(outcomes, null, 2),
    );
  });

  test('a run with a secret argument is appended to the chosen file as ${input:…}, never the value, and runs with the input given', async () => {
    const panel = await open('formDemo');
    const outcome = await panel.submit({ name: 'Ada', count: 2, apiKey: secret });
    assert.ok(outcome.kind === 'result' && !outcome.isError);
    const before = await read();
    panel.saveAsTestUi = {
      pickFile: async (files) => files.find((f) => f.uri.toString() === target.toString()),
      newFile: async () => assert.fail('no new file was asked for'),
    };
    const saved = await panel.saveAsTest();
    assert.equal(saved?.name, 'formDemo {"name":"Ada","count":2}');
    const text = await read();
    assert.equal(text.includes(secret), false, text);
    assert.equal(text.includes('«redacted»'), false, 'no redacted echo of the secret as an expectation');
    assert.ok(text.startsWith(before.slice(0, before.lastIndexOf('}', before.lastIndexOf(']')))), 'the first case is kept as it was');
    const file = parseTestFile(text).file;
    assert.deepEqual(JSON.parse(JSON.stringify(file?.tests[1])), {
      name: 'formDemo {"name":"Ada","count":2}',
      steps: [
        {
          callTool: { name: 'formDemo', arguments: { name: 'Ada', count: 2, apiKey: '${input:apiKey}' } },
          expect: { isError: false, match: { structuredContent: { name: 'Ada', count: 2 } } },
        },
      ],
    });
    // The input's value comes from the environment of VS Code (here the test's own process), as the guide says.
    process.env.MCPWB_INPUT_APIKEY = secret;
    await waitFor(async () => (await tests.discover()).find((f) => f.file === relative && f.tests.length === 2), 'the appended test in the Testing view');
    const outcomes = await tests.run([relative]);
    assert.deepEqual(
      outcomes.map((o) => `${o.id}: ${o.state}`).sort(),
      ['add {"a":2,"b":3}: passed', 'formDemo {"name":"Ada","count":2}: passed'],
      JSON.stringify(outcomes, null, 2),
    );
  });

  test('the saved test fails once the answer differs from the saved expectation', async () => {
    const edit = new vscode.WorkspaceEdit();
    const document = await vscode.workspace.openTextDocument(target);
    const at = document.getText().indexOf('"sum": 5');
    assert.ok(at >= 0, document.getText());
    edit.replace(target, new vscode.Range(document.positionAt(at), document.positionAt(at + '"sum": 5'.length)), '"sum": 6');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await document.save());
    const outcomes = await tests.run([`${relative}#add {"a":2,"b":3}`]);
    assert.deepEqual(
      outcomes.map((o) => `${o.id}: ${o.state}`),
      ['add {"a":2,"b":3}: failed'],
      JSON.stringify(outcomes, null, 2),
    );
    assert.match(outcomes[0].messages[0].message, /structuredContent\.sum/);
  });

  test('a run that ended without a result is not saved, and says why', async () => {
    const panel = await open('add');
    panel.saveAsTestUi = { pickFile: async () => assert.fail('no file is asked for'), newFile: async () => assert.fail('no file is asked for') };
    assert.equal(await panel.saveAsTest('no-such-run'), undefined);
  });
});

suite('Save as Test from an Inspector row', function () {
  this.timeout(90000);
  const target = vscode.Uri.joinPath(folderUri('folder-a'), 'mcp-tests', `row-${Date.now().toString(36)}.mcptest.json`);
  const relative = `folder-a/mcp-tests/${target.path.split('/').pop()}`;
  const secret = 'sk-inspector-row-0816';

  suiteTeardown(async () => {
    delete process.env.MCPWB_INPUT_APIKEY;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(target).then(undefined, () => undefined);
  });

  test("a recorded tools/call (the row's menu passes its { seq }) is written by Save as Test's writer, its secret as ${input:…}, and passes", async () => {
    const api = await activateApi();
    const c = await running(api, 'fixture-stdio');
    // A call made anywhere (here the API; Run Tool, chat or a replay alike) is a row of the Inspector.
    await c.callTool('formDemo', { name: 'Bo', count: 1, apiKey: secret });
    const log = (await vscode.commands.executeCommand<ActivityLog>('_mcpWorkbench.activityLog'))!;
    const row = log
      .entries()
      .find((e) => e.serverId === c.definition.id && e.method === 'tools/call' && (e.request as { params: { name: string } }).params.name === 'formDemo');
    assert.ok(row, 'the recorded call');
    const ui: SaveAsTestUi = { pickFile: async () => 'new', newFile: async () => target };
    const saved = await vscode.commands.executeCommand<SavedTest | undefined>(
      'mcpWorkbench.saveInspectorRowAsTest',
      { webviewSection: 'toolCall', seq: row.seq },
      ui,
    );
    assert.equal(saved?.uri.toString(), target.toString());
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(target));
    assert.equal(text.includes(secret), false, text);
    assert.equal(text.includes('«redacted»'), false, text);
    assert.deepEqual(JSON.parse(JSON.stringify(parseTestFile(text).file)), {
      server: 'fixture-stdio',
      tests: [
        {
          name: 'formDemo {"name":"Bo","count":1}',
          steps: [
            {
              callTool: { name: 'formDemo', arguments: { name: 'Bo', count: 1, apiKey: '${input:apiKey}' } },
              expect: { isError: false, match: { structuredContent: { name: 'Bo', count: 1 } } },
            },
          ],
        },
      ],
    });
    process.env.MCPWB_INPUT_APIKEY = secret;
    const tests = (await vscode.commands.executeCommand<McpTestsTesting>('_mcpWorkbench.testing.mcpTests'))!;
    await waitFor(
      async () => (await tests.discover()).find((f) => f.file === relative && !f.error && f.tests.length === 1),
      'the Testing view to find the file',
    );
    const outcomes = await tests.run([relative]);
    assert.deepEqual(
      outcomes.map((o) => `${o.id}: ${o.state}`),
      ['formDemo {"name":"Bo","count":1}: passed'],
      JSON.stringify(outcomes, null, 2),
    );
    // Any other row (a list, a notification) is not a call to save.
    const list = log.entries().find((e) => e.serverId === c.definition.id && e.method === 'tools/list');
    assert.ok(list);
    assert.equal(await vscode.commands.executeCommand('mcpWorkbench.saveInspectorRowAsTest', { webviewSection: 'row', seq: list.seq }, ui), undefined);
  });
});
