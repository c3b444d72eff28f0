import * as assert from 'node:assert/strict';
import { CompletionDebouncer } from '../../../src/shared/common/completionDebouncer';

// Delay 0: only the order of timers matters here, never how long they take (the machine may be loaded).
describe('CompletionDebouncer', () => {
  it('asks the server only for the last value typed', async () => {
    const asked: string[] = [];
    const debouncer = new CompletionDebouncer(async (value) => {
      asked.push(value);
      return [`${value}1`, `${value}2`];
    }, 0);
    // Superseded before it was sent: never asked, and it resolves undefined (a caller awaiting it is not left hanging).
    const first = debouncer.request('a');
    const second = debouncer.request('ab');
    assert.equal(await first, undefined);
    assert.deepEqual(await second, ['ab1', 'ab2']);
    assert.deepEqual(asked, ['ab']);
    debouncer.dispose();
  });

  it('aborts the request in flight when a newer one starts (which then resolves undefined); a failed request gives no suggestions', async () => {
    const signals: AbortSignal[] = [];
    let release!: () => void;
    const debouncer = new CompletionDebouncer((value, signal) => {
      signals.push(signal);
      if (value === 'slow') return new Promise<string[]>((resolve) => (release = () => resolve(['late'])));
      return Promise.reject(new Error('no completions'));
    }, 0);
    const slow = debouncer.request('slow');
    await new Promise((resolve) => setTimeout(resolve, 0));
    const failing = debouncer.request('x');
    assert.equal(signals[0].aborted, true);
    release();
    assert.equal(await slow, undefined);
    assert.deepEqual(await failing, []);
    debouncer.dispose();
  });

  it('dispose settles a request still waiting for its timer', async () => {
    const debouncer = new CompletionDebouncer(async () => ['never'], 60_000);
    const waiting = debouncer.request('a');
    debouncer.dispose();
    assert.equal(await waiting, undefined);
  });
});
