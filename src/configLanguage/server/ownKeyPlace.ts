/**
 * MCP Workbench's own keys written in VS Code's `.vscode/mcp.json` (the old spelling): VS Code's
 * schema flags each as "not allowed", so they belong in `.vscode/mcp-workbench.json` beside it
 * (src/config/common/ownKeys/workbenchFile.ts). They still work where they are; this says so on
 * each one and offers to move it, or all of them, there.
 */
import * as jsonc from 'jsonc-parser';
import {
  CodeActionKind,
  DiagnosticSeverity,
  type CodeAction,
  type Diagnostic,
  type Range,
  type TextDocumentEdit,
  type CreateFile,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { moveToWorkbenchFile, ownKeysInMcpJson, singleChange, type TextChange } from '../../config/common/ownKeys/moveToWorkbenchFile';
import { parseWorkbenchFile, WORKBENCH_FILE_PATH } from '../../config/common/ownKeys/workbenchFile';
import type { ConfigModel } from './configModel';
import { DiagnosticCode, type DiagnosticCodeValue, type OwnKeyPlaceData } from './diagnosticCodes';
import type { WorkbenchFileContext } from './serverContext';

type Add = (r: Range, severity: DiagnosticSeverity, code: DiagnosticCodeValue, message: string, data?: unknown) => void;

/** The profile names `.vscode/mcp-workbench.json` defines (a `sampling.mock` in mcp.json may name them). */
export function workbenchFileProfiles(wb: WorkbenchFileContext | undefined): string[] {
  return wb?.text ? parseWorkbenchFile(wb.text).samplingMockNames : [];
}

export function checkOwnKeyPlaces(model: ConfigModel, wb: WorkbenchFileContext | undefined, add: Add, nodeRange: (n: jsonc.Node) => Range): void {
  if (model.fileFormat !== 'vscode') return;
  const beside = wb?.text ? parseWorkbenchFile(wb.text) : undefined;
  for (const place of ownKeysInMcpJson(model.root)) {
    const setBeside =
      place.server !== undefined &&
      place.key !== 'excludeTools' &&
      !!beside?.servers.some((s) => s.name === place.server && s.keys.includes(place.key as never));
    const data: OwnKeyPlaceData = { ...(place.server !== undefined ? { server: place.server } : {}), key: place.key, ...(setBeside ? { ignored: true } : {}) };
    const of = place.server !== undefined ? ` of "${place.server}"` : '';
    const message = setBeside
      ? `"${place.key}"${of} is ignored: ${WORKBENCH_FILE_PATH} sets it, and its value is used. Remove it here.`
      : `"${place.key}" is MCP Workbench's key, which VS Code's schema for mcp.json does not allow; it still works, but move it to ${WORKBENCH_FILE_PATH}, where VS Code does not object.`;
    add(nodeRange(place.keyNode), DiagnosticSeverity.Warning, DiagnosticCode.ownKeyPlace, message, data);
  }
}

/** The quick fixes: move this key; move every key of ours in the file. */
export function ownKeyPlaceActions(
  model: ConfigModel,
  doc: TextDocument,
  diagnostics: readonly Diagnostic[],
  wb: WorkbenchFileContext | undefined,
): CodeAction[] {
  if (!wb || model.fileFormat !== 'vscode') return [];
  const mine = diagnostics.filter((d) => d.code === DiagnosticCode.ownKeyPlace && d.data);
  if (mine.length === 0) return [];
  const actions: CodeAction[] = [];
  for (const diagnostic of mine) {
    const { server, key, ignored } = diagnostic.data as OwnKeyPlaceData;
    const of = server !== undefined ? ` of "${server}"` : '';
    const title = ignored ? `Remove "${key}"${of} (${WORKBENCH_FILE_PATH} sets it)` : `Move "${key}"${of} to ${WORKBENCH_FILE_PATH}`;
    actions.push(moveAction(title, model, doc, wb, [{ server, key }], [diagnostic], true));
  }
  const all = ownKeysInMcpJson(model.root);
  if (all.length > 1) actions.push(moveAction(`Move all MCP Workbench keys to ${WORKBENCH_FILE_PATH}`, model, doc, wb, all, mine, false));
  return actions;
}

function moveAction(
  title: string,
  model: ConfigModel,
  doc: TextDocument,
  wb: WorkbenchFileContext,
  places: readonly { server?: string; key: string }[],
  diagnostics: Diagnostic[],
  preferred: boolean,
): CodeAction {
  const result = moveToWorkbenchFile(model.text, wb.text, places);
  const documentChanges: (TextDocumentEdit | CreateFile)[] = [];
  if (result.workbenchFileChanged) {
    if (wb.text === undefined) documentChanges.push({ kind: 'create', uri: wb.uri, options: { ignoreIfExists: true } });
    const old = TextDocument.create(wb.uri, 'jsonc', 0, wb.text ?? '');
    documentChanges.push({
      textDocument: { uri: wb.uri, version: wb.version ?? null },
      edits: [textEdit(old, singleChange(wb.text ?? '', result.workbenchFile))],
    });
  }
  documentChanges.push({ textDocument: { uri: doc.uri, version: doc.version }, edits: [textEdit(doc, result.mcpJson)] });
  return { title, kind: CodeActionKind.QuickFix, diagnostics, isPreferred: preferred || undefined, edit: { documentChanges } };
}

function textEdit(doc: TextDocument, c: TextChange) {
  return { range: { start: doc.positionAt(c.offset), end: doc.positionAt(c.offset + c.length) }, newText: c.content };
}
