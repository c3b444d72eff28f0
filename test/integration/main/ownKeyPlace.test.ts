/**
 * MCP Workbench's own keys and VS Code's own schema for `.vscode/mcp.json`, in a real VS Code:
 * written the new way (in `.vscode/mcp-workbench.json` beside it) VS Code reports nothing "not
 * allowed", and the file beside is validated by our schema; written the old way (in mcp.json)
 * VS Code flags them and our language server offers the fix that moves them, after which VS Code
 * is quiet. The files live in a temporary folder outside the workspace: the extension loads no
 * servers from there, so nothing starts and no fixture changes.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { activateApi, waitFor } from '../helpers';

const NEW_MCP = `{
  "servers": {
    "own-keys-probe": { "command": "node", "args": ["probe.js"] }
  }
}
`;
const NEW_BESIDE = `{
  "servers": {
    "own-keys-probe": { "sampling": { "mock": "happy" }, "includeTools": ["forecast"], "timeouts": { "request": 90 } }
  },
  "samplingMocks": { "happy": { "reply": "Sunny." } }
}
`;
const OLD_MCP = `{
  "servers": {
    "own-keys-probe": {
      "command": "node",
      "args": ["probe.js"],
      "sampling": { "mock": "happy" },
      "includeTools": ["forecast"]
    }
  },
  "samplingMocks": { "happy": { "reply": "Sunny." } }
}
`;

/** VS Code's own problems (not our language server's) on a document. */
function hostProblems(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source !== 'MCP' && d.source !== 'MCP Workbench');
}

function show(diagnostics: readonly vscode.Diagnostic[]): string {
  return JSON.stringify(diagnostics.map((d) => `${d.source}: ${d.message}`));
}

suite("Own keys and VS Code's schema for mcp.json", function () {
  this.timeout(90000);
  let dir: string;
  let mcpUri: vscode.Uri;
  let besideUri: vscode.Uri;

  suiteSetup(async () => {
    await activateApi();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-own-keys-'));
    fs.mkdirSync(path.join(dir, '.vscode'));
    mcpUri = vscode.Uri.file(path.join(dir, '.vscode', 'mcp.json'));
    besideUri = vscode.Uri.file(path.join(dir, '.vscode', 'mcp-workbench.json'));
  });

  /** Each test starts from closed, unedited files: an open dirty document would keep its text over what is written to disk. */
  async function closeFiles(): Promise<void> {
    for (const doc of vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.fsPath.startsWith(dir))) {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  }

  setup(closeFiles);

  suiteTeardown(async () => {
    await closeFiles();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Opens `uri` with `text` (on disk first) and waits until VS Code has validated `text`: a marker problem it reports on a first version goes away. */
  async function openValidated(uri: vscode.Uri, text: string, marker: { text: string; problem: RegExp }): Promise<vscode.TextDocument> {
    fs.writeFileSync(uri.fsPath, marker.text);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: false });
    // The JSON language service validates after a delay and in another process: its problem on the marker proves it looked at this file.
    await waitFor(
      () => hostProblems(uri).some((d) => marker.problem.test(d.message)),
      () => `VS Code's problem on the marker in ${uri.fsPath}: ${show(vscode.languages.getDiagnostics(uri))}`,
      60000,
    );
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text);
    assert.ok(await vscode.workspace.applyEdit(edit));
    await waitFor(
      () => !hostProblems(uri).some((d) => marker.problem.test(d.message)),
      () => `the marker's problem to go: ${show(vscode.languages.getDiagnostics(uri))}`,
      60000,
    );
    return doc;
  }

  test('written the new way, VS Code reports nothing "not allowed"; the file beside is checked by our schema', async () => {
    await openValidated(mcpUri, NEW_MCP, { text: '{ "servers": {}, "ownKeysProbeMarker": 1 }\n', problem: /ownKeysProbeMarker/ });
    assert.deepEqual(
      hostProblems(mcpUri).map((d) => d.message),
      [],
    );
    // A wrong type is flagged by our schema (through its reference to mcp-config.schema.json), the right file is clean.
    await openValidated(besideUri, NEW_BESIDE, { text: '{ "servers": { "own-keys-probe": { "includeTools": 5 } } }\n', problem: /array/i });
    assert.deepEqual(
      hostProblems(besideUri).map((d) => d.message),
      [],
    );
  });

  test('written the old way, VS Code flags our keys and our quick fix moves them beside, after which VS Code is quiet', async () => {
    fs.rmSync(besideUri.fsPath, { force: true });
    const doc = await openValidated(mcpUri, OLD_MCP, { text: '{ "servers": {}, "ownKeysProbeMarker": 1 }\n', problem: /ownKeysProbeMarker/ });
    // The premise: VS Code's schema does not allow them (this VS Code's words).
    const flagged = await waitFor(
      () => {
        const problems = hostProblems(mcpUri).filter((d) => /not allowed/.test(d.message));
        return problems.length >= 3 && problems;
      },
      () => `VS Code's "not allowed" on sampling, includeTools and samplingMocks: ${show(vscode.languages.getDiagnostics(mcpUri))}`,
      30000,
    );
    assert.ok(
      ['sampling', 'includeTools', 'samplingMocks'].every((k) => flagged.some((d) => d.message.includes(k))),
      show(flagged),
    );
    const ours = await waitFor(
      () => {
        const found = vscode.languages.getDiagnostics(mcpUri).filter((d) => d.code === 'mcp.own-key-place');
        return found.length === 3 && found;
      },
      () => `our diagnostic on each own key: ${show(vscode.languages.getDiagnostics(mcpUri))}`,
      30000,
    );
    assert.match(ours[0].message, /move it to \.vscode\/mcp-workbench\.json/);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', mcpUri, ours[0].range);
    const moveAll = actions.find((a) => a.title === 'Move all MCP Workbench keys to .vscode/mcp-workbench.json');
    assert.ok(moveAll?.edit, actions.map((a) => a.title).join(' | '));
    assert.ok(
      actions.some((a) => a.title === 'Move "sampling" of "own-keys-probe" to .vscode/mcp-workbench.json'),
      actions.map((a) => a.title).join(' | '),
    );
    assert.ok(await vscode.workspace.applyEdit(moveAll.edit));

    const beside = await vscode.workspace.openTextDocument(besideUri);
    assert.deepEqual(JSON.parse(beside.getText()), {
      servers: { 'own-keys-probe': { sampling: { mock: 'happy' }, includeTools: ['forecast'] } },
      samplingMocks: { happy: { reply: 'Sunny.' } },
    });
    assert.deepEqual(JSON.parse(doc.getText()), { servers: { 'own-keys-probe': { command: 'node', args: ['probe.js'] } } });
    await waitFor(
      () => !vscode.languages.getDiagnostics(mcpUri).some((d) => /not allowed/.test(d.message) || d.code === 'mcp.own-key-place'),
      () => `VS Code and our server to be quiet after the move: ${show(vscode.languages.getDiagnostics(mcpUri))}`,
      30000,
    );
  });
});
