/**
 * The MCP config language server inside a real VS Code: diagnostics from the running server,
 * a quick fix applied through the code action API, code lenses from the live registry,
 * completion and hover, and command checks on the PATH servers start with. Edits stay in the
 * unsaved document and are reverted, so the fixture file on disk (and the servers it starts)
 * never change.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import { activateApi, editUnsaved, folderUri, running, waitFor } from '../helpers';
import { fakeLoginShell } from '../../shared/fakeLoginShell';

suite('MCP config language server', function () {
  this.timeout(60000);
  let api: McpWorkbenchApi;
  let uri: vscode.Uri;
  let editor: vscode.TextEditor;
  let fixture: Awaited<ReturnType<typeof editUnsaved>>;

  suiteSetup(async () => {
    api = await activateApi();
    uri = vscode.Uri.joinPath(folderUri('folder-a'), '.vscode', 'mcp.json');
    // The browser VS Code the tests run in saves edits after a second by default (`files.autoSave`
    // is `afterDelay` on the web): this suite's `${input:itest-token}` once reached the disk, and
    // fixture-stdio then waited for an input no one gave, failing the 21 suites after this one.
    assert.equal(
      vscode.workspace.getConfiguration('files').get('autoSave'),
      'off',
      'files.autoSave must be "off" (test/fixtures/workspaces/main.settings.json): this suite edits the fixture mcp.json without saving',
    );
    fixture = await editUnsaved(uri, 'folder-a/.vscode/mcp.json');
    editor = fixture.editor;
  });

  // Whatever saved it, the suites after this one get the fixture back; this suite fails instead of them.
  suiteTeardown(() => fixture?.restore());

  const replaceText = (text: string) => fixture.replaceText(text);
  const position = (marker: string, delta = 0) => fixture.position(marker, delta);

  test('code lenses show the live state and tool count, with the lifecycle commands', async () => {
    const server = await running(api, 'fixture-stdio');
    await waitFor(() => server.cached('tools'), 'the tool list');
    const lenses = await waitFor(async () => {
      const found = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
      const titles = found.map((l) => l.command?.title ?? '');
      return titles.some((t) => /running/.test(t)) && titles.some((t) => /\d+ tools?/.test(t)) && found;
    }, 'code lenses with the running state');
    const titles = lenses.map((l) => l.command!.title);
    assert.ok(
      titles.some((t) => t === `${server.cached('tools')!.length} tools`),
      titles.join(' | '),
    );
    const restart = lenses.find((l) => l.command?.command === 'mcpWorkbench.restartServer')!;
    assert.deepEqual(restart.command!.arguments, [{ serverId: server.definition.id }]);
    assert.ok(lenses.some((l) => l.command?.command === 'mcpWorkbench.stopServer'));
    assert.ok(lenses.some((l) => l.command?.command === 'mcpWorkbench.showOutput'));
  });

  test('diagnostics come from the running server and a quick fix adds the missing input', async () => {
    await replaceText(`{
  "servers": {
    "fixture-stdio": {
      "type": "stdio",
      "command": "node",
      "args": ["\${env:MCPWB_FIXTURES}/servers/stdioServer.js"],
      "env": { "FIXTURE_SERVER_NAME": "stdio-in-\${workspaceFolderBasename}", "FIXTURE_PAGE_SIZE": "4", "TOKEN": "\${input:itest-token}" },
    },
  },
  "inputs": [],
}`);
    const diagnostic = await waitFor(
      () => vscode.languages.getDiagnostics(uri).find((d) => d.code === 'mcp.input-undefined'),
      'the input-undefined diagnostic',
    );
    assert.equal(diagnostic.source, 'MCP');
    assert.equal(diagnostic.range.start.line, 6);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, diagnostic.range);
    const fix = actions.find((a) => a.title === 'Add input "itest-token" to "inputs"');
    assert.ok(fix?.edit, actions.map((a) => a.title).join(' | '));
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.match(editor.document.getText(), /"id": "itest-token"/);
    await waitFor(() => !vscode.languages.getDiagnostics(uri).some((d) => d.code === 'mcp.input-undefined'), 'the diagnostic to go away');
    // The parse problems of this open file come from the language server only, not twice.
    assert.ok(!vscode.languages.getDiagnostics(uri).some((d) => d.source === 'MCP Workbench'));
  });

  test('completion offers input ids after ${input: and variables after ${', async () => {
    const inputs = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, position('${input:itest', 8));
    assert.ok(
      inputs.items.some((i) => (typeof i.label === 'string' ? i.label : i.label.label) === 'input:itest-token'),
      inputs.items.map((i) => i.label).join(', '),
    );
    const variables = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      uri,
      position('${workspaceFolderBasename', 2),
    );
    assert.ok(variables.items.some((i) => i.label === 'userHome'));
  });

  test('hover shows what a variable resolves to', async () => {
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, position('workspaceFolderBasename', 3));
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(text, /Value: `folder-a`/);
  });

  test("key completion offers the fields of the entry's transport only (VS Code's JSON support with our schema)", async () => {
    const label = (i: vscode.CompletionItem) => (typeof i.label === 'string' ? i.label : i.label.label).replace(/"/g, '');
    await replaceText(`{
  "servers": {
    "local": { "command": "node",  },
    "remote": { "url": "https://mcp.example.com/mcp",  }
  }
}`);
    const keys = async (marker: string) => {
      const list = await vscode.commands.executeCommand<vscode.CompletionList>(
        'vscode.executeCompletionItemProvider',
        uri,
        position(marker, marker.length + 1),
      );
      return list.items.map(label);
    };
    const local = await waitFor(async () => {
      const k = await keys('"node",');
      return k.includes('args') && k;
    }, 'key completions in the stdio entry');
    assert.ok(!local.includes('url') && !local.includes('headers'), `no url/headers for a stdio entry: ${local.join(', ')}`);
    const remote = await keys('"https://mcp.example.com/mcp",');
    assert.ok(remote.includes('headers'), remote.join(', '));
    assert.ok(!remote.includes('command') && !remote.includes('args'), `no command/args for an http entry: ${remote.join(', ')}`);
  });

  test('a git revision of the config file (its path under another scheme) gets neither the live lenses nor the checks', async () => {
    // A diff's left side: the same path, another scheme. A content provider of the test stands in for git's.
    const scheme = 'mcpwb-revision';
    const revisionText = `{
  "servers": {
    "fixture-stdio": { "type": "stdio", "command": "mcpwb-no-such-command-in-revision" },
  },
}`;
    const provider = vscode.workspace.registerTextDocumentContentProvider(scheme, { provideTextDocumentContent: () => revisionText });
    try {
      const revision = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme, path: uri.path, query: 'ref=HEAD' }));
      // The file itself, for comparison: its lenses, and the check of the same missing command.
      await replaceText(revisionText.replace('-in-revision', '-in-file'));
      await waitFor(
        () => vscode.languages.getDiagnostics(uri).some((d) => d.code === 'mcp.command-not-found'),
        'the command-not-found warning in the file itself',
      );
      const ours = async (u: vscode.Uri) =>
        (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', u)).filter((l) =>
          (l.command?.arguments ?? []).some((a: unknown) => typeof a === 'object' && a !== null && 'serverId' in a),
        );
      assert.ok((await ours(uri)).length > 0, 'the file has the live lenses of fixture-stdio');
      assert.deepEqual(
        (await ours(revision.uri)).map((l) => l.command?.title),
        [],
        'no lenses of the running servers on a revision',
      );
      assert.deepEqual(
        vscode.languages.getDiagnostics(revision.uri).map((d) => d.message),
        [],
        'no checks on a revision',
      );
      // VS Code's own verdict on our selectors, in its extension host log (code-server's name for it, as `npm test` runs).
      const hostLog = path.join(path.dirname(api.testing.logUri.fsPath), 'remoteexthost.log');
      const warned = (fs.existsSync(hostLog) ? fs.readFileSync(hostLog, 'utf8') : '')
        .split('\n')
        .filter((l) => l.includes("'mcp-workbench.mcp-workbench' uses a document selector without scheme"));
      assert.deepEqual(warned, []);
    } finally {
      provider.dispose();
    }
  });

  test("a command only the login shell's PATH has: the check follows the Workbench's PATH, and the window starts one login shell", async () => {
    // A login shell of our own: counts its starts and puts a folder with the command on PATH.
    // `$SHELL` is read when the shell is asked (src/mcp/process/loginShellPath.ts), so pointing it
    // here for this test reaches the Workbench; the language server was started with the real one.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-login-shell-'));
    fs.mkdirSync(path.join(dir, 'bin'));
    fs.writeFileSync(path.join(dir, 'bin', 'mcpwb-login-only-server'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const { shell, starts } = fakeLoginShell(dir, `${path.join(dir, 'bin')}:${process.env.PATH}`);
    const savedShell = process.env.SHELL;
    const settings = () => vscode.workspace.getConfiguration('mcpWorkbench');
    assert.equal(settings().inspect('useLoginShellPath')?.globalValue, false, 'test/fixtures/workspaces/main.settings.json turns the login shell off');
    const notFound = () => vscode.languages.getDiagnostics(uri).find((d) => d.code === 'mcp.command-not-found' && /mcpwb-login-only-server/.test(d.message));
    try {
      process.env.SHELL = shell;
      await replaceText(`{
  "servers": {
    "login-only": { "type": "stdio", "command": "mcpwb-login-only-server" },
  },
}`);
      const before = await waitFor(notFound, 'the command-not-found warning with the login shell off');
      assert.doesNotMatch(before.message, /login shell/);
      await settings().update('useLoginShellPath', true, vscode.ConfigurationTarget.Global);
      await waitFor(() => !notFound(), "the warning to go once the login shell's PATH is used", 30_000);
      assert.equal(starts(), 1, 'one login shell: the Workbench asked it, the language server did not start its own');
      // Off again: the PATH is the extension host's, and the warning is back.
      await settings().update('useLoginShellPath', false, vscode.ConfigurationTarget.Global);
      await waitFor(notFound, 'the warning back with the login shell off');
      assert.equal(starts(), 1);
    } finally {
      process.env.SHELL = savedShell;
      if (settings().inspect('useLoginShellPath')?.globalValue !== false)
        await settings().update('useLoginShellPath', false, vscode.ConfigurationTarget.Global);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
