/**
 * Save as Test: a run of Run Tool's history written as a test case into a `*.mcptest.json` file
 * of the workspace (one of the server's files, or a new one), then opened so the user can tighten
 * it. The case is made from the history entry, which never holds secrets (see runHistory.ts);
 * the conversion and the file text are pure (src/mcpTests/common/saveAsTest.ts).
 */
import * as vscode from 'vscode';
import type { HistoryEntry } from './common/runHistory';
import { appendTestText, newTestFileText, testCaseFromRun, testFileName } from '../mcpTests/common/saveAsTest';
import { parseTestFile } from '../mcpTests/common/parseTestFile';
import { inputEnvName } from '../mcpTests/common/testServer';
import { showErrorMessage, showInformationMessage } from '../shared/notifications';
import { errorMessage } from '../shared/common/errors';

const GLOB = '**/*.mcptest.json';
const EXCLUDE = '**/{node_modules,.git,out,dist,.vscode-test}/**';

/** A test file the user may append to: one that tests this server. */
export interface TestFileChoice {
  uri: vscode.Uri;
  tests: number;
}

/**
 * The two questions Save as Test asks: which file (undefined: cancelled, 'new': a new file) and
 * where a new file goes. Integration tests replace them (a quick pick and a save dialog cannot be
 * answered from a test).
 */
export interface SaveAsTestUi {
  pickFile(files: TestFileChoice[], serverName: string): Promise<TestFileChoice | 'new' | undefined>;
  newFile(defaultUri: vscode.Uri | undefined, serverName: string): Promise<vscode.Uri | undefined>;
}

export const defaultSaveAsTestUi: SaveAsTestUi = {
  async pickFile(files, serverName) {
    if (!files.length) return 'new';
    type Item = vscode.QuickPickItem & { choice: TestFileChoice | 'new' };
    const items: Item[] = [
      { label: `$(new-file) ${vscode.l10n.t('New test file…')}`, choice: 'new' },
      ...files.map((f): Item => ({ label: vscode.workspace.asRelativePath(f.uri), description: vscode.l10n.t('{0} test(s)', f.tests), choice: f })),
    ];
    const picked = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('Save as Test'),
      placeHolder: vscode.l10n.t('The test file of "{0}" to add the test to', serverName),
    });
    return picked?.choice;
  },
  async newFile(defaultUri) {
    // A filter of `mcptest.json` makes the browser's dialog append it to a name that has it already: `json`, and the name is fixed below.
    return vscode.window.showSaveDialog({ defaultUri, filters: { [vscode.l10n.t('MCP tests')]: ['json'] }, title: vscode.l10n.t('Save as Test') });
  },
};

/** What Save as Test did: the file written and the name of the test in it. */
export interface SavedTest {
  uri: vscode.Uri;
  name: string;
}

/** The workspace's test files of `serverName` (a file tests one server). */
async function testFilesOf(serverName: string): Promise<TestFileChoice[]> {
  const uris = await vscode.workspace.findFiles(GLOB, EXCLUDE);
  const files: TestFileChoice[] = [];
  for (const uri of uris.sort((a, b) => a.path.localeCompare(b.path))) {
    const text = await readText(uri);
    const file = text === undefined ? undefined : parseTestFile(text).file;
    if (file?.server === serverName) files.push({ uri, tests: file.tests.length });
  }
  return files;
}

/** The text of a file: the open editor's (unsaved edits too), else the disk's; undefined when there is none. */
async function readText(uri: vscode.Uri): Promise<string | undefined> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText();
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

/** `<first folder>/tests/<server>.mcptest.json`, where a new file is offered. */
function defaultNewFile(serverName: string): vscode.Uri | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  return folder && vscode.Uri.joinPath(folder, 'tests', testFileName(serverName));
}

/**
 * Saves `entry` (a run of `toolName` on `serverName`) as a test: asks for the file, writes or
 * appends the case, opens the file at it and says what it did in one line. Undefined when the
 * user cancelled or the run cannot be saved (the user was told why).
 */
export async function saveRunAsTest(serverName: string, toolName: string, entry: HistoryEntry | undefined, ui: SaveAsTestUi): Promise<SavedTest | undefined> {
  if (!entry) {
    void showInformationMessage(vscode.l10n.t('Run the tool first: Save as Test saves a run of the Run Tool panel.'));
    return undefined;
  }
  if (!entry.result) {
    void showErrorMessage(
      entry.omitted
        ? vscode.l10n.t("That run's result was too large to keep, so it cannot be saved as a test; run the tool again.")
        : vscode.l10n.t('Only a run that returned a result can be saved as a test; this one ended with "{0}".', entry.status),
    );
    return undefined;
  }
  const saved = testCaseFromRun({ toolName, args: entry.args, secretArgs: entry.secretArgs, secretsOmitted: entry.secretsOmitted, result: entry.result });
  const choice = await ui.pickFile(await testFilesOf(serverName), serverName);
  if (!choice) return undefined;
  let target: vscode.Uri | undefined = choice === 'new' ? await ui.newFile(defaultNewFile(serverName), serverName) : choice.uri;
  if (!target) return undefined;
  // Only `*.mcptest.json` files are test files (the Testing view, the command line): `x` or `x.json` becomes `x.mcptest.json`.
  if (!target.path.endsWith('.mcptest.json')) target = target.with({ path: target.path.replace(/(\.json)?$/, '.mcptest.json') });
  let name = saved.test.name;
  try {
    const existing = await readText(target);
    if (existing === undefined) {
      await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(target, '..'));
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(newTestFileText(serverName, saved.test)));
    } else {
      const appended = appendTestText(existing, serverName, saved.test);
      if ('error' in appended) {
        void showErrorMessage(
          appended.error === 'otherServer'
            ? vscode.l10n.t(
                '{0} tests the server "{1}", not "{2}"; choose another file or a new one.',
                vscode.workspace.asRelativePath(target),
                appended.server ?? '…',
                serverName,
              )
            : vscode.l10n.t('{0} could not be read as a test file; fix its problems or choose another file.', vscode.workspace.asRelativePath(target)),
        );
        return undefined;
      }
      name = appended.name;
      // Through the document, so an open editor's unsaved text is kept and the edit can be undone.
      const document = await vscode.workspace.openTextDocument(target);
      const edit = new vscode.WorkspaceEdit();
      edit.replace(target, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), appended.text);
      if (!(await vscode.workspace.applyEdit(edit)) || !(await document.save())) throw new Error(vscode.l10n.t('the edit was not applied'));
    }
  } catch (error) {
    void showErrorMessage(vscode.l10n.t('Could not save the test to {0}: {1}', target.fsPath, errorMessage(error)));
    return undefined;
  }
  target = (await vscode.workspace.openTextDocument(target)).uri;
  const document = await vscode.window.showTextDocument(target, { preview: false });
  const at = document.document.getText().lastIndexOf(JSON.stringify(name));
  if (at >= 0) document.revealRange(new vscode.Range(document.document.positionAt(at), document.document.positionAt(at)), vscode.TextEditorRevealType.InCenter);
  const file = vscode.workspace.asRelativePath(target);
  void showInformationMessage(
    saved.inputs.length
      ? vscode.l10n.t(
          'Saved the test "{0}" to {1}; its secret arguments are read from {2} when it runs.',
          name,
          file,
          saved.inputs.map(inputEnvName).join(', '),
        )
      : saved.nestedSecretsLeftOut
        ? vscode.l10n.t('Saved the test "{0}" to {1} without its secret arguments, which are never written; add them as ${input:…} in the file.', name, file)
        : vscode.l10n.t('Saved the test "{0}" to {1}; tighten its expectation in the editor.', name, file),
  );
  return { uri: target, name };
}
