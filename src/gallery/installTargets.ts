/**
 * Where an install is written: the user's `mcpWorkbench.servers` setting (with its inputs in
 * `mcpWorkbench.inputs`), or a folder's `.vscode/mcp.json` through the config edits of
 * src/config/common/configEdit (comments and formatting of the file are kept).
 */
import * as jsonc from 'jsonc-parser';
import * as vscode from 'vscode';
import { addInputsToConfigText, addServerToConfigText, uniqueServerName } from '../config/common/configEdit';
import { inputKey } from '../config/common/definitionBuilder';
import { parseConfigText, parseInputsValue, type InputDefinition } from '../config/common/serverConfig';
import { INPUTS_SETTING, SERVERS_SETTING, type ServerSource } from '../config/common/launchDefinition';
import type { Workbench } from '../workbench';
import { withUniqueInputIds } from './common/installLink';
import type { InstallEntry } from './common/installPlan';

export type InstallTarget = { kind: 'user' } | { kind: 'workspace'; folder: vscode.WorkspaceFolder };

export interface WrittenInstall {
  /** The entry's name in the target (made unique there). */
  name: string;
  /** Where it went, for messages: `User settings (mcpWorkbench.servers)`, `folder-a/.vscode/mcp.json`. */
  where: string;
  /** The config file written, for a workspace target. */
  file?: vscode.Uri;
  inputs: InputDefinition[];
}

/** The source the config loader gives the target (stored input values are keyed by it). */
function targetSource(target: InstallTarget, file?: vscode.Uri): ServerSource {
  return target.kind === 'user'
    ? { scope: 'user', label: `Settings (${SERVERS_SETTING})` }
    : { scope: 'workspace', label: '.vscode/mcp.json', file: file?.fsPath, folder: target.folder.name };
}

/**
 * Input ids the new entry must not use: those defined in the target, and those a value is
 * stored for (an input removed from the file keeps its stored value, which a new entry of the
 * same id would otherwise receive without asking).
 */
function takenInputIds(workbench: Workbench, source: ServerSource, defined: readonly string[], wanted: readonly InputDefinition[]): string[] {
  return [...defined, ...wanted.map((i) => i.id).filter((id) => workbench.inputs.get(inputKey(source, id)) !== undefined)];
}

export async function writeInstall(
  workbench: Workbench,
  target: InstallTarget,
  suggestedName: string,
  install: { entry: InstallEntry; inputs: InputDefinition[] },
): Promise<WrittenInstall> {
  if (target.kind === 'user') {
    const config = vscode.workspace.getConfiguration();
    const servers = { ...(config.inspect<Record<string, unknown>>(SERVERS_SETTING)?.globalValue ?? {}) };
    const existingInputs = config.inspect<unknown[]>(INPUTS_SETTING)?.globalValue ?? [];
    const defined = parseInputsValue(existingInputs).inputs.map((i) => i.id);
    const { entry, inputs } = withUniqueInputIds(install.entry, install.inputs, takenInputIds(workbench, targetSource(target), defined, install.inputs));
    const name = uniqueServerName(Object.keys(servers), suggestedName);
    // Inputs first: the servers setting's change reloads the config, and the entry's inputs must be there by then.
    if (inputs.length)
      await config.update(INPUTS_SETTING, [...(Array.isArray(existingInputs) ? existingInputs : []), ...inputs], vscode.ConfigurationTarget.Global);
    await config.update(SERVERS_SETTING, { ...servers, [name]: { ...entry } }, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.openSettingsJson', { revealSetting: { key: SERVERS_SETTING } });
    return { name, where: vscode.l10n.t('User settings ({0})', SERVERS_SETTING), inputs };
  }
  const file = vscode.Uri.joinPath(target.folder.uri, '.vscode', 'mcp.json');
  const text = await workbench.sources.readText(file);
  const existing = parseConfigText(text, 'vscode');
  const { entry, inputs } = withUniqueInputIds(
    install.entry,
    install.inputs,
    takenInputIds(
      workbench,
      targetSource(target, file),
      existing.inputs.map((i) => i.id),
      install.inputs,
    ),
  );
  const name = uniqueServerName(
    existing.servers.map((s) => s.name),
    suggestedName,
  );
  let updated = addServerToConfigText(text, 'vscode', name, { ...entry });
  if (inputs.length) updated = addInputsToConfigText(updated, inputs);
  await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(updated));
  const offset = jsonc.findNodeAtLocation(jsonc.parseTree(updated)!, ['servers', name])?.parent?.offset ?? 0;
  const doc = await vscode.workspace.openTextDocument(file);
  const position = doc.positionAt(offset);
  await vscode.window.showTextDocument(doc, { selection: new vscode.Range(position, position), preview: false });
  return { name, where: `${target.folder.name}/.vscode/mcp.json`, file, inputs };
}
