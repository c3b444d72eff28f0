/**
 * What a server's failure tells the user: one notification per failure with the ways out
 * (Show Log, Open Configuration), and while a crashed server is being restarted one that follows
 * its countdown and closes by itself. Registered by the composition root (src/extension.ts).
 */
import * as vscode from 'vscode';
import type { McpServerConnection } from '../mcp/connection/serverConnection';
import { redactState, type ServerState } from '../mcp/serverState';
import { errorMessage } from '../shared/common/errors';
import { showErrorMessage, withNotificationProgress } from '../shared/notifications';
import type { Workbench } from '../workbench';
import { oneLine } from './common/failureText';
import { openServerConfig } from './serverCommands';

/**
 * Shows a notification when a server fails, once per failure, with the ways out. A failure and
 * what happens next (a restart, giving up) arrive as two states and are shown as one; a server
 * that keeps crashing says once that it restarts and once that it gave up, not at every try.
 */
export function registerServerNotifications(wb: Workbench): vscode.Disposable[] {
  // A broken entry fails again on every save while it is being edited; its diagnostics and
  // tree item keep saying why, so its notification is shown once.
  const shownConfigErrors = new Set<string>();
  return [
    wb.registry.forEachConnection((connection) => {
      let timer: NodeJS.Timeout | undefined;
      let toldRestarting = false;
      const subscription = connection.onDidChangeState((raw) => {
        if (raw.kind === 'running') toldRestarting = false;
        if (raw.kind !== 'error') return;
        clearTimeout(timer);
        timer = setTimeout(() => {
          const now = connection.state;
          if (now.kind !== 'error') return;
          const restarting = wb.registry.restartPending(connection.definition.id);
          if (restarting && toldRestarting) return;
          toldRestarting = restarting;
          if (connection.definition.error) {
            const configError = `${connection.definition.id}\n${now.message}`;
            if (shownConfigErrors.has(configError)) return;
            shownConfigErrors.add(configError);
          }
          if (restarting) notifyRestarting(wb, connection);
          else notifyFailure(wb, connection, now);
        }, 0);
      });
      return [subscription, { dispose: () => clearTimeout(timer) }];
    }),
  ];
}

/**
 * A crash with a restart coming: one notification for the whole episode, whose text is the
 * server's state as the tree shows it (the countdown of each try), and which closes by itself
 * when it is over: the server runs again, or it gave up (then shown as a failure), so nothing
 * stale stays up after a recovery. Cancel stops the server instead of restarting it.
 */
function notifyRestarting(wb: Workbench, connection: McpServerConnection): void {
  const id = connection.definition.id;
  const text = () => {
    const state = connection.state;
    return state.kind === 'error' ? oneLine(redactState(state, wb.secretsOf(connection.definition)).message) : vscode.l10n.t('Restarting…');
  };
  const settled = () => connection.state.kind === 'running' || (connection.state.kind !== 'starting' && !wb.registry.restartPending(id));
  void withNotificationProgress(
    { title: `MCP ${connection.definition.label}`, cancellable: true },
    (progress, token) =>
      new Promise<void>((resolve) => {
        let shown = '';
        let timer: NodeJS.Timeout | undefined;
        const end = () => {
          clearTimeout(timer);
          subscriptions.forEach((s) => s.dispose());
          resolve();
        };
        const update = () => {
          if (settled()) end();
          else if (text() !== shown) progress.report({ message: (shown = text()) });
        };
        // A failed try is an error state first and a scheduled restart a moment later (as in
        // registerServerNotifications): look once the registry has decided.
        const later = () => {
          clearTimeout(timer);
          timer = setTimeout(update, 0);
        };
        const subscriptions: vscode.Disposable[] = [
          connection.onDidChangeState(later),
          token.onCancellationRequested(() => {
            end();
            wb.registry
              .stop(id)
              .catch((error) => void showErrorMessage(vscode.l10n.t('Could not stop {0}: {1}', connection.definition.label, errorMessage(error))));
          }),
        ];
        update();
      }),
  );
}

function notifyFailure(wb: Workbench, connection: McpServerConnection, raw: Extract<ServerState, { kind: 'error' }>): void {
  const state = redactState(raw, wb.secretsOf(connection.definition));
  const show = vscode.l10n.t('Show Log');
  const open = vscode.l10n.t('Open Configuration');
  // One line: the details (PATH searched, the server's output) are in the tooltip and the log.
  void showErrorMessage(`MCP ${connection.definition.label}: ${oneLine(state.message)}`, show, open).then((answer) => {
    if (answer === show) wb.outputs.show(connection.definition);
    if (answer === open) {
      openServerConfig(connection).catch(
        (error) => void showErrorMessage(vscode.l10n.t('Could not open the configuration of {0}: {1}', connection.definition.label, errorMessage(error))),
      );
    }
  });
}
