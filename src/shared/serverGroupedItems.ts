/** Quick pick items grouped under one separator per server, in the order the choices come. */
import * as vscode from 'vscode';
import { revealControlCharacters } from './common/untrustedText';

export function groupedByServer<C extends { serverId: string; serverLabel: string }, I extends vscode.QuickPickItem>(
  choices: readonly C[],
  toItem: (choice: C) => I,
): (I | vscode.QuickPickItem)[] {
  const items: (I | vscode.QuickPickItem)[] = [];
  let server: string | undefined;
  for (const choice of choices) {
    if (choice.serverId !== server) {
      server = choice.serverId;
      items.push({ label: revealControlCharacters(choice.serverLabel), kind: vscode.QuickPickItemKind.Separator });
    }
    items.push(toItem(choice));
  }
  return items;
}
