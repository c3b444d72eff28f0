/**
 * Saved MCP tests in VS Code's Testing view, in a real VS Code: the controller finds the
 * `*.mcptest.json` files of the fixture workspace (folder-a/mcp-tests), puts each test at its
 * place in the file, and its Run profile runs them against the workbench's own connection of
 * fixture-stdio. The results are what the real TestRun was told (recorded as it is told, see
 * RecordingRun), read through `_mcpWorkbench.testing.mcpTests`.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import type { McpTestsTesting } from '../../../src/mcpTests/registerMcpTests';
import type { ActivityLog } from '../../../src/traffic/common/activityLog';
import { activateApi, folderUri, retryOnceIfV8Aborted, running, textOf, waitFor, writeText } from '../helpers';

const FILE = 'folder-a/mcp-tests/fixture.mcptest.json';
const FIXTURES = process.env.MCPWB_FIXTURES ?? '';

suite('MCP tests in the Testing view', function () {
  this.timeout(90000);
  let api: McpWorkbenchApi;
  let tests: McpTestsTesting;
  const cfg = () => vscode.workspace.getConfiguration('mcpWorkbench');

  suiteSetup(async () => {
    api = await activateApi();
    tests = (await vscode.commands.executeCommand<McpTestsTesting>('_mcpWorkbench.testing.mcpTests'))!;
  });

  test('finds the files, with each test at its entry in the file', async () => {
    const files = await tests.discover();
    const file = files.find((f) => f.file === FILE);
    assert.ok(file, `found: ${files.map((f) => f.file).join(', ')}`);
    assert.equal(file.error, undefined);
    // Lines of the entries in fixture.mcptest.json (0-based): the gutter's run buttons go there.
    assert.deepEqual(file.tests, [
      { name: 'add sums', line: 5 },
      { name: 'a wrong sum', line: 9 },
    ]);
  });

  test('a run: one passes, one fails with the expected and actual values for a diff, at the test', async () => {
    const outcomes = await tests.run([FILE]);
    const byId = Object.fromEntries(outcomes.map((o) => [o.id, o]));
    assert.deepEqual(outcomes.map((o) => `${o.id}: ${o.state}`).sort(), ['a wrong sum: failed', 'add sums: passed'], JSON.stringify(outcomes, null, 2));
    const [message] = byId['a wrong sum'].messages;
    assert.match(message.message, /callTool add: the result does not match/);
    assert.match(message.message, /structuredContent\.sum/);
    assert.deepEqual(JSON.parse(message.expected!), { structuredContent: { sum: 6 } });
    assert.deepEqual((JSON.parse(message.actual!) as { structuredContent: unknown }).structuredContent, { sum: 5 });
    assert.equal(message.line, 9, 'the failure is shown at the failing test');
    // Against the workbench's own connection, not one of its own.
    assert.equal(api.server('fixture-stdio')?.state.kind, 'running');
  });

  test('a stopped server is started for the run', async () => {
    const c = await running(api, 'fixture-stdio');
    await vscode.commands.executeCommand('mcpWorkbench.stopServer', c.definition.id);
    await waitFor(() => c.state.kind === 'stopped', 'fixture-stdio to stop');
    const outcomes = await tests.run([`${FILE}#add sums`]);
    assert.deepEqual(
      outcomes.map((o) => `${o.id}: ${o.state}`),
      ['add sums: passed'],
    );
    assert.equal(c.state.kind, 'running');
  });

  test('a server that cannot start: its tests are errored with one line saying so', async () => {
    const outcomes = await tests.run(['folder-a/mcp-tests/broken.mcptest.json']);
    assert.deepEqual(
      outcomes.map((o) => `${o.id}: ${o.state}`),
      ['never runs: errored'],
      JSON.stringify(outcomes, null, 2),
    );
    assert.match(outcomes[0].messages[0].message, /^The server "node" did not start: /);
    assert.match(outcomes[0].messages[0].message, /exiting on purpose/, "the server's stderr says why");
  });

  test('a cancelled run stops the call in flight and skips the rest', async () => {
    const c = await running(api, 'fixture-stdio');
    const log = (await vscode.commands.executeCommand<ActivityLog>('_mcpWorkbench.activityLog'))!;
    const before = Math.max(0, ...log.entries().map((e) => e.seq));
    const cancel = new vscode.CancellationTokenSource();
    const done = tests.run(['folder-a/mcp-tests/slow.mcptest.json'], { token: cancel.token });
    // Cancel only once the slow call is on its way (it would take a minute).
    await waitFor(
      () => log.entries().some((e) => e.seq > before && e.method === 'tools/call' && e.rerun?.name === 'slow' && e.status.kind === 'pending'),
      'the slow call to be sent',
    );
    cancel.cancel();
    const outcomes = await done;
    assert.deepEqual(
      outcomes.map((o) => `${o.id}: ${o.state}`),
      ['a slow call: skipped', 'after the slow call: skipped'],
      JSON.stringify(outcomes, null, 2),
    );
    const seen = JSON.parse(textOf(await c.callTool('cancellations', {}))) as { tools: string[] };
    assert.ok(seen.tools.includes('slow'), `the server saw the call cancelled: ${JSON.stringify(seen)}`);
  });

  test('the Debug profile runs a test against its server started under the mcp debugger; the session is stopped after', () =>
    retryOnceIfV8Aborted(api, async () => {
      const c = await running(api, 'fixture-stdio');
      const started: vscode.DebugSession[] = [];
      const ended = new Set<string>();
      const subscriptions = [vscode.debug.onDidStartDebugSession((s) => started.push(s)), vscode.debug.onDidTerminateDebugSession((s) => ended.add(s.id))];
      let session: vscode.DebugSession | undefined;
      try {
        const outcomes = await tests.run([`${FILE}#add sums`], { profile: 'debug' });
        session = started.find((s) => s.type === 'mcp');
        assert.deepEqual(
          outcomes.map((o) => `${o.id}: ${o.state}`),
          ['add sums: passed'],
          JSON.stringify(outcomes, null, 2),
        );
        assert.ok(session, `an mcp debug session; started: ${started.map((s) => `${s.type} "${s.name}"`).join(', ') || 'none'}`);
        assert.equal(session.configuration.server, 'fixture-stdio');
        // The steps went to the debuggee (its launch carries the inspector), with js-debug attached below the mcp session.
        assert.ok((c.launchOverride?.launch as { args?: string[] } | undefined)?.args?.some((a) => a.startsWith('--inspect-brk=127.0.0.1:')));
        await waitFor(() => started.find((s) => s.parentSession?.id === session!.id && s.type === 'pwa-node'), 'the attached pwa-node child session');
      } finally {
        if (session) await vscode.debug.stopDebugging(session);
        await waitFor(() => !c.launchOverride && c.state.kind === 'running', 'the normal connection back');
        // No debuggee (--inspect-brk) or js-debug session is left behind.
        await waitFor(() => started.every((s) => ended.has(s.id)), 'every session of the debug run to end');
        subscriptions.forEach((d) => d.dispose());
      }
    }));

  test('the Debug profile on a file that launches its own server: errored, saying to name a configured server', async () => {
    const outcomes = await tests.run(['folder-a/mcp-tests/broken.mcptest.json'], { profile: 'debug' });
    assert.deepEqual(
      outcomes.map((o) => `${o.id}: ${o.state}`),
      ['never runs: errored'],
      JSON.stringify(outcomes, null, 2),
    );
    assert.match(outcomes[0].messages[0].message, /^This file launches its own server, which the Debug profile cannot debug: name a configured server/);
    assert.doesNotMatch(outcomes[0].messages[0].message, /\n/, 'one line');
  });

  test('the items follow the file: a new test appears where it is written, a deleted file goes', async () => {
    const uri = vscode.Uri.joinPath(folderUri('folder-a'), 'mcp-tests', 'added.mcptest.json');
    await writeText(uri, '{\n  "server": "fixture-stdio",\n  "tests": [\n    { "name": "lists tools", "steps": [{ "list": "tools" }] }\n  ]\n}\n');
    try {
      await waitFor(
        async () => (await tests.discover()).find((f) => f.file.endsWith('added.mcptest.json'))?.tests[0]?.line === 3,
        "the new file's test at line 4",
      );
    } finally {
      await vscode.workspace.fs.delete(uri);
    }
    await waitFor(async () => !(await tests.discover()).some((f) => f.file.endsWith('added.mcptest.json')), 'the deleted file to go');
  });

  test("an unsaved edit moves the tests with it; reverting brings back the file's places", async () => {
    const uri = vscode.Uri.joinPath(folderUri('folder-a'), 'mcp-tests', 'fixture.mcptest.json');
    const lines = async () => JSON.stringify((await tests.discover()).find((f) => f.file === FILE)?.tests.map((t) => t.line));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const edit = new vscode.WorkspaceEdit();
    edit.insert(uri, new vscode.Position(0, 0), '// a new first line\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await waitFor(async () => (await lines()) === '[6,10]', 'the tests one line down');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await waitFor(async () => (await lines()) === '[5,9]', 'the tests back at their lines');
  });

  test('a continuous run runs the tests of a file again when the dev loop restarts its server', async () => {
    const dir = path.join(folderUri('folder-a').fsPath, '.mcp-tests-dev');
    const watched = path.join(dir, 'server.txt');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(watched, 'start');
    const testFile = vscode.Uri.joinPath(folderUri('folder-a'), 'mcp-tests', 'dev.mcptest.json');
    const original = cfg().inspect<Record<string, unknown>>('servers')?.globalValue;
    const cancel = new vscode.CancellationTokenSource();
    let continuous: Promise<unknown> | undefined;
    try {
      await cfg().update(
        'servers',
        {
          ...original,
          'mcptests-dev': { type: 'stdio', command: 'node', args: [path.join(FIXTURES, 'servers', 'stdioServer.js')], cwd: dir, dev: { watch: ['*.txt'] } },
        },
        vscode.ConfigurationTarget.Global,
      );
      await running(api, 'mcptests-dev');
      await writeText(
        testFile,
        '{ "server": "mcptests-dev", "tests": [{ "name": "echo after a restart", "steps": [{ "callTool": { "name": "echo", "arguments": { "text": "hi" } } }] }] }',
      );
      await waitFor(async () => (await tests.discover()).some((f) => f.file.endsWith('dev.mcptest.json')), 'the dev test file to be found');
      const before = tests.lastRun();
      continuous = tests.run(['folder-a/mcp-tests/dev.mcptest.json', FILE], { token: cancel.token, continuous: true });
      // Saved in the editor, as a user does (the dev loop sees saves directly; see devLoop.test.ts).
      const doc = await vscode.workspace.openTextDocument(watched);
      const edit = new vscode.WorkspaceEdit();
      edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), String(Date.now()));
      assert.ok(await vscode.workspace.applyEdit(edit));
      assert.ok(await doc.save());
      const outcomes = await waitFor(() => tests.lastRun() !== before && tests.lastRun(), 'a run after the dev restart', 40000);
      // Only the file of the restarted server ran, not fixture.mcptest.json (fixture-stdio did not restart).
      assert.deepEqual(
        outcomes.map((o) => `${o.file}: ${o.id}: ${o.state}`),
        ['folder-a/mcp-tests/dev.mcptest.json: echo after a restart: passed'],
      );
    } finally {
      cancel.cancel();
      await continuous;
      await vscode.workspace.fs.delete(testFile).then(undefined, () => undefined);
      await cfg().update('servers', original, vscode.ConfigurationTarget.Global);
      await waitFor(() => !api.server('mcptests-dev'), 'mcptests-dev to go');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
