// The page's layout of the shown rows (issue 29: a 100,000-message recording filters without a
// frame over 50 ms): built a slice of top-level rows at a time, kept in typed arrays reused from
// one build to the next, and the text filter that feeds it, which keeps nothing per row.
import * as assert from 'node:assert/strict';
import {
  filterRows,
  payloadsShowMore,
  planWindow,
  rowFilter,
  rowHasWords,
  planOrder,
  RowLayout,
  rowsToMove,
  type InspectorRecord,
  type InspectorRow,
} from '../../../src/inspector/common/inspectorRows';
import { PayloadSearch } from '../../../src/inspector/common/payloadSearch';

let nextSeq = 1;
function row(fields: Partial<InspectorRow> = {}, children: InspectorRow[] = []): InspectorRow {
  return {
    seq: nextSeq++,
    serverId: 'a',
    serverLabel: 'Server A',
    method: 'tools/call',
    kind: 'request',
    direction: 'send',
    startedAt: 0,
    size: 10,
    status: 'result',
    children,
    ...fields,
  };
}

const LINE = { first: 22, more: 20 };
const dump = (layout: RowLayout) =>
  Array.from({ length: layout.count }, (_, i) => [
    layout.row(i).seq,
    layout.level(i),
    layout.posInSet(i),
    layout.setSize(i),
    layout.top(i),
    layout.heightOf(i),
  ]);

describe('Inspector rows, the layout of the shown rows', () => {
  it('lays out top-level rows added in slices, with their children, as one list', () => {
    const failed = row({ status: 'toolError', statusText: 'boom' });
    const call = row({}, [row({ kind: 'notification', method: 'notifications/message' }), row({ round: 2 })]);
    const hidden = row({}, [row({ kind: 'notification', method: 'notifications/progress' })]);
    const layout = new RowLayout().reset(LINE, new Set([hidden.seq]));
    layout.add([failed, call]);
    layout.add([hidden]);
    layout.finish();
    assert.deepEqual(dump(layout), [
      // seq, level, posinset, setsize (the top level's known once every slice is in), top, height
      [failed.seq, 1, 1, 3, 0, 42],
      [call.seq, 1, 2, 3, 42, 22],
      [call.children[0].seq, 2, 1, 2, 64, 22],
      [call.children[1].seq, 2, 2, 2, 86, 42],
      [hidden.seq, 1, 3, 3, 128, 22],
    ]);
    assert.equal(layout.height, 150);
    assert.equal(layout.indexOf(call.children[1].seq), 3);
    assert.equal(layout.indexOf(hidden.children[0].seq), -1, 'a collapsed row hides its children');
    assert.deepEqual([layout.indexAt(0), layout.indexAt(63), layout.indexAt(64), layout.indexAt(10_000)], [0, 1, 2, 4]);
  });

  it('built again in the same storage, a shorter list forgets the longer one', () => {
    const many = Array.from({ length: 3000 }, () => row());
    const layout = new RowLayout().reset(LINE, new Set());
    layout.add(many);
    layout.finish();
    assert.equal(layout.count, 3000);
    assert.equal(layout.indexOf(many[2999].seq), 2999);
    layout.reset(LINE, new Set());
    layout.add(many.slice(0, 2));
    layout.finish();
    assert.equal(layout.count, 2);
    assert.equal(layout.height, 44);
    assert.equal(layout.heightOf(1), 22, 'the last row ends where the list does');
    assert.equal(layout.indexOf(many[2999].seq), -1, 'a row of the longer build is not shown');
    assert.equal(layout.rows[2999], undefined, 'nor kept alive');
    assert.equal(layout.setSize(0), 2);
  });

  it("the text filter finds every word in the row's own fields, each word within one field", () => {
    const echo = row({ name: 'Echo', serverLabel: 'Fixture Stdio' });
    const log = row({ kind: 'notification', method: 'notifications/message', note: 'warning: disk almost full' });
    const failed = row({ name: 'other', status: 'toolError', statusText: 'Quota EXCEEDED' });
    const german = row({ name: 'Größe ÜBER Grenze' });
    const rows = [echo, row({}, [log]), failed, german];
    const names = (text: string) => filterRows(rows, { text }).map((r) => r.name ?? r.note ?? r.children.map((c) => c.note).join());
    assert.deepEqual(names('ECHO stdio'), ['Echo']);
    assert.deepEqual(names('disk FULL'), ['warning: disk almost full']);
    assert.deepEqual(names('quota exceeded'), ['other']);
    assert.deepEqual(names('stdio tools/call'), ['Echo'], 'words of different fields');
    assert.deepEqual(names('stdiotools'), [], 'no word spans two fields');
    assert.deepEqual(names('über GRÖSSE'), [], 'ß is not ss');
    assert.deepEqual(names('über größe'), ['Größe ÜBER Grenze'], 'capitals beyond ASCII');
    // A matching row whose children stay is shown as it is: nothing is copied for it.
    assert.equal(filterRows(rows, { text: 'echo' })[0], echo);
  });

  it('a draw of another window hands the drawn elements on, in order, and fills again in place the rows that changed', () => {
    const rows = Array.from({ length: 100 }, () => row());
    const layout = new RowLayout().reset(LINE, new Set());
    layout.add(rows);
    layout.finish();
    // The elements of rows 0–9, as drawn (page order); row 3's object was replaced since (a delta), row 5 marked stale.
    const drawn = new Map(rows.slice(0, 10).map((r, i) => [r.seq, { row: i === 3 ? { ...r } : r, at: i }]));
    const seqs = (indexes: number[]) => indexes.map((i) => layout.row(i).seq);
    // A scrollbar jump: none of the ten stays, all ten show the new window, page order kept.
    const jump = planWindow(drawn, layout, 50, 60, new Set());
    assert.deepEqual(
      jump.leaving.map((e) => e.at),
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    );
    assert.deepEqual(seqs(jump.fresh), seqs([50, 51, 52, 53, 54, 55, 56, 57, 58, 59]));
    assert.deepEqual(jump.refill, []);
    // Scrolled by four rows: rows 4–9 stay (5 filled again: stale), 0–3 leave for 10–13.
    const scrolled = planWindow(drawn, layout, 4, 14, new Set([rows[5].seq]));
    assert.deepEqual(
      scrolled.leaving.map((e) => e.at),
      [0, 1, 2, 3],
    );
    assert.deepEqual(scrolled.refill, [5]);
    assert.deepEqual(scrolled.fresh, [10, 11, 12, 13]);
    // In place: row 3, another object now, is filled again in its own element.
    assert.deepEqual(planWindow(drawn, layout, 0, 10, new Set()), { leaving: [], refill: [3], fresh: [] });
  });

  it('rowsToMove: the fewest rows to move for the page to be in screen order, and moved as the list moves them, the page is in order', () => {
    assert.deepEqual(rowsToMove([]), []);
    assert.deepEqual(rowsToMove([0, 1, 2, 3]), []);
    // Scrolled down two rows: the two leaving elements (page 0 and 1) show the two rows come in at the bottom.
    assert.deepEqual(rowsToMove([2, 3, 4, 5, 0, 1]), [4, 5]);
    // A row the host added at the top, its element appended to the page.
    assert.deepEqual(rowsToMove([6, 0, 1, 2, 3, 4, 5]), [0]);
    // Scrolled fast: a rotation by half the rows takes half the rows.
    assert.equal(rowsToMove([30, 31, 32, 33, 0, 1, 2, 3]).length, 4);
    // Any order: applied as rowsView.putInOrder applies it (from the last, each before its successor), the page is in order, in n - (longest run) moves.
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 200; round++) {
      const n = 1 + Math.floor(random() * 40);
      const page = Array.from({ length: n }, (_, i) => i);
      for (let i = n - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [page[i], page[j]] = [page[j], page[i]];
      }
      // page[p] = the screen index of the element at page position p; positions[s] = the page position of screen row s.
      const positions = Array.from({ length: n }, (_, s) => page.indexOf(s));
      const moves = rowsToMove(positions);
      let longest = 0;
      const best: number[] = [];
      positions.forEach((p, i) => {
        best[i] = 1 + Math.max(0, ...positions.slice(0, i).map((q, j) => (q < p ? best[j] : 0)));
        longest = Math.max(longest, best[i]);
      });
      assert.equal(moves.length, n - longest, `moves for ${JSON.stringify(positions)}`);
      const list = [...page];
      for (let m = moves.length - 1; m >= 0; m--) {
        const screen = moves[m];
        list.splice(list.indexOf(screen), 1);
        const before = list.indexOf(screen + 1);
        list.splice(before < 0 ? list.length : before, 0, screen);
      }
      assert.deepEqual(
        list,
        [...page].sort((a, b) => a - b),
        `after moving ${JSON.stringify(moves)} of ${JSON.stringify(page)}`,
      );
    }
  });

  it('planOrder: rows not in the page go in at their place for nothing; laid-out rows move only within the budget, else aria-owns', () => {
    // What rowsView.putInOrder does with a plan, on a page of screen indexes (undefined: not in the page yet).
    const apply = (page: number[], plan: ReturnType<typeof planOrder>) => {
      const list = [...page];
      for (const i of plan.put) {
        if (list.includes(i)) list.splice(list.indexOf(i), 1);
        const before = list.indexOf(i + 1);
        list.splice(before < 0 ? list.length : before, 0, i);
      }
      for (const i of plan.append) list.push(i);
      return list;
    };
    // A short live list: 12 rows the host added at the top, not in the page yet, above 20 laid out in order.
    const added = Array.from({ length: 32 }, (_, s) => (s < 12 ? undefined : s - 12));
    const live = planOrder(added, 8);
    assert.equal(live.ordered, true, 'rows not in the page are no moves');
    const page = Array.from({ length: 20 }, (_, p) => p + 12);
    assert.deepEqual(
      apply(page, live),
      Array.from({ length: 32 }, (_, s) => s),
    );
    // A fast scroll: 30 laid-out rows handed on in place, a rotation by 30 of 60.
    const rotated = Array.from({ length: 60 }, (_, s) => (s + 30) % 60);
    const fast = planOrder(rotated, 8);
    assert.deepEqual(fast, { ordered: false, put: [], append: [] });
    // A slow one: 5 rows handed on, and 2 more from the pool.
    const slow = [...Array.from({ length: 53 }, (_, s) => s + 5), 0, 1, 2, 3, 4, undefined, undefined];
    const plan = planOrder(slow, 8);
    assert.equal(plan.ordered, true);
    const before = Array.from({ length: 58 }, (_, p) => slow.indexOf(p));
    assert.deepEqual(
      apply(before, plan),
      Array.from({ length: 60 }, (_, s) => s),
    );
  });

  it('rowFilter, one top-level row at a time into the layout, shows what filterRows does', () => {
    const rows = [
      row({ name: 'alpha' }, [row({ kind: 'notification', method: 'notifications/message', note: 'beta here' })]),
      row({ name: 'gamma' }, [row({ kind: 'notification', method: 'notifications/message', note: 'alpha too' }), row({ round: 2 })]),
      row({ name: 'delta', status: 'toolError', statusText: 'alpha failed' }),
    ];
    for (const filter of [{ text: 'alpha' }, { text: 'beta' }, { errorsOnly: true }, { method: 'notifications/message' }, {}]) {
      const keep = rowFilter(filter);
      const layout = new RowLayout().reset(LINE, new Set());
      for (const r of rows) {
        const shown = keep(r);
        if (shown) layout.addRow(shown);
      }
      const whole = new RowLayout().reset(LINE, new Set());
      whole.add(filterRows(rows, filter));
      assert.deepEqual(dump(layout.finish()), dump(whole.finish()), JSON.stringify(filter));
    }
  });

  it("the host's payload matches lay the list out again only when they show a row the words alone do not", () => {
    const tool42 = row({ name: 'tool42' }, [row({ kind: 'notification', method: 'notifications/message', note: 'line 1' })]);
    const other = row({ name: 'other' });
    const elsewhere = row({ name: 'elsewhere', serverId: 'b' });
    const rows = [tool42, other, elsewhere];
    const find = (seq: number) => [tool42, tool42.children[0], other, elsewhere].find((r) => r.seq === seq);
    const filter = { text: 'TOOL42', serverId: 'a' };
    // Rows that hold the words themselves, a row another field hides, a seq with no row: the list as the words filtered it stands.
    const nothingMore = new Set([tool42.seq, elsewhere.seq, 999]);
    assert.equal(payloadsShowMore(filter, nothingMore, find), false);
    assert.deepEqual(filterRows(rows, filter, nothingMore), filterRows(rows, filter));
    // A row that matches by its payload alone (its params hold the word): shown, so laid out again.
    const more = new Set([tool42.seq, other.seq]);
    assert.equal(payloadsShowMore(filter, more, find), true);
    assert.notDeepEqual(filterRows(rows, filter, more), filterRows(rows, filter));
    assert.equal(payloadsShowMore({ serverId: 'a' }, more, find), false, 'no words, no payload matches');
  });

  it('the payload search leaves out the exchanges whose rows hold the words, without reading their messages', () => {
    let read = 0;
    const record = (seq: number, name: string) =>
      ({
        seq,
        serverId: 'a',
        serverLabel: 'Server A',
        method: 'tools/call',
        kind: 'request',
        direction: 'send',
        startedAt: 0,
        requestSize: 10,
        status: { kind: 'ok' },
        get request() {
          read++;
          return { params: { name } };
        },
      }) as unknown as InspectorRecord;
    const records = [record(1, 'tool42'), record(2, 'tool42'), record(3, 'other')];
    const rows = new Map([
      [1, row({ seq: 1, name: 'tool42' })],
      [2, row({ seq: 2, name: 'renamed' })],
      [3, row({ seq: 3, name: 'other' })],
    ]);
    const search = new PayloadSearch(
      () => records,
      { holdsWords: (seq, words) => rowHasWords(rows.get(seq)!, words) },
      (next) => next(),
    );
    let answer: number[] | undefined;
    search.run('Tool42', (seqs) => (answer = seqs));
    assert.deepEqual(answer, [2], 'row 1 holds the word itself; row 2 only in its params');
    assert.equal(read, 2, "row 1's messages are not read");
  });
});
