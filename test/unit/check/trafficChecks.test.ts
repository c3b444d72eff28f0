import * as assert from 'node:assert/strict';
import { checkDeprecated, checkLatency, checkResultSizes, checkUndeclaredCapabilities, median } from '../../../src/check/common/trafficChecks';
import { reportMarkdown, runChecks, summaryOf } from '../../../src/check/common/runChecks';
import { Recorder } from './checkInput';

describe('Check Server: recorded traffic', () => {
  it('result size: under the budget passes, over it is a warning on that call', () => {
    const r = new Recorder();
    r.request('tools/call', { name: 'small' }, { content: [{ type: 'text', text: 'x'.repeat(100) }] });
    assert.deepEqual(checkResultSizes(r.input()), []);
    const seq = r.request('tools/call', { name: 'big' }, { content: [{ type: 'text', text: 'x'.repeat(2048) }] });
    const findings = checkResultSizes(r.input({ budgets: { ...r.input().budgets, maxResultBytes: 1024 } }));
    assert.deepEqual(
      findings.map((f) => [f.severity, f.seq]),
      [['warning', seq]],
    );
    assert.match(findings[0].message, /tools\/call "big" answered 2\.\d KB \(budget 1\.0 KB\)/);
  });

  it('latency: fast answers pass; a slow one is a warning with p50 and max', () => {
    const r = new Recorder();
    // The first of each method is a cold start (see the next test): these are timed.
    r.request('tools/call', { name: 'warm-up' }, { content: [] }, 5);
    r.request('tools/list', {}, { tools: [] }, 5);
    r.request('tools/call', { name: 'a' }, { content: [] }, 10);
    r.request('tools/call', { name: 'b' }, { content: [] }, 20);
    r.request('tools/list', {}, { tools: [] }, 30);
    assert.deepEqual(checkLatency(r.input()), []);
    const slow = r.request('tools/call', { name: 'slow' }, { content: [] }, 4000);
    const findings = checkLatency(r.input());
    assert.deepEqual(
      findings.map((f) => [f.subject, f.seq]),
      [['tools/call', slow]],
    );
    assert.equal(findings[0].message, 'tools/call: 1 of 3 answer(s) slower than 3000 ms (p50 20 ms, max 4000 ms, tools/call "slow").');
    assert.equal(median([5, 1, 3, 2]), 2);
  });

  it('latency: a cold start (initialize, server/discover, the first list after either) is not a warning; later lists are', () => {
    const r = new Recorder();
    r.request('initialize', {}, { protocolVersion: '2025-11-25', capabilities: {} }, 1400);
    r.request('tools/list', {}, { tools: [] }, 1200);
    r.request('prompts/list', {}, { prompts: [] }, 1100);
    assert.deepEqual(checkLatency(r.input()), [], 'a just-started server loads its code: not its answer time');
    const slowList = r.request('tools/list', {}, { tools: [] }, 1300);
    assert.deepEqual(
      checkLatency(r.input()).map((f) => [f.subject, f.seq]),
      [['tools/list', slowList]],
    );
    assert.match(checkLatency(r.input())[0].message, /^tools\/list: 1 of 1 answer\(s\) slower than 1000 ms/);
    // A restart (2026-07-28: server/discover opens the connection) is cold again.
    const modern = new Recorder();
    modern.request('server/discover', {}, { supportedVersions: ['2026-07-28'] }, 2000);
    modern.request('tools/list', {}, { tools: [] }, 1500);
    assert.deepEqual(checkLatency(modern.input({ era: 'modern' })), []);
  });

  it('latency: the first call of each method after a start (or in the recording) is a cold start too; the next one is timed', () => {
    const r = new Recorder();
    r.request('initialize', {}, { protocolVersion: '2025-11-25', capabilities: {} }, 20);
    r.request('tools/list', {}, { tools: [] }, 20);
    // A tool's first call loads what it imports (a Python server's first call took 4 s).
    r.request('tools/call', { name: 'search' }, { content: [] }, 4000);
    r.request('resources/read', { uri: 'file:///a' }, { contents: [] }, 1500);
    assert.deepEqual(checkLatency(r.input()), [], 'the first tools/call and resources/read after the start');
    const warm = r.request('tools/call', { name: 'search' }, { content: [] }, 3500);
    assert.deepEqual(
      checkLatency(r.input()).map((f) => [f.subject, f.seq]),
      [['tools/call', warm]],
    );
    assert.match(checkLatency(r.input())[0].message, /^tools\/call: 1 of 1 answer\(s\) slower than 3000 ms/);
    // 2026-07-28 on stdio: the era probe runs on a sibling process, so the recording may start without a server/discover.
    const modern = new Recorder();
    modern.request('tools/list', {}, { tools: [] }, 1800);
    modern.request('tools/call', { name: 'search' }, { content: [] }, 4000);
    assert.deepEqual(checkLatency(modern.input({ era: 'modern' })), []);
  });

  it('runChecks lists one finding once: a structuredContent mismatch recorded at three calls is one error, at the newest call', () => {
    const r = new Recorder();
    const tool = {
      name: 'bad_output',
      description: 'Counts.',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] },
      annotations: { readOnlyHint: true },
    };
    // Check Server calls a read-only tool with an outputSchema at every check: each check records one more call.
    const seqs = [1, 2, 3].map(() => r.request('tools/call', { name: 'bad_output' }, { content: [], structuredContent: { count: 'seven' } }));
    const report = runChecks(r.input({ tools: [tool] }));
    const mismatches = report.findings.filter((f) => f.check === 'structured-content');
    assert.deepEqual(
      mismatches.map((f) => [f.severity, f.seq]),
      [['error', seqs[2]]],
    );
    assert.equal(report.counts.error, 1);
    assert.match(mismatches[0].message, /^Tool "bad_output": `structuredContent` does not match its `outputSchema`: count must be integer\.$/);
  });

  it('capabilities: notifications of declared capabilities pass; undeclared list_changed and logging are errors', () => {
    const r = new Recorder();
    const changed = r.notification('notifications/tools/list_changed');
    const logged = r.notification('notifications/message', { level: 'info', data: 'x' });
    r.notification('notifications/progress', { progressToken: 1, progress: 1 });
    assert.deepEqual(checkUndeclaredCapabilities(r.input({ capabilities: { tools: { listChanged: true }, logging: {} } })), []);
    const findings = checkUndeclaredCapabilities(r.input({ capabilities: { tools: {} } }));
    assert.deepEqual(
      findings.map((f) => [f.subject, f.severity, f.seq]),
      [
        ['notifications/tools/list_changed', 'error', changed],
        ['notifications/message', 'error', logged],
      ],
    );
    assert.match(findings[0].message, /`capabilities\.tools\.listChanged`/);
    assert.equal(findings[0].spec.url, 'https://modelcontextprotocol.io/specification/2025-11-25/server/tools#list-changed-notification');
  });

  it('deprecated: logging and sampling are fine in 2025-11-25, warnings in 2026-07-28; HTTP+SSE always', () => {
    const r = new Recorder();
    r.notification('notifications/message', { level: 'info', data: 'x' });
    const asked = r.serverRequest('sampling/createMessage', { messages: [], maxTokens: 1 });
    assert.deepEqual(checkDeprecated(r.input({ capabilities: { logging: {} } })), []);
    const modern = checkDeprecated(r.input({ protocolVersion: '2026-07-28', era: 'modern', capabilities: { logging: {} } }));
    assert.deepEqual(
      modern.map((f) => [f.subject, f.severity]),
      [
        ['Sampling', 'warning'],
        ['Logging', 'warning'],
      ],
    );
    assert.equal(modern[0].seq, asked);
    assert.equal(modern[0].spec.url, 'https://modelcontextprotocol.io/specification/2026-07-28/deprecated');
    assert.deepEqual(
      checkDeprecated(r.input({ transport: 'sse' })).map((f) => f.subject),
      ['HTTP+SSE'],
    );
  });

  it('deprecated: roots asked through input_required (2026-07-28) are found', () => {
    const r = new Recorder();
    r.request('tools/call', { name: 'where' }, { resultType: 'input_required', inputRequests: { r: { method: 'roots/list', params: {} } } });
    const entries = r.input().messages;
    (entries[0] as { inputRequired?: boolean }).inputRequired = true;
    const findings = checkDeprecated(r.input({ protocolVersion: '2026-07-28', era: 'modern', capabilities: {}, messages: entries }));
    assert.deepEqual(
      findings.map((f) => f.subject),
      ['Roots'],
    );
  });

  it('runChecks sorts by severity and counts; the report escapes server text', () => {
    const r = new Recorder();
    const report = runChecks(
      r.input({
        tools: [
          { name: 'ok_tool', description: 'Fine.', inputSchema: { type: 'object' } },
          { name: '[x](command:evil)', inputSchema: { type: 'object' } },
        ],
      }),
    );
    assert.deepEqual(
      report.findings.map((f) => f.severity),
      ['warning', 'warning'],
    );
    assert.equal(summaryOf(report.counts), '0 errors, 2 warnings, 0 info');
    const md = reportMarkdown('srv', r.input(), report, new Date(0));
    assert.ok(!md.includes('[x](command:evil)'));
    assert.match(md, /\\\[x\\\]\(command:evil\)/);
    assert.match(md, /- \*\*Warning:\*\* The tool name "\\\[x\\\]\(command:evil\)" has characters/);
    const ticks = reportMarkdown('srv', r.input(), runChecks(r.input({ tools: [{ name: 'a', description: 'A.', inputSchema: null }] })), new Date(0));
    assert.match(ticks, /`inputSchema` must be a JSON Schema object/);
    assert.equal(summaryOf(runChecks(r.input()).counts), 'no findings');
  });
});
