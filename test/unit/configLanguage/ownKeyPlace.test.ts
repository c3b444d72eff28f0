/**
 * MCP Workbench's own keys in `.vscode/mcp.json` (VS Code flags them "not allowed"): the config
 * language server says so on each and moves them to `.vscode/mcp-workbench.json` beside it.
 */
import * as assert from 'node:assert/strict';
import * as jsonc from 'jsonc-parser';
import { DiagnosticSeverity, type CodeAction, type CreateFile, type Diagnostic, type TextDocumentEdit } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DiagnosticCode } from '../../../src/configLanguage/server/diagnosticCodes';
import type { WorkbenchFileContext } from '../../../src/configLanguage/server/serverContext';
import { at, context, doc, service, WORKSPACE } from './languageTestKit';

const OLD = `{
  "servers": {
    "weather": {
      "command": "node",
      "sampling": { "mock": "happy" },
      "includeTools": ["forecast"]
    }
  },
  "samplingMocks": { "happy": { "replies": ["Sunny."] } }
}
`;
const BESIDE_URI = `file://${WORKSPACE}/.vscode/mcp-workbench.json`;

async function ownKeyDiagnostics(text: string, wb: WorkbenchFileContext | undefined, file?: string): Promise<Diagnostic[]> {
  const all = await service().diagnostics(doc(text, file), context({ workbenchFile: wb }));
  return all.filter((d) => d.code === DiagnosticCode.ownKeyPlace);
}

/** The texts of both files after the action's edit. */
function applied(action: CodeAction, mcp: TextDocument, beside: string | undefined): { mcp: string; beside: string | undefined } {
  const out = { mcp: mcp.getText(), beside };
  for (const change of action.edit!.documentChanges!) {
    if ((change as CreateFile).kind === 'create') {
      out.beside ??= '';
      continue;
    }
    const edit = change as TextDocumentEdit;
    const isMcp = edit.textDocument.uri === mcp.uri;
    const before = TextDocument.create(edit.textDocument.uri, 'jsonc', 0, (isMcp ? out.mcp : out.beside) ?? '');
    const after = TextDocument.applyEdits(before, edit.edits as never);
    if (isMcp) out.mcp = after;
    else out.beside = after;
  }
  return out;
}

describe('config language server: own keys in .vscode/mcp.json', () => {
  it('warns on each own key of mcp.json, naming the file they belong in', async () => {
    const found = await ownKeyDiagnostics(OLD, { uri: BESIDE_URI, text: undefined });
    assert.deepEqual(
      found.map((d) => [d.range.start.line, d.severity, d.data]),
      [
        [4, DiagnosticSeverity.Warning, { server: 'weather', key: 'sampling' }],
        [5, DiagnosticSeverity.Warning, { server: 'weather', key: 'includeTools' }],
        [8, DiagnosticSeverity.Warning, { key: 'samplingMocks' }],
      ],
    );
    assert.match(
      String(found[0].message),
      /"sampling" is MCP Workbench's key, which VS Code's schema for mcp\.json does not allow; it still works, but move it to \.vscode\/mcp-workbench\.json/,
    );
  });

  it('says nothing in a file of the other format, where VS Code does not judge', async () => {
    const text = JSON.stringify({ mcpServers: { w: { command: 'node', sampling: { mock: 'p' } } }, samplingMocks: { p: { reply: 'x' } } });
    assert.deepEqual(await ownKeyDiagnostics(text, undefined, `${WORKSPACE}/.mcp.json`), []);
  });

  it('moves one key, or all of them, into a new .vscode/mcp-workbench.json', async () => {
    const d = doc(OLD);
    const s = service();
    const wb = { uri: BESIDE_URI, text: undefined };
    const diagnostics = (await s.diagnostics(d, context({ workbenchFile: wb }))).filter((x) => x.code === DiagnosticCode.ownKeyPlace);
    const actions = s.codeActions(d, diagnostics[0].range, [diagnostics[0]], { platform: 'linux', workbenchFile: wb });
    assert.deepEqual(
      actions.map((a) => a.title),
      ['Move "sampling" of "weather" to .vscode/mcp-workbench.json', 'Move all MCP Workbench keys to .vscode/mcp-workbench.json'],
    );
    assert.equal((actions[0].edit!.documentChanges![0] as CreateFile).kind, 'create');
    const one = applied(actions[0], d, undefined);
    assert.deepEqual(JSON.parse(one.beside!), { servers: { weather: { sampling: { mock: 'happy' } } } });
    assert.deepEqual(JSON.parse(one.mcp), {
      servers: { weather: { command: 'node', includeTools: ['forecast'] } },
      samplingMocks: { happy: { replies: ['Sunny.'] } },
    });

    const all = applied(actions[1], d, undefined);
    assert.deepEqual(JSON.parse(all.mcp), { servers: { weather: { command: 'node' } } });
    assert.deepEqual(JSON.parse(all.beside!), {
      servers: { weather: { sampling: { mock: 'happy' }, includeTools: ['forecast'] } },
      samplingMocks: { happy: { replies: ['Sunny.'] } },
    });
    // Moved, the file has nothing left to say about them, and the profile name still resolves.
    const after = await s.diagnostics(doc(all.mcp, undefined, 2), context({ workbenchFile: { uri: BESIDE_URI, text: all.beside } }));
    assert.deepEqual(
      after.filter((x) => x.code === DiagnosticCode.ownKeyPlace || x.code === DiagnosticCode.samplingMockUnknown),
      [],
    );
  });

  it('completes sampling.mock with the profiles of the file beside too', async () => {
    const d = doc(`{ "servers": { "s": { "command": "node", "sampling": { "mock": "" } } } }`);
    const beside = JSON.stringify({ samplingMocks: { happy: { reply: 'ok' } } });
    const names = await service().completions(d, at(d, '"mock": ""', 9), context({ workbenchFile: { uri: BESIDE_URI, text: beside } }));
    assert.deepEqual(
      names.map((i) => [i.label, i.detail]),
      [['happy', 'sampling mock profile (.vscode/mcp-workbench.json)']],
    );
  });

  it('adds to an existing file beside; a key it already sets is only removed from mcp.json', async () => {
    const beside = `{\n  // mine\n  "servers": { "weather": { "sampling": { "mock": "other" } } }\n}\n`;
    const d = doc(OLD);
    const s = service();
    const wb = { uri: BESIDE_URI, text: beside, version: 3 };
    const diagnostics = (await s.diagnostics(d, context({ workbenchFile: wb }))).filter((x) => x.code === DiagnosticCode.ownKeyPlace);
    assert.match(String(diagnostics[0].message), /"sampling" of "weather" is ignored: \.vscode\/mcp-workbench\.json sets it/);
    const [remove] = s.codeActions(d, diagnostics[0].range, [diagnostics[0]], { platform: 'linux', workbenchFile: wb });
    assert.equal(remove.title, 'Remove "sampling" of "weather" (.vscode/mcp-workbench.json sets it)');
    assert.equal(remove.edit!.documentChanges!.length, 1, 'the file beside is not touched');
    const [move] = s.codeActions(d, diagnostics[1].range, [diagnostics[1]], { platform: 'linux', workbenchFile: wb });
    const out = applied(move, d, beside);
    assert.match(out.beside!, /\/\/ mine/);
    assert.equal((move.edit!.documentChanges![0] as TextDocumentEdit).textDocument.version, 3);
    assert.deepEqual(JSON.parse(jsonc.stripComments(out.beside!)), { servers: { weather: { sampling: { mock: 'other' }, includeTools: ['forecast'] } } });
  });
});
