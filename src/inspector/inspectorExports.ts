/**
 * The Inspector's exports to files: a recording (JSON Lines), the HTTP exchanges (HAR 1.2) and
 * the Console's lines, each to a given target or where the user picks, saying in one line when
 * there is nothing to export or the write failed.
 */
import * as vscode from 'vscode';
import type { InspectorRecord } from './common/inspectorRows';
import { exportRecording } from './common/recording';
import { buildHar } from './common/har';
import type { HttpLog } from '../traffic/common/httpLog';
import { showErrorMessage, showInformationMessage } from '../shared/notifications';
import { errorMessage } from '../shared/common/errors';

/** Writes a recording (with its replay marks and HTTP exchanges) to `target`, or where the user picks. */
export function exportToFile(
  records: readonly InspectorRecord[],
  marks: Parameters<typeof exportRecording>[2],
  target?: vscode.Uri,
): Promise<vscode.Uri | undefined> {
  return saveExport(
    target,
    {
      nothing: records.length ? undefined : vscode.l10n.t('The Inspector has nothing recorded yet: run a tool or start a server first.'),
      title: vscode.l10n.t('Export MCP Recording'),
      name: 'mcp-recording',
      extension: 'jsonl',
      filter: vscode.l10n.t('JSON Lines'),
      failed: (path, reason) => vscode.l10n.t('Could not write the recording to {0}: {1}', path, reason),
    },
    () => exportRecording(records, Date.now(), marks),
  );
}

/** Saves the HTTP exchanges as HAR 1.2 to `target`, or where the user picks; says so when there are none. */
export function exportHarToFile(http: HttpLog | undefined, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
  const exchanges = http?.all() ?? [];
  return saveExport(
    target,
    {
      nothing: exchanges.length
        ? undefined
        : vscode.l10n.t('No HTTP exchanges are recorded: HAR export covers servers reached over HTTP (Streamable HTTP or SSE).'),
      title: vscode.l10n.t('Export HTTP Exchanges as HAR'),
      name: 'mcp-http',
      extension: 'har',
      filter: vscode.l10n.t('HTTP Archive'),
      failed: (path, reason) => vscode.l10n.t('Could not write the HAR file to {0}: {1}', path, reason),
    },
    () => JSON.stringify(buildHar(exchanges, String(vscode.extensions.getExtension('mcp-workbench.mcp-workbench')?.packageJSON.version ?? '0.0.0')), null, 2),
  );
}

/** Saves console lines as text to `target`, or where the user picks; says so when there are none. */
export function exportConsoleToFile(text: string, lineCount: number, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
  return saveExport(
    target,
    {
      nothing: lineCount ? undefined : vscode.l10n.t('The console has no lines to export yet.'),
      title: vscode.l10n.t('Export Console Lines'),
      name: 'mcp-console',
      extension: 'log',
      filter: vscode.l10n.t('Log files'),
      failed: (path, reason) => vscode.l10n.t('Could not write the console lines to {0}: {1}', path, reason),
    },
    () => text,
  );
}

/**
 * The exports: `target`, or a save dialog on a time-stamped name in the first folder. `nothing`
 * (there is nothing to export) and a failed write are each said in one line.
 */
async function saveExport(
  target: vscode.Uri | undefined,
  file: { nothing?: string; title: string; name: string; extension: string; filter: string; failed: (path: string, reason: string) => string },
  text: () => string,
): Promise<vscode.Uri | undefined> {
  if (file.nothing !== undefined) {
    void showInformationMessage(file.nothing);
    return undefined;
  }
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const uri =
    target ??
    (await vscode.window.showSaveDialog({
      title: file.title,
      defaultUri: folder ? vscode.Uri.joinPath(folder, `${file.name}-${stamp}.${file.extension}`) : undefined,
      filters: { [file.filter]: [file.extension] },
    }));
  if (!uri) return undefined;
  try {
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text()));
  } catch (error) {
    void showErrorMessage(file.failed(uri.fsPath, errorMessage(error)));
    return undefined;
  }
  return uri;
}
