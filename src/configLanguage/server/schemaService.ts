/**
 * The JSON language service configured with schemas/mcp-config.schema.json. Used for schema
 * validation, key completion and key hovers only when VS Code's JSON language features are
 * not there to do it from `contributes.jsonValidation` (see McpLanguageServerOptions).
 */
import * as fs from 'node:fs';
import { getLanguageService, type JSONSchema, type LanguageService } from 'vscode-json-languageservice';

export const SCHEMA_URI = 'mcp-workbench://schemas/mcp-config.schema.json';

export function loadSchema(file: string): JSONSchema {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as JSONSchema;
}

export function createSchemaService(schema: JSONSchema): LanguageService {
  const service = getLanguageService({});
  service.configure({ validate: true, allowComments: true, schemas: [{ uri: SCHEMA_URI, fileMatch: ['*'], schema }] });
  return service;
}

/** Comments and trailing commas are allowed in every MCP config file the extension reads. */
export const DOCUMENT_SETTINGS = { comments: 'ignore', trailingCommas: 'ignore' } as const;
