/**
 * Save… on a binary resource in a Run Tool result: the blob is written where the user picks
 * (the first workspace folder is offered). Only the last result of the panel can be saved: the
 * panel keeps no older blobs.
 */
import * as vscode from 'vscode';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { blobFileName } from './common/toolCall';
import { showErrorMessage } from '../shared/notifications';
import { errorMessage } from '../shared/common/errors';

export async function saveResultBlob(result: CallToolResult | undefined, index: number): Promise<void> {
  const item = result?.content?.[index];
  const resource = item?.type === 'resource' ? item.resource : undefined;
  if (!resource || !('blob' in resource) || typeof resource.blob !== 'string') {
    void showErrorMessage(vscode.l10n.t('That result is no longer available; run the tool again to save it.'));
    return;
  }
  const name = blobFileName(resource.uri);
  const base = vscode.workspace.workspaceFolders?.[0]?.uri;
  const target = await vscode.window.showSaveDialog({
    defaultUri: base ? vscode.Uri.joinPath(base, name) : undefined,
    title: vscode.l10n.t('Save {0}', resource.uri),
  });
  if (!target) return;
  try {
    await vscode.workspace.fs.writeFile(target, Buffer.from(resource.blob, 'base64'));
  } catch (error) {
    void showErrorMessage(vscode.l10n.t('Could not save {0}: {1}', target.fsPath, errorMessage(error)));
  }
}
