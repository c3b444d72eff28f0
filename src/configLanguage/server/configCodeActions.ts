/**
 * Quick fixes for the server's diagnostics (found by code) and refactorings of the file:
 * add a missing input, normalise `type`, rename a misspelt key, move a literal secret into a password input,
 * convert between `servers` and `mcpServers`, and (Windows only) wrap `npx` in `cmd /c`.
 */
import * as jsonc from 'jsonc-parser';
import { CodeActionKind, type CodeAction, type Diagnostic, type Range, type TextEdit } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { detectFormatting } from '../../config/common/configEdit';
import { serverAt, serverField, serverString, type ConfigModel } from './configModel';
import { ownKeyPlaceActions } from './ownKeyPlace';
import type { WorkbenchFileContext } from './serverContext';
import { DiagnosticCode, type InputUndefinedData, type KeyTypoData, type SecretLiteralData, type VariableUnknownData } from './diagnosticCodes';

/** Commands that are `.cmd` shims on Windows: other hosts can only start them through `cmd /c`. */
const WINDOWS_SHIMS = new Set(['npx', 'npm', 'pnpm', 'pnpx', 'yarn', 'bunx', 'uvx', 'tsx']);
const SECRET_ID = /(token|secret|password|passwd|key|credential|auth)/i;

export interface CodeActionContext {
  platform: NodeJS.Platform;
  /** For `.vscode/mcp.json`: the file its MCP Workbench keys move to. */
  workbenchFile?: WorkbenchFileContext;
}

export function codeActions(model: ConfigModel, doc: TextDocument, range: Range, diagnostics: readonly Diagnostic[], ctx: CodeActionContext): CodeAction[] {
  const actions: CodeAction[] = [];
  const fmt = detectFormatting(model.text);
  const toTextEdits = (edits: jsonc.Edit[]): TextEdit[] =>
    edits.map((e) => ({ range: { start: doc.positionAt(e.offset), end: doc.positionAt(e.offset + e.length) }, newText: e.content }));
  const action = (title: string, kind: string, edits: TextEdit[], diagnostic?: Diagnostic, preferred = false): CodeAction => ({
    title,
    kind,
    diagnostics: diagnostic ? [diagnostic] : undefined,
    isPreferred: preferred || undefined,
    edit: { changes: { [doc.uri]: edits } },
  });
  const addInputEdits = (input: Record<string, unknown>): TextEdit[] =>
    toTextEdits(
      jsonc.modify(model.text, model.inputsNode?.type === 'array' ? ['inputs', -1] : ['inputs'], model.inputsNode?.type === 'array' ? input : [input], {
        formattingOptions: fmt,
      }),
    );

  for (const diagnostic of diagnostics) {
    switch (diagnostic.code) {
      case DiagnosticCode.inputUndefined: {
        const { id } = diagnostic.data as InputUndefinedData;
        const input = { type: 'promptString', id, description: id, ...(SECRET_ID.test(id) ? { password: true } : {}) };
        actions.push(action(`Add input "${id}" to "inputs"`, CodeActionKind.QuickFix, addInputEdits(input), diagnostic, true));
        break;
      }
      case DiagnosticCode.typeDialect:
        actions.push(action('Write "type": "http"', CodeActionKind.QuickFix, [{ range: diagnostic.range, newText: '"http"' }], diagnostic, true));
        break;
      case DiagnosticCode.variableUnknown: {
        const { suggestion } = (diagnostic.data ?? {}) as VariableUnknownData;
        if (suggestion)
          actions.push(
            action(`Change to \${${suggestion}}`, CodeActionKind.QuickFix, [{ range: diagnostic.range, newText: `\${${suggestion}}` }], diagnostic, true),
          );
        break;
      }
      case DiagnosticCode.keyTypo: {
        const { suggestion } = diagnostic.data as KeyTypoData;
        actions.push(
          action(
            `Did you mean "${suggestion}"?`,
            CodeActionKind.QuickFix,
            [{ range: diagnostic.range, newText: JSON.stringify(suggestion) }],
            diagnostic,
            true,
          ),
        );
        break;
      }
      case DiagnosticCode.secretLiteral: {
        const data = diagnostic.data as SecretLiteralData;
        const input = { type: 'promptString', id: data.suggestedId, description: `${data.key} for ${data.server}`, password: true };
        const value = { range: diagnostic.range, newText: JSON.stringify(`${data.prefix}\${input:${data.suggestedId}}`) };
        actions.push(
          action(`Move the secret into the password input "${data.suggestedId}"`, CodeActionKind.QuickFix, [value, ...addInputEdits(input)], diagnostic, true),
        );
        break;
      }
    }
  }

  actions.push(...ownKeyPlaceActions(model, doc, diagnostics, ctx.workbenchFile));

  const offset = doc.offsetAt(range.start);
  if (model.mapProperty && model.mapKey) {
    const keyNode = model.mapProperty.children![0];
    // On the map's key or a server's name only: inside an entry, the fixes of that entry are what matters.
    const inEntry = model.servers.some((s) => offset >= s.valueNode.offset && offset <= s.valueNode.offset + s.valueNode.length);
    if (!inEntry && offset >= model.mapProperty.offset && offset <= model.mapProperty.offset + model.mapProperty.length) {
      const target = model.mapKey === 'servers' ? 'mcpServers' : 'servers';
      const hint = target === 'servers' ? "VS Code's .vscode/mcp.json format" : 'the format of Claude Code, Claude Desktop and Cursor';
      actions.push(
        action(`Convert to "${target}" (${hint})`, CodeActionKind.RefactorRewrite, [
          { range: { start: doc.positionAt(keyNode.offset), end: doc.positionAt(keyNode.offset + keyNode.length) }, newText: JSON.stringify(target) },
        ]),
      );
    }
  }

  if (ctx.platform === 'win32') {
    const server = serverAt(model, offset);
    const command = server && serverString(server, 'command');
    if (server && command && WINDOWS_SHIMS.has(command.value.toLowerCase()) && model.mapKey) {
      const args = serverField(server, 'args');
      const oldArgs = args?.value.type === 'array' ? (jsonc.getNodeValue(args.value) as unknown[]) : [];
      const edits = [
        { range: { start: doc.positionAt(command.node.offset), end: doc.positionAt(command.node.offset + command.node.length) }, newText: '"cmd"' },
        ...toTextEdits(jsonc.modify(model.text, [model.mapKey, server.name, 'args'], ['/c', command.value, ...oldArgs], { formattingOptions: fmt })),
      ];
      actions.push(action(`Run "${command.value}" through "cmd /c" (for hosts that do not start .cmd shims)`, CodeActionKind.QuickFix, edits));
    }
  }
  return actions;
}
