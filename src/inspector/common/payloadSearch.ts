/**
 * The Inspector's search in the exchanges' messages: the page filters by what its rows hold
 * (server, method, name, message), but only the host has the params and results, so the page
 * sends its filter text and the host answers with the exchanges whose redacted messages hold
 * every word. A 100,000-record recording is searched in slices of SLICE_MS, a task each, as the
 * page filters (rowsView.ts): a keystroke never holds the extension host for longer than a slice,
 * and the next keystroke's search cancels this one. Each record's text is read (parsed and
 * redacted by the log's getters) and lower-cased once, then kept while its response stays as it
 * was: typing more words costs a lookup per record. The answer leaves out the exchanges whose
 * rows hold the words themselves (`rows.holdsWords`): the page shows them anyway.
 */
import { filterWords, type InspectorRecord } from './inspectorRows';

const SLICE_MS = 12;

/** What a record's text was read from: a response that arrived since makes it stale. */
const stateOf = (record: InspectorRecord) => `${record.status.kind}:${record.responseSize ?? -1}`;

export class PayloadSearch {
  private readonly hays = new WeakMap<InspectorRecord, { state: string; hay: string }>();
  private job: { cancelled: boolean } | undefined;

  /**
   * `rows.holdsWords(seq, words)`: whether the exchange's row holds every word in its own fields. Those
   * exchanges are left out of the answer (the page finds them by their text) and their messages
   * are not read: for a short word most of a 100,000-record recording, whose seqs were posted
   * through the workbench to the page, which made a set of them and laid the list out again
   * for nothing (issue 29).
   */
  constructor(
    private readonly records: () => readonly InspectorRecord[],
    private readonly rows: { holdsWords(seq: number, words: readonly string[]): boolean } = { holdsWords: () => false },
    private readonly later: (next: () => void) => void = (next) => setTimeout(next, 0),
  ) {}

  /**
   * Searches every record for every word of `text`; `done` gets the seqs that match and whose
   * rows do not hold every word themselves, unless a newer search started first.
   */
  run(text: string, done: (seqs: number[]) => void): void {
    this.cancel();
    const words = filterWords(text);
    if (!words.length) {
      done([]);
      return;
    }
    const job = (this.job = { cancelled: false });
    const records = this.records();
    const seqs: number[] = [];
    let next = 0;
    const slice = () => {
      if (job.cancelled) return;
      const end = performance.now() + SLICE_MS;
      while (next < records.length && performance.now() < end) {
        const record = records[next++];
        if (this.rows.holdsWords(record.seq, words)) continue;
        const hay = this.hayOf(record);
        if (words.every((w) => hay.includes(w))) seqs.push(record.seq);
      }
      if (next < records.length) {
        this.later(slice);
        return;
      }
      this.job = undefined;
      done(seqs);
    };
    slice();
  }

  cancel(): void {
    if (this.job) this.job.cancelled = true;
    this.job = undefined;
  }

  private hayOf(record: InspectorRecord): string {
    const state = stateOf(record);
    const cached = this.hays.get(record);
    if (cached?.state === state) return cached.hay;
    const status = record.status.kind === 'error' ? record.status.message : record.status.kind === 'cancelled' ? (record.status.reason ?? '') : '';
    const hay = `${record.serverLabel} ${record.method} ${json(record.request)} ${json(record.response)} ${status}`.toLowerCase();
    this.hays.set(record, { state, hay });
    return hay;
  }
}

const json = (value: unknown): string => (value === undefined ? '' : (JSON.stringify(value) ?? ''));
