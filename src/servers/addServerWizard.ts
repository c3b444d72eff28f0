/**
 * "Add Server…": a short wizard that writes a correct entry to .vscode/mcp.json or the folder's
 * .mcp.json (the portable file Claude Code, the Copilot CLI and VS Code all read), or to the user
 * setting when no folder is open, and opens it at the new entry.
 */
import * as vscode from 'vscode';
import * as jsonc from 'jsonc-parser';
import { addServerToConfigText, splitCommandLine, suggestServerName, uniqueServerName } from '../config/common/configEdit';
import { SERVERS_SETTING } from '../config/common/launchDefinition';
import type { Workbench } from '../workbench';
import { GalleryCommands } from '../gallery/common/commandIds';

type Kind = 'registry' | 'command' | 'npm' | 'pypi' | 'http';

/** The files of a folder the wizard writes to. */
const TARGETS = { vscode: { path: ['.vscode', 'mcp.json'], format: 'vscode' }, mcpJson: { path: ['.mcp.json'], format: 'mcpServers' } } as const;
type Target = keyof typeof TARGETS;

/**
 * Answers given up front (a command argument, as the tests drive it): each one given skips its
 * question. `target` is `"vscode"` (.vscode/mcp.json) or `"mcpJson"` (the folder's .mcp.json).
 */
export interface AddServerArgs {
  kind?: Exclude<Kind, 'registry'>;
  value?: string;
  name?: string;
  folder?: string;
  target?: Target;
}

/** A command argument as answers: only a plain object (a tree node or a URI handed by a menu is none). */
export function addServerArgs(value: unknown): AddServerArgs {
  return value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype ? (value as AddServerArgs) : {};
}

export async function addServerWizard(workbench: Workbench, args: AddServerArgs = {}): Promise<void> {
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
  const picked = args.kind
    ? kinds.find((k) => k.choice === args.kind)
    : await vscode.window.showQuickPick(kinds, { title, placeHolder: vscode.l10n.t('What kind of server?') });
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
  const value =
    args.value ??
    (await vscode.window.showInputBox({
      title,
      prompt: step.prompt,
      placeHolder: step.placeHolder,
      validateInput: step.validate,
      ignoreFocusOut: true,
    }));
  if (value === undefined || step.validate(value)) return;
  const words = splitCommandLine(value.trim());
  const entry: Record<string, unknown> =
    picked.choice === 'http'
      ? { type: 'http', url: value.trim() }
      : picked.choice === 'npm'
        ? { type: 'stdio', command: 'npx', args: ['-y', ...words] }
        : picked.choice === 'pypi'
          ? { type: 'stdio', command: 'uvx', args: words }
          : { type: 'stdio', command: words[0], args: words.slice(1) };

  const folder = args.folder
    ? vscode.workspace.workspaceFolders?.find((f) => f.name === args.folder)
    : vscode.workspace.workspaceFolders?.length === 1
      ? vscode.workspace.workspaceFolders[0]
      : vscode.workspace.workspaceFolders?.length
        ? await vscode.window.showWorkspaceFolderPick({ placeHolder: vscode.l10n.t('Folder that gets the server') })
        : undefined;
  const target = folder ? (args.target ?? (await pickTarget(title))) : undefined;
  if (folder && !target) return;
  const existing = workbench.registry.all().map((c) => c.definition.name);
  const name =
    args.name ??
    (await vscode.window.showInputBox({
      title,
      prompt: vscode.l10n.t('Server name'),
      value: uniqueServerName(existing, suggestServerName(picked.choice, value)),
      validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Enter a name')),
      ignoreFocusOut: true,
    }));
  if (!name) return;

  if (!folder || !target) {
    const config = vscode.workspace.getConfiguration();
    const servers = { ...(config.get<Record<string, unknown>>(SERVERS_SETTING) ?? {}), [name.trim()]: entry };
    await config.update(SERVERS_SETTING, servers, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.openSettingsJson', { revealSetting: { key: SERVERS_SETTING } });
    return;
  }
  const { path, format } = TARGETS[target];
  const uri = vscode.Uri.joinPath(folder.uri, ...path);
  const text = await workbench.sources.readText(uri);
  const updated = addServerToConfigText(text, format, name.trim(), entry, workbench.sources.indentFor(uri));
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(updated));
  const mapKey = format === 'vscode' ? 'servers' : 'mcpServers';
  const offset = jsonc.findNodeAtLocation(jsonc.parseTree(updated)!, [mapKey, name.trim()])?.parent?.offset ?? 0;
  const doc = await vscode.workspace.openTextDocument(uri);
  const pos = doc.positionAt(offset);
  await vscode.window.showTextDocument(doc, { selection: new vscode.Range(pos, pos) });
}

/** Which file of the folder gets the server: VS Code's own, or the portable `.mcp.json`. */
async function pickTarget(title: string): Promise<Target | undefined> {
  const items: (vscode.QuickPickItem & { target: Target })[] = [
    { target: 'vscode', label: '.vscode/mcp.json', detail: vscode.l10n.t("VS Code's workspace file (read by VS Code and MCP Workbench)") },
    {
      target: 'mcpJson',
      label: '.mcp.json',
      detail: vscode.l10n.t('The portable file at the folder root (read by VS Code, its Copilot agent host, the Copilot CLI, Claude Code and MCP Workbench)'),
    },
  ];
  return (await vscode.window.showQuickPick(items, { title, placeHolder: vscode.l10n.t('Which file gets the server?') }))?.target;
}
