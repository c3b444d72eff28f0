/**
 * Asks the user which prompt to run and for its arguments. An interface so the integration
 * tests (and the chat participant) can answer without UI; `quickInputPromptPrompter` is the
 * real one: a quick pick per argument with server completions, the selection, the active
 * file and the clipboard as choices, and a Back button.
 */
import * as vscode from 'vscode';
import type { Prompt, PromptArgument } from '@modelcontextprotocol/client';
import { CompletionDebouncer } from '../resources/templatePrompter';
import { groupedByServer } from '../shared/serverGroupedItems';

/** Returned by `ask` when the user pressed Back. */
export const BACK = 'back' as const;
export type Back = typeof BACK;

export interface PromptChoice {
  serverId: string;
  serverLabel: string;
  prompt: Prompt;
}

export interface ArgumentRequest {
  serverLabel: string;
  prompt: Prompt;
  argument: PromptArgument;
  step: number;
  totalSteps: number;
  /** The value given before (when coming back to this step). */
  value?: string;
  /** Values given so far (sent as completion context). */
  known: Readonly<Record<string, string>>;
  /** Server completions for a partial value; absent when the server has no `completions`. */
  suggest?: (value: string, signal?: AbortSignal) => Promise<string[]>;
  /** Whether Back leads somewhere (an earlier argument or the prompt list). */
  canGoBack: boolean;
  /** Aborts when the caller gave up (a cancelled chat request): close the question. */
  signal?: AbortSignal;
}

export interface PromptPrompter {
  /** The prompt to run, from all prompts of the running servers (grouped by server). */
  pickPrompt(choices: PromptChoice[], signal?: AbortSignal): Promise<PromptChoice | undefined>;
  /** One argument's value; `''` leaves an optional argument out; undefined cancels. */
  ask(request: ArgumentRequest): Promise<string | undefined | Back>;
}

type SourceItem = vscode.QuickPickItem & { value?: string; back?: boolean; /** Read when picked, not before. */ fromClipboard?: true };

/**
 * The editor-based choices offered for every argument. The clipboard is only read when its item
 * is picked: in the browser reading it asks for permission, which took the focus and closed the
 * quick pick, and nobody should have their clipboard read for a question they did not answer.
 */
function sourceItems(): SourceItem[] {
  const items: SourceItem[] = [];
  const editor = vscode.window.activeTextEditor;
  if (editor) {
    const selected = editor.selections
      .map((s) => editor.document.getText(s))
      .filter(Boolean)
      .join('\n');
    if (selected) items.push({ label: `$(selection) ${vscode.l10n.t('Use selected text')}`, description: preview(selected), value: selected });
    const name = vscode.workspace.asRelativePath(editor.document.uri);
    items.push({ label: `$(file) ${vscode.l10n.t('Use active file content')}`, description: name, value: editor.document.getText() });
    if (editor.document.uri.scheme === 'file')
      items.push({
        label: `$(file-symlink-file) ${vscode.l10n.t('Use active file path')}`,
        description: editor.document.uri.fsPath,
        value: editor.document.uri.fsPath,
      });
  }
  items.push({ label: `$(clippy) ${vscode.l10n.t('Use clipboard')}`, fromClipboard: true });
  return items;
}

function preview(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > 60 ? `${one.slice(0, 60)}…` : one;
}

export const quickInputPromptPrompter: PromptPrompter = {
  async pickPrompt(choices, signal) {
    const items = groupedByServer(choices, (choice) => {
      const p = choice.prompt;
      const args = p.arguments ?? [];
      return {
        label: p.title ?? p.name,
        description:
          [p.title ? p.name : undefined, args.length ? args.map((a) => (a.required ? `${a.name}*` : a.name)).join(', ') : undefined]
            .filter(Boolean)
            .join(' · ') || undefined,
        detail: p.description,
        choice,
      };
    });
    const source = new vscode.CancellationTokenSource();
    const onAbort = () => source.cancel();
    signal?.addEventListener('abort', onAbort);
    try {
      const picked = await vscode.window.showQuickPick(
        items,
        {
          title: vscode.l10n.t('Run MCP Prompt'),
          placeHolder: vscode.l10n.t('Prompt to run (* = required argument)'),
          matchOnDescription: true,
          matchOnDetail: true,
        },
        source.token,
      );
      return picked && 'choice' in picked ? picked.choice : undefined;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      source.dispose();
    }
  },

  async ask(request) {
    const { argument, prompt, serverLabel, suggest } = request;
    const pick = vscode.window.createQuickPick<SourceItem>();
    pick.title = vscode.l10n.t('{0} ({1})', prompt.title ?? prompt.name, serverLabel);
    pick.step = request.step;
    pick.totalSteps = request.totalSteps;
    pick.placeholder = `${argument.name}${argument.required ? ` (${vscode.l10n.t('required')})` : ` (${vscode.l10n.t('optional')})`}${argument.description ? ` — ${argument.description}` : ''}`;
    pick.ignoreFocusOut = true;
    pick.value = request.value ?? '';
    if (request.canGoBack) pick.buttons = [vscode.QuickInputButtons.Back];
    const sources = sourceItems();
    let suggestions: string[] = [];
    const render = () => {
      const typed = pick.value;
      const items: SourceItem[] = [];
      if (typed) items.push({ label: typed, description: vscode.l10n.t('use this value'), value: typed, alwaysShow: true });
      else if (!argument.required) items.push({ label: vscode.l10n.t('(leave empty)'), value: '', alwaysShow: true });
      if (suggestions.length) {
        items.push({ label: vscode.l10n.t('suggestions from {0}', serverLabel), kind: vscode.QuickPickItemKind.Separator });
        items.push(...suggestions.filter((s) => s !== typed).map((s) => ({ label: s, value: s, alwaysShow: true })));
      }
      if (sources.length) {
        items.push({ label: '', kind: vscode.QuickPickItemKind.Separator });
        items.push(...sources.map((s) => ({ ...s, alwaysShow: true })));
      }
      pick.items = items;
    };
    const hide = () => pick.hide();
    request.signal?.addEventListener('abort', hide);
    const debouncer = suggest ? new CompletionDebouncer((value, signal) => suggest(value, signal)) : undefined;
    const update = (value: string) => {
      if (!debouncer) return;
      pick.busy = true;
      void debouncer.request(value).then((values) => {
        if (values === undefined) return;
        suggestions = values;
        pick.busy = false;
        render();
      });
    };
    try {
      return await new Promise<string | undefined | Back>((resolve) => {
        pick.onDidChangeValue((value) => {
          render();
          update(value);
        });
        pick.onDidTriggerButton((button) => {
          if (button === vscode.QuickInputButtons.Back) {
            resolve(BACK);
            pick.hide();
          }
        });
        pick.onDidAccept(async () => {
          const selected = pick.selectedItems[0];
          let value = selected?.value ?? pick.value;
          if (selected?.fromClipboard) {
            value = await vscode.env.clipboard.readText().then(
              (t) => t,
              () => '',
            );
            if (!value) {
              pick.placeholder = vscode.l10n.t('The clipboard is empty: type a value or pick another.');
              return;
            }
          }
          if (argument.required && !value) {
            // QuickPick has no validation message in the stable API; the placeholder says why.
            pick.placeholder = vscode.l10n.t('"{0}" is required: type a value or pick one.', argument.name);
            return;
          }
          resolve(value);
          pick.hide();
        });
        pick.onDidHide(() => resolve(undefined));
        if (request.signal?.aborted) resolve(undefined);
        render();
        pick.show();
        update(pick.value);
      });
    } finally {
      request.signal?.removeEventListener('abort', hide);
      debouncer?.dispose();
      pick.dispose();
    }
  },
};
