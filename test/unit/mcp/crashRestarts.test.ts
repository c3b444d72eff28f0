/** The restart policy of crashed servers, on a fake clock. */
import * as assert from 'node:assert/strict';
import { CrashRestarts, describeDuration } from '../../../src/mcp/crashRestarts';
import { describeLoss } from '../../../src/mcp/connectFailures';

describe('CrashRestarts', () => {
  it('backs off 1 s, 2 s, 4 s, 8 s and gives up at the 5th crash within 3 minutes', () => {
    let now = 0;
    const history = new CrashRestarts({ now: () => now });
    const delays = [1, 2, 3, 4].map(() => {
      const v = history.crashed();
      now += 1000;
      return v.restart ? v.delayMs : -1;
    });
    assert.deepEqual(delays, [1000, 2000, 4000, 8000]);
    assert.deepEqual(history.crashed(), { restart: false, crashes: 5 });
  });

  it('caps the delay at 30 s', () => {
    let now = 0;
    const history = new CrashRestarts({ now: () => now }, { firstDelayMs: 1000, maxDelayMs: 30_000, maxCrashes: 100, windowMs: 180_000 });
    let last = 0;
    for (let i = 0; i < 8; i++) {
      const v = history.crashed();
      if (v.restart) last = v.delayMs;
      now += 10;
    }
    assert.equal(last, 30_000);
  });

  it('forgets crashes older than the window, and everything on reset', () => {
    let now = 0;
    const history = new CrashRestarts({ now: () => now });
    for (let i = 0; i < 4; i++) history.crashed();
    now += 181_000;
    assert.deepEqual(history.crashed(), { restart: true, delayMs: 1000 });
    history.crashed();
    history.reset();
    assert.deepEqual(history.crashed(), { restart: true, delayMs: 1000 });
  });

  it('names durations', () => {
    assert.equal(describeDuration(1000), '1 s');
    assert.equal(describeDuration(180_000), '3 minutes');
  });
});

describe('describeLoss', () => {
  it('names the exit code or signal and the last stderr line', () => {
    assert.equal(
      describeLoss('s', { kind: 'stdio', exit: { code: 3, signal: null }, stderrTail: ['a', 'fault: crashing'] }),
      'Server "s" exited with code 3: fault: crashing.',
    );
    assert.equal(describeLoss('s', { kind: 'stdio', exit: { code: null, signal: 'SIGKILL' }, stderrTail: [] }), 'Server "s" was killed by SIGKILL.');
    assert.equal(describeLoss('s', { kind: 'http', stderrTail: [] }), 'The connection to server "s" was closed.');
  });
});
