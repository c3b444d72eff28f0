/**
 * The server gallery: "MCP: Browse Server Registry" (also the first choice of Add Server),
 * "MCP: Install Server from Link…", and install links at
 * `vscode://mcp-workbench.mcp-workbench/install?<json>` (VS Code's `mcp/install` JSON).
 * The gallery's code loads on first use (dist/features.js, esbuild.mjs lazyFeatures).
 */
import * as vscode from 'vscode';
import { userLevelValue } from '../shared/common/userSettings';
import { showErrorMessage, withNotificationProgress } from '../shared/notifications';
import type { Workbench } from '../workbench';
import type { RegistryEntry } from './common/registryTypes';
import type { WrittenInstall } from './installTargets';
import { GalleryCommands } from './common/commandIds';
import { registerCommandTable } from '../shared/commandTable';
import { errorMessage } from '../shared/common/errors';

/** Paths of the extension's URI handler that take install links (`/mcp/install` mirrors VS Code's own `mcp/install`). */
export const INSTALL_LINK_PATHS = ['/install', '/mcp/install'];

/**
 * Arguments of `mcpWorkbench.browseServerRegistry`. With `name` the picker is skipped and that
 * server (its latest version) goes straight to the install confirmation: for links from other
 * extensions and for this extension's integration tests, which cannot type into a quick pick.
 */
export interface BrowseRegistryArgs {
  /** The registry name, `io.github.user/weather`. */
  name?: string;
}

export function registerGallery(workbench: Workbench): vscode.Disposable[] {
  const browse = async (args?: BrowseRegistryArgs): Promise<WrittenInstall | undefined> => {
    const { DEFAULT_REGISTRY_URL, RegistryCancelled, RegistryClient, RegistryError, REGISTRY_URL_SETTING, registryBaseUrl } =
      await import('./common/registryClient.js');
    try {
      const registry = new RegistryClient(
        // Read at user level only: a workspace must not choose where servers are installed from.
        registryBaseUrl(userLevelValue(vscode.workspace.getConfiguration().inspect<string>(REGISTRY_URL_SETTING), DEFAULT_REGISTRY_URL)),
        { userAgent: `mcp-workbench/${String(workbench.context.extension.packageJSON.version ?? '0.0.0')}` },
      );
      let entry: RegistryEntry | undefined;
      if (typeof args?.name === 'string' && args.name) {
        const name = args.name;
        entry = await withNotificationProgress({ title: vscode.l10n.t('Looking up {0} in the MCP registry…', name), cancellable: true }, (_progress, token) => {
          const abort = new AbortController();
          token.onCancellationRequested(() => abort.abort());
          return registry.getServer(name, abort.signal);
        });
      } else {
        entry = await (await import('./galleryPicker.js')).pickRegistryServer(registry);
      }
      return entry ? await (await import('./galleryInstall.js')).installRegistryEntry(workbench, registry.baseUrl, entry) : undefined;
    } catch (error) {
      if (error instanceof RegistryCancelled) return undefined;
      if (!(error instanceof RegistryError)) {
        void showErrorMessage(vscode.l10n.t('Could not install the MCP server: {0}', errorMessage(error)));
        return undefined;
      }
      const open = vscode.l10n.t('Open Settings');
      void showErrorMessage(error.message, open).then((answer) => {
        if (answer === open) void vscode.commands.executeCommand('workbench.action.openSettings', REGISTRY_URL_SETTING);
      });
      return undefined;
    }
  };

  const installFromLink = async (text: string) => (await import('./galleryInstall.js')).installFromLink(workbench, text);
  const fromLink = async (link?: string): Promise<WrittenInstall | undefined> => {
    const { parseInstallLink } = await import('./common/installLink.js');
    const text =
      typeof link === 'string'
        ? link
        : await vscode.window.showInputBox({
            title: vscode.l10n.t('Install MCP Server from Link'),
            prompt: vscode.l10n.t('Paste a vscode:mcp/install link (or the server JSON it carries)'),
            placeHolder: 'vscode:mcp/install?%7B%22name%22%3A…',
            ignoreFocusOut: true,
            validateInput: (value) => {
              if (!value.trim()) return undefined;
              try {
                parseInstallLink(value);
                return undefined;
              } catch (error) {
                return errorMessage(error);
              }
            },
          });
    return text?.trim() ? installFromLink(text) : undefined;
  };

  return [
    ...registerCommandTable({
      [GalleryCommands.browse]: (args?: BrowseRegistryArgs) => browse(args),
      [GalleryCommands.installFromLink]: (link?: string) => fromLink(link),
    }),
    // The query of `…/install?<json>` arrives decoded once; parseInstallLink also takes it still encoded.
    ...INSTALL_LINK_PATHS.map((path) => workbench.uris.register(path, (uri) => installFromLink(uri.query))),
  ];
}
