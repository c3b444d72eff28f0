/** Helpers shared by the integration suites, which run inside the real VS Code extension host. */
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../src/api';
import type { McpServerConnection } from '../../src/mcp/connection/serverConnection';

export const EXTENSION_ID = 'mcp-workbench.mcp-workbench';

export async function activateApi(): Promise<McpWorkbenchApi> {
  const ext = vscode.extensions.getExtension<McpWorkbenchApi>(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not installed in this VS Code`);
  const api = await ext.activate();
  await api.ready;
  return api;
}

export async function waitFor<T>(check: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 20000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function running(api: McpWorkbenchApi, name: string): Promise<McpServerConnection> {
  return waitFor(() => {
    const c = api.server(name);
    return c?.state.kind === 'running' && c;
  }, `server "${name}" to run (now: ${JSON.stringify(api.server(name)?.state)})`);
}

export function textOf(result: { content?: unknown }): string {
  return ((result.content ?? []) as { type: string; text?: string }[]).filter((c) => c.type === 'text').map((c) => c.text).join('');
}

/** The pid of a stdio server's current process, to tell a restart from a kept process. */
export function pidOf(c: McpServerConnection): number | undefined {
  return (c.client as unknown as { transport?: { pid?: number | null } } | undefined)?.transport?.pid ?? undefined;
}

export function folderUri(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.name === name);
  if (!folder) throw new Error(`no workspace folder "${name}"`);
  return folder.uri;
}

export async function writeText(uri: vscode.Uri, text: string): Promise<void> {
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
}
