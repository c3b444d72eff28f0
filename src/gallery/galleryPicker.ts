/**
 * The registry browser: a quick pick that searches the registry as the user types (debounced,
 * the previous request cancelled), shows a busy bar while it waits, pages with "Load more…",
 * and says in the list itself when the registry cannot be reached.
 */
import * as vscode from 'vscode';
import { RegistryCancelled, REGISTRY_URL_SETTING, type RegistryClient } from './common/registryClient';
import type { RegistryEntry } from './common/registryTypes';
import { entryTexts, plainForQuickPick } from './common/galleryText';
import { errorMessage } from '../shared/common/errors';

const SEARCH_DEBOUNCE_MS = 300;
const PAGE_SIZE = 30;

type Item = vscode.QuickPickItem & { action: 'install' | 'more' | 'retry' | 'settings'; entry?: RegistryEntry };

/** Resolves with the entry the user picked, or undefined when they closed the picker. */
export function pickRegistryServer(client: RegistryClient): Promise<RegistryEntry | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<Item>();
    pick.title = vscode.l10n.t('Browse MCP Registry ({0})', client.baseUrl);
    pick.placeholder = vscode.l10n.t('Search servers by name');
    pick.matchOnDescription = true;
    pick.matchOnDetail = true;
    let entries: RegistryEntry[] = [];
    let nextCursor: string | undefined;
    let request: AbortController | undefined;
    let debounce: NodeJS.Timeout | undefined;
    let settled = false;

    const itemsFor = (error?: string): Item[] => {
      const items: Item[] = entries.map((entry) => {
        const texts = entryTexts(entry);
        // alwaysShow: the registry has already filtered by the search; the picker's own filter must not hide its answers.
        return {
          action: 'install',
          entry,
          label: `${texts.deprecated ? '$(warning)' : '$(server)'} ${texts.label}`,
          description: texts.description,
          detail: texts.detail,
          alwaysShow: true,
        };
      });
      if (error) {
        // A quick pick item is one line: the head of the message as the label, the reason and what to do below it.
        const split = error.indexOf(': ');
        const [head, rest] = split > 0 ? [error.slice(0, split), error.slice(split + 2)] : [error, ''];
        items.push(
          { action: 'retry', label: `$(error) ${plainForQuickPick(head, 300)}`, detail: rest ? plainForQuickPick(rest, 400) : undefined, alwaysShow: true },
          { action: 'retry', label: `$(refresh) ${vscode.l10n.t('Try again')}`, alwaysShow: true },
          { action: 'settings', label: `$(settings-gear) ${vscode.l10n.t('Open the {0} setting', REGISTRY_URL_SETTING)}`, alwaysShow: true },
        );
      } else if (nextCursor) {
        items.push({ action: 'more', label: `$(more) ${vscode.l10n.t('Load more…')}`, alwaysShow: true });
      } else if (!entries.length && !pick.busy) {
        items.push({ action: 'retry', label: vscode.l10n.t('No server in the registry matches "{0}".', plainForQuickPick(pick.value, 80)), alwaysShow: true });
      }
      return items;
    };

    const load = async (append: boolean) => {
      request?.abort();
      const abort = new AbortController();
      request = abort;
      pick.busy = true;
      try {
        const page = await client.listServers({ search: pick.value, cursor: append ? nextCursor : undefined, limit: PAGE_SIZE }, abort.signal);
        if (request !== abort) return;
        const known = new Set(append ? entries.map((e) => e.server.name) : []);
        entries = [...(append ? entries : []), ...page.entries.filter((e) => !known.has(e.server.name))];
        nextCursor = page.nextCursor;
        pick.busy = false;
        const active = append ? pick.items.length - 1 : 0;
        pick.items = itemsFor();
        // After "Load more…" the first new server is the active one, so the keyboard stays where it was.
        if (append && pick.items[active]) pick.activeItems = [pick.items[active]];
      } catch (error) {
        if (error instanceof RegistryCancelled || request !== abort) return;
        pick.busy = false;
        pick.items = itemsFor(errorMessage(error));
      }
    };

    const finish = (entry: RegistryEntry | undefined) => {
      if (settled) return;
      settled = true;
      request?.abort();
      clearTimeout(debounce);
      resolve(entry);
      pick.hide();
    };

    pick.onDidChangeValue(() => {
      clearTimeout(debounce);
      request?.abort();
      pick.busy = true;
      debounce = setTimeout(() => void load(false), SEARCH_DEBOUNCE_MS);
    });
    pick.onDidAccept(() => {
      const item = pick.selectedItems[0] ?? pick.activeItems[0];
      if (!item) return;
      if (item.action === 'install' && item.entry) finish(item.entry);
      else if (item.action === 'more') void load(true);
      else if (item.action === 'retry') void load(false);
      else {
        finish(undefined);
        void vscode.commands.executeCommand('workbench.action.openSettings', REGISTRY_URL_SETTING);
      }
    });
    pick.onDidHide(() => {
      finish(undefined);
      pick.dispose();
    });
    pick.show();
    void load(false);
  });
}
