/**
 * VS Code's `"sandboxEnabled": true` inside a real VS Code: the server runs under bubblewrap
 * with the file's top-level `sandbox`, so the fixture server's probe (FIXTURE_PROBE) cannot
 * write outside `allowWrite` nor open a TCP connection to this extension host; and with bwrap
 * missing (simulated by pointing the user setting mcpWorkbench.sandbox.bwrapPath at a file that
 * does not exist) it is not started and says why. Linux only (bwrap); every file is made here
 * and removed afterwards.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import { activateApi, folderUri, running, setUserSetting, waitFor, writeText } from '../helpers';

const configFile = () => vscode.Uri.joinPath(folderUri('folder-b'), '.vscode', 'mcp.json');

suite('Sandboxed servers (VS Code sandboxEnabled)', function () {
  this.timeout(90000);
  let api: McpWorkbenchApi;
  let dir: string;
  /** Outside /tmp (which the sandbox replaces by its own): a folder beside the built fixtures, removed afterwards. */
  let outsideDir: string;
  let listener: net.Server;
  let port: number;
  let accepted = 0;
  const fixtureServer = () => path.join(process.env.MCPWB_FIXTURES!, 'servers', 'stdioServer.js');
  const allowed = () => path.join(dir, 'allowed');
  const config = (name: string) => {
    const probe = {
      write: [path.join(outsideDir, 'outside.txt'), path.join(allowed(), 'inside.txt')],
      connect: port,
      report: path.join(allowed(), 'report.json'),
    };
    return JSON.stringify({
      sandbox: { filesystem: { allowWrite: [allowed()] } },
      servers: { [name]: { type: 'stdio', command: 'node', args: [fixtureServer()], env: { FIXTURE_PROBE: JSON.stringify(probe) }, sandboxEnabled: true } },
    });
  };

  suiteSetup(async function () {
    if (process.platform !== 'linux') this.skip();
    api = await activateApi();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-sandbox-it-'));
    fs.mkdirSync(allowed());
    outsideDir = fs.mkdtempSync(path.join(path.dirname(process.env.MCPWB_FIXTURES!), 'sandbox-outside-'));
    listener = net.createServer((socket) => {
      accepted++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as net.AddressInfo).port;
  });

  suiteTeardown(async () => {
    if (!api) return;
    await vscode.workspace.fs.delete(configFile()).then(undefined, () => undefined);
    await waitFor(() => !api.server('sandboxed') && !api.server('sandboxed-no-bwrap'), 'the sandboxed servers to go');
    await setUserSetting('sandbox.bwrapPath', undefined);
    await new Promise((resolve) => listener.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(outsideDir, { recursive: true, force: true });
  });

  test('runs under bubblewrap: it writes only to allowWrite and cannot open a socket to this host', async () => {
    await writeText(configFile(), config('sandboxed'));
    await running(api, 'sandboxed');
    const report = path.join(allowed(), 'report.json');
    const result = await waitFor(
      () => fs.existsSync(report) && (JSON.parse(fs.readFileSync(report, 'utf8')) as { write: Record<string, string>; connect: string }),
      'the probe report',
    );
    assert.equal(result.write[path.join(outsideDir, 'outside.txt')], 'EROFS', `a write outside allowWrite: ${JSON.stringify(result)}`);
    assert.equal(result.write[path.join(allowed(), 'inside.txt')], 'ok');
    assert.ok(!fs.existsSync(path.join(outsideDir, 'outside.txt')));
    assert.equal(result.connect, 'ECONNREFUSED', `a TCP connection to this host: ${JSON.stringify(result)}`);
    assert.equal(accepted, 0);
  });

  test('with bwrap missing it is not started: the row says why and names the setting', async () => {
    fs.rmSync(path.join(allowed(), 'report.json'), { force: true });
    await setUserSetting('sandbox.bwrapPath', path.join(dir, 'no-such-bwrap'));
    await writeText(configFile(), config('sandboxed-no-bwrap'));
    const c = await waitFor(
      () => {
        const s = api.server('sandboxed-no-bwrap');
        return s?.state.kind === 'error' && s;
      },
      'sandboxed-no-bwrap to fail to start',
      30000,
    );
    if (c.state.kind !== 'error') throw new Error('not an error');
    assert.match(
      c.state.message,
      /^Server "sandboxed-no-bwrap" is sandboxed \("sandboxEnabled": true\) and bubblewrap \(".*no-such-bwrap"\) was not found: .*; not started\. Turn on mcpWorkbench\.sandbox\.allowUnsandboxed/,
    );
    const tree = api.testing.serverTree;
    const node = (await tree.getChildren()).find((n) => n.kind === 'server' && n.connection.definition.name === 'sandboxed-no-bwrap');
    assert.ok(node, 'the row of sandboxed-no-bwrap');
    assert.match(String(tree.getTreeItem(node).accessibilityInformation?.label), /bubblewrap .* was not found/);
    assert.ok(!fs.existsSync(path.join(allowed(), 'report.json')), 'the server never ran');
  });
});
