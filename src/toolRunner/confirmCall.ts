/**
 * The confirmation before a tool that is not marked read-only runs (Run Tool and chat): a
 * modal naming the tool, why it asks, and the arguments, with the "don't ask again" scopes.
 */
import * as vscode from 'vscode';
import type { ApprovalScope, ConfirmCall } from './common/toolApprovals';
import { argumentsPreview } from './common/toolCall';
import { showWarningMessage } from '../shared/notifications';

export type { ConfirmCall } from './common/toolApprovals';

/** `asker`: who asks when it is not the user here (a line in the detail). */
export const confirmWithModal: ConfirmCall = async (tool, serverLabel, args, asker) => {
  const run = vscode.l10n.t('Run Tool');
  const choices: Record<string, ApprovalScope> = {
    [vscode.l10n.t("Run, Don't Ask Again for This Tool")]: 'tool',
    [vscode.l10n.t("Run, Don't Ask Again for This Server")]: 'server',
    [vscode.l10n.t("Run, Don't Ask Again This Session")]: 'session',
  };
  const why =
    tool.annotations?.destructiveHint === true
      ? vscode.l10n.t('The tool says it may make destructive changes.')
      : vscode.l10n.t('The tool is not marked read-only: it may change things.');
  const remembered = vscode.l10n.t(
    '"Don\'t ask again" is kept for this workspace (the session choice until VS Code closes); "MCP: Reset Tool Approvals" forgets it.',
  );
  const answer = await showWarningMessage(
    vscode.l10n.t('Run "{0}" on server "{1}"?', tool.title ?? tool.name, serverLabel),
    { modal: true, detail: `${asker ? `${asker}\n\n` : ''}${why}\n\n${vscode.l10n.t('Arguments:')}\n${argumentsPreview(args)}\n\n${remembered}` },
    run,
    ...Object.keys(choices),
  );
  return answer === run || (answer !== undefined && (choices[answer] ?? false));
};
