import * as assert from 'node:assert/strict';
import type { CallToolResult } from '@modelcontextprotocol/client';
import {
  addToHistory,
  deletePreset,
  diffSubject,
  historyEntry,
  historyKey,
  parseHistory,
  parsePresets,
  presetName,
  presetsKey,
  savePreset,
  summarize,
  type HistoryEntry,
} from '../../../src/toolRunner/common/runHistory';
import { resultOutcome } from '../../../src/toolRunner/common/toolCall';
import { historyOutcome } from '../../../src/toolRunner/common/toolCall';
import { secretValues, withoutSecrets } from '../../../src/jsonSchema/common/formValues';
import { buildFormModel } from '../../../src/jsonSchema/common/schemaFields';

const ok = (text: string): CallToolResult => ({ content: [{ type: 'text', text }] });

function entry(id: string, result: CallToolResult = ok(id), time = 1000): HistoryEntry {
  return historyEntry(id, time, { q: id }, resultOutcome(result, undefined, 12), result);
}

describe('runHistory', () => {
  it('keeps the newest runs first, capped per tool', () => {
    const limits = { maxEntries: 3, maxResultBytes: 1024 };
    let history: HistoryEntry[] = [];
    for (const id of ['r1', 'r2', 'r3', 'r4']) history = addToHistory(history, entry(id), limits);
    assert.deepEqual(
      history.map((e) => e.id),
      ['r4', 'r3', 'r2'],
    );
    assert.deepEqual(
      addToHistory(history, entry('r3'), limits).map((e) => e.id),
      ['r3', 'r4', 'r2'],
      'one entry per id',
    );
  });

  it('leaves out a result over the size limit, with a note, but keeps the run', () => {
    const big = ok('x'.repeat(2000));
    const kept = historyEntry('big', 5, { q: 1 }, resultOutcome(big, undefined, 7), big, { maxEntries: 50, maxResultBytes: 1024 });
    assert.equal(kept.result, undefined);
    assert.match(kept.omitted!, /2 KB.*over the 1 KB kept per run/);
    assert.equal(kept.status, 'ok');
    assert.equal(kept.durationMs, 7);
    assert.deepEqual(diffSubject(kept), { omitted: kept.omitted });
    const shown = historyOutcome(kept, undefined);
    assert.ok(shown.kind === 'result' && shown.blocks[0].kind === 'text' && shown.blocks[0].text === kept.omitted);
  });

  it('records how a run ended: tool error, protocol error, failure, cancelled', () => {
    const toolError = historyEntry('a', 1, {}, resultOutcome({ content: [], isError: true }, undefined, 1), { content: [], isError: true });
    assert.equal(toolError.status, 'toolError');
    const protocol = historyEntry('b', 1, {}, { kind: 'protocolError', code: -32602, message: 'Unknown tool', durationMs: 2 }, undefined);
    assert.deepEqual(protocol.error, { code: -32602, message: 'Unknown tool' });
    assert.deepEqual(historyOutcome(protocol, undefined), { kind: 'protocolError', code: -32602, message: 'Unknown tool', durationMs: 2 });
    const failure = historyEntry('c', 1, {}, { kind: 'failure', message: 'Timed out', durationMs: 3 }, undefined);
    assert.deepEqual(diffSubject(failure), { error: { message: 'Timed out' } });
    assert.equal(historyEntry('d', 1, {}, { kind: 'cancelled', durationMs: 4 }, undefined).status, 'cancelled');
    assert.deepEqual(historyOutcome(historyEntry('d', 1, {}, { kind: 'cancelled', durationMs: 4 }, undefined), undefined), {
      kind: 'cancelled',
      durationMs: 4,
    });
  });

  it('summaries for the webview carry no result; the stored list is checked on read', () => {
    const e = entry('r1');
    assert.equal('result' in summarize(e), false);
    assert.deepEqual(parseHistory([e, { id: 3 }, null, 'x']), [e]);
    assert.deepEqual(parseHistory(undefined), []);
    assert.notEqual(historyKey('a/b', 'c'), historyKey('a', 'b/c'));
    assert.notEqual(historyKey('s', 't'), presetsKey('s', 't'));
  });

  it('arguments reach the history without the secret fields (the caller strips them with withoutSecrets)', () => {
    const form = buildFormModel({ type: 'object', properties: { user: { type: 'string' }, token: { type: 'string', format: 'password' } } });
    const stored = withoutSecrets(form.root, { user: 'ada', token: 's3cret' }) as Record<string, unknown>;
    const e = historyEntry('r', 1, stored, { kind: 'cancelled', durationMs: 1 }, undefined);
    assert.deepEqual(e.args, { user: 'ada' });
    assert.equal(JSON.stringify(e).includes('s3cret'), false);
    assert.deepEqual(secretValues(form.root, { user: 'ada', token: 's3cret' }), ['s3cret'], 'what a kept result is redacted with');
    const nested = buildFormModel({
      type: 'object',
      properties: { list: { type: 'array', items: { type: 'object', properties: { key: { type: 'string', writeOnly: true } } } } },
    });
    assert.deepEqual(secretValues(nested.root, { list: [{ key: 'one1' }, { key: 'two2' }] }), ['one1', 'two2']);
  });
});

describe('argument presets', () => {
  it('saves by name: a new name goes last, the same name replaces in place', () => {
    let presets = savePreset([], { name: 'small', args: { n: 1 } });
    presets = savePreset(presets, { name: 'big', args: { n: 100 } });
    presets = savePreset(presets, { name: 'small', args: { n: 2 } });
    assert.deepEqual(presets, [
      { name: 'small', args: { n: 2 } },
      { name: 'big', args: { n: 100 } },
    ]);
    assert.deepEqual(deletePreset(presets, 'small'), [{ name: 'big', args: { n: 100 } }]);
    assert.deepEqual(deletePreset(presets, 'none'), presets);
  });

  it('names are one trimmed line; blank names are refused', () => {
    assert.equal(presetName('  two\nlines  '), 'two lines');
    assert.equal(presetName('   '), undefined);
    assert.equal(presetName('x'.repeat(200))!.length, 80);
  });

  it('drops malformed stored presets', () => {
    assert.deepEqual(parsePresets([{ name: 'a', args: {} }, { name: 'b', args: [] }, { args: {} }, 7]), [{ name: 'a', args: {} }]);
    assert.deepEqual(parsePresets({}), []);
  });
});
