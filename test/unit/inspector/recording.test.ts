import * as assert from 'node:assert/strict';
import { ActivityLog, type ActivityServer } from '../../../src/traffic/common/activityLog';
import { buildRows } from '../../../src/inspector/common/rowsModel';
import { factsOf } from '../../../src/traffic/common/exchangeFacts';
import { exportRecording, importRecording, RECORDING_FORMAT } from '../../../src/inspector/common/recording';
import { REDACTED } from '../../../src/shared/common/redact';

const SECRET = 'sk-live-very-secret-4711';
const A: ActivityServer = { id: 'a', label: 'alpha', secrets: [SECRET] };

function recordedLog(): ActivityLog {
  const log = new ActivityLog(100);
  log.add(
    A,
    {
      direction: 'send',
      kind: 'request',
      method: 'tools/call',
      id: 1,
      message: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'login', arguments: { key: SECRET, password: 'hunter22', _meta: { progressToken: 'p' } }, _meta: { progressToken: 'p' } },
      },
    },
    1000,
  );
  log.add(
    A,
    {
      direction: 'receive',
      kind: 'notification',
      method: 'notifications/progress',
      message: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 1 } },
    },
    1001,
  );
  log.add(
    A,
    {
      direction: 'receive',
      kind: 'response',
      id: 1,
      message: { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: `token ${SECRET} rejected` }], isError: true } },
    },
    1010,
  );
  log.add(A, { direction: 'send', kind: 'request', method: 'tools/list', id: 2, message: { jsonrpc: '2.0', id: 2, method: 'tools/list' } }, 1020);
  log.add(
    A,
    {
      direction: 'receive',
      kind: 'error',
      id: 2,
      errorCode: -32603,
      errorMessage: 'boom',
      message: { jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'boom' } },
    },
    1030,
  );
  return log;
}

describe('Inspector recording (JSON Lines)', () => {
  it('exports redacted: no secret value, no credential-named value reaches the file', () => {
    const text = exportRecording(recordedLog().entries(), 5);
    assert.ok(!text.includes(SECRET), 'the known secret is redacted');
    assert.ok(!text.includes('hunter22'), 'a value under a credential key is redacted');
    assert.ok(text.includes(REDACTED));
    const lines = text.trimEnd().split('\n');
    assert.equal(lines.length, 1 + 3);
    assert.deepEqual(JSON.parse(lines[0]), { format: RECORDING_FORMAT, version: 1, exportedAt: 5 });
    assert.ok(
      lines.slice(1).every((l) => typeof JSON.parse(l).seq === 'number'),
      'one exchange per line',
    );
  });

  it('import gives back the same rows (nesting, statuses, latency, sizes, names)', () => {
    const log = recordedLog();
    const imported = importRecording(exportRecording(log.entries()));
    assert.deepEqual(imported.skipped, []);
    assert.deepEqual(buildRows(imported.records, factsOf), buildRows(log.entries(), factsOf));
    const [list, call] = buildRows(imported.records, factsOf);
    assert.equal(call.status, 'toolError');
    assert.equal(call.children[0].method, 'notifications/progress');
    assert.equal(list.status, 'rpcError');
    assert.deepEqual(imported.records.find((r) => r.seq === call.seq)!.request, log.find(call.seq)!.request);
  });

  it("keeps a request's own note (a handshake's era decision) through export and import, as one line", () => {
    const log = recordedLog();
    const call = log.entries().find((e) => e.method === 'tools/call')!;
    log.annotate(call, 'MCP 2025-11-25 (initialize handshake), era probed at this start');
    const imported = importRecording(exportRecording(log.entries()));
    assert.deepEqual(buildRows(imported.records, factsOf), buildRows(log.entries(), factsOf));
    assert.equal(imported.records.find((r) => r.seq === call.seq)!.note, 'MCP 2025-11-25 (initialize handshake), era probed at this start');
    const handEdited = exportRecording(log.entries()).replace('era probed at this start', `era\\n${'x'.repeat(500)}`);
    assert.match(importRecording(handEdited).records.find((r) => r.seq === call.seq)!.note!, /^MCP 2025-11-25 \(initialize handshake\), era x{100,}$/);
    assert.equal(importRecording(handEdited).records.find((r) => r.seq === call.seq)!.note!.length, 200);
  });

  it('import skips lines that are not exchanges and says which; rejects a file that is no recording', () => {
    const text = exportRecording(recordedLog().entries());
    const damaged = text.replace('\n', '\n{not json\n{"seq":"x"}\n');
    const imported = importRecording(damaged);
    assert.equal(imported.records.length, 3);
    assert.deepEqual(imported.skipped, [2, 3]);
    assert.throws(() => importRecording('hello\nworld\n'), /not an MCP Workbench recording/);
    assert.deepEqual(importRecording(`{"format":"${RECORDING_FORMAT}","version":1}\n`).records, []);
  });

  it('keeps the replay mark and its link to the original through export and import', () => {
    const log = recordedLog();
    const [call, list] = log
      .entries()
      .map((e) => e.seq)
      .sort((a, b) => a - b)
      .filter((seq) => log.find(seq)!.kind === 'request');
    const marks = new Map([[list, call]]);
    const text = exportRecording(log.entries(), 5, { replayOf: (seq) => marks.get(seq) });
    const imported = importRecording(text);
    assert.equal(imported.records.find((r) => r.seq === list)!.replayOf, call);
    assert.equal(imported.records.find((r) => r.seq === call)!.replayOf, undefined);
    const rows = buildRows(imported.records, factsOf, (seq) => imported.records.find((r) => r.seq === seq)?.replayOf);
    assert.deepEqual(
      rows,
      buildRows(log.entries(), factsOf, (seq) => marks.get(seq)),
      'the same rows, ↻ mark included',
    );
    assert.equal(rows.find((r) => r.seq === list)!.replayOf, call);
    assert.equal(importRecording(text.replace(`"replayOf":${call}`, '"replayOf":"x"')).records.length, 2, 'a malformed mark skips the line');
  });
});
