import * as assert from 'node:assert/strict';
import {
  ConsoleLog,
  ConsoleRing,
  consoleLevelOf,
  filterConsole,
  formatConsoleExport,
  MAX_LINE_CHARS,
  type ConsoleLine,
} from '../../../src/inspector/common/consoleLog';
import { ConsoleFeed } from '../../../src/inspector/common/consoleFeed';
import { ALL_SERVERS, parseConsoleFromWebview, parseConsoleToWebview, type ConsoleToWebview } from '../../../src/inspector/common/consoleProtocol';

const line = (seq: number, level: ConsoleLine['level'], text: string): ConsoleLine => ({ seq, at: 1000 + seq, level, text });

describe('Inspector console', () => {
  it('the ring keeps the newest lines within the line cap, oldest first, and counts what it dropped', () => {
    const ring = new ConsoleRing(3, 1000);
    for (let i = 1; i <= 5; i++) ring.push(line(i, 'stderr', `line ${i}`));
    assert.deepEqual(
      ring.lines().map((l) => l.seq),
      [3, 4, 5],
    );
    assert.equal(ring.size, 3);
    assert.equal(ring.dropped, 2);
    assert.deepEqual(
      ring.lines(4).map((l) => l.seq),
      [5],
      'only what came after a seq',
    );
  });

  it('the ring also stays within its character cap (a few huge lines), keeping at least the newest', () => {
    const ring = new ConsoleRing(100, 10);
    ring.push(line(1, 'info', 'aaaa'));
    ring.push(line(2, 'info', 'bbbb'));
    ring.push(line(3, 'info', 'cccc'));
    assert.deepEqual(
      ring.lines().map((l) => l.text),
      ['bbbb', 'cccc'],
    );
    ring.push(line(4, 'info', 'x'.repeat(50)));
    assert.deepEqual(
      ring.lines().map((l) => l.seq),
      [4],
    );
  });

  it('a flood of 100000 lines costs at most the cap', () => {
    const log = new ConsoleLog(5000, 1_000_000);
    for (let i = 0; i < 100_000; i++) log.append('s', 'server', 'stderr', `flood ${i}`);
    const lines = log.lines('s');
    assert.equal(lines.length, 5000);
    assert.equal(lines.at(-1)!.text, 'flood 99999');
    assert.equal(log.dropped('s'), 95_000);
  });

  it('cuts a line longer than the limit and says by how much', () => {
    const log = new ConsoleLog();
    const { text } = log.append('s', 'server', 'info', 'y'.repeat(MAX_LINE_CHARS + 5));
    assert.equal(text, `${'y'.repeat(MAX_LINE_CHARS)}… (5 more characters)`);
  });

  it('levels: MCP levels as sent, an unknown one as info', () => {
    assert.equal(consoleLevelOf('critical'), 'critical');
    assert.equal(consoleLevelOf('verbose'), 'info');
    assert.equal(consoleLevelOf(undefined), 'info');
  });

  it('filters by minimum level, stderr on or off, and words', () => {
    const lines = [
      line(1, 'debug', 'starting up'),
      line(2, 'warning', 'disk almost full'),
      line(3, 'stderr', 'Traceback: disk error'),
      line(4, 'emergency', 'DISK GONE'),
      line(5, 'notice', 'ok'),
    ];
    const seqs = (f: Parameters<typeof filterConsole>[1]) => filterConsole(lines, f).map((l) => l.seq);
    assert.deepEqual(seqs({}), [1, 2, 3, 4, 5]);
    assert.deepEqual(seqs({ minLevel: 'warning' }), [2, 3, 4], 'stderr has no level: shown unless hidden');
    assert.deepEqual(seqs({ minLevel: 'warning', hideStderr: true }), [2, 4]);
    assert.deepEqual(seqs({ text: 'DISK' }), [2, 3, 4]);
    assert.deepEqual(seqs({ text: 'disk error' }), [3], 'every word must occur');
  });

  it('the feed sends nothing until a server is watched, then all its lines, then only new ones (throttled), and stops', async () => {
    const log = new ConsoleLog();
    const sent: ConsoleToWebview[] = [];
    const feed = new ConsoleFeed(
      log,
      (m) => sent.push(m),
      () => [{ id: 'a', label: 'alpha' }],
      10,
    );
    log.append('a', 'alpha', 'stderr', 'one');
    log.append('b', 'beta', 'info', 'other server');
    assert.deepEqual(
      sent.map((m) => m.type),
      ['consoleServers', 'consoleServers'],
      'a new server is announced, no lines yet',
    );
    assert.deepEqual(
      (sent[1] as Extract<ConsoleToWebview, { type: 'consoleServers' }>).servers.map((s) => s.id),
      ['a', 'b'],
    );
    sent.length = 0;
    feed.watch('a');
    assert.deepEqual(sent, [{ type: 'consoleLines', serverId: 'a', reset: true, dropped: 0, lines: log.lines('a') }]);
    log.append('a', 'alpha', 'warning', 'two');
    log.append('a', 'alpha', 'error', 'three');
    log.append('b', 'beta', 'info', 'not watched');
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(sent.length, 2, 'one batch for both new lines');
    assert.deepEqual(
      (sent[1] as Extract<ConsoleToWebview, { type: 'consoleLines' }>).lines.map((l) => l.text),
      ['two', 'three'],
    );
    feed.watch(undefined);
    log.append('a', 'alpha', 'info', 'while hidden');
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(sent.length, 2, 'nothing while no server is watched');
    feed.clear('a');
    assert.equal(log.lines('a').length, 0);
    feed.dispose();
  });

  it("all servers: every server's lines merged in arrival order, each with its server, bounded, fed and cleared as one", async () => {
    const log = new ConsoleLog(3);
    log.append('a', 'alpha', 'stderr', 'a1', 1);
    log.append('b', 'beta', 'info', 'b1', 2);
    log.append('a', 'alpha', 'error', 'a2', 3);
    assert.deepEqual(
      log.allLines().map((l) => [l.server, l.text]),
      [
        ['alpha', 'a1'],
        ['beta', 'b1'],
        ['alpha', 'a2'],
      ],
    );
    log.append('b', 'beta', 'warning', 'b2', 4);
    assert.deepEqual(
      log.allLines().map((l) => l.text),
      ['b1', 'a2', 'b2'],
      'the newest, within the bound',
    );
    assert.equal(log.lines('a')[0].server, undefined, "a single server's lines carry no label");
    const sent: ConsoleToWebview[] = [];
    const feed = new ConsoleFeed(
      log,
      (m) => sent.push(m),
      () => [],
      10,
    );
    feed.watch(ALL_SERVERS);
    const first = sent.at(-1) as Extract<ConsoleToWebview, { type: 'consoleLines' }>;
    assert.equal(first.serverId, ALL_SERVERS);
    assert.equal(first.reset, true);
    log.append('b', 'beta', 'info', 'b3', 5);
    log.append('a', 'alpha', 'info', 'a3', 6);
    await new Promise((r) => setTimeout(r, 30));
    const next = sent.at(-1) as Extract<ConsoleToWebview, { type: 'consoleLines' }>;
    assert.deepEqual(
      next.lines.map((l) => `${l.server}:${l.text}`),
      ['beta:b3', 'alpha:a3'],
      'new lines of any server',
    );
    feed.clear(ALL_SERVERS);
    assert.equal(log.allLines().length, 0);
    feed.dispose();
    assert.equal(
      formatConsoleExport([
        { seq: 1, at: Date.UTC(2026, 10, 24, 1, 2, 3, 4), level: 'error', text: 'boom', server: 'alpha' },
        { seq: 2, at: Date.UTC(2026, 10, 24, 1, 2, 3, 5), level: 'stderr', text: 'plain' },
      ]),
      '2026-11-24T01:02:03.004Z [alpha] error boom\n2026-11-24T01:02:03.005Z stderr plain\n',
    );
  });

  it('protocol: the host checks what the page sends, the page what the host sends', () => {
    assert.deepEqual(parseConsoleFromWebview({ type: 'consoleWatch', serverId: 'a' }), { type: 'consoleWatch', serverId: 'a' });
    assert.deepEqual(parseConsoleFromWebview({ type: 'consoleWatch' }), { type: 'consoleWatch' });
    assert.equal(parseConsoleFromWebview({ type: 'consoleWatch', serverId: 7 }), undefined);
    assert.equal(parseConsoleFromWebview({ type: 'consoleClear' }), undefined);
    assert.deepEqual(parseConsoleFromWebview({ type: 'consoleExport', serverId: ALL_SERVERS }), { type: 'consoleExport', serverId: ALL_SERVERS });
    assert.equal(parseConsoleFromWebview({ type: 'consoleExport' }), undefined);
    assert.equal(
      parseConsoleToWebview({ type: 'consoleLines', serverId: '*', reset: false, lines: [{ seq: 1, at: 1, level: 'info', text: 'x', server: 5 }] }),
      undefined,
    );
    assert.deepEqual(
      (
        parseConsoleToWebview({
          type: 'consoleLines',
          serverId: '*',
          reset: false,
          lines: [{ seq: 1, at: 1, level: 'info', text: 'x', server: 'alpha' }],
        }) as Extract<ConsoleToWebview, { type: 'consoleLines' }>
      ).lines[0].server,
      'alpha',
    );
    assert.equal(
      parseConsoleToWebview({ type: 'consoleLines', serverId: 'a', reset: false, lines: [{ seq: 1, at: 1, level: 'shout', text: 'x' }] }),
      undefined,
    );
    assert.deepEqual(
      parseConsoleToWebview({
        type: 'consoleLines',
        serverId: 'a',
        reset: false,
        dropped: 2,
        lines: [{ seq: 1, at: 1, level: 'stderr', text: '<b>x</b>', extra: 1 }],
      }),
      { type: 'consoleLines', serverId: 'a', reset: false, dropped: 2, lines: [{ seq: 1, at: 1, level: 'stderr', text: '<b>x</b>' }] },
    );
  });
});
