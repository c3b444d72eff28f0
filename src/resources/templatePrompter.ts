/**
 * Asks the user for the variables of a resource template: a quick pick fed by the server's
 * `completion/complete` when it advertises completions, else an input box. The prompter is
 * an interface so tests (and other callers) can answer without UI.
 */
import * as vscode from 'vscode';
import type { TemplateVariable } from './common/uriTemplate';
import { CompletionDebouncer } from '../shared/common/completionDebouncer';

export interface VariableRequest {
  variable: TemplateVariable;
  uriTemplate: string;
  serverLabel: string;
  step: number;
  totalSteps: number;
  /** Values given so far (sent as completion context). */
  known: Readonly<Record<string, string>>;
  /** Server completions for a partial value; absent when the server has no `completions`. */
  suggest?: (value: string, signal?: AbortSignal) => Promise<string[]>;
}

export interface TemplatePrompter {
  /** The value for one variable, or undefined when the user cancelled. */
  ask(request: VariableRequest): Promise<string | undefined>;
}

export const quickInputPrompter: TemplatePrompter = {
  async ask(request) {
    const { variable, uriTemplate, serverLabel, step, totalSteps, suggest } = request;
    const title = vscode.l10n.t('{0} ({1})', uriTemplate, serverLabel);
    const prompt = variable.explode ? vscode.l10n.t('Value of "{0}" (a comma-separated list)', variable.name) : vscode.l10n.t('Value of "{0}"', variable.name);
    if (!suggest) {
      return vscode.window.showInputBox({ title: `${title} ${step}/${totalSteps}`, prompt, placeHolder: variable.name, ignoreFocusOut: true });
    }
    const pick = vscode.window.createQuickPick<vscode.QuickPickItem>();
    pick.title = title;
    pick.step = step;
    pick.totalSteps = totalSteps;
    pick.placeholder = prompt;
    pick.ignoreFocusOut = true;
    pick.matchOnDescription = false;
    const debouncer = new CompletionDebouncer((value, signal) => suggest(value, signal));
    let suggestions: string[] = [];
    const render = () => {
      const typed = pick.value;
      const items: vscode.QuickPickItem[] = suggestions.map((label) => ({ label }));
      if (typed && !suggestions.includes(typed)) items.unshift({ label: typed, description: vscode.l10n.t('use this value') });
      pick.items = items;
    };
    const update = (value: string) => {
      pick.busy = true;
      void debouncer.request(value).then((values) => {
        if (values === undefined) return;
        suggestions = values;
        pick.busy = false;
        render();
      });
    };
    try {
      return await new Promise<string | undefined>((resolve) => {
        pick.onDidChangeValue((value) => {
          render();
          update(value);
        });
        pick.onDidAccept(() => {
          resolve(pick.selectedItems[0]?.label ?? pick.value);
          pick.hide();
        });
        pick.onDidHide(() => resolve(undefined));
        pick.show();
        update('');
      });
    } finally {
      debouncer.dispose();
      pick.dispose();
    }
  },
};
