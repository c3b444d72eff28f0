/**
 * Asks the user which prompt to run and for its arguments: the real PromptPrompter (the interface
 * is in common/promptFlow.ts, so the integration tests can answer without UI), a quick pick per
 * argument with server completions, the selection, the active file and the clipboard as choices,
 * and a Back button. The prompts feature uses it, and the composition root hands it to chat.
 */
import * as vscode from 'vscode';
import { BACK, type Back, type PromptPrompter } from './common/promptFlow';
import { CompletionDebouncer } from '../shared/common/completionDebouncer';
import { groupedByServer } from '../shared/serverGroupedItems';

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
