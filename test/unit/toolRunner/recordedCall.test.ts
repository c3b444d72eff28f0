/** An Inspector row's tools/call as a Run Tool history entry (Save as Test from the Inspector), recorded by the real ActivityLog. */
import * as assert from 'node:assert/strict';
import { ActivityLog } from '../../../src/traffic/common/activityLog';
import { historyEntryOfRecordedCall } from '../../../src/toolRunner/common/recordedCall';
import { testCaseFromRun } from '../../../src/mcpTests/common/saveAsTest';

const SERVER = { id: 's', label: 'server', secrets: ['team-secret-4711'] };

function recorded(method: string, params: unknown, answer: { result?: unknown; error?: { code: number; message: string } } | undefined) {
  const log = new ActivityLog(100);
  const entry = log.add(SERVER, { direction: 'send', kind: 'request', method, id: 1, message: { jsonrpc: '2.0', id: 1, method, params } }, 1000)!;
  if (answer) log.add(SERVER, { direction: 'receive', kind: answer.error ? 'error' : 'response', id: 1, message: { jsonrpc: '2.0', id: 1, ...answer } }, 1042);
  return log.find(entry.seq)!;
}

describe('Save as Test from an Inspector row: the recorded call as a run', () => {
  it('a call with its result: arguments, status, duration; secrets (by key name or known value) become inputs or are left out', () => {
    const e = recorded(
      'tools/call',
      { name: 'formDemo', arguments: { name: 'Bo', apiKey: 'sk-0816-value', note: 'uses team-secret-4711', nested: { password: 'pw-12345678' }, count: 1 } },
      { result: { content: [{ type: 'text', text: 'ok' }], structuredContent: { name: 'Bo' } } },
    );
    const call = historyEntryOfRecordedCall(e);
    assert.ok(call);
    assert.equal(call.toolName, 'formDemo');
    assert.deepEqual(call.entry.args, { name: 'Bo', count: 1 });
    assert.deepEqual(call.entry.secretArgs, ['apiKey', 'note']);
    assert.equal(call.entry.secretsOmitted, true);
    assert.equal(call.entry.status, 'ok');
    assert.equal(call.entry.durationMs, 42);
    const saved = testCaseFromRun({ toolName: call.toolName, ...call.entry, result: call.entry.result! });
    assert.deepEqual(saved.inputs, ['apiKey', 'note']);
    assert.ok(!JSON.stringify(saved.test).includes('sk-0816') && !JSON.stringify(saved.test).includes('«redacted»'), JSON.stringify(saved.test));
  });

  it('a tool error, a protocol error, an unanswered call and other methods', () => {
    assert.equal(historyEntryOfRecordedCall(recorded('tools/call', { name: 'x' }, { result: { content: [], isError: true } }))?.entry.status, 'toolError');
    const failed = historyEntryOfRecordedCall(recorded('tools/call', { name: 'x', arguments: {} }, { error: { code: -32602, message: 'bad' } }))!.entry;
    assert.equal(failed.status, 'protocolError');
    assert.equal(failed.result, undefined);
    assert.equal(historyEntryOfRecordedCall(recorded('tools/call', { name: 'x' }, undefined))?.entry.result, undefined);
    assert.equal(historyEntryOfRecordedCall(recorded('tools/list', {}, { result: { tools: [] } })), undefined);
    assert.equal(historyEntryOfRecordedCall(recorded('tools/call', { arguments: {} }, { result: { content: [] } })), undefined);
  });
});
