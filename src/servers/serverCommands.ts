/**
 * Palette commands (category "MCP"). Each takes an optional server id (from the tree, code
 * lenses or keybindings) and otherwise asks with a quick pick.
 */
import * as vscode from 'vscode';
import { describeState, redactState, stateIcon } from '../mcp/serverState';
import { SERVERS_SETTING } from '../config/common/launchDefinition';
import type { McpServerConnection } from '../mcp/connection/serverConnection';
import { UNTRUSTED_REASON, type Workbench } from '../workbench';
import { revealControlCharacters } from '../shared/common/untrustedText';
import { showInformationMessage, showWarningMessage } from '../shared/notifications';
import { ServerCommands } from './common/commandIds';
import { CoexistenceCommands } from '../coexistence/common/commandIds';
import type { ServerRef } from '../shared/common/commandArgs';
import { registerCommandTable } from '../shared/commandTable';

/** Accepts a server id string or any object carrying one (tree nodes later). */
type ServerArg = string | { serverId: string } | undefined;

export function registerCommands(workbench: Workbench): vscode.Disposable[] {
  const { registry } = workbench;

  const pick = async (arg: ServerArg, placeHolder: string, filter: (c: McpServerConnection) => boolean = () => true) => {
    const id = typeof arg === 'string' ? arg : arg?.serverId;
    if (id) return registry.find(id);
    return pickServer(workbench, placeHolder, filter);
  };

  const withServer =
    (placeHolder: string, filter: (c: McpServerConnection) => boolean, run: (c: McpServerConnection) => Promise<unknown> | unknown) =>
    async (arg: ServerArg) => {
      const connection = await pick(arg, placeHolder, filter);
      if (connection) await run(connection);
    };

  const start = async (c: McpServerConnection) => {
    if (c.definition.source.scope === 'workspace' && !vscode.workspace.isTrusted) {
      await explainUntrusted(c.definition.label);
      return;
    }
    await vscode.commands.executeCommand(CoexistenceCommands.warnBeforeSecondCopy, { serverId: c.definition.id } satisfies ServerRef);
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Starting MCP server {0}…', c.definition.label) }, () =>
      registry.start(c.definition.id),
    );
  };

  return [
    ...registerCommandTable({
      [ServerCommands.start]: withServer(vscode.l10n.t('Server to start'), (c) => c.state.kind !== 'running' && c.state.kind !== 'starting', start),
      [ServerCommands.stop]: withServer(
        vscode.l10n.t('Server to stop'),
        (c) => c.state.kind === 'running' || c.state.kind === 'starting',
        (c) => registry.stop(c.definition.id),
      ),
      [ServerCommands.restart]: withServer(
        vscode.l10n.t('Server to restart'),
        () => true,
        async (c) => {
          if (c.definition.source.scope === 'workspace' && !vscode.workspace.isTrusted) return explainUntrusted(c.definition.label);
          await vscode.window.withProgress(
            { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Restarting MCP server {0}…', c.definition.label) },
            () => registry.restart(c.definition.id),
          );
        },
      ),
      [ServerCommands.showOutput]: withServer(
        vscode.l10n.t('Server whose output to show'),
        () => true,
        (c) => workbench.outputs.show(c.definition),
      ),
      [ServerCommands.openConfiguration]: async (arg: ServerArg) => {
        const id = typeof arg === 'string' ? arg : arg?.serverId;
        const connection = id ? registry.find(id) : undefined;
        if (connection) return openServerConfig(connection);
        return openSomeConfig(workbench);
      },
      [ServerCommands.restartAll]: () =>
        vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Restarting MCP servers…') }, () => registry.restartAll()),
      [ServerCommands.clearStoredInputs]: async () => {
        await workbench.inputs.clear();
        await workbench.config.reload();
        void showInformationMessage(vscode.l10n.t('Stored MCP inputs were cleared; servers that use them will ask again when they start.'));
      },
      [ServerCommands.showServers]: () => showServers(workbench, start),
      [ServerCommands.manageTrust]: () => vscode.commands.executeCommand('workbench.trust.manage'),
    }),
  ];
}

async function pickServer(workbench: Workbench, placeHolder: string, filter: (c: McpServerConnection) => boolean) {
  const candidates = workbench.registry.all().filter(filter);
  if (candidates.length === 0) {
    void showInformationMessage(
      workbench.registry.all().length
        ? vscode.l10n.t('No MCP server is in a state for this.')
        : vscode.l10n.t('No MCP servers are configured. Add one to .vscode/mcp.json or .mcp.json.'),
    );
    return undefined;
  }
  if (candidates.length === 1) return candidates[0];
  const picked = await vscode.window.showQuickPick(
    candidates.map((c) => serverPickItem(c)),
    { placeHolder },
  );
  return picked?.connection;
}

function serverPickItem(c: McpServerConnection) {
  return {
    label: `$(${stateIcon(c.state)}) ${revealControlCharacters(c.definition.label)}`,
    description: c.definition.source.label,
    detail: describeState(redactState(c.state, c.definition.secrets)),
    connection: c,
  };
}

/** The status bar's picker: servers with their state, then the actions for the chosen one. */
async function showServers(workbench: Workbench, start: (c: McpServerConnection) => Promise<void>): Promise<void> {
  const all = workbench.registry.all();
  if (all.length === 0) {
    const open = vscode.l10n.t('Open Configuration');
    if ((await showInformationMessage(vscode.l10n.t('No MCP servers are configured.'), open)) === open) {
      await openSomeConfig(workbench);
    }
    return;
  }
  const picked = await vscode.window.showQuickPick(all.map(serverPickItem), { placeHolder: vscode.l10n.t('MCP servers') });
  if (!picked) return;
  const c = picked.connection;
  const running = c.state.kind === 'running' || c.state.kind === 'starting';
  const actions: { label: string; run: () => unknown }[] = [
    ...(running ? [] : [{ label: `$(play) ${vscode.l10n.t('Start')}`, run: () => start(c) }]),
    ...(running ? [{ label: `$(debug-stop) ${vscode.l10n.t('Stop')}`, run: () => workbench.registry.stop(c.definition.id) }] : []),
    { label: `$(debug-restart) ${vscode.l10n.t('Restart')}`, run: () => vscode.commands.executeCommand(ServerCommands.restart, c.definition.id) },
    { label: `$(output) ${vscode.l10n.t('Show Output')}`, run: () => workbench.outputs.show(c.definition) },
    { label: `$(go-to-file) ${vscode.l10n.t('Open Configuration')}`, run: () => openServerConfig(c) },
  ];
  if (c.definition.source.scope === 'workspace' && !vscode.workspace.isTrusted) {
    actions.unshift({ label: `$(shield) ${vscode.l10n.t('Manage Workspace Trust')}`, run: () => vscode.commands.executeCommand('workbench.trust.manage') });
  }
  const action = await vscode.window.showQuickPick(actions, {
    placeHolder: `${c.definition.label}: ${describeState(redactState(c.state, c.definition.secrets))}`,
  });
  await action?.run();
}

export async function openServerConfig(c: McpServerConnection): Promise<void> {
  const { source } = c.definition;
  if (!source.file) {
    await vscode.commands.executeCommand('workbench.action.openSettingsJson', { revealSetting: { key: SERVERS_SETTING } });
    return;
  }
  const line = source.line ?? 0;
  await vscode.window.showTextDocument(vscode.Uri.file(source.file), { selection: new vscode.Range(line, 0, line, 0) });
}

async function openSomeConfig(workbench: Workbench): Promise<void> {
  const files = await workbench.sources.existingFiles();
  type Item = vscode.QuickPickItem & { run: () => Thenable<unknown> };
  const items: Item[] = files.map((f) => ({
    label: `$(json) ${f.path}`,
    description: f.folder.name,
    run: () => vscode.window.showTextDocument(f.uri),
  }));
  const folders = vscode.workspace.workspaceFolders ?? [];
  for (const folder of folders) {
    const target = vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json');
    if (!files.some((f) => f.uri.toString() === target.toString())) {
      items.push({ label: `$(new-file) ${vscode.l10n.t('Create .vscode/mcp.json')}`, description: folder.name, run: () => createMcpJson(target) });
    }
  }
  items.push({
    label: `$(settings-gear) ${vscode.l10n.t('User settings ({0})', SERVERS_SETTING)}`,
    run: () => vscode.commands.executeCommand('workbench.action.openSettingsJson', { revealSetting: { key: SERVERS_SETTING } }),
  });
  const picked = items.length === 1 ? items[0] : await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('MCP configuration to open') });
  await picked?.run();
}

async function createMcpJson(target: vscode.Uri): Promise<void> {
  const template = '{\n\t"servers": {\n\t\t\n\t},\n\t"inputs": []\n}\n';
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(template));
  const editor = await vscode.window.showTextDocument(target);
  editor.selection = new vscode.Selection(2, 2, 2, 2);
}

async function explainUntrusted(label: string): Promise<void> {
  const manage = vscode.l10n.t('Manage Workspace Trust');
  const answer = await showWarningMessage(vscode.l10n.t('MCP server "{0}" was not started: {1}.', label, UNTRUSTED_REASON), manage);
  if (answer === manage) await vscode.commands.executeCommand('workbench.trust.manage');
}
