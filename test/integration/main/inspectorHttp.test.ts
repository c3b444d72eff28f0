/**
 * The Inspector's HTTP section in the real extension, against real Streamable HTTP fixtures: a
 * 2025-11-25 server (sessions: Mcp-Session-Id) and a 2026-07-28 one (Mcp-Method / Mcp-Name
 * headers). A secret header value is planted in the config; it must not reach the detail the
 * page is sent, the HAR file, or the JSON Lines export (nor its import).
 */
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import type { ActivityLog } from '../../../src/traffic/common/activityLog';
import type { InspectorPanel } from '../../../src/inspector/inspectorPanel';
import type { HttpFixture } from '../../fixtures/servers/httpServer';
import type { ModernHttpFixture } from '../../fixtures/servers/modernHttpServer';
import { activateApi, folderUri, running, waitFor, writeText } from '../helpers';

const SECRET = 'hdr-SECRET-inspector-8642';

suite('Inspector: HTTP exchanges and HAR', function () {
  this.timeout(120000);
  let api: McpWorkbenchApi;
  let legacy: HttpFixture;
  let modern: ModernHttpFixture;
  let log: ActivityLog;
  const configFile = () => vscode.Uri.joinPath(folderUri('folder-b'), '.vscode', 'mcp.json');
  const files: vscode.Uri[] = [];

  suiteSetup(async () => {
    api = await activateApi();
    const load = (name: string) => require(path.join(process.env.MCPWB_FIXTURES!, 'servers', name));
    legacy = await load('httpServer.js').startHttpFixture();
    modern = await load('modernHttpServer.js').startModernHttpFixture();
    await writeText(
      configFile(),
      JSON.stringify({
        servers: {
          'insp-http': { type: 'http', url: legacy.url, headers: { 'X-Team-Secret': SECRET } },
          'insp-modern': { type: 'http', url: modern.url, headers: { 'X-Team-Secret': SECRET } },
        },
      }),
    );
    log = (await vscode.commands.executeCommand<ActivityLog>('_mcpWorkbench.activityLog'))!;
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(configFile()).then(undefined, () => undefined);
    await waitFor(() => !api.servers().some((s) => s.definition.name.startsWith('insp-')), 'the insp servers to go');
    for (const f of files) await vscode.workspace.fs.delete(f).then(undefined, () => undefined);
    await legacy?.close();
    await modern?.close();
  });

  const echo = async (name: string) => {
    const c = await running(api, name);
    await c.callTool('echo', { text: `via ${name}` });
    return waitFor(
      () => log.entries().find((e) => e.serverId === c.definition.id && e.method === 'tools/call' && e.status.kind !== 'pending'),
      `the echo entry of ${name}`,
    );
  };
  const header = (list: { name: string; value: string; mcp?: true }[] | undefined, name: string) => list?.find((h) => h.name.toLowerCase() === name);

  test('the detail of an HTTP exchange shows its HTTP exchange: Mcp-Method, Mcp-Session-Id, status, timing; the secret header redacted', async () => {
    const onLegacy = await echo('insp-http');
    const onModern = await echo('insp-modern');
    const panel = await vscode.commands.executeCommand<InspectorPanel>('mcpWorkbench.openActivityEntryInInspector', onModern.seq);
    const modernDetail = panel.detail(onModern.seq);
    const m = modernDetail.http?.[0];
    assert.ok(m, `an HTTP section for the 2026-07-28 call: ${JSON.stringify(modernDetail)}`);
    assert.equal(m.method, 'POST');
    assert.equal(m.status, 200);
    assert.equal(m.link, 'id');
    assert.ok(m.headersMs !== undefined && m.totalMs !== undefined && m.totalMs >= m.headersMs);
    assert.equal(header(m.requestHeaders, 'mcp-method')?.value, 'tools/call');
    assert.equal(header(m.requestHeaders, 'mcp-method')?.mcp, true);
    assert.equal(header(m.requestHeaders, 'x-team-secret')?.value, '«redacted»');
    const legacyDetail = panel.detail(onLegacy.seq);
    const l = legacyDetail.http?.[0];
    assert.ok(l?.sessionId, `the session id of the 2025-11-25 call: ${JSON.stringify(legacyDetail)}`);
    assert.equal(header(l.requestHeaders, 'mcp-session-id')?.mcp, true);
    for (const detail of [modernDetail, legacyDetail]) assert.ok(!JSON.stringify(detail).includes(SECRET), 'the page is never sent the secret');
  });

  test('HAR export and the JSON Lines export carry the HTTP exchanges without the secret; an import shows them', async () => {
    const stamp = Date.now();
    const har = vscode.Uri.file(path.join(os.tmpdir(), `mcpwb-http-${stamp}.har`));
    const jsonl = vscode.Uri.file(path.join(os.tmpdir(), `mcpwb-http-${stamp}.jsonl`));
    files.push(har, jsonl);
    assert.equal((await vscode.commands.executeCommand<vscode.Uri>('mcpWorkbench.exportHar', har))?.fsPath, har.fsPath);
    assert.equal((await vscode.commands.executeCommand<vscode.Uri>('mcpWorkbench.exportRecording', jsonl))?.fsPath, jsonl.fsPath);
    const harText = new TextDecoder().decode(await vscode.workspace.fs.readFile(har));
    const jsonlText = new TextDecoder().decode(await vscode.workspace.fs.readFile(jsonl));
    assert.ok(!harText.includes(SECRET), 'no secret in the HAR file');
    assert.ok(!jsonlText.includes(SECRET), 'no secret in the JSON Lines file');
    const parsed = JSON.parse(harText) as { log: { version: string; entries: { request: { method: string; headers: { name: string; value: string }[] } }[] } };
    assert.equal(parsed.log.version, '1.2');
    assert.ok(
      parsed.log.entries.some((e) => e.request.headers.some((h) => h.name.toLowerCase() === 'mcp-method' && h.value === 'tools/call')),
      'the Mcp-Method header is in the HAR',
    );
    const imported = await vscode.commands.executeCommand<InspectorPanel>('mcpWorkbench.importRecording', jsonl);
    const modernId = api.server('insp-modern')!.definition.id;
    const call = log.entries().find((e) => e.serverId === modernId && e.method === 'tools/call')!;
    const detail = imported.detail(call.seq);
    assert.equal(header(detail.http?.[0]?.requestHeaders, 'mcp-method')?.value, 'tools/call', 'the imported exchange shows its HTTP exchange');
    assert.ok(!JSON.stringify(detail).includes(SECRET));
  });
});
