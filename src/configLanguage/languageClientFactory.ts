/**
 * The part of the language client that needs `vscode-languageclient` (a quarter of what the
 * extension would otherwise load at activation). esbuild bundles it as dist/languageClient.js,
 * and languageClient.ts requires it only when an MCP config file is first opened.
 */
import { LanguageClient, State, TransportKind, type LanguageClientOptions } from 'vscode-languageclient/node';

export type { LanguageClient, LanguageClientOptions };
export { State };

export function createLanguageClient(serverModule: string, name: string, clientOptions: LanguageClientOptions): LanguageClient {
  return new LanguageClient(
    'mcpWorkbench.config',
    name,
    {
      run: { module: serverModule, transport: TransportKind.ipc },
      debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6011'] } },
    },
    clientOptions,
  );
}
