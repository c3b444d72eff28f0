/**
 * A feature's commands as one table, id → handler (rust-analyzer's `editors/code` keeps its
 * commands the same way): the table is the one place that lists what a feature offers, and its
 * ids come from the feature's `common/commandIds.ts`, which test/unit/commandIds.test.ts checks
 * against package.json.
 */
import * as vscode from 'vscode';

/**
 * VS Code hands a command whatever arguments its caller passed (a tree node, a code lens's
 * arguments, a keybinding's `args`, nothing from the palette), unchecked; so each handler states
 * the arguments it accepts and checks them itself. `never[]` lets any parameter list in.
 */
export type CommandHandler = (...args: never[]) => unknown;

export type CommandTable = { readonly [id: string]: CommandHandler };

/** Registers every command of the table; disposing of the result unregisters them. */
export function registerCommandTable(table: CommandTable): vscode.Disposable[] {
  return Object.entries(table).map(([id, handler]) => vscode.commands.registerCommand(id, handler as (...args: unknown[]) => unknown));
}
