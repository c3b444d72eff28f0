import * as assert from 'node:assert/strict';
import { formatDuration, timeOfDay } from '../../../src/shared/common/durations';

describe('formatDuration', () => {
  it('shows durations in the unit people read them in', () => {
    const cases: [number, string][] = [
      [0, '0 ms'],
      [12, '12 ms'],
      [350, '350 ms'],
      [999.4, '999 ms'],
      [1000, '1.0 s'],
      [1234, '1.2 s'],
      [9_949, '9.9 s'],
      [9_950, '10 s'],
      [42_400, '42 s'],
      [59_499, '59 s'],
      [59_500, '1 min'],
      [60_000, '1 min'],
      [125_000, '2 min 5 s'],
      [3_600_000, '1 h'],
      [3_780_000, '1 h 3 min'],
    ];
    for (const [ms, text] of cases) assert.equal(formatDuration(ms), text, String(ms));
    assert.equal(formatDuration(Number.NaN), '–');
  });
});

describe('timeOfDay', () => {
  it('is a 24-hour local clock whatever the locale, with milliseconds on request', () => {
    const afternoon = new Date(2026, 10, 27, 14, 5, 9, 42).getTime();
    assert.equal(timeOfDay(afternoon), '14:05:09');
    assert.equal(timeOfDay(afternoon, true), '14:05:09.042');
    assert.equal(timeOfDay(new Date(2026, 10, 27, 0, 0, 3).getTime()), '00:00:03');
  });
});
