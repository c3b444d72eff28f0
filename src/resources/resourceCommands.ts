/**
 * Resources in the editor: open (text as a read-only document, images in the image preview,
 * other bytes offered for saving), resource templates filled in per RFC 6570 with server
 * completions, copy text / URI, and live updates through subscriptions.
 */
import * as vscode from 'vscode';
import type { ResourceTemplateType as ResourceTemplate } from '@modelcontextprotocol/client';
import type { ResourceRef, TemplateRef } from '../shared/common/commandArgs';
import { formatBytes } from '../traffic/common/activityLog';
import { isImageName } from './common/resourceNames';
import { expandUriTemplate, templateVariables, type TemplateValues } from './common/uriTemplate';
import type { McpServerConnection } from '../mcp/connection/serverConnection';
import { completeArgument } from '../mcp/completions';
import type { Workbench } from '../workbench';
import { describeReadError, parseResourceDocumentUri, RESOURCE_SCHEME, ResourceFileSystem, type ResourceContent } from './resourceFileSystem';
import { ResourceSubscriptions } from './resourceSubscriptions';
import { quickInputPrompter, type TemplatePrompter } from './templatePrompter';
import { showErrorMessage, showInformationMessage, withNotificationProgress } from '../shared/notifications';
import { ServerCommands } from '../servers/common/commandIds';
import { ResourceCommands } from './common/commandIds';
import { registerCommandTable } from '../shared/commandTable';

/** Second argument of `mcpWorkbench.openResourceTemplate`: preset values and/or another prompter. */
export interface OpenTemplateOptions {
  values?: Record<string, string>;
  prompter?: TemplatePrompter;
}

/** What `mcpWorkbench.openResource` did, returned for callers and tests. */
export interface OpenResult {
  uri: vscode.Uri;
  shownAs: 'text' | 'image' | 'binary';
}

export function registerResources(workbench: Workbench): vscode.Disposable[] {
  const { registry } = workbench;
  const fs = new ResourceFileSystem(registry);
  const subscriptions = new ResourceSubscriptions(registry, fs);

  const connectionFor = async (serverId: string): Promise<McpServerConnection | undefined> => {
    const connection = registry.find(serverId);
    if (!connection) {
      void showErrorMessage(vscode.l10n.t('No MCP server "{0}" is configured.', serverId));
      return undefined;
    }
    if (connection.client) return connection;
    const start = vscode.l10n.t('Start Server');
    const answer = await showErrorMessage(vscode.l10n.t('MCP server "{0}" is not running ({1}).', connection.definition.label, connection.state.kind), start);
    if (answer === start) void vscode.commands.executeCommand(ServerCommands.start, { serverId: connection.definition.id });
    return undefined;
  };

  const readWithProgress = (connection: McpServerConnection, uri: string) =>
    withDelayedProgress(vscode.l10n.t('Reading {0} from {1}…', uri, connection.definition.label), (signal) => fs.read(connection, uri, signal));

  const openResource = async (arg?: ResourceRef | vscode.Uri): Promise<OpenResult | undefined> => {
    const ref = toResourceRef(arg) ?? (await pickResource(workbench));
    if (!ref) return undefined;
    if ('uriTemplate' in ref) return vscode.commands.executeCommand(ResourceCommands.openTemplate, ref);
    const connection = await connectionFor(ref.serverId);
    if (!connection) return undefined;
    let content: ResourceContent;
    try {
      content = await readWithProgress(connection, ref.uri);
    } catch (error) {
      const message = describeReadError(connection.definition.label, ref.uri, error);
      if (message) void showErrorMessage(message);
      return undefined;
    }
    const uri = fs.put(connection.definition.id, ref.uri, content);
    if (content.isText) {
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc, { preview: true });
      return { uri, shownAs: 'text' };
    }
    if (isImageName(content.fileName)) {
      await vscode.commands.executeCommand('vscode.open', uri);
      return { uri, shownAs: 'image' };
    }
    void offerSave(connection, ref.uri, content);
    return { uri, shownAs: 'binary' };
  };

  const openTemplate = async (arg?: TemplateRef, options: OpenTemplateOptions = {}): Promise<OpenResult | undefined> => {
    const ref = arg?.uriTemplate ? arg : await pickTemplate(workbench);
    if (!ref) return undefined;
    const connection = await connectionFor(ref.serverId);
    if (!connection) return undefined;
    const label = connection.definition.label;
    let variables;
    try {
      variables = templateVariables(ref.uriTemplate);
    } catch (error) {
      void showErrorMessage(vscode.l10n.t('MCP server "{0}" offers an invalid resource template: {1}', label, errorMessage(error)));
      return undefined;
    }
    const prompter = options.prompter ?? quickInputPrompter;
    const completes = connection.state.kind === 'running' && !!connection.state.capabilities.completions;
    const known: Record<string, string> = {};
    const values: Record<string, TemplateValues[string]> = {};
    for (const [index, variable] of variables.entries()) {
      let value = options.values?.[variable.name];
      if (value === undefined) {
        value = await prompter.ask({
          variable,
          uriTemplate: ref.uriTemplate,
          serverLabel: label,
          step: index + 1,
          totalSteps: variables.length,
          known: { ...known },
          suggest: completes
            ? (partial, signal) =>
                completeArgument(connection, { type: 'ref/resource', uri: ref.uriTemplate }, { name: variable.name, value: partial }, { ...known }, signal)
            : undefined,
        });
      }
      if (value === undefined) return undefined;
      known[variable.name] = value;
      values[variable.name] = variable.explode
        ? value
            .split(',')
            .map((v) => v.trim())
            .filter(Boolean)
        : value;
    }
    let uri: string;
    try {
      uri = expandUriTemplate(ref.uriTemplate, values);
    } catch (error) {
      void showErrorMessage(vscode.l10n.t('Could not expand the resource template {0} of MCP server "{1}": {2}', ref.uriTemplate, label, errorMessage(error)));
      return undefined;
    }
    return openResource({ serverId: connection.definition.id, uri });
  };

  const copyResource = async (arg?: ResourceRef | vscode.Uri) => {
    const ref = toResourceRef(arg) ?? activeResourceRef() ?? (await pickResource(workbench, false));
    if (!ref || 'uriTemplate' in ref) return;
    const connection = await connectionFor(ref.serverId);
    if (!connection) return;
    try {
      const content = await readWithProgress(connection, ref.uri);
      if (content.isText) {
        await vscode.env.clipboard.writeText(new TextDecoder().decode(content.data));
        vscode.window.setStatusBarMessage(vscode.l10n.t('Copied the text of {0} ({1}).', ref.uri, formatBytes(content.data.byteLength)), 3000);
      } else {
        await vscode.env.clipboard.writeText(ref.uri);
        vscode.window.setStatusBarMessage(vscode.l10n.t('{0} is binary; copied its URI.', ref.uri), 3000);
      }
    } catch (error) {
      const message = describeReadError(connection.definition.label, ref.uri, error);
      if (message) void showErrorMessage(message);
    }
  };

  const copyResourceUri = async (arg?: ResourceRef | TemplateRef | vscode.Uri) => {
    const text = arg && 'uriTemplate' in arg ? arg.uriTemplate : (toResourceRef(arg as ResourceRef | vscode.Uri | undefined) ?? activeResourceRef())?.uri;
    if (!text) return;
    await vscode.env.clipboard.writeText(text);
    vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0}.', text), 3000);
  };

  return [
    fs,
    subscriptions,
    vscode.workspace.registerFileSystemProvider(RESOURCE_SCHEME, fs, { isReadonly: true, isCaseSensitive: true }),
    ...registerCommandTable({
      [ResourceCommands.open]: openResource,
      [ResourceCommands.openTemplate]: openTemplate,
      [ResourceCommands.copy]: copyResource,
      [ResourceCommands.copyUri]: copyResourceUri,
      // Not in the palette: lets tests see subscription state without reaching into the module.
      [ResourceCommands.subscribed]: (serverId: string, uri: string) => subscriptions.isSubscribed(serverId, uri),
    }),
  ];
}

function toResourceRef(arg: ResourceRef | TemplateRef | vscode.Uri | undefined): ResourceRef | undefined {
  if (!arg) return undefined;
  if (arg instanceof vscode.Uri) {
    const id = parseResourceDocumentUri(arg);
    return id && { serverId: id.serverId, uri: id.resourceUri };
  }
  if ('uri' in arg && typeof arg.uri === 'string' && typeof arg.serverId === 'string') return { serverId: arg.serverId, uri: arg.uri };
  return undefined;
}

function activeResourceRef(): ResourceRef | undefined {
  const uri =
    vscode.window.activeTextEditor?.document.uri ?? (vscode.window.tabGroups.activeTabGroup.activeTab?.input as { uri?: vscode.Uri } | undefined)?.uri;
  return uri instanceof vscode.Uri ? toResourceRef(uri) : undefined;
}

type ResourcePick = vscode.QuickPickItem & { ref?: ResourceRef | TemplateRef };

/** Quick pick over the resources (and, if wanted, templates) of running servers; lists load in the background. */
async function pickResource(workbench: Workbench, withTemplates = true): Promise<ResourceRef | TemplateRef | undefined> {
  const running = workbench.registry.all().filter((c) => c.client && c.advertises('resources'));
  if (!running.length) {
    void showInformationMessage(vscode.l10n.t('No running MCP server offers resources.'));
    return undefined;
  }
  const pick = vscode.window.createQuickPick<ResourcePick>();
  pick.placeholder = vscode.l10n.t('Resource to open');
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  pick.busy = true;
  const items: ResourcePick[] = [];
  const load = Promise.all(
    running.map(async (c) => {
      const serverId = c.definition.id;
      const [resources, templates] = await Promise.all([
        c.list('resources').catch(() => []),
        withTemplates ? c.list('resourceTemplates').catch(() => [] as ResourceTemplate[]) : Promise.resolve([] as ResourceTemplate[]),
      ]);
      items.push({ label: c.definition.label, kind: vscode.QuickPickItemKind.Separator });
      for (const r of resources)
        items.push({ label: `$(file) ${r.title ?? r.name}`, description: r.uri, detail: r.description, ref: { serverId, uri: r.uri } });
      for (const t of templates)
        items.push({
          label: `$(symbol-variable) ${t.title ?? t.name}`,
          description: t.uriTemplate,
          detail: t.description,
          ref: { serverId, uriTemplate: t.uriTemplate },
        });
      pick.items = [...items];
    }),
  ).finally(() => (pick.busy = false));
  void load;
  return new Promise((resolve) => {
    pick.onDidAccept(() => {
      resolve(pick.selectedItems[0]?.ref);
      pick.hide();
    });
    pick.onDidHide(() => {
      resolve(undefined);
      pick.dispose();
    });
    pick.show();
  });
}

async function pickTemplate(workbench: Workbench): Promise<TemplateRef | undefined> {
  const picked = await pickResource(workbench);
  if (picked && 'uriTemplate' in picked) return picked;
  if (picked) void vscode.commands.executeCommand(ResourceCommands.open, picked);
  return undefined;
}

async function offerSave(connection: McpServerConnection, resourceUri: string, content: ResourceContent): Promise<void> {
  const save = vscode.l10n.t('Save As…');
  const answer = await showInformationMessage(
    vscode.l10n.t(
      '{0} from MCP server "{1}" is binary ({2}, {3}).',
      resourceUri,
      connection.definition.label,
      content.mimeType ?? 'no MIME type',
      formatBytes(content.data.byteLength),
    ),
    save,
  );
  if (answer !== save) return;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const target = await vscode.window.showSaveDialog({ defaultUri: folder ? vscode.Uri.joinPath(folder, content.fileName) : undefined, saveLabel: save });
  if (!target) return;
  try {
    await vscode.workspace.fs.writeFile(target, content.data);
  } catch (error) {
    void showErrorMessage(vscode.l10n.t('Could not save {0}: {1}', target.fsPath || target.toString(), errorMessage(error)));
  }
}

/** Runs `run`; if it takes longer than a moment, shows a cancellable notification that aborts it. */
export async function withDelayedProgress<T>(title: string, run: (signal: AbortSignal) => Promise<T>, delayMs = 400): Promise<T> {
  const controller = new AbortController();
  const work = run(controller.signal);
  const settled = work.then(
    () => undefined,
    () => undefined,
  );
  let done = false;
  void settled.then(() => (done = true));
  const timer = setTimeout(() => {
    if (done) return;
    void withNotificationProgress({ title, cancellable: true }, (_progress, token) => {
      token.onCancellationRequested(() => controller.abort());
      return settled;
    });
  }, delayMs);
  try {
    return await work;
  } finally {
    clearTimeout(timer);
  }
}

function errorMessage(error: unknown): string {
  return errorMessage(error);
}
