/**
 * Installing a server from the registry or from a link: pick what to run (local package or
 * remote), show exactly what will be written and run, let the user choose user or workspace
 * config (workspace only when trusted), write it.
 */
import * as vscode from 'vscode';
import type { InputDefinition } from '../config/common/serverConfig';
import { resolveCommand } from '../mcp/process/commandResolution';
import { showErrorMessage, showInformationMessage, showWarningMessage } from '../shared/notifications';
import type { Workbench } from '../workbench';
import { installSummary, installWarnings, oneLine, parseInstallLink } from './common/installLink';
import { chooseOptions, installOptions, suggestedEntryName, type InstallEntry, type InstallOption } from './common/installPlan';
import { plainForQuickPick } from './common/galleryText';
import type { RegistryEntry } from './common/registryTypes';
import { writeInstall, type InstallTarget, type WrittenInstall } from './installTargets';
import { errorMessage } from '../shared/common/errors';

interface InstallRequest {
  /** Shown in the question: `"Weather" from the MCP registry`, `"memory" from a link`. */
  question: string;
  suggestedName: string;
  entry: InstallEntry;
  inputs: InputDefinition[];
  /** The lines of the confirmation's detail. */
  summary: string[];
  /** Links come from any web page, and some entries load other code: the question is a warning. */
  warn?: boolean;
}

export async function installRegistryEntry(workbench: Workbench, registryUrl: string, registryEntry: RegistryEntry): Promise<WrittenInstall | undefined> {
  const { server, official } = registryEntry;
  const displayName = server.title || server.name;
  const options = installOptions(server);
  const onPath = (env: Record<string, string | undefined>, runtime: string) =>
    resolveCommand(runtime, { pathValue: env.PATH ?? env.Path ?? '', pathExt: env.PATHEXT }).resolved !== undefined;
  let env = await workbench.baseEnv();
  // The login shell's PATH kept from before may predate a runtime installed since: ask the shell now.
  if (options.some((o) => o.runtime && !onPath(env, o.runtime))) env = await workbench.baseEnv({ fresh: true });
  const found = new Map<string, boolean>();
  const canRun = (runtime: string) => {
    if (!found.has(runtime)) found.set(runtime, onPath(env, runtime));
    return found.get(runtime)!;
  };
  const { choices, skipped } = chooseOptions(options, canRun);
  if (!choices.length) {
    const reasons = skipped.map((s) => s.reason).join(' ');
    void showErrorMessage(
      vscode.l10n.t(
        'MCP server "{0}" cannot be installed by MCP Workbench: {1}',
        displayName,
        reasons || vscode.l10n.t('the registry lists no package or remote for it.'),
      ),
    );
    return undefined;
  }
  let option = choices[0];
  if (choices.length > 1) {
    const picked = await vscode.window.showQuickPick(
      choices.map((o) => ({ option: o, ...optionItem(o, canRun) })),
      {
        title: vscode.l10n.t('Install {0}', plainForQuickPick(displayName, 80)),
        placeHolder: vscode.l10n.t('Run it on this machine or connect to the remote server?'),
        ignoreFocusOut: true,
      },
    );
    if (!picked) return undefined;
    option = picked.option;
  }
  const entry = option.entry!;
  const summary = [
    ...(official.status === 'deprecated' ? [`Deprecated in the registry${official.statusMessage ? `: ${oneLine(official.statusMessage)}` : '.'}`] : []),
    oneLine(`${server.name} ${server.version} — ${option.label}`),
    ...installSummary(entry, option.inputs, { optional: option.optional, notes: option.notes, runtimeOptions: option.runtimeOptions }),
    ...(option.runtime && !canRun(option.runtime) ? [`${option.runtime} was not found on PATH: install it before the server's first start.`] : []),
    ...skipped.filter((s) => s.option.kind === 'package').map((s) => oneLine(`Not used: ${s.option.label} (${s.reason})`)),
    `Registry: ${registryUrl}`,
  ];
  return confirmAndWrite(workbench, {
    question: vscode.l10n.t('Install MCP server "{0}" from the MCP registry?', oneLine(displayName)),
    suggestedName: suggestedEntryName(server),
    entry,
    inputs: option.inputs,
    summary,
    warn: installWarnings(entry, option.runtimeOptions).length > 0,
  });
}

function optionItem(option: InstallOption, canRun: (runtime: string) => boolean): vscode.QuickPickItem {
  if (option.kind === 'remote') {
    return {
      label: `$(globe) ${vscode.l10n.t('Connect to the remote server')}`,
      description: option.transport,
      detail: plainForQuickPick(option.entry?.url ?? ''),
    };
  }
  const runtime = option.runtime ?? '';
  return {
    label: `$(server-process) ${vscode.l10n.t('Run it on this machine with {0}', runtime)}`,
    description: canRun(runtime) ? vscode.l10n.t('{0} found', runtime) : vscode.l10n.t('{0} not found on PATH', runtime),
    detail: plainForQuickPick(option.label),
  };
}

/** Installs from a `vscode:mcp/install?…` link (or this extension's, or the JSON), after the same confirmation. */
export async function installFromLink(workbench: Workbench, link: string): Promise<WrittenInstall | undefined> {
  let parsed;
  try {
    parsed = parseInstallLink(link);
  } catch (error) {
    void showErrorMessage(vscode.l10n.t('The MCP install link cannot be used: {0}', errorMessage(error)));
    return undefined;
  }
  return confirmAndWrite(workbench, {
    question: vscode.l10n.t('Install MCP server "{0}" from a link?', oneLine(parsed.name)),
    suggestedName: parsed.name,
    entry: parsed.entry,
    inputs: parsed.inputs,
    summary: [
      ...installSummary(parsed.entry, parsed.inputs),
      ...(parsed.ignored.length ? [`Not written (not taken from links): ${oneLine(parsed.ignored.join(', '))}`] : []),
      'Install only what you trust: the command runs with your permissions.',
    ],
    warn: true,
  });
}

async function confirmAndWrite(workbench: Workbench, request: InstallRequest): Promise<WrittenInstall | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const forUser = vscode.l10n.t('Install for User');
  const inWorkspace = vscode.l10n.t('Install in Workspace');
  const buttons = [forUser, ...(folders.length && vscode.workspace.isTrusted ? [inWorkspace] : [])];
  const detail = [
    ...request.summary,
    ...(folders.length && !vscode.workspace.isTrusted ? [vscode.l10n.t('Workspace config is not offered: this workspace is not trusted.')] : []),
  ].join('\n');
  const ask = request.warn ? showWarningMessage : showInformationMessage;
  const answer = await ask(request.question, { modal: true, detail }, ...buttons);
  if (!answer) return undefined;
  let target: InstallTarget = { kind: 'user' };
  if (answer === inWorkspace) {
    const folder =
      folders.length === 1
        ? folders[0]
        : await vscode.window.showWorkspaceFolderPick({ placeHolder: vscode.l10n.t('Folder whose .vscode/mcp.json gets the server'), ignoreFocusOut: true });
    if (!folder) return undefined;
    target = { kind: 'workspace', folder };
  }
  let written: WrittenInstall;
  try {
    written = await writeInstall(workbench, target, request.suggestedName, { entry: request.entry, inputs: request.inputs });
  } catch (error) {
    void showErrorMessage(vscode.l10n.t('Could not add the MCP server: {0}', errorMessage(error)));
    return undefined;
  }
  const asks = written.inputs.length ? ' ' + vscode.l10n.t('It asks for {0} on its first start.', written.inputs.map((i) => i.id).join(', ')) : '';
  void showInformationMessage(vscode.l10n.t('Added MCP server "{0}" to {1}.', written.name, written.where) + asks);
  return written;
}
