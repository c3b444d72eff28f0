// The Inspector's exchange list: the row tree (notifications and later rounds under their
// request) as a virtualized list. The shown rows (filtered) are laid out in screen order with
// their heights (one line, more with a status text or round), and only the ones in sight, and
// OVERSCAN more each way, are in the DOM: a 100,000-row recording scrolls and filters at the cost
// of the few dozen rows on screen, plus one pass over the rows per change. Each drawn row is a
// treeitem with aria-level, aria-setsize and aria-posinset (the WAI-ARIA tree without nested
// groups). A host delta redraws at once while no filter is set, at most once a frame with one (a
// filter's matches depend on children: a request is shown for a matching notification).
// Every string from the host is server text: set with textContent only.
import { planOrder, planWindow, rowFilter, RowLayout, type InspectorRow, type LineHeights, type RowFilter } from '../../src/inspector/common/inspectorRows';
import type { AppliedDelta } from '../../src/inspector/common/rowsDelta';
import { h } from './dom';
import { attr, fillRowElement, newRowElement, type RowElement } from './rowElement';

export const isFiltered = (filter: RowFilter): boolean => !!(filter.serverId || filter.method || filter.errorsOnly || filter.hidePings || filter.text?.trim());

/** Row elements kept out of the page for the next rows to show (a jump draws the rows in sight first, the rest a frame later). */
const POOL_MAX = 120;

/** The most drawn rows a draw moves in the page to keep it in screen order (each is laid out anew); beyond, `aria-owns` gives the order. */
const MAX_MOVES = 8;

/** Rows drawn beyond those in sight, each way: scrolling a little shows rows already laid out. */
const OVERSCAN = 12;

/**
 * Above this many top-level rows, filtering and laying out run in slices of SLICE_MS, a task
 * each, and the list changes once they are done: a keystroke in the filter of a 100,000-row
 * recording never holds the page for longer than a slice. Below it (a live log, 1,000 entries by
 * default) they run at once, as the host's deltas are drawn.
 */
const SLICED_ABOVE = 2_000;
const SLICE_MS = 12;
/** Top-level rows filtered between two looks at the clock (a call of the e2e recording has 4 nested rows: 250 rows). */
const TOP_ROWS_PER_CHECK = 50;

interface RenderJob {
  cancelled: boolean;
  /** The frame that shows the finished layout. */
  swap?: number;
  restart(): void;
}

export class RowsView {
  /**
   * The shown rows in screen order, and the layout the next render builds in (a render is
   * sliced: the list shows the old one meanwhile). The two swap, their storage kept.
   */
  private shown = new RowLayout();
  private spare = new RowLayout();
  /** A sliced render under way (cancelled by the next). */
  private job: RenderJob | undefined;
  /** The row elements in the page (those in sight), by seq. */
  private readonly elements = new Map<number, RowElement>();
  /** Row elements out of the page, to be filled with rows to show. */
  private readonly pool: RowElement[] = [];
  /** Drawn rows to draw anew at the next draw (`redrawRow`). */
  private readonly stale = new Set<number>();
  private frame: number | undefined;
  private scrollFrame: number | undefined;
  /** The next draw is the second frame of a staged one (`draw`'s `split`): the rest of the rows in sight, none around. */
  private stagedRest = false;
  /** The height of a one-line row and of each further line, measured once from a drawn row. */
  private lineHeight: LineHeights | undefined;
  /** A row selected before it was listed (a replay's, whose row comes after the answer): scrolled to once it is. */
  private revealWhenListed: number | undefined;

  constructor(
    readonly list: HTMLElement,
    private readonly scroller: HTMLElement,
    private readonly options: {
      selected(): number | undefined;
      select(seq: number): void;
      rendered(): void;
      /** The rows whose children are hidden. */
      collapsed(): ReadonlySet<number>;
      toggle(seq: number): void;
    },
  ) {
    scroller.addEventListener('scroll', () => {
      this.scrollFrame ??= requestAnimationFrame(() => {
        this.scrollFrame = undefined;
        this.draw();
      });
    });
  }

  /** How many rows are shown (children included), drawn or not. */
  get shownCount(): number {
    return this.shown.count;
  }

  /**
   * Lays out `rows` (filtered) and draws the ones in sight, at once or (many rows) in slices;
   * `options.rendered` is told when the list shows them.
   */
  render(rows: readonly InspectorRow[], filter: RowFilter, payloads?: ReadonlySet<number>): void {
    if (this.frame !== undefined) cancelAnimationFrame(this.frame);
    this.frame = undefined;
    const layout = this.newLayout();
    const keep = rowFilter(filter, payloads);
    /** Filters the top-level rows `from`–`to` in place (no copy of a part of the list) into the layout. */
    const addRows = (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const shown = keep(rows[i]);
        if (shown) layout.addRow(shown);
      }
    };
    if (rows.length <= SLICED_ABOVE) {
      addRows(0, rows.length);
      this.show(layout.finish());
      return;
    }
    // Sliced: every slice is a task of its own, the first too (in the keystroke's task it added
    // a slice to the browser's own work for the key).
    const job: RenderJob = (this.job = { cancelled: false, restart: () => this.render(rows, filter, payloads) });
    let next = 0;
    const slice = () => {
      if (job.cancelled) return;
      const end = performance.now() + SLICE_MS;
      while (next < rows.length && performance.now() < end) {
        const stop = Math.min(rows.length, next + TOP_ROWS_PER_CHECK);
        addRows(next, stop);
        next = stop;
      }
      if (next < rows.length) {
        setTimeout(slice, 0);
        return;
      }
      // The list changes at the start of the next frame, not at the end of this task: changed
      // here, the frame laid out and painted the rows in sight and also ran the draw of the rows
      // around them (`show` asks for it a frame later, which was this same frame), a second
      // style and layout pass in one task of 50–110 ms on 1.139.1 (issue 29). From a frame
      // callback, the rows around come in the frame after.
      job.swap = requestAnimationFrame(() => {
        if (job.cancelled) return;
        this.job = undefined;
        this.show(layout.finish(), true);
      });
    };
    setTimeout(slice, 0);
  }

  /** Whether a sliced render is under way: the list shows the rows as they were filtered before. */
  get rendering(): boolean {
    return this.job !== undefined;
  }

  private line(): LineHeights {
    return this.lineHeight ?? { first: 22, more: 20 };
  }

  /** The spare layout, emptied for a new build (a sliced one under way, which builds in it, is cancelled). */
  private newLayout(): RowLayout {
    if (this.job) {
      this.job.cancelled = true;
      if (this.job.swap !== undefined) cancelAnimationFrame(this.job.swap);
    }
    this.job = undefined;
    return this.spare.reset(this.line(), this.options.collapsed());
  }

  /**
   * Puts a finished layout (the spare) on screen (`split`: the rows in sight in this frame, those
   * around them in the next). Rows already drawn stay when their row is the same object (moved
   * at most): a keystroke in the filter of a big recording then lays out the rows that changed,
   * not every drawn row with all its cells (issue 29).
   */
  private show(layout: RowLayout, split = false): void {
    this.spare = this.shown;
    this.shown = layout;
    this.list.style.height = `${layout.height}px`;
    // A focused row that left the page (scrolled out, or a delta changed it) hands the focus to the selected row's element.
    const focused = this.list.contains(document.activeElement) && document.activeElement !== this.list;
    this.draw(false, split);
    const selected = this.options.selected();
    if (focused && selected !== undefined && !this.list.contains(document.activeElement))
      (this.elements.get(selected) ?? this.list).focus({ preventScroll: true });
    const waiting = this.revealWhenListed;
    if (waiting !== undefined && this.shown.indexOf(waiting) >= 0) {
      this.revealWhenListed = undefined;
      this.select(waiting, false);
    }
    this.options.rendered();
  }

  /**
   * Shows what a delta changed: unfiltered, the list is laid out again and the rows in sight drawn
   * now (changed ones redrawn); filtered, the whole list once in the next frame (`redraw` draws it).
   */
  patch(applied: AppliedDelta, filter: RowFilter, redraw: () => void, rows: readonly InspectorRow[]): void {
    for (const row of [...applied.removed, ...applied.changed]) this.forget(row.seq);
    // A new row's parent may have had no children before (aria-expanded).
    for (const { row, parent } of applied.inserted) {
      this.forget(row.seq);
      if (parent) this.forget(parent.seq);
    }
    if (isFiltered(filter)) {
      this.frame ??= requestAnimationFrame(() => {
        this.frame = undefined;
        redraw();
      });
      return;
    }
    if (rows.length > SLICED_ABOVE) {
      this.render(rows, filter);
      return;
    }
    const layout = this.newLayout();
    layout.add(rows);
    this.show(layout.finish());
  }

  /** Whether the row with `seq` is in the list as filtered (drawn or not). */
  isShown(seq: number): boolean {
    return this.shown.indexOf(seq) >= 0;
  }

  /** Rows in screen order, for the arrow keys. */
  visibleOrder(): number[] {
    const { shown } = this;
    return Array.from({ length: shown.count }, (_, i) => shown.row(i).seq);
  }

  /** A shown row's depth, whether it has children, and its parent's seq (for the Left and Right keys). */
  treeOf(seq: number): { level: number; children: number; parent?: number } | undefined {
    const { shown } = this;
    const index = shown.indexOf(seq);
    if (index < 0) return undefined;
    const level = shown.level(index);
    const row = shown.row(index);
    let parent: number | undefined;
    for (let i = index - 1; level > 1 && i >= 0; i--)
      if (shown.level(i) === level - 1) {
        parent = shown.row(i).seq;
        break;
      }
    return { level, children: row.children.length, ...(parent !== undefined ? { parent } : {}) };
  }

  /** Marks the selected row, scrolled into sight (and focuses it); a row not listed yet is scrolled to once it is. */
  select(seq: number, focus: boolean): void {
    for (const item of this.list.querySelectorAll<HTMLElement>('.row[aria-selected=true]')) {
      item.setAttribute('aria-selected', 'false');
      item.tabIndex = -1;
    }
    this.revealWhenListed = this.shown.indexOf(seq) >= 0 ? undefined : seq;
    this.reveal(seq);
    const item = this.elements.get(seq);
    if (!item) return;
    item.setAttribute('aria-selected', 'true');
    item.tabIndex = 0;
    if (focus) item.focus({ preventScroll: true });
  }

  /** Scrolls the row with `seq` into sight (if shown) and draws it. */
  private reveal(seq: number): void {
    const index = this.shown.indexOf(seq);
    if (index < 0) return;
    const top = this.list.offsetTop + this.shown.top(index);
    const height = this.shown.heightOf(index);
    const view = this.scroller.clientHeight;
    if (top < this.scroller.scrollTop) this.scroller.scrollTop = top;
    else if (top + height > this.scroller.scrollTop + view) this.scroller.scrollTop = top + height - view;
    this.draw();
  }

  /**
   * Fills the row with `seq` again when the list is next drawn (its nested rows were shown or
   * hidden), in its own element: a focused row keeps the focus.
   */
  redrawRow(seq: number): void {
    this.stale.add(seq);
  }

  private forget(seq: number): void {
    this.elements.get(seq)?.remove();
    this.elements.delete(seq);
  }

  /**
   * Draws the rows in sight (and OVERSCAN more each way, unless a jump or `split`: then over the
   * next frames); `all`: every drawn row anew.
   */
  private draw(all = false, split = false): void {
    if (all) {
      for (const element of this.elements.values()) element.remove();
      this.elements.clear();
    }
    const { shown } = this;
    const first = shown.indexAt(this.scroller.scrollTop - this.list.offsetTop);
    const last = shown.indexAt(this.scroller.scrollTop - this.list.offsetTop + Math.max(this.scroller.clientHeight, 400));
    let overscan = OVERSCAN;
    let freshRows = Infinity;
    // A jump (the scrollbar dragged far): the rows in sight in this frame, those around them in the next.
    // A list changed by a sliced render (`split`, a filter typed into a big recording): the top
    // half of the rows in sight in this frame, the rest in the next, those around after. The
    // style, layout and paint of every row in sight at once, all of them other rows, was the
    // page's last task over 50 ms while typing (43–89 ms traced on 1.139.1, issue 29).
    const jump = shown.count > 0 && this.elements.size > 0 && !this.elements.has(shown.row(first).seq) && !this.elements.has(shown.row(last).seq);
    if (shown.count && (split || this.stagedRest || jump)) {
      overscan = 0;
      this.stagedRest = split;
      if (split) freshRows = Math.ceil((last - first + 1) / 2);
      this.scrollFrame ??= requestAnimationFrame(() => {
        this.scrollFrame = undefined;
        this.draw();
      });
    }
    const from = Math.max(0, first - overscan);
    const to = Math.min(shown.count, last + 1 + overscan);
    // The drawn rows still in sight stay (filled again if their row is another object now, or
    // marked stale); the elements of those that left show the new ones, or go to the pool.
    const plan = planWindow(this.elements, shown, from, to, this.stale);
    this.stale.clear();
    const free: RowElement[] = [];
    for (const element of plan.leaving) {
      this.elements.delete(element.row!.seq);
      // The focused element is not given another row (the focus would move to it): it goes, `show` focuses the selected row.
      if (element.contains(document.activeElement)) element.remove();
      else free.push(element);
    }
    for (const i of plan.refill) this.fill(this.elements.get(shown.row(i).seq)!, i);
    // A leaving row's element shows a fresh row where it is in the page. Taken out and put back
    // at the fresh row's place, the browser built its style and boxes anew: with ~30 rows a
    // frame while the wheel scrolled fast, that was most of each frame and the page's long tasks
    // (issue 29). Handed on in page order, a jump's elements are in screen order already.
    if (free.length > 1) {
      const page = this.pagePositions();
      free.sort((a, b) => page.get(a)! - page.get(b)!);
    }
    let reused = 0;
    for (const i of plan.fresh.length > freshRows ? plan.fresh.slice(0, freshRows) : plan.fresh) {
      const element = (reused < free.length ? free[reused++] : this.pool.pop()) ?? newRowElement(this.options);
      this.fill(element, i);
      this.elements.set(shown.row(i).seq, element);
    }
    for (; reused < free.length; reused++) {
      free[reused].remove();
      if (this.pool.length < POOL_MAX) this.pool.push(free[reused]);
    }
    const drawn: RowElement[] = [];
    for (let i = from; i < to; i++) {
      // A row left for the next frame of a staged draw has no element yet.
      const element = this.elements.get(shown.row(i).seq);
      if (!element) continue;
      this.place(element, i);
      drawn.push(element);
    }
    this.putInOrder(drawn);
    if (!this.lineHeight && this.elements.size) this.measure();
  }

  /** Reads the height of one line from a drawn row (the theme's font sets it), and lays out again if it differs. */
  private measure(): void {
    const probe = h('div', { class: 'row' }, h('div', { class: 'line' }, h('span', {}, 'M')));
    probe.style.position = 'absolute';
    probe.style.visibility = 'hidden';
    probe.style.height = 'auto';
    probe.style.contain = 'none';
    this.list.append(probe);
    const first = probe.offsetHeight;
    probe.firstElementChild!.append(h('span', { class: 'status-text' }, 'M'));
    const more = probe.offsetHeight - first;
    probe.remove();
    // Not laid out (a hidden page): the defaults stand until the next draw measures again.
    if (first <= 0) return;
    this.lineHeight = { first, more: more > 0 ? more : first };
    if (first !== 22 || this.lineHeight.more !== 20) {
      // Once per page, on a short list (the first drawn): laid out anew at once, a sliced render under way cancelled and redone.
      const { shown } = this;
      const restart = this.job?.restart;
      const layout = this.newLayout();
      for (let i = 0; i < shown.count; i++) if (shown.level(i) === 1) layout.addRow(shown.row(i));
      layout.finish();
      this.spare = shown;
      this.shown = layout;
      this.list.style.height = `${layout.height}px`;
      this.draw(true);
      restart?.();
    }
  }

  /** Each row element's place in the page (the list's children). */
  private pagePositions(): Map<Element, number> {
    const page = new Map<Element, number>();
    let position = 0;
    for (let child = this.list.firstElementChild; child; child = child.nextElementSibling) page.set(child, position++);
    return page;
  }

  /**
   * Puts the drawn rows in the page in screen order (what a screen reader's cursor walks). A row
   * element not in the page yet (new, or from the pool) goes in at its place for nothing; one
   * already laid out is moved only when at most MAX_MOVES of them do it (a few rows scrolled, a
   * host delta), since a move builds its style and boxes anew. After a fast scroll those are a
   * rotation of up to half the rows: they stay, and `aria-owns` gives assistive tech the order.
   */
  private putInOrder(drawn: readonly RowElement[]): void {
    const page = this.pagePositions();
    const plan = planOrder(
      drawn.map((element) => page.get(element)),
      MAX_MOVES,
    );
    for (const i of plan.put) this.list.insertBefore(drawn[i], drawn[i + 1] ?? null);
    for (const i of plan.append) this.list.append(drawn[i]);
    attr(this.list, 'aria-owns', plan.ordered ? undefined : drawn.map((element) => element.id).join(' '));
  }

  /** Sets a drawn row's place: its offset and height, and its place among its siblings. */
  private place(element: RowElement, index: number): void {
    const { shown } = this;
    const top = shown.top(index);
    const height = shown.heightOf(index);
    if (element.top !== top) element.style.top = `${(element.top = top)}px`;
    if (element.height !== height) element.style.height = `${(element.height = height)}px`;
    attr(element, 'aria-posinset', String(shown.posInSet(index)));
    attr(element, 'aria-setsize', String(shown.setSize(index)));
  }

  private fill(element: RowElement, index: number): void {
    const row = this.shown.row(index);
    fillRowElement(element, row, this.shown.level(index), row.seq === this.options.selected(), this.options.collapsed(), this.options);
  }
}
