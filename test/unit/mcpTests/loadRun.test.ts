/**
 * Load mode's pure part: percentiles, the concurrency and rate limits, and the per-step table.
 * The target is an in-memory TestTarget (the runner's own boundary) and the clock is virtual, so
 * nothing here races the machine's clock; the command-line test runs it against a real server.
 */
import * as assert from 'node:assert/strict';
import { formatLoad, percentile, runLoad } from '../../../src/mcpTests/common/loadRun';
import { SnapshotFile } from '../../../src/mcpTests/common/snapshots';
import type { TestTarget } from '../../../src/mcpTests/common/testRunner';
import type { TestFile } from '../../../src/mcpTests/common/testFormat';

const file: TestFile = {
  server: 'x',
  tests: [
    { name: 'add', steps: [{ callTool: { name: 'add', arguments: { a: 1 } }, expect: { match: { structuredContent: { sum: 1 } } } }, { list: 'tools' }] },
    { name: 'broken', steps: [{ callTool: { name: 'broken' } }] },
  ],
} as TestFile;

/** A virtual clock: `sleep` moves it, requests take `costMs` of it each. */
function world(costMs = 10) {
  let t = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const starts: number[] = [];
  const tick = async () => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await Promise.resolve();
    t += costMs;
    inFlight--;
  };
  const target: TestTarget = {
    async callTool(name) {
      starts.push(t);
      await tick();
      if (name === 'broken') throw new Error('Method failed');
      return { content: [], structuredContent: { sum: 1 } };
    },
    readResource: async () => ({}),
    getPrompt: async () => ({}),
    async list() {
      await tick();
      return [];
    },
  };
  return {
    target,
    now: () => t,
    sleep: async (ms: number) => void (t += ms),
    maxInFlight: () => maxInFlight,
    starts,
  };
}

describe('saved MCP tests: load mode', () => {
  it('percentile is nearest-rank: p50 the middle, p99 the maximum below 100 values', () => {
    assert.equal(percentile([5, 1, 3], 50), 3);
    assert.equal(percentile([1, 2, 3, 4], 50), 2);
    assert.equal(
      percentile(
        Array.from({ length: 10 }, (_, i) => i + 1),
        99,
      ),
      10,
    );
    assert.equal(
      percentile(
        Array.from({ length: 200 }, (_, i) => i + 1),
        99,
      ),
      198,
    );
    assert.ok(Number.isNaN(percentile([], 50)));
  });

  it('runs each test K times, at most N at once, and times each step; a failing run is counted with its reason', async () => {
    const w = world();
    const report = await runLoad(
      file,
      { target: w.target, snapshots: new SnapshotFile(undefined), updateSnapshots: false, now: w.now },
      { concurrency: 3, iterations: 5 },
      undefined,
      w.sleep,
    );
    assert.equal(report.runs, 10);
    assert.equal(report.failedRuns, 5);
    assert.deepEqual(report.failures, ['broken: callTool broken failed: Method failed']);
    assert.ok(w.maxInFlight() <= 3 && w.maxInFlight() >= 2, `in flight at most 3 (was ${w.maxInFlight()})`);
    assert.deepEqual(
      report.steps.map((s) => [s.step, s.times.length, s.errors]),
      [
        ['add › 1 callTool add', 5, 0],
        ['broken › 1 callTool broken', 5, 5],
        ['add › 2 list tools', 5, 0],
      ],
    );
    const text = formatLoad('a.mcptest.json', report);
    assert.match(text, /^Load: a\.mcptest\.json: 10 runs, concurrency 3, \d+\.\d s; 5 failed\n/);
    assert.match(text, /\n {2}add › 1 callTool add +5 +0 +\d+(\.\d)? ms +\d+(\.\d)? ms +\d+(\.\d)? ms\n/);
    assert.match(text, /\n {2}✗ broken: callTool broken failed: Method failed\n$/);
  });

  it('--rate spaces the starts of runs: the n-th starts no earlier than n / R seconds in', async () => {
    const w = world(1);
    const only = (name: string) => name === 'add';
    const report = await runLoad(
      file,
      { target: w.target, snapshots: new SnapshotFile(undefined), updateSnapshots: false, now: w.now },
      { concurrency: 4, rate: 10, iterations: 6 },
      only,
      w.sleep,
    );
    assert.equal(report.runs, 6);
    assert.equal(report.failedRuns, 0);
    w.starts.forEach((at, n) => assert.ok(at >= n * 100, `run ${n} started at ${at} ms, before ${n * 100} ms`));
    assert.ok(report.durationMs >= 500);
  });
});
