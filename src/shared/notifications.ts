/**
 * Every notification the extension shows goes through here (a unit test keeps it that way).
 * Messages carry text from servers and config files, and VS Code turns `[label](command:…)`
 * in a notification, a modal's detail or a progress notification into a live link; see
 * `plainForNotification` in ./common/untrustedText.ts.
 */
import * as vscode from 'vscode';
import { plainForNotification } from './common/untrustedText';

type Rest<T extends string> = T[] | [vscode.MessageOptions, ...T[]];
type Kind = 'showErrorMessage' | 'showWarningMessage' | 'showInformationMessage';

function show<T extends string>(kind: Kind, message: string, rest: Rest<T>): Thenable<T | undefined> {
  const [first, ...items] = rest;
  if (first !== undefined && typeof first !== 'string') {
    const options = first.detail === undefined ? first : { ...first, detail: plainForNotification(first.detail) };
    return vscode.window[kind](plainForNotification(message), options, ...(items as T[]));
  }
  return vscode.window[kind](plainForNotification(message), ...(rest as T[]));
}

export function showErrorMessage<T extends string>(message: string, ...rest: Rest<T>): Thenable<T | undefined> {
  return show('showErrorMessage', message, rest);
}

export function showWarningMessage<T extends string>(message: string, ...rest: Rest<T>): Thenable<T | undefined> {
  return show('showWarningMessage', message, rest);
}

export function showInformationMessage<T extends string>(message: string, ...rest: Rest<T>): Thenable<T | undefined> {
  return show('showInformationMessage', message, rest);
}

/** `withProgress` in a notification: its title and every reported message are made plain too. */
export function withNotificationProgress<R>(
  options: { title: string; cancellable?: boolean },
  task: (progress: vscode.Progress<{ message?: string; increment?: number }>, token: vscode.CancellationToken) => Thenable<R>,
): Thenable<R> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, ...options, title: plainForNotification(options.title) },
    (progress, token) =>
      task({ report: (value) => progress.report(value.message === undefined ? value : { ...value, message: plainForNotification(value.message) }) }, token),
  );
}
