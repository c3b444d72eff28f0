/**
 * The pure runner on the real fixture servers of both eras: the examples pass, and wrong
 * expectations fail with the JSON path where expected and actual part. Latency budgets are
 * checked with an injected clock, never the machine's (it is shared and loaded).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { failureLines } from '../../../src/mcpTests/common/reporters';
import { exampleFiles, FIXTURES, runFile } from './helpers';
import { startHttpFixture } from '../../fixtures/servers/httpServer';
import { startModernHttpFixture } from '../../fixtures/servers/modernHttpServer';

describe('saved MCP tests: the runner', function () {
  this.timeout(60000);

  for (const file of exampleFiles()) {
    it(`passes every test of examples/mcp-tests/${path.basename(file)}`, async () => {
      const { result, problems, snapshotText } = await runFile(file);
      assert.deepEqual(problems, []);
      assert.equal(result.error, undefined);
      assert.ok(result.tests.length >= 4);
      assert.deepEqual(
        result.tests.filter((t) => t.status !== 'passed').map((t) => [t.name, t.failures.flatMap(failureLines)]),
        [],
      );
      assert.equal(snapshotText, undefined, 'a run without --update-snapshots writes nothing');
      // Each era has its example: the file's name says which protocol it must have spoken.
      assert.match(result.server ?? '', path.basename(file).includes('2026') ? /, protocol 2026-07-28$/ : /, protocol 2025-11-25$/);
    });
  }

  for (const [era, start, protocol] of [
    ['2025-11-25', () => startHttpFixture(), '2025-11-25'],
    ['2026-07-28', () => startModernHttpFixture(), '2026-07-28'],
  ] as const) {
    it(`runs an inline {url} server over Streamable HTTP (${era}), snapshots included`, async () => {
      const fixture = await start();
      try {
        const text = JSON.stringify({
          server: { url: fixture.url },
          tests: [
            {
              name: 'echo',
              steps: [{ callTool: { name: 'echo', arguments: { text: 'over http' } }, expect: { match: { content: [{ type: 'text' }] }, snapshot: true } }],
            },
            { name: 'surface', capabilitySnapshot: { lists: ['tools'] } },
          ],
        });
        const file = path.join(FIXTURES, 'http.mcptest.json');
        const first = await runFile(file, { text, snapshotText: undefined, updateSnapshots: true });
        assert.deepEqual(
          first.result.tests.map((t) => t.status),
          ['passed', 'passed'],
          JSON.stringify(first.result),
        );
        assert.match(first.result.server ?? '', new RegExp(`protocol ${protocol}$`));
        const again = await runFile(file, { text, snapshotText: first.snapshotText });
        assert.deepEqual(
          again.result.tests.map((t) => [t.name, t.status, t.notes]),
          [
            ['echo', 'passed', []],
            ['surface', 'passed', []],
          ],
        );
      } finally {
        await fixture.close();
      }
    });
  }

  it('fails wrong expectations, each naming the JSON path that differs', async () => {
    const { result } = await runFile(path.join(FIXTURES, 'wrong.mcptest.json'));
    const byName = Object.fromEntries(result.tests.map((t) => [t.name, t]));
    assert.ok(
      result.tests.every((t) => t.status === 'failed'),
      JSON.stringify(result.tests.map((t) => [t.name, t.status])),
    );
    const paths = (name: string) => byName[name].failures.flatMap((f) => (f.differences ?? []).map((d) => d.path));
    assert.deepEqual(paths('a wrong sum'), ['$.structuredContent.sum']);
    assert.deepEqual(byName['a wrong sum'].failures[0].differences?.[0], { path: '$.structuredContent.sum', message: 'differs', expected: 6, actual: 5 });
    assert.deepEqual(paths('a changed echo'), ['$.content[0].text']);
    assert.deepEqual(paths('a wrong structured schema'), ['$.structuredContent.sum']);
    assert.match(byName['an unexpected tool error'].failures[0].message, /callTool fail returned an error: fixture failure/);
    const breaking = byName['a breaking change'].failures[0];
    assert.match(breaking.message, /^2 breaking and 0 compatible changes/);
    assert.deepEqual(
      breaking.differences?.map((d) => `${d.path} ${d.message}`),
      ['$.tools.add.inputSchema.properties.b breaking: "b" is required now', '$.tools.retired breaking: tool "retired" was removed'],
    );
  });

  it('passes a capability snapshot with only compatible changes, and says what changed', async () => {
    const { result } = await runFile(path.join(FIXTURES, 'compatible.mcptest.json'));
    assert.equal(result.tests[0].status, 'passed');
    assert.match(
      result.tests[0].notes[0],
      /^2 compatible changes: tools\.echo\.description: the description changed; tools\.logLevel: tool "logLevel" was added/,
    );
  });

  it('leaves the paths of snapshot.ignore out: a call counter in _meta differs when a test runs alone', async () => {
    const file = exampleFiles().find((f) => f.endsWith('fixture-2025.mcptest.json'))!;
    const alone = (name: string) => name.startsWith('add twice');
    // Alone, the server counts these calls from 1, not from 2 as in the run that stored the snapshot.
    const kept = await runFile(file, { only: alone });
    assert.deepEqual(
      kept.result.tests.map((t) => [t.name, t.status]),
      [['add twice, snapshot without the call counter', 'passed']],
    );
    const text = fs.readFileSync(file, 'utf8').replace(/"snapshot": \{ "ignore": \["\$\._meta"\] \}/g, '"snapshot": true');
    const unkept = await runFile(file, { only: alone, text });
    assert.deepEqual(
      unkept.result.tests[0].failures[0].differences?.map((d) => d.path),
      ['$._meta'],
    );
  });

  it('holds a step to its latency budget by the clock it is given', async () => {
    // Every reading of this clock is 1 s later: a step takes 1 s whatever the machine does.
    let t = 0;
    const clock = () => (t += 1000);
    const text = (maxMs: number) =>
      JSON.stringify({
        server: { command: 'node', args: ['../../../out/test/fixtures/servers/stdioServer.js'] },
        tests: [{ name: 'budget', steps: [{ callTool: { name: 'echo', arguments: { text: 'x' } }, expect: { maxMs } }] }],
      });
    const file = path.join(FIXTURES, 'budget.mcptest.json');
    const over = await runFile(file, { text: text(500), now: clock });
    assert.deepEqual(
      over.result.tests[0].failures.map((f) => f.message),
      ['callTool echo took 1000 ms, over its budget of 500 ms'],
    );
    const within = await runFile(file, { text: text(1500), now: clock });
    assert.equal(within.result.tests[0].status, 'passed');
  });

  it('writes missing and changed snapshots only when asked, and drops the ones no test uses', async () => {
    const file = path.join(FIXTURES, 'wrong.mcptest.json');
    const { result, snapshotText } = await runFile(file, { updateSnapshots: true });
    // The snapshot and capability tests pass by being written; the others still fail.
    assert.deepEqual(
      result.tests.map((t) => t.status),
      ['failed', 'passed', 'failed', 'failed', 'passed'],
    );
    const written = JSON.parse(snapshotText ?? '{}') as { snapshots: Record<string, unknown> };
    assert.deepEqual(Object.keys(written.snapshots), ['a breaking change › capabilities', 'a changed echo › step 1']);
    assert.deepEqual(written.snapshots['a changed echo › step 1'], JSON.parse(JSON.stringify(written.snapshots['a changed echo › step 1'])));
    assert.match(JSON.stringify(written.snapshots['a changed echo › step 1']), /echo: now/);
    // Nothing was written to disk by the runner itself.
    assert.match(fs.readFileSync(path.join(FIXTURES, '__snapshots__', 'wrong.mcptest.json.snap.json'), 'utf8'), /echo: then/);
  });

  it('says why a server did not start, and a name the project does not configure', async () => {
    const file = path.join(FIXTURES, 'missing.mcptest.json');
    const missing = await runFile(file, { text: JSON.stringify({ server: 'nothere', tests: [{ name: 'x', steps: [{ list: 'tools' }] }] }) });
    assert.match(missing.result.error ?? '', /^No server "nothere" is configured/);
    const dead = await runFile(file, {
      text: JSON.stringify({
        server: { command: 'node', args: ['-e', 'process.exit(3)'] },
        startTimeoutMs: 20000,
        tests: [{ name: 'x', steps: [{ list: 'tools' }] }],
      }),
    });
    assert.match(dead.result.error ?? '', /^The server "node" did not start: /);
  });
});
