/**
 * One process per server, and a second copy said on the row, inside a real VS Code. Every
 * running stdio server of the workspace has exactly one process below this extension host
 * (counted in the real process table). Then the same command line is spawned from this
 * extension host beside ours: VS Code's own MCP host spawns its stdio servers from this very
 * process, so this stands in for its copy (the one part not made by VS Code: its host is off in
 * this suite, and before 1.140 no chat model is there to make it start one). The row says so,
 * with the fix, and stops saying it when the copy ends.
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import type { ServerNode } from '../../../src/servers/serverTreeNodes';
import { processTable, secondCopies } from '../../../src/mcp/process/secondCopies';
import { activateApi, folderUri, pidOf, running, waitFor, writeText } from '../helpers';

const configFile = () => vscode.Uri.joinPath(folderUri('folder-b'), '.vscode', 'mcp.json');

suite('Second copies (one process per server)', function () {
  this.timeout(90000);
  let api: McpWorkbenchApi;
  let copy: ChildProcess | undefined;
  const fixtureServer = () => path.join(process.env.MCPWB_FIXTURES!, 'servers', 'stdioServer.js');
  const args = () => [fixtureServer(), 'second-copy-marker'];
  const description = async () => {
    const tree = api.testing.serverTree;
    const node = (await tree.getChildren()).find((n) => n.kind === 'server' && n.connection.definition.name === 'copied') as ServerNode;
    return String(tree.getTreeItem(node).description);
  };

  suiteSetup(async function () {
    if (process.platform === 'win32') this.skip();
    api = await activateApi();
  });

  suiteTeardown(async () => {
    copy?.kill();
    if (!api) return;
    await vscode.workspace.fs.delete(configFile()).then(undefined, () => undefined);
    await waitFor(() => !api.server('copied'), 'copied to go');
  });

  test('each running stdio server has exactly one process under the extension host', async () => {
    await writeText(configFile(), JSON.stringify({ servers: { copied: { command: 'node', args: args() } } }));
    await running(api, 'copied');
    const table = await processTable();
    const stdio = api.servers().filter((c) => c.state.kind === 'running' && c.definition.launch.type === 'stdio');
    assert.ok(stdio.length >= 2, stdio.map((c) => c.definition.name).join(', '));
    const own = stdio.map(pidOf).filter((p): p is number => p !== undefined);
    for (const c of stdio) {
      const launch = c.definition.launch;
      if (launch.type !== 'stdio') continue;
      const pid = pidOf(c);
      assert.ok(pid, `${c.definition.name} has a process`);
      assert.deepEqual(secondCopies(table, process.pid, own, launch), [], `${c.definition.name}: no other copy`);
      // Its own process, and none of the same command line, folder and env that is not ours.
      const sameLaunch = table.filter(
        (p) => p.ppid === process.pid && (p.pid === pid || (!own.includes(p.pid) && secondCopies([p], process.pid, [], launch).length > 0)),
      );
      assert.deepEqual(
        sameLaunch.map((p) => p.pid),
        [pid],
        `${c.definition.name}: exactly one process of its launch below the extension host`,
      );
      assert.equal(table.find((p) => p.pid === pid)?.ppid, process.pid, `${c.definition.name}: its process is a child of this extension host`);
    }
    assert.doesNotMatch(await description(), /second copy/);
  });

  test('a copy of the same launch started beside ours is said on the row with the fix, and no longer once it ends', async () => {
    // Where VS Code's host would start it: the same command line in the same working directory.
    const launch = api.server('copied')!.definition.launch;
    copy = spawn('node', args(), { stdio: 'pipe', cwd: launch.type === 'stdio' ? launch.cwd : undefined });
    await new Promise((resolve) => copy!.once('spawn', resolve));
    // Looks now instead of waiting for the 20 s timer (absent before the watch existed: the wait then times out).
    const copies = api.testing.serverTree.copies as typeof api.testing.serverTree.copies | undefined;
    const seen = await waitFor(async () => {
      await copies?.check();
      const d = await description();
      return /second copy/.test(d) && d;
    }, 'the row to name the copy');
    assert.match(
      seen,
      new RegExp(
        `VS Code runs a second copy \\(pid ${copy.pid}\\): stop it in MCP: List Servers and set chat\\.mcp\\.autostart to "never", or leave this server to VS Code`,
      ),
    );
    copy.kill();
    await waitFor(async () => {
      await copies?.check();
      return !/second copy/.test(await description());
    }, 'the note to go');
  });
});
