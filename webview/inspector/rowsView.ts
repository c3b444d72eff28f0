// The Inspector's exchange list: the row tree (notifications and later rounds under their
// request) as DOM. Drawn whole when every row arrives or a filter changes; patched in place for
// the host's deltas while no filter is set (a flood then costs each new row once, not every row
// per message). With a filter set, a delta redraws the filtered list, at most once a frame: a
// filter's matches depend on children (a request is shown for a matching notification).
// Every string from the host is server text: set with textContent only.
import * as l10n from '@vscode/l10n';
import { filterRows, formatClock, isErrorStatus, type InspectorRow, type RowFilter, type RowStatus } from '../../src/inspector/common/inspectorRows';
import type { AppliedDelta } from '../../src/inspector/common/rowsDelta';
import { h } from './dom';

const STATUS_LABEL: Record<RowStatus, string> = {
  pending: l10n.t('pending'),
  result: l10n.t('result'),
  rpcError: l10n.t('JSON-RPC error'),
  toolError: l10n.t('tool error (isError)'),
  cancelled: l10n.t('cancelled'),
  notification: l10n.t('notification'),
};
const STATUS_ICON: Record<RowStatus, string> = { pending: '…', result: '✓', rpcError: '✕', toolError: '✕', cancelled: '⊘', notification: '•' };

function formatLatency(ms: number | undefined): string {
  if (ms === undefined) return '';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export const isFiltered = (filter: RowFilter): boolean => !!(filter.serverId || filter.method || filter.errorsOnly || filter.text?.trim());

export class RowsView {
  /** The row elements in the page, by seq. */
  private readonly elements = new Map<number, HTMLElement>();
  private frame: number | undefined;

  constructor(
    readonly list: HTMLElement,
    private readonly options: { selected(): number | undefined; select(seq: number): void },
  ) {}

  /** Draws `rows` (filtered) from scratch; returns how many top-level rows are shown. */
  render(rows: readonly InspectorRow[], filter: RowFilter): number {
    if (this.frame !== undefined) cancelAnimationFrame(this.frame);
    this.frame = undefined;
    const shown = filterRows(rows, filter);
    this.elements.clear();
    this.list.textContent = '';
    for (const row of shown) this.list.append(this.element(row, 1));
    return shown.length;
  }

  /**
   * Shows what a delta changed. Unfiltered: removed rows go, new ones go in their place, changed
   * ones are redrawn (their children stay). Filtered: the whole list once in the next frame
   * (`redraw` draws it and says so).
   */
  patch(applied: AppliedDelta, filter: RowFilter, redraw: () => void): void {
    if (isFiltered(filter)) {
      this.frame ??= requestAnimationFrame(() => {
        this.frame = undefined;
        redraw();
      });
      return;
    }
    for (const row of applied.removed) {
      this.elements.get(row.seq)?.remove();
      this.elements.delete(row.seq);
    }
    const built = new Set<number>();
    for (const { row, parent, before } of applied.inserted) {
      // A new request's new children were drawn with it.
      if (built.has(row.seq)) continue;
      const parentElement = parent && this.elements.get(parent.seq);
      if (parent && !parentElement) continue;
      const level = parentElement ? Number(parentElement.getAttribute('aria-level')) + 1 : 1;
      const element = this.element(row, level, built);
      const into = parentElement ? this.group(parentElement) : this.list;
      const anchor = before && this.elements.get(before.seq);
      into.insertBefore(element, anchor && anchor.parentElement === into ? anchor : null);
    }
    for (const row of applied.changed) {
      const element = this.elements.get(row.seq);
      if (element) this.fill(element, row, Number(element.getAttribute('aria-level')));
    }
  }

  /** Rows in screen order, for the arrow keys. */
  visibleOrder(): number[] {
    return [...this.list.querySelectorAll<HTMLElement>('.row')].map((el) => Number(el.dataset.seq));
  }

  /** Marks the selected row (and focuses it). */
  select(seq: number, focus: boolean): void {
    for (const item of this.list.querySelectorAll<HTMLElement>('.row[aria-selected=true]')) {
      item.setAttribute('aria-selected', 'false');
      item.tabIndex = -1;
    }
    const item = this.elements.get(seq);
    if (!item) return;
    item.setAttribute('aria-selected', 'true');
    item.tabIndex = 0;
    if (focus) item.focus({ preventScroll: false });
  }

  private group(item: HTMLElement): HTMLElement {
    const existing = item.querySelector<HTMLElement>(':scope > [role=group]');
    if (existing) return existing;
    item.setAttribute('aria-expanded', 'true');
    const group = h('div', { role: 'group' });
    item.append(group);
    return group;
  }

  private element(row: InspectorRow, level: number, built?: Set<number>): HTMLElement {
    const item = h('div', { class: 'row', role: 'treeitem', 'data-seq': String(row.seq) });
    item.addEventListener('click', (event) => {
      event.stopPropagation();
      this.options.select(row.seq);
    });
    this.fill(item, row, level);
    this.elements.set(row.seq, item);
    built?.add(row.seq);
    if (row.children.length) {
      const group = this.group(item);
      for (const child of row.children) group.append(this.element(child, level + 1, built));
    }
    return item;
  }

  /** Sets a row element's attributes and draws its line (its children's group stays). */
  private fill(item: HTMLElement, row: InspectorRow, level: number): void {
    const selected = row.seq === this.options.selected();
    const label = `${row.method}${row.name ? ` ${row.name}` : ''}, ${row.serverLabel}, ${STATUS_LABEL[row.status]}${row.latencyMs !== undefined ? `, ${formatLatency(row.latencyMs)}` : ''}${row.replayOf !== undefined ? `, ${l10n.t('replay')}` : ''}`;
    item.setAttribute('aria-level', String(level));
    item.setAttribute('aria-label', label);
    item.setAttribute('aria-selected', String(selected));
    item.dataset.status = row.status;
    // VS Code's webview/context menu: a client tools/call row offers Save as Test (package.json); every row sets it, so a child never inherits its parent's.
    item.dataset.vscodeContext = JSON.stringify({
      webviewSection: row.method === 'tools/call' && row.kind === 'request' && row.direction === 'send' ? 'toolCall' : 'row',
      seq: row.seq,
    });
    item.tabIndex = selected ? 0 : -1;
    if (row.replayOf !== undefined) item.dataset.replayOf = String(row.replayOf);
    else delete item.dataset.replayOf;
    const line = h('div', { class: 'line' });
    line.style.paddingLeft = `${(level - 1) * 16 + 4}px`;
    line.append(
      h('span', { class: 'time' }, formatClock(row.startedAt)),
      h(
        'span',
        { class: `status ${isErrorStatus(row.status) ? 'error' : row.status}`, title: row.statusText ?? STATUS_LABEL[row.status] },
        STATUS_ICON[row.status],
      ),
      h('span', { class: 'server' }, row.serverLabel),
      h(
        'span',
        { class: 'method' },
        ...(row.replayOf !== undefined ? [h('span', { class: 'replay-badge', title: l10n.t('Sent by Replay in the Inspector') }, '↻ ')] : []),
        row.direction === 'receive' ? `⇠ ${row.method}` : row.method,
      ),
      h('span', { class: 'name' }, row.name ?? ''),
      h('span', { class: 'latency' }, row.kind === 'request' ? (row.latencyMs === undefined ? l10n.t('pending') : formatLatency(row.latencyMs)) : ''),
      h('span', { class: 'size' }, formatSize(row.size)),
    );
    if (row.round !== undefined) line.append(h('span', { class: 'round' }, l10n.t('round {0}', row.round)));
    if (row.statusText && isErrorStatus(row.status)) line.append(h('span', { class: 'status-text error' }, row.statusText));
    if (row.status === 'cancelled') line.append(h('span', { class: 'status-text cancelled' }, row.statusText ? `cancelled: ${row.statusText}` : 'cancelled'));
    const old = item.querySelector(':scope > .line');
    if (old) old.replaceWith(line);
    else item.prepend(line);
  }
}
