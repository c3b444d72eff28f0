/**
 * "Add Server…": a short wizard that writes a correct entry to .vscode/mcp.json (or the user
 * setting when no folder is open) and opens it at the new entry.
 */
import * as vscode from 'vscode';
import * as jsonc from 'jsonc-parser';
import { addServerToConfigText, splitCommandLine, suggestServerName, uniqueServerName } from '../config/common/configEdit';
import { SERVERS_SETTING, editorIndent, readConfigTextOrEmpty } from '../config/configSources';
import type { Workbench } from '../workbench';
import { GalleryCommands } from '../gallery/common/commandIds';

type Kind = 'registry' | 'command' | 'npm' | 'pypi' | 'http';

export async function addServerWizard(workbench: Workbench): Promise<void> {
  const title = vscode.l10n.t('Add MCP Server');
  const kinds: (vscode.QuickPickItem & { choice: Kind })[] = [
    {
      choice: 'registry',
      label: '$(library) ' + vscode.l10n.t('Browse the MCP registry…'),
      detail: vscode.l10n.t('Search servers published to the MCP registry and install one, inputs and all'),
    },
    {
      choice: 'npm',
      label: '$(package) ' + vscode.l10n.t('npm package'),
      detail: vscode.l10n.t('Runs with npx, e.g. @modelcontextprotocol/server-everything'),
    },
    { choice: 'pypi', label: '$(symbol-namespace) ' + vscode.l10n.t('Python package'), detail: vscode.l10n.t('Runs with uvx, e.g. mcp-server-fetch') },
    { choice: 'command', label: '$(terminal) ' + vscode.l10n.t('Command (stdio)'), detail: vscode.l10n.t('Any program that speaks MCP on stdin/stdout') },
    { choice: 'http', label: '$(globe) ' + vscode.l10n.t('HTTP URL'), detail: vscode.l10n.t('A remote server (Streamable HTTP, falling back to SSE)') },
  ];
  const picked = await vscode.window.showQuickPick(kinds, { title, placeHolder: vscode.l10n.t('What kind of server?') });
  if (!picked) return;
  if (picked.choice === 'registry') {
    await vscode.commands.executeCommand(GalleryCommands.browse);
    return;
  }
  const prompts: Record<Exclude<Kind, 'registry'>, { prompt: string; placeHolder: string; validate: (v: string) => string | undefined }> = {
    npm: {
      prompt: vscode.l10n.t('npm package (and arguments)'),
      placeHolder: '@modelcontextprotocol/server-everything',
      validate: (v) => (v.trim() ? undefined : vscode.l10n.t('Enter a package name')),
    },
    pypi: {
      prompt: vscode.l10n.t('Python package (and arguments)'),
      placeHolder: 'mcp-server-fetch',
      validate: (v) => (v.trim() ? undefined : vscode.l10n.t('Enter a package name')),
    },
    command: {
      prompt: vscode.l10n.t('Command line'),
      placeHolder: 'node ${workspaceFolder}/server.js',
      validate: (v) => (v.trim() ? undefined : vscode.l10n.t('Enter a command')),
    },
    http: {
      prompt: vscode.l10n.t('Server URL'),
      placeHolder: 'https://example.com/mcp',
      validate: (v) => {
        try {
          const url = new URL(v.trim());
          return url.protocol === 'http:' || url.protocol === 'https:' ? undefined : vscode.l10n.t('Use an http:// or https:// URL');
        } catch {
          return vscode.l10n.t('Not a valid URL');
        }
      },
    },
  };
  const step = prompts[picked.choice];
  const value = await vscode.window.showInputBox({
    title,
    prompt: step.prompt,
    placeHolder: step.placeHolder,
    validateInput: step.validate,
    ignoreFocusOut: true,
  });
  if (value === undefined) return;
  const words = splitCommandLine(value.trim());
  const entry: Record<string, unknown> =
    picked.choice === 'http'
      ? { type: 'http', url: value.trim() }
      : picked.choice === 'npm'
        ? { type: 'stdio', command: 'npx', args: ['-y', ...words] }
        : picked.choice === 'pypi'
          ? { type: 'stdio', command: 'uvx', args: words }
          : { type: 'stdio', command: words[0], args: words.slice(1) };

  const folder =
    vscode.workspace.workspaceFolders?.length === 1
      ? vscode.workspace.workspaceFolders[0]
      : vscode.workspace.workspaceFolders?.length
        ? await vscode.window.showWorkspaceFolderPick({ placeHolder: vscode.l10n.t('Folder whose .vscode/mcp.json gets the server') })
        : undefined;
  const existing = workbench.registry.all().map((c) => c.definition.name);
  const name = await vscode.window.showInputBox({
    title,
    prompt: vscode.l10n.t('Server name'),
    value: uniqueServerName(existing, suggestServerName(picked.choice, value)),
    validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Enter a name')),
    ignoreFocusOut: true,
  });
  if (!name) return;

  if (!folder) {
    const config = vscode.workspace.getConfiguration();
    const servers = { ...(config.get<Record<string, unknown>>(SERVERS_SETTING) ?? {}), [name.trim()]: entry };
    await config.update(SERVERS_SETTING, servers, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.openSettingsJson', { revealSetting: { key: SERVERS_SETTING } });
    return;
  }
  const uri = vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json');
  const text = await readConfigTextOrEmpty(uri);
  const updated = addServerToConfigText(text, 'vscode', name.trim(), entry, editorIndent(uri));
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(updated));
  const offset = jsonc.findNodeAtLocation(jsonc.parseTree(updated)!, ['servers', name.trim()])?.parent?.offset ?? 0;
  const doc = await vscode.workspace.openTextDocument(uri);
  const pos = doc.positionAt(offset);
  await vscode.window.showTextDocument(doc, { selection: new vscode.Range(pos, pos) });
}
