/**
 * The language server's features for saved tests (`*.mcptest.json`): what
 * common/testFileLanguage.ts finds from the servers the extension knows, as LSP items, plus the
 * schema's validation, key completion and hovers (schemas/mcp-test.schema.json) when VS Code's
 * JSON language features are not there to give them from `contributes.jsonValidation`.
 */
import { CompletionItemKind, Diagnostic, DiagnosticSeverity, InsertTextFormat, type CompletionItem, type Hover, type Position } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { getLanguageService, type JSONSchema, type LanguageService } from 'vscode-json-languageservice';
import { checkTestFile, completeTestFile, type TestCompletion, type TestFileContext } from '../common/testFileLanguage';
import { excessiveNesting } from '../../config/common/jsonNesting';
import { DIAGNOSTIC_SOURCE, DiagnosticCode } from './diagnosticCodes';
import { DOCUMENT_SETTINGS } from './schemaService';

const TEST_SCHEMA_URI = 'mcp-workbench://schemas/mcp-test.schema.json';

/** The files this service answers for (the rest of the server's documents are MCP config files). */
export function isTestFileUri(uri: string): boolean {
  return /\.mcptest\.json$/i.test(uri);
}

const KINDS: Record<TestCompletion['kind'], CompletionItemKind> = {
  server: CompletionItemKind.Module,
  tool: CompletionItemKind.Function,
  argument: CompletionItemKind.Property,
  prompt: CompletionItemKind.Text,
  resource: CompletionItemKind.File,
  value: CompletionItemKind.EnumMember,
};

export class TestFileService {
  private readonly json: LanguageService;

  constructor(schema: JSONSchema) {
    // Test files often name their schema in `$schema` (a relative path): the service would fetch
    // it and, with nothing to fetch with, report that it could not. It is this schema, answered from memory.
    this.json = getLanguageService({ schemaRequestService: () => Promise.resolve(JSON.stringify(schema)) });
    this.json.configure({ validate: true, allowComments: true, schemas: [{ uri: TEST_SCHEMA_URI, fileMatch: ['*'], schema }] });
  }

  async diagnostics(doc: TextDocument, ctx: TestFileContext, hostProvidesJsonSchema: boolean): Promise<Diagnostic[]> {
    const own = checkTestFile(doc.getText(), ctx).map((d) =>
      Diagnostic.create(
        { start: doc.positionAt(d.start), end: doc.positionAt(d.end) },
        d.message,
        d.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
        d.code,
        DIAGNOSTIC_SOURCE,
      ),
    );
    // What the schema checks (shapes, keys, `list` values) is never checked above: the two never say one thing twice.
    if (hostProvidesJsonSchema || excessiveNesting(doc.getText())) return own;
    const schema = await this.json.doValidation(doc, this.json.parseJSONDocument(doc), DOCUMENT_SETTINGS);
    return [...own, ...schema.map((d) => ({ ...d, source: DIAGNOSTIC_SOURCE, code: DiagnosticCode.schema }))];
  }

  async completions(doc: TextDocument, position: Position, ctx: TestFileContext, hostProvidesJsonSchema: boolean): Promise<CompletionItem[]> {
    const own = completeTestFile(doc.getText(), doc.offsetAt(position), ctx).map((c): CompletionItem => ({
      label: c.label,
      kind: KINDS[c.kind],
      ...(c.detail ? { detail: c.detail } : {}),
      // Plain text: a description is the server's text, and no server gets to format (or link) in the editor.
      ...(c.documentation ? { documentation: c.documentation } : {}),
      filterText: c.filterText,
      ...(c.snippet ? { insertTextFormat: InsertTextFormat.Snippet } : {}),
      textEdit: { range: { start: doc.positionAt(c.start), end: doc.positionAt(c.end) }, newText: c.insertText },
    }));
    if (own.length || hostProvidesJsonSchema || excessiveNesting(doc.getText())) return own;
    const list = await this.json.doComplete(doc, position, this.json.parseJSONDocument(doc));
    return list?.items ?? [];
  }

  async hover(doc: TextDocument, position: Position, hostProvidesJsonSchema: boolean): Promise<Hover | null> {
    if (hostProvidesJsonSchema || excessiveNesting(doc.getText())) return null;
    return this.json.doHover(doc, position, this.json.parseJSONDocument(doc));
  }
}
