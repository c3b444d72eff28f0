/**
 * Saved MCP tests in VS Code's Testing view, made only once the workspace has a test file: an
 * open editor of one, one found by a search of the workspace right after the configuration was
 * read, or one created or renamed later. A workspace without saved tests gets no "MCP Tests" in
 * the Testing view, and activation creates no test controller (about 1.6 ms of VS Code's API,
 * the tenth round in docs/performance.md) and loads none of its code: mcpTestController.ts
 * comes from dist/features.js when it is made (esbuild.mjs lazyFeatures).
 */
import * as vscode from 'vscode';
import type { Workbench } from '../workbench';
import { errorMessage } from '../shared/common/errors';
import type { McpTestsTesting } from './mcpTestController';
import { McpTestsCommands } from './common/commandIds';
import { registerCommandTable } from '../shared/commandTable';
import { TEST_FILE_EXCLUDE, TEST_FILE_GLOB, isTestFile, watchTestFiles, type TestFileEvents } from './testFiles';

export type { McpTestsTesting };

/** Why the controller was made, if it was (`_mcpWorkbench.testing.mcpTestsState`, for the integration tests). */
export type McpTestsMadeBy = 'open editor' | 'workspace search' | 'new file' | 'made in VS Code' | 'request';

export function registerMcpTests(wb: Workbench): vscode.Disposable[] {
  let made: Promise<McpTestsTesting> | undefined;
  let madeBy: McpTestsMadeBy | undefined;
  /** The workspace was searched once (whatever it found). */
  let searched = false;
  let disposed = false;
  const owned: vscode.Disposable[] = [];
  let files: TestFileEvents | undefined;
  /** The one source of test file events (disk watcher and VS Code's own file operations): a file created makes the controller, which then follows the files through it too. */
  const watch = (): TestFileEvents => {
    if (files) return files;
    const events = watchTestFiles();
    owned.push(
      events,
      events.onDidCreate(({ madeInVsCode }) => notice(madeInVsCode ? 'made in VS Code' : 'new file')),
    );
    return (files = events);
  };

  const make = (by: McpTestsMadeBy): Promise<McpTestsTesting> =>
    (made ??= (async () => {
      madeBy = by;
      const { createMcpTestController } = await import('./mcpTestController.js');
      const { testing, disposables } = createMcpTestController(wb, watch());
      if (disposed) disposables.forEach((d) => d.dispose());
      else owned.push(...disposables);
      return testing;
    })().catch((error: unknown) => {
      // The next sign of a test file tries again; until then the extension host log says why.
      made = madeBy = undefined;
      console.error(`MCP Workbench: the saved tests' controller could not be made: ${errorMessage(error)}`);
      throw error;
    }));
  /** Makes the controller on a sign of a test file; a failure is logged by make(). */
  const notice = (by: McpTestsMadeBy) => void make(by).catch(() => undefined);

  // Editors restored with the window have their gutter buttons before the Testing view is opened.
  if (vscode.workspace.textDocuments.some((d) => isTestFile(d.uri))) notice('open editor');

  /** Looks for one test file in the workspace, after the servers' configuration was read (their starts go first). */
  const search = () => {
    if (made || disposed) return;
    watch();
    void (async () => {
      try {
        const found = await vscode.workspace.findFiles(TEST_FILE_GLOB, TEST_FILE_EXCLUDE, 1);
        if (found.length && !disposed) notice('workspace search');
      } catch {
        // No search (a closing window): a test file opened or created later still makes the controller.
      } finally {
        searched = true;
      }
    })();
  };
  wb.ready.then(search, search);

  return [
    vscode.workspace.onDidOpenTextDocument((d) => isTestFile(d.uri) && notice('open editor')),
    vscode.workspace.onDidChangeWorkspaceFolders(() => search()),
    ...registerCommandTable({
      [McpTestsCommands.testing]: () => make('request'),
      [McpTestsCommands.state]: () => ({ madeBy, searched }),
    }),
    {
      dispose: () => {
        disposed = true;
        owned.forEach((d) => d.dispose());
      },
    },
  ];
}
