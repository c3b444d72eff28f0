/**
 * Every feature of the config language server as plain async functions of (document,
 * context): what server.ts wires to the LSP connection and what the unit tests call.
 */
import type { CodeAction, CompletionItem, Diagnostic, DocumentLink, Hover, Position, Range } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { JSONSchema, LanguageService } from 'vscode-json-languageservice';
import { codeActions } from './configCodeActions';
import { completeVariablesAndCommands } from './configCompletions';
import { computeDiagnostics } from './configDiagnostics';
import { hoverSamplingMock, hoverVariable, type InputValueLookup } from './configHovers';
import { documentLinks } from './configLinks';
import { buildModel, formatForPath, type ConfigModel } from './configModel';
import { DIAGNOSTIC_SOURCE, DiagnosticCode } from './diagnosticCodes';
import type { LanguageContext } from './serverContext';
import { createSchemaService, DOCUMENT_SETTINGS } from './schemaService';

export class McpConfigService {
  private readonly json: LanguageService;
  private cache: { uri: string; version: number; model: ConfigModel } | undefined;

  constructor(
    schema: JSONSchema,
    private readonly inputValue?: InputValueLookup,
  ) {
    this.json = createSchemaService(schema);
  }

  model(doc: TextDocument): ConfigModel {
    if (this.cache?.uri === doc.uri && this.cache.version === doc.version) return this.cache.model;
    const model = buildModel(doc.getText(), formatForPath(decodeURIComponent(doc.uri)));
    this.cache = { uri: doc.uri, version: doc.version, model };
    return model;
  }

  async diagnostics(doc: TextDocument, ctx: LanguageContext): Promise<Diagnostic[]> {
    const own = computeDiagnostics(this.model(doc), doc, ctx);
    // The JSON language service parses recursively: a document nested too deep gets only our diagnostic.
    if (ctx.hostProvidesJsonSchema || this.model(doc).parsed.tooDeep) return own;
    const schema = await this.json.doValidation(doc, this.json.parseJSONDocument(doc), DOCUMENT_SETTINGS);
    // The parser already reports syntax errors and `type` dialects in its own words; keep only what it cannot say.
    const fromSchema = schema
      .filter((d) => !own.some((o) => o.range.start.line === d.range.start.line && (o.code === DiagnosticCode.parse || o.code === DiagnosticCode.typeDialect)))
      .map((d) => ({ ...d, source: DIAGNOSTIC_SOURCE, code: DiagnosticCode.schema }));
    return [...own, ...fromSchema];
  }

  async completions(doc: TextDocument, position: Position, ctx: LanguageContext): Promise<CompletionItem[]> {
    const own = completeVariablesAndCommands(this.model(doc), doc, position, ctx);
    if (own.length || ctx.hostProvidesJsonSchema || this.model(doc).parsed.tooDeep) return own;
    const list = await this.json.doComplete(doc, position, this.json.parseJSONDocument(doc));
    return list?.items ?? [];
  }

  async hover(doc: TextDocument, position: Position, ctx: LanguageContext): Promise<Hover | null> {
    const variable =
      (await hoverVariable(this.model(doc), doc, doc.offsetAt(position), ctx, this.inputValue)) ??
      hoverSamplingMock(this.model(doc), doc, doc.offsetAt(position));
    if (variable || ctx.hostProvidesJsonSchema || this.model(doc).parsed.tooDeep) return variable;
    return this.json.doHover(doc, position, this.json.parseJSONDocument(doc));
  }

  codeActions(doc: TextDocument, range: Range, diagnostics: readonly Diagnostic[], ctx: Pick<LanguageContext, 'platform' | 'workbenchFile'>): CodeAction[] {
    return codeActions(this.model(doc), doc, range, diagnostics, ctx);
  }

  links(doc: TextDocument, ctx: LanguageContext): DocumentLink[] {
    return documentLinks(this.model(doc), doc, ctx);
  }
}
