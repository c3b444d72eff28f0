/**
 * MCP: Check Server in a real VS Code, against two SDK fixture servers (test/fixtures/servers/
 * checkServer.ts): the bad one gets each checked thing wrong on purpose and every one is found,
 * with its spec section and its recorded message; the good one gets no error and no warning.
 * The read-only tool with an outputSchema is called by the check itself; the others (slow,
 * touch) are called by the test first, as a user would, and are checked from the recording.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import type { ActivityLog } from '../../../src/traffic/common/activityLog';
import type { CheckReport } from '../../../src/check/common/runChecks';
import { activateApi, folderUri, recordNotifications, recordOutputChannels, running, waitFor } from '../helpers';

const FIXTURES = process.env.MCPWB_FIXTURES ?? '';

suite('Check Server', function () {
  this.timeout(90000);
  let api: McpWorkbenchApi;
  let original: Record<string, unknown> | undefined;
  let notifications: ReturnType<typeof recordNotifications>;
  let outputs: ReturnType<typeof recordOutputChannels>;
  let devDir: string;
  const cfg = () => vscode.workspace.getConfiguration('mcpWorkbench');
  const entry = (mode: 'bad' | 'good' | 'model') => ({
    type: 'stdio',
    command: 'node',
    args: [path.join(FIXTURES, 'servers', 'checkServer.js')],
    env: { FIXTURE_CHECK: mode },
  });

  suiteSetup(async () => {
    api = await activateApi();
    notifications = recordNotifications();
    outputs = recordOutputChannels();
    // The dev loop's server reads which variant of its lists to serve from a watched file.
    devDir = path.join(folderUri('folder-a').fsPath, '.check-dev');
    fs.mkdirSync(path.join(devDir, 'src'), { recursive: true });
    fs.writeFileSync(path.join(devDir, 'src', 'variant.txt'), 'v1');
    const dev = {
      ...entry('model'),
      cwd: devDir,
      env: { FIXTURE_CHECK: 'model', FIXTURE_CHECK_VARIANT_FILE: path.join(devDir, 'src', 'variant.txt') },
      dev: { watch: 'src/*.txt' },
    };
    original = cfg().inspect<Record<string, unknown>>('servers')?.globalValue;
    await cfg().update(
      'servers',
      { ...original, 'check-bad': entry('bad'), 'check-good': entry('good'), 'check-model': entry('model'), 'check-dev': dev },
      vscode.ConfigurationTarget.Global,
    );
  });

  suiteTeardown(async () => {
    notifications.dispose();
    outputs.dispose();
    await cfg().update('servers', original, vscode.ConfigurationTarget.Global);
    await waitFor(() => !api.servers().some((s) => s.definition.name.startsWith('check-')), 'the check servers to go');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(devDir, { recursive: true, force: true });
  });

  test('a bad server: every mistake is found, with its spec section and recorded message', async () => {
    const c = await running(api, 'check-bad');
    // What the user ran before checking: the check itself never calls tools that are not read-only.
    // `touch` first: the first tools/call after a start is a cold start, not timed; `slow` is timed.
    await c.callTool('touch', {});
    await c.callTool('slow', {});
    const report = await vscode.commands.executeCommand<CheckReport | undefined>('mcpWorkbench.checkServer', c.definition.id);
    assert.ok(report, `no report; notifications: ${notifications.messages.join(' | ')}`);
    assert.ok(
      notifications.messages.includes(`Check of check-bad: ${report.counts.error} errors, ${report.counts.warning} warnings, ${report.counts.info} info.`),
      `the summary notification; got: ${notifications.messages.join(' | ')}`,
    );
    const log = (await vscode.commands.executeCommand<ActivityLog>('_mcpWorkbench.activityLog'))!;
    const find = (check: string, pattern: RegExp) => {
      const f = report.findings.find((x) => x.check === check && pattern.test(x.message));
      assert.ok(f, `no ${check} finding matching ${pattern}; got:\n${report.findings.map((x) => `${x.severity} ${x.check}: ${x.message}`).join('\n')}`);
      assert.match(f.spec.url, /^https:\/\/modelcontextprotocol\.io\/specification\/2025-11-25\//);
      return f;
    };

    const schema = find('tool-schema', /"broken_schema".*not a valid JSON Schema 2020-12/);
    assert.equal(schema.severity, 'error');
    assert.equal(log.find(schema.seq!)?.method, 'tools/list');

    const structured = find('structured-content', /"bad_output".*count must be integer/);
    assert.equal(structured.severity, 'error');
    const call = log.find(structured.seq!)!;
    assert.equal((call.request as { params: { name: string } }).params.name, 'bad_output', 'the call the check made itself is the one shown');
    assert.equal(find('structured-content', /Not exercised.*"write_counter"/).severity, 'info');
    assert.ok(
      !log
        .entries()
        .some(
          (e) => e.serverId === c.definition.id && e.method === 'tools/call' && (e.request as { params: { name: string } }).params.name === 'write_counter',
        ),
      'a tool that is not read-only is never called by the check',
    );

    assert.equal(find('description', /"no_description" has no description/).severity, 'warning');
    assert.equal(find('description', /"undescribed" has no description/).severity, 'info');
    assert.equal(find('tool-name', /"bad name!"/).severity, 'warning');

    // `\d+ of`: on a loaded machine another call may pass 3 s too; the slowest is still `slow` (3.5 s of sleep on top).
    const slow = find('latency', /tools\/call: \d+ of \d+ answer\(s\) slower than 3000 ms \(p50 \d+ ms, max \d+ ms, tools\/call "slow"\)/);
    assert.equal(slow.severity, 'warning');

    const changed = find('capabilities', /`notifications\/tools\/list_changed` without declaring `capabilities\.tools\.listChanged`/);
    assert.equal(changed.severity, 'error');
    assert.equal(log.find(changed.seq!)?.method, 'notifications/tools/list_changed');
    assert.equal(find('capabilities', /`notifications\/message` without declaring the `logging` capability/).severity, 'error');

    assert.equal(report.counts.error, report.findings.filter((f) => f.severity === 'error').length);
    assert.ok(report.counts.error >= 4);

    // The report is a read-only document of the server's check, server text escaped.
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: 'mcp-check', path: `/${encodeURIComponent(c.definition.id)}/check.md` }));
    assert.match(doc.getText(), /^# Check of check-bad/);
    assert.match(doc.getText(), /\\"bad name!\\"|"bad name!"/);
    assert.match(doc.getText(), /\[Tools › Tool Names\]\(https:\/\/modelcontextprotocol\.io\/specification\/2025-11-25\/server\/tools#tool-names\)/);
  });

  test('a good server: no errors and no warnings', async () => {
    const c = await running(api, 'check-good');
    // Latency budgets of a minute: on a loaded 2-core machine `initialize` took 1.4 s (a cold start,
    // no longer a finding) and any later request can be as slow; how fast this machine is, is not
    // what this test checks (the bad server's test and the unit tests check the latency finding).
    const report = await vscode.commands.executeCommand<CheckReport | undefined>('mcpWorkbench.checkServer', c.definition.id, {
      budgets: { slowRequestMs: 60000, slowToolCallMs: 60000 },
    });
    assert.ok(report, `no report; notifications: ${notifications.messages.join(' | ')}`);
    assert.deepEqual(
      report.findings.filter((f) => f.severity !== 'info').map((f) => f.message),
      [],
    );
    assert.equal(report.counts.error, 0);
    assert.equal(report.counts.warning, 0);
    assert.ok(!report.findings.some((f) => /Not exercised/.test(f.message)), 'its read-only tool was called by the check');
  });

  test('a 2026-07-28 server: links point at the 2026-07-28 spec, and its logging capability is deprecated there', async () => {
    const c = await running(api, 'fixture-modern');
    const report = await vscode.commands.executeCommand<CheckReport | undefined>('mcpWorkbench.checkServer', c.definition.id);
    assert.ok(report, `no report; notifications: ${notifications.messages.join(' | ')}`);
    assert.ok(report.findings.length > 0);
    for (const f of report.findings) assert.match(f.spec.url, /^https:\/\/modelcontextprotocol\.io\/specification\/2026-07-28\//, f.message);
    const logging = report.findings.find((f) => f.check === 'deprecated' && f.subject === 'Logging');
    assert.ok(logging, 'the deprecated Logging capability');
    assert.equal(logging.severity, 'warning');
    assert.equal(logging.spec.url, 'https://modelcontextprotocol.io/specification/2026-07-28/deprecated');
  });

  const byCheck = (report: CheckReport, ...checks: string[]) =>
    report.findings.filter((f) => checks.includes(f.check)).map((f) => `${f.severity} ${f.check} ${f.subject}: ${f.message}`);

  test("what a model is shown: the tool list's cost, near-duplicate tools, instructions and secrets in descriptions", async () => {
    const c = await running(api, 'check-model');
    const report = await vscode.commands.executeCommand<CheckReport | undefined>('mcpWorkbench.checkServer', c.definition.id);
    assert.ok(report, `no report; notifications: ${notifications.messages.join(' | ')}`);
    const found = byCheck(report, 'tool-list-cost', 'tool-near-duplicate', 'description-instructions', 'description-secret');
    const expected = [
      /^warning tool-list-cost tools\/list: The tool list costs a model about 1\d,\d{3} tokens .* Largest: "search_docs" ~1\d,\d{3} \(9\d%\)/,
      /^warning tool-near-duplicate read_file \/ read_files: .*names are 90% alike/,
      /^error description-instructions get_weather: .*<IMPORTANT>-style tag/,
      /^error description-instructions get_weather: .*names credential files/,
      /^error description-instructions get_weather: .*keep something from the user/,
      /^error description-instructions add_numbers: The inputSchema\.properties\.a\.description .*ignore its instructions/,
      /^warning description-instructions add_numbers: .*which tool it must call/,
      /^error description-instructions notes: .*invisible characters/,
      /^error description-secret connect_db: .*\(credential assignment\)/,
    ];
    for (const pattern of expected)
      assert.ok(
        found.some((f) => pattern.test(f)),
        `no finding matching ${pattern}; got:\n${found.join('\n')}`,
      );
    assert.equal(found.length, expected.length, found.join('\n'));
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: 'mcp-check', path: `/${encodeURIComponent(c.definition.id)}/check.md` }));
    assert.ok(!doc.getText().includes('sk_live'), 'the credential is not in the report');
    assert.match(
      doc.getText(),
      /\[Tools › Security Considerations\]\(https:\/\/modelcontextprotocol\.io\/specification\/2025-11-25\/server\/tools#security-considerations\)/,
    );
  });

  test('a dev-loop restart that breaks clients: a log line per change, a notification, and Check Server findings', async () => {
    const c = await running(api, 'check-dev');
    // The lists of the running server, as the tree shows them: what the restart is compared with.
    assert.ok((await c.list('tools')).some((t) => t.name === 'read_files'));
    const before = await vscode.commands.executeCommand<CheckReport | undefined>('mcpWorkbench.checkServer', c.definition.id);
    assert.deepEqual(byCheck(before!, 'dev-restart-breaking', 'dev-restart-compatible'), [], 'nothing before a restart');
    const restarted = new Promise<void>((resolve) => {
      const sub = api.onDidDevRestart((e) => e.serverName === 'check-dev' && (sub.dispose(), resolve()));
    });
    // Saved in the editor as a user does (see devLoop.test.ts for why not written behind VS Code's back).
    const doc = await vscode.workspace.openTextDocument(path.join(devDir, 'src', 'variant.txt'));
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), 'v2');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await doc.save());
    await restarted;
    const said =
      /^check-dev restarted after \S*\.check-dev\/src\/variant\.txt changed, and its lists now break clients: tools\.add_numbers\.inputSchema\.properties\.c: a required argument "c" was added \(and 1 more breaking change\)\. Check Server lists every change\.$/;
    await waitFor(() => notifications.messages.some((m) => said.test(m)), 'the notification of the breaking changes').catch((error: Error) => {
      throw new Error(`${error.message}; got: ${notifications.messages.join(' | ')}\nlog:\n${outputs.text().slice(-2000)}`);
    });
    assert.match(outputs.text(), /Since the restart: breaking: tools\.read_files: tool "read_files" was removed\./);
    assert.match(outputs.text(), /Since the restart: breaking: tools\.add_numbers\.inputSchema\.properties\.c: a required argument "c" was added\./);
    const after = await vscode.commands.executeCommand<CheckReport | undefined>('mcpWorkbench.checkServer', c.definition.id);
    assert.ok(after);
    const dev = byCheck(after, 'dev-restart-breaking');
    assert.equal(dev.length, 2, dev.join('\n'));
    assert.match(dev[0], /^warning dev-restart-breaking tools\.add_numbers\.inputSchema\.properties\.c: Since the dev loop restarted it for .*variant\.txt: /);
    assert.match(
      dev[1],
      /^warning dev-restart-breaking tools\.read_files: .*tool "read_files" was removed; clients written against the previous lists break\.$/,
    );
  });
});
