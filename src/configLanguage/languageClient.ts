/**
 * Starts the MCP config language server (dist/server.js) the first time a covered config file
 * or a saved test (`*.mcptest.json`) is open, answers its requests for stored input values,
 * keeps it told of the servers and their lists (for saved tests), and adds the live-state code
 * lenses.
 */
import * as vscode from 'vscode';
import type { LanguageClient, LanguageClientOptions } from './languageClientFactory';
import {
  InputValueRequest,
  ServerCatalogNotification,
  SpawnPathNotification,
  type InputValueParams,
  type InputValueResult,
  type McpLanguageServerOptions,
  type SpawnPathParams,
} from './common/languageMessages';
import { inputKey } from '../config/common/definitionBuilder';
import { WORKBENCH_FILE_PATH } from '../config/common/ownKeys/workbenchFile';
import type { Workbench } from '../workbench';
import { registerServerCodeLenses } from './serverCodeLenses';
import { showErrorMessage } from '../shared/notifications';
import { syncServerCatalog } from './serverCatalogSync';

/** Every file an MCP host reads servers from, by the patterns users know them by. */
export const CONFIG_FILE_PATTERNS = ['**/.vscode/mcp.json', '**/.mcp.json', '**/.cursor/mcp.json', '**/claude_desktop_config.json'];

/**
 * Plain filters, so the same value serves VS Code's and the language client's selector types.
 * Files on disk only: a git revision of `.vscode/mcp.json` (a diff's left side) has the same path,
 * and must get neither the live servers' lenses nor the language server's checks.
 */
export const CONFIG_DOCUMENT_SELECTOR: { scheme: 'file'; language: string; pattern: string }[] = CONFIG_FILE_PATTERNS.flatMap((pattern) =>
  ['json', 'jsonc'].map((language) => ({ scheme: 'file' as const, language, pattern })),
);

export function isCoveredConfigDocument(doc: vscode.TextDocument): boolean {
  return vscode.languages.match(CONFIG_DOCUMENT_SELECTOR, doc) > 0;
}

/**
 * Saved tests: the server completes and checks the servers, tools and arguments they name. Not
 * config files: the config sources' own diagnostics and the code lenses leave them alone.
 */
const TEST_DOCUMENT_SELECTOR: { scheme: 'file'; language: string; pattern: string }[] = ['json', 'jsonc'].map((language) => ({
  scheme: 'file' as const,
  language,
  pattern: '**/*.mcptest.json',
}));

function isServedDocument(doc: vscode.TextDocument): boolean {
  return isCoveredConfigDocument(doc) || vscode.languages.match(TEST_DOCUMENT_SELECTOR, doc) > 0;
}

export function registerLanguageClient(wb: Workbench): vscode.Disposable[] {
  let client: LanguageClient | undefined;
  let catalog: ReturnType<typeof syncServerCatalog> | undefined;
  let restarts: vscode.Disposable | undefined;
  let spawnPaths: vscode.Disposable | undefined;
  const disposables: vscode.Disposable[] = [];

  const start = () => {
    if (client) return;
    const dist = vscode.Uri.joinPath(wb.context.extensionUri, 'dist');
    // Loaded here, not at activation: most windows never open an MCP config file.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const factory = require(vscode.Uri.joinPath(dist, 'languageClient.js').fsPath) as typeof import('./languageClientFactory');
    const initializationOptions: McpLanguageServerOptions = {
      hostProvidesJsonSchema: !!vscode.extensions.getExtension('vscode.json-language-features'),
      spawnPath: wb.knownSpawnPath(),
    };
    let spawnPathSent = initializationOptions.spawnPath;
    const clientOptions: LanguageClientOptions = {
      documentSelector: [...CONFIG_DOCUMENT_SELECTOR, ...TEST_DOCUMENT_SELECTOR],
      initializationOptions,
      diagnosticCollectionName: 'mcp-language',
      // The file beside .vscode/mcp.json with our own keys is watched, not covered: its changes change mcp.json's diagnostics.
      synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher(`{${[...CONFIG_FILE_PATTERNS, `**/${WORKBENCH_FILE_PATH}`].join(',')}}`) },
    };
    client = factory.createLanguageClient(vscode.Uri.joinPath(dist, 'server.js').fsPath, vscode.l10n.t('MCP Config Language Server'), clientOptions);
    client.onRequest(InputValueRequest, (params: InputValueParams): InputValueResult => {
      const value = wb.inputs.get(inputKey({ scope: 'workspace', label: '', file: params.file }, params.id));
      return value === undefined ? { stored: false } : params.secret ? { stored: true } : { stored: true, value };
    });
    wb.sources.coveredByLanguageServer = isCoveredConfigDocument;
    wb.sources.publishDiagnostics();
    const started = client;
    started.start().then(
      () => {
        // Told once it runs (a notification sent before would be lost), then on every change.
        if (client !== started) return;
        catalog = syncServerCatalog(wb, (params) => {
          // A server that just crashed misses it; restarted, it is told all again below.
          started.sendNotification(ServerCatalogNotification, params).catch(() => undefined);
        });
        // The PATH servers start with: the one the Workbench keeps, then the login shell's answer
        // of this session. The server asks no shell itself.
        const sendSpawnPath = (always = false) => {
          const spawnPath = wb.knownSpawnPath();
          if (!always && spawnPath === spawnPathSent) return;
          spawnPathSent = spawnPath;
          started.sendNotification(SpawnPathNotification, { spawnPath } satisfies SpawnPathParams).catch(() => undefined);
        };
        spawnPaths = wb.onDidChangeSpawnPath(() => sendSpawnPath());
        sendSpawnPath();
        // The client restarts a crashed server: the new process knows nothing yet.
        restarts = started.onDidChangeState((e) => {
          if (e.newState !== factory.State.Running) return;
          catalog?.resend();
          sendSpawnPath(true);
        });
      },
      (error: unknown) => {
        wb.sources.coveredByLanguageServer = undefined;
        wb.sources.publishDiagnostics();
        void showErrorMessage(vscode.l10n.t('The MCP config language server could not start: {0}', String(error)));
      },
    );
  };

  if (vscode.workspace.textDocuments.some(isServedDocument)) start();
  else {
    const waiting = vscode.workspace.onDidOpenTextDocument((doc) => {
      if (!isServedDocument(doc)) return;
      waiting.dispose();
      start();
    });
    disposables.push(waiting);
  }

  disposables.push(
    ...registerServerCodeLenses(wb, CONFIG_DOCUMENT_SELECTOR),
    new vscode.Disposable(() => {
      restarts?.dispose();
      spawnPaths?.dispose();
      catalog?.dispose();
      catalog = undefined;
      wb.sources.coveredByLanguageServer = undefined;
      void client?.stop();
      client = undefined;
    }),
  );
  return disposables;
}
