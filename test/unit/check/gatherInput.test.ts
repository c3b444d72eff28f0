/**
 * The one gathering of Check Server and `mcp-workbench check` (src/check/common/gatherInput.ts),
 * against the real check fixture server (test/fixtures/servers/checkServer.ts) through a real
 * connection whose exchanges the real ActivityLog records, as both callers wire it.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { gatherCheckInput, type GatherProgress } from '../../../src/check/common/gatherInput';
import { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import { ActivityLog } from '../../../src/traffic/common/activityLog';
import { definition, FIXTURES, recordingHost, RecordingLog, stdioLaunch } from '../mcp/testHost';

describe('Check Server: gathering the input (shared with the command line)', function () {
  this.timeout(30000);
  const open: McpServerConnection[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.dispose()));
  });

  async function start(mode: string) {
    const def = definition(stdioLaunch({ FIXTURE_CHECK: mode }, { args: [path.join(FIXTURES, 'checkServer.js')] }), { secrets: ['kept-secret-value'] });
    const log = new ActivityLog(10_000);
    const host = recordingHost();
    host.trace = (_d, record) => log.record({ id: def.id, label: def.label, secrets: def.secrets }, record, Date.now());
    const c = new McpServerConnection(def, host, new RecordingLog());
    open.push(c);
    await c.start();
    assert.equal(c.state.kind, 'running');
    return { c, log, def };
  }

  it('lists the four lists, calls only the read-only tools, records them, and reports its steps', async () => {
    const { c, log, def } = await start('bad');
    const steps: GatherProgress[] = [];
    const input = await gatherCheckInput(c, { messages: () => log.entries().reverse(), secrets: def.secrets, progress: (at) => steps.push(at) });
    assert.ok(input);
    assert.equal(input.protocolVersion, '2025-11-25');
    assert.equal(input.transport, 'stdio');
    assert.deepEqual(
      input.tools.map((t) => t.name),
      ['broken_schema', 'no_description', 'bad_output', 'write_counter', 'slow', 'touch', 'bad name!'],
    );
    assert.deepEqual(
      input.resources.map((r) => r.uri),
      ['check://undescribed'],
    );
    assert.deepEqual(steps, [{ step: 'list' }, { step: 'call', tool: 'bad_output', index: 1, total: 1 }]);
    const calls = input.messages.filter((m) => m.method === 'tools/call').map((m) => (m.request as { params: { name: string } }).params.name);
    assert.deepEqual(calls, ['bad_output'], 'only the read-only tool with an outputSchema is called, and its call is in the messages');
    assert.deepEqual(input.secrets, ['kept-secret-value']);
    assert.equal(input.skills, undefined, 'a server without the skills extension has no skills input');
  });

  it('an aborted gathering resolves undefined without calling tools', async () => {
    const { c, log } = await start('bad');
    const abort = new AbortController();
    const input = await gatherCheckInput(c, {
      messages: () => log.entries().reverse(),
      signal: abort.signal,
      progress: (at) => at.step === 'list' && abort.abort(),
    });
    assert.equal(input, undefined);
    assert.ok(!log.entries().some((m) => m.method === 'tools/call'));
  });
});
