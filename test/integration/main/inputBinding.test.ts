/**
 * A stored password input is bound to where it was entered for (issue 26, finding 3): when the
 * config moves the server to another URL (a `git pull`), the password is asked for again
 * instead of being sent there; a live HTTP server at the new URL records what reached it.
 */
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import type { HttpFixture } from '../../fixtures/servers/httpServer';
import { activateApi, folderUri, running, waitFor, writeText } from '../helpers';

const configFile = () => vscode.Uri.joinPath(folderUri('folder-b'), '.vscode', 'mcp.json');

suite('A stored password input is not sent to a new destination', function () {
  this.timeout(90000);
  const SECRET = 'bound-SECRET-8642';
  let api: McpWorkbenchApi;
  let good: HttpFixture;
  let other: http.Server;
  let otherUrl = '';
  /** Authorization headers that reached the other server. */
  const received: (string | undefined)[] = [];
  const window = vscode.window as unknown as Record<string, unknown>;
  const originalInputBox = vscode.window.showInputBox;
  const prompts: (string | undefined)[] = [];
  let answer: string | undefined = SECRET;
  const config = (url: string) =>
    JSON.stringify({
      inputs: [{ id: 'tok', type: 'promptString', password: true, description: 'API token' }],
      servers: { 'bound-http': { type: 'http', url, headers: { Authorization: 'Bearer ${input:tok}' } } },
    });

  suiteSetup(async () => {
    api = await activateApi();
    // The user types the token when asked (a test cannot type into the real input box).
    window.showInputBox = async (options?: vscode.InputBoxOptions) => {
      prompts.push(options?.prompt);
      return answer;
    };
    const load = (name: string) => require(path.join(process.env.MCPWB_FIXTURES!, 'servers', name));
    good = await load('httpServer.js').startHttpFixture();
    // Where the edited config points: it only records what it is sent.
    other = http.createServer((req, res) => {
      received.push(req.headers.authorization);
      req.resume();
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}/mcp`;
    await writeText(configFile(), config(good.url));
  });

  suiteTeardown(async () => {
    window.showInputBox = originalInputBox;
    await vscode.workspace.fs.delete(configFile()).then(undefined, () => undefined);
    await waitFor(() => !api.server('bound-http'), 'bound-http to go');
    await vscode.commands.executeCommand('mcpWorkbench.clearStoredInputs');
    await good?.close();
    await new Promise((resolve) => other?.close(resolve));
  });

  test('the token is asked once and the server runs with it', async () => {
    await running(api, 'bound-http');
    assert.equal(prompts.length, 1, JSON.stringify(prompts));
  });

  test('after the url changes, the token is asked for again with the old and new place, and never sent there', async () => {
    prompts.length = 0;
    answer = undefined; // the user dismisses the prompt
    await writeText(configFile(), config(otherUrl));
    // The new code asks; the old one restarted the server at the new URL with the stored token.
    await waitFor(() => prompts.length > 0 || received.length > 0, 'a prompt for the token, or a request at the new URL', 30000);
    assert.deepEqual(received, [], `the other server received ${JSON.stringify(received)}`);
    assert.match(String(prompts[0]), new RegExp(`changed from ${good.url.replace(/[.?]/g, '\\$&')} to ${otherUrl.replace(/[.?]/g, '\\$&')}.*API token`));
    const c = await waitFor(() => {
      const s = api.server('bound-http');
      return s?.state.kind === 'stopped' && /needs input "tok"/.test(String((s.state as { reason?: string }).reason)) && s;
    }, 'bound-http to wait for the token');
    assert.equal(c.definition.target, otherUrl);
    assert.deepEqual(received, [], `the other server received ${JSON.stringify(received)}`);
  });

  test('entered again for the new place, it goes there', async () => {
    prompts.length = 0;
    answer = SECRET;
    await vscode.commands.executeCommand('mcpWorkbench.startServer', api.server('bound-http')!.definition.id).then(undefined, () => undefined);
    await waitFor(() => received.length > 0, 'the other server to be asked, with the token the user entered for it');
    assert.equal(received[0], `Bearer ${SECRET}`);
  });
});
