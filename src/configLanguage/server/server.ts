/**
 * Entry of the MCP config language server (bundled to dist/server.js, started by
 * src/configLanguage/languageClient.ts over IPC). Wires McpConfigService (config files) and
 * TestFileService (saved tests, `*.mcptest.json`) to the LSP connection and keeps what they
 * need to know about the machine: the PATH servers start with, the workspace folders, the
 * servers of the workspace's other config files, and the servers the extension knows with their
 * last lists (ServerCatalogNotification).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CodeActionKind, createConnection, ProposedFeatures, TextDocuments, TextDocumentSyncKind } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  InputValueRequest,
  ServerCatalogNotification,
  SpawnPathNotification,
  type InputValueParams,
  type InputValueResult,
  type McpLanguageServerOptions,
  type ServerCatalogParams,
  type SpawnPathParams,
} from '../common/languageMessages';
import type { TestFileContext } from '../common/testFileLanguage';
import { parseConfigText } from '../../config/common/serverConfig';
import { formatForPath } from './configModel';
import { McpConfigService } from './mcpConfigService';
import { folderOf, readTextOnDisk, statOnDisk, type LanguageContext, type OtherServer, type WorkbenchFileContext } from './serverContext';
import { WORKBENCH_FILE_NAME } from '../../config/common/ownKeys/workbenchFile';
import { loadSchema } from './schemaService';
import { isTestFileUri, TestFileService } from './testFileService';

/** The files the extension loads servers from, per workspace folder (duplicates matter only among these). */
const LOADED_FILES = ['.vscode/mcp.json', '.mcp.json'];

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
const service = new McpConfigService(loadSchema(path.join(__dirname, '..', 'schemas', 'mcp-config.schema.json')), (params: InputValueParams) =>
  connection.sendRequest<InputValueResult>(InputValueRequest, params),
);

const testFiles = new TestFileService(loadSchema(path.join(__dirname, '..', 'schemas', 'mcp-test.schema.json')));

let options: McpLanguageServerOptions = { hostProvidesJsonSchema: false, spawnPath: process.env.PATH ?? '' };
let folders: { name: string; path: string }[] = [];
/** The servers the extension knows, with their last lists; undefined until it sent them. */
let catalog: ServerCatalogParams | undefined;

connection.onInitialize((params) => {
  options = { ...options, ...(params.initializationOptions as Partial<McpLanguageServerOptions> | undefined) };
  folders = (params.workspaceFolders ?? []).filter((f) => f.uri.startsWith('file:')).map((f) => ({ name: f.name, path: fileURLToPath(f.uri) }));
  return {
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      completionProvider: { triggerCharacters: ['{', ':', '"'] },
      hoverProvider: true,
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.RefactorRewrite] },
      documentLinkProvider: { resolveProvider: false },
      workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
    },
  };
});

connection.onInitialized(() => {
  connection.workspace.onDidChangeWorkspaceFolders((e) => {
    const removed = new Set(e.removed.map((f) => f.uri));
    const kept = folders.filter((f) => !removed.has(pathToFileURL(f.path).toString()));
    folders = [...kept, ...e.added.filter((f) => f.uri.startsWith('file:')).map((f) => ({ name: f.name, path: fileURLToPath(f.uri) }))];
    validateAll();
  });
});

connection.onNotification(SpawnPathNotification, (params: SpawnPathParams) => {
  options = { ...options, spawnPath: params.spawnPath };
  validateAll();
});

connection.onNotification(ServerCatalogNotification, (params: ServerCatalogParams) => {
  catalog = params;
  for (const doc of documents.all()) if (isTestFileUri(doc.uri)) validate(doc, 0);
});

function context(uri: string): LanguageContext {
  const filePath = uri.startsWith('file:') ? fileURLToPath(uri) : undefined;
  return {
    filePath,
    folderPath: filePath ? folderOf(filePath, folders) : undefined,
    workspaceFolders: folders,
    userHome: os.homedir(),
    env: process.env,
    pathValue: options.spawnPath,
    // This process has the extension host's environment: a different PATH has the login shell's merged in.
    loginShellPath: options.spawnPath !== (process.env.PATH ?? ''),
    platform: process.platform,
    stat: statOnDisk,
    otherServers: filePath ? otherServers(filePath) : [],
    hostProvidesJsonSchema: options.hostProvidesJsonSchema,
    workbenchFile: workbenchFile(uri),
  };
}

function testContext(uri: string): TestFileContext {
  const filePath = uri.startsWith('file:') ? fileURLToPath(uri) : undefined;
  const folder = filePath ? folderOf(filePath, folders) : undefined;
  return { servers: catalog?.servers, folder: folders.find((f) => f.path === folder)?.name };
}

/** `.vscode/mcp-workbench.json` beside a `.vscode/mcp.json` (not a document of this server: read from disk, as saved). */
function workbenchFile(uri: string): WorkbenchFileContext | undefined {
  if (!uri.startsWith('file:') || formatForPath(decodeURIComponent(uri)) !== 'vscode') return undefined;
  const besideUri = uri.replace(/mcp\.json$/, WORKBENCH_FILE_NAME);
  return { uri: besideUri, text: readTextOnDisk(fileURLToPath(besideUri)) };
}

/** Servers of the other files the extension loads, read from open documents first, then disk. */
function otherServers(filePath: string): OtherServer[] {
  const folder = folderOf(filePath, folders);
  if (!folder || !LOADED_FILES.some((f) => path.join(folder, f) === filePath)) return [];
  const found: OtherServer[] = [];
  for (const f of folders) {
    for (const file of LOADED_FILES) {
      const other = path.join(f.path, file);
      if (other === filePath) continue;
      const open = documents.get(pathToFileURL(other).toString());
      let text: string | undefined = open?.getText();
      try {
        text ??= fs.readFileSync(other, 'utf8');
      } catch {
        continue;
      }
      const where = folders.length > 1 ? `${f.name}/${file}` : file;
      for (const s of parseConfigText(text, formatForPath(other)).servers) found.push({ name: s.name, where });
    }
  }
  return found;
}

const pending = new Map<string, NodeJS.Timeout>();

function validate(doc: TextDocument, delay = 200): void {
  clearTimeout(pending.get(doc.uri));
  pending.set(
    doc.uri,
    setTimeout(() => {
      pending.delete(doc.uri);
      const diagnostics = isTestFileUri(doc.uri)
        ? testFiles.diagnostics(doc, testContext(doc.uri), options.hostProvidesJsonSchema)
        : service.diagnostics(doc, context(doc.uri));
      diagnostics
        .then((diagnostics) => connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics }))
        .catch((error) => connection.console.error(`MCP config diagnostics failed: ${String(error)}`));
    }, delay),
  );
}

function validateAll(): void {
  for (const doc of documents.all()) validate(doc, 0);
}

documents.onDidChangeContent((e) => {
  validate(e.document);
  if (isTestFileUri(e.document.uri)) return;
  // A rename in one file changes the duplicate-name warnings of the others (test files learn of it from the extension's catalog).
  for (const doc of documents.all()) if (doc.uri !== e.document.uri && !isTestFileUri(doc.uri)) validate(doc, 400);
});
documents.onDidClose((e) => {
  clearTimeout(pending.get(e.document.uri));
  void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
});
connection.onDidChangeWatchedFiles(() => validateAll());

connection.onCompletion((params) => {
  const doc = documents.get(params.textDocument.uri);
  if (doc && isTestFileUri(doc.uri)) return testFiles.completions(doc, params.position, testContext(doc.uri), options.hostProvidesJsonSchema);
  return doc ? service.completions(doc, params.position, context(doc.uri)) : [];
});
connection.onHover((params) => {
  const doc = documents.get(params.textDocument.uri);
  if (doc && isTestFileUri(doc.uri)) return testFiles.hover(doc, params.position, options.hostProvidesJsonSchema);
  return doc ? service.hover(doc, params.position, context(doc.uri)) : null;
});
connection.onCodeAction((params) => {
  const doc = documents.get(params.textDocument.uri);
  if (doc && isTestFileUri(doc.uri)) return [];
  return doc ? service.codeActions(doc, params.range, params.context.diagnostics, { platform: process.platform, workbenchFile: workbenchFile(doc.uri) }) : [];
});
connection.onDocumentLinks((params) => {
  const doc = documents.get(params.textDocument.uri);
  if (doc && isTestFileUri(doc.uri)) return [];
  return doc ? service.links(doc, context(doc.uri)) : [];
});

documents.listen(connection);
connection.listen();
