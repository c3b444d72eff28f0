/**
 * Discovery of other apps' servers in the UI: the one-time question whether to show them, and
 * "Import into .vscode/mcp.json" on a discovered server.
 */
import * as os from 'node:os';
import * as jsonc from 'jsonc-parser';
import * as vscode from 'vscode';
import type { ServerRef } from '../shared/common/commandArgs';
import { moveToWorkbenchFile, ownKeysInMcpJson } from '../config/common/ownKeys/moveToWorkbenchFile';
import { WORKBENCH_FILE_PATH } from '../config/common/ownKeys/workbenchFile';
import { addInputsToConfigText, addServerToConfigText, uniqueServerName } from '../config/common/configEdit';
import { inputKey } from '../config/common/definitionBuilder';
import {
  DISCOVERY_ACCEPT,
  DISCOVERY_DECLINE,
  DISCOVERY_SETTING,
  discoveryPromptMessage,
  discoveryPromptOutcome,
  shouldOfferDiscovery,
  toWorkspaceEntry,
} from '../config/common/discoverySources';
import { parseConfigText, type ServerEntry } from '../config/common/serverConfig';
import { launchTarget } from '../config/common/launchTarget';
import type { McpServerConnection } from '../mcp/connection/serverConnection';
import type { Workbench } from '../workbench';
import { showInformationMessage } from '../shared/notifications';
import { ConfigCommands } from '../config/common/commandIds';
import { registerCommandTable } from '../shared/commandTable';

/** A tree node or a server id; `folder` (a workspace folder name) picks the target without asking (keybindings, tests). */
type ImportServerArg = Partial<ServerRef> & { folder?: string };

/** globalState key: the question was answered (or dismissed), never ask again. */
const ASKED_KEY = 'mcpWorkbench.discovery.asked';

export function registerDiscovery(workbench: Workbench): vscode.Disposable[] {
  void workbench.ready.then(() => offerDiscoveryOnce(workbench)).catch(() => undefined);
  return [
    ...registerCommandTable({
      [ConfigCommands.importServer]: async (arg?: ImportServerArg | string) => {
        const id = typeof arg === 'string' ? arg : arg?.serverId;
        const connection = id ? workbench.registry.find(id) : await pickDiscovered(workbench);
        if (connection) await importServer(workbench, connection, typeof arg === 'object' ? arg.folder : undefined);
      },
    }),
  ];
}

async function offerDiscoveryOnce(workbench: Workbench): Promise<void> {
  const setting = vscode.workspace.getConfiguration().inspect<boolean>(DISCOVERY_SETTING);
  const settingConfigured = [setting?.globalValue, setting?.workspaceValue, setting?.workspaceFolderValue].some((v) => v !== undefined);
  const alreadyAsked = workbench.context.globalState.get<boolean>(ASKED_KEY, false);
  if (settingConfigured || alreadyAsked) return;
  const found = (await workbench.sources.existingDiscoveryFiles()).map((f) => f.source.label);
  if (!shouldOfferDiscovery({ settingConfigured, alreadyAsked, foundSources: found })) return;
  const accept = vscode.l10n.t(DISCOVERY_ACCEPT);
  const answer = await showInformationMessage(vscode.l10n.t(discoveryPromptMessage(found)), accept, vscode.l10n.t(DISCOVERY_DECLINE));
  const outcome = discoveryPromptOutcome(answer === accept ? DISCOVERY_ACCEPT : answer);
  if (outcome.remember) await workbench.context.globalState.update(ASKED_KEY, true);
  if (outcome.enable) await vscode.workspace.getConfiguration().update(DISCOVERY_SETTING, true, vscode.ConfigurationTarget.Global);
}

async function pickDiscovered(workbench: Workbench): Promise<McpServerConnection | undefined> {
  const discovered = workbench.registry.all().filter((c) => c.definition.source.discovered);
  if (discovered.length === 0) {
    const enable = vscode.l10n.t('Show Servers from Other Apps');
    const answer = await showInformationMessage(
      workbench.sources.discoveryEnabled()
        ? vscode.l10n.t('No servers were found in the configs of Claude Desktop, Cursor or Windsurf.')
        : vscode.l10n.t('Servers of other apps are not shown ({0} is off).', DISCOVERY_SETTING),
      ...(workbench.sources.discoveryEnabled() ? [] : [enable]),
    );
    if (answer === enable) await vscode.workspace.getConfiguration().update(DISCOVERY_SETTING, true, vscode.ConfigurationTarget.Global);
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    discovered.map((c) => ({ label: c.definition.label, description: c.definition.source.label, detail: c.definition.source.file, connection: c })),
    { placeHolder: vscode.l10n.t('Server to import into .vscode/mcp.json') },
  );
  return picked?.connection;
}

/**
 * Copies a discovered server into `.vscode/mcp.json` of a workspace folder, in the `servers`
 * shape, under a name not used there yet; literal secrets become password inputs whose values
 * go to secret storage. Opens the file at the new entry.
 */
async function importServer(workbench: Workbench, connection: McpServerConnection, folderName: string | undefined): Promise<void> {
  const { definition } = connection;
  if (!definition.entry) return;
  const folders = vscode.workspace.workspaceFolders ?? [];
  const folder =
    folders.find((f) => f.name === (folderName ?? definition.source.folder)) ??
    (folders.length === 1
      ? folders[0]
      : folders.length
        ? await vscode.window.showWorkspaceFolderPick({ placeHolder: vscode.l10n.t('Folder whose .vscode/mcp.json gets {0}', definition.name) })
        : undefined);
  if (!folder) {
    if (!folders.length) void showInformationMessage(vscode.l10n.t('Open a folder to import {0} into its .vscode/mcp.json.', definition.name));
    return;
  }
  const uri = vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json');
  const text = await workbench.sources.readText(uri);
  const existing = parseConfigText(text, 'vscode');
  const name = uniqueServerName(
    existing.servers.map((s) => s.name),
    definition.name,
  );
  const imported = toWorkspaceEntry(
    name,
    definition.entry,
    existing.inputs.map((i) => i.id),
  );
  // Values first, so the reload the write causes starts the server without asking.
  const target = { scope: 'workspace' as const, label: '.vscode/mcp.json', file: uri.fsPath, folder: folder.name };
  // Bound to where the new entry sends them, as the definition built from the written file will be.
  const bound = launchTarget(imported.entry as unknown as ServerEntry, {
    workspaceFolder: folder.uri.fsPath,
    workspaceFolders: folders.map((f) => ({ name: f.name, path: f.uri.fsPath })),
    userHome: os.homedir(),
  });
  for (const [id, value] of Object.entries(imported.values)) await workbench.inputs.set(inputKey(target, id), value, true, bound);
  let updated = addServerToConfigText(text, 'vscode', name, imported.entry, workbench.sources.indentFor(uri));
  if (imported.inputs.length) updated = addInputsToConfigText(updated, imported.inputs, workbench.sources.indentFor(uri));
  // Our own keys (`disabled`, `timeouts`) go beside, where VS Code's schema for mcp.json does not flag them; written first, so the reload sees both.
  const own = ownKeysInMcpJson(jsonc.parseTree(updated)).filter((p) => p.server === name);
  if (own.length) {
    const besideUri = vscode.Uri.joinPath(folder.uri, WORKBENCH_FILE_PATH);
    const moved = moveToWorkbenchFile(updated, await workbench.sources.readText(besideUri), own);
    if (moved.workbenchFileChanged) await vscode.workspace.fs.writeFile(besideUri, new TextEncoder().encode(moved.workbenchFile));
    updated = updated.slice(0, moved.mcpJson.offset) + moved.mcpJson.content + updated.slice(moved.mcpJson.offset + moved.mcpJson.length);
  }
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(updated));
  const offset = jsonc.findNodeAtLocation(jsonc.parseTree(updated)!, ['servers', name])?.parent?.offset ?? 0;
  const doc = await vscode.workspace.openTextDocument(uri);
  const pos = doc.positionAt(offset);
  await vscode.window.showTextDocument(doc, { selection: new vscode.Range(pos, pos) });
  const moved = imported.inputs.length
    ? ' ' + vscode.l10n.t('Secret values were moved into inputs ({0}) and kept in secret storage.', imported.inputs.map((i) => i.id).join(', '))
    : '';
  void showInformationMessage(vscode.l10n.t('Imported "{0}" from {1} into {2}/.vscode/mcp.json.', name, definition.source.label, folder.name) + moved);
}
