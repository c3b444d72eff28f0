/**
 * A tree item's click as a command without arguments, which runs the selected node's own command.
 *
 * VS Code keeps the command of a tree item that has arguments in a cache, and empties that entry
 * when the item is drawn again. A click that lands just as the tree is redrawn (a server's lists
 * arriving as the user opens the view, a call finishing in the Activity view) then runs nothing
 * and shows "Actual command not found, wanted to execute …". A command without arguments is not
 * cached; and VS Code tells the extension what is selected before it runs the clicked item's
 * command, so the handler takes the node from the view's selection. Keyboard users' Enter takes
 * the same way. A node that is gone by then (its server stopped) runs nothing.
 */
import * as vscode from 'vscode';

/** The command to put on a tree item whose own command is `command`: same title, no arguments. */
export function onClick(id: string, command: vscode.Command): vscode.Command {
  return { command: id, title: command.title };
}

/** The handler of that command (for the feature's command table): runs `commandOf(node)` for the one node selected in `view`. */
export function runSelected<T>(view: vscode.TreeView<T>, commandOf: (node: T) => vscode.Command | undefined): () => Thenable<unknown> | undefined {
  return () => {
    const command = view.selection.length === 1 ? commandOf(view.selection[0]) : undefined;
    return command ? vscode.commands.executeCommand(command.command, ...(command.arguments ?? [])) : undefined;
  };
}
