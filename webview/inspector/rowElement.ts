// One drawn row of the Inspector's exchange list (rowsView.ts): a treeitem element and its cells,
// made once and filled with whichever row it shows. The list keeps the elements of rows that
// scroll out of sight and fills them with the rows that scroll in (issue 29: a scrollbar jump of a
// 100,000-row recording changes ~50 rows' text instead of building ~50 subtrees). Cells a row may
// lack (the twisty, the badges, the summary, the round and status lines) are made the first time a
// row needs them and taken out of the page while the shown row has none, so what is in the page,
// and what assistive tech reads, is what a row made anew would have. Every string from the host is
// server text: set as text only.
import * as l10n from '@vscode/l10n';
import { formatClock, groupSummary, isErrorStatus, type InspectorRow, type RowStatus } from '../../src/inspector/common/inspectorRows';
import { h } from './dom';
import { formatBytes } from '../../src/shared/common/durations';

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

/** A drawn row element: the row it shows, its cells, and the `top` and `height` its style says. */
export type RowElement = HTMLDivElement & { row?: InspectorRow; cells: Cells; top?: number; height?: number };
interface Cells {
  /** The grid of the cells (the row's hover, selection and focus outline are drawn on it). */
  line: HTMLElement;
  time: Text;
  status: HTMLElement;
  server: HTMLElement;
  method: HTMLElement;
  methodText: Text;
  twisty?: HTMLElement;
  replay?: HTMLElement;
  name: HTMLElement;
  nameText: Text;
  schema?: HTMLElement;
  summary?: HTMLElement;
  latency: Text;
  size: Text;
  round?: HTMLElement;
  statusLine?: HTMLElement;
}

/** What a row's clicks do (the row's seq is the one it shows at the time). */
export interface RowActions {
  select(seq: number): void;
  toggle(seq: number): void;
}

/** Sets an attribute unless it already has that value (a row filled again keeps most of its own); undefined removes it. */
export function attr(element: Element, name: string, value: string | undefined): void {
  if (value === undefined) element.removeAttribute(name);
  else if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}
function text(node: Text, value: string): void {
  if (node.data !== value) node.data = value;
}
/** Puts `child` into `parent` before `before` (null: at the end) when `wanted`, takes it out otherwise. */
function putChild(parent: Element, child: Element | undefined, wanted: boolean, before: Node | null): void {
  if (!child) return;
  if (!wanted) child.remove();
  else if (child.parentNode !== parent || child.nextSibling !== before) parent.insertBefore(child, before);
}
/** The text node of a span made with one (h('span', {}, '')). */
const textOf = (element: HTMLElement): Text => element.firstChild as Text;

/** A row element with its cells, to be filled (`fillRowElement`): one click listener, for whichever row it shows. */
export function newRowElement(actions: RowActions): RowElement {
  const cells: Cells = {
    line: h('div', { class: 'line' }),
    time: document.createTextNode(''),
    status: h('span', {}, ''),
    server: h('span', { class: 'server' }, ''),
    method: h('span', { class: 'method' }),
    methodText: document.createTextNode(''),
    name: h('span', { class: 'name' }),
    nameText: document.createTextNode(''),
    latency: document.createTextNode(''),
    size: document.createTextNode(''),
  };
  cells.method.append(cells.methodText);
  cells.name.append(cells.nameText);
  cells.line.append(
    h('span', { class: 'time' }, cells.time),
    cells.status,
    cells.server,
    cells.method,
    cells.name,
    h('span', { class: 'latency' }, cells.latency),
    h('span', { class: 'size' }, cells.size),
  );
  const item = h('div', { class: 'row', role: 'treeitem' }, cells.line) as RowElement;
  item.cells = cells;
  item.addEventListener('click', (event) => {
    event.stopPropagation();
    if (item.row) actions.select(item.row.seq);
  });
  return item;
}

/** Shows `row` (at depth `level`) in `item`: its attributes and its cells. */
export function fillRowElement(
  item: RowElement,
  row: InspectorRow,
  level: number,
  selected: boolean,
  collapsed: ReadonlySet<number>,
  actions: RowActions,
): void {
  const { cells } = item;
  item.row = row;
  const summary = row.children.length ? groupSummary(row.children) : undefined;
  const label = `${row.method}${row.name ? ` ${row.name}` : ''}, ${row.serverLabel}, ${STATUS_LABEL[row.status]}${row.latencyMs !== undefined ? `, ${formatLatency(row.latencyMs)}` : ''}${row.replayOf !== undefined ? `, ${l10n.t('replay')}` : ''}${row.outputIssue !== undefined ? `, ${l10n.t('breaks its outputSchema')}` : ''}${row.note ? `, ${row.note}` : ''}`;
  attr(item, 'data-seq', String(row.seq));
  // What the list's aria-owns names when the page is not in screen order (rowsView.ts putInOrder).
  attr(item, 'id', `row-${row.seq}`);
  attr(item, 'aria-level', String(level));
  attr(item, 'aria-label', label);
  // What is nested is read after the label: the label stays what the exchange is, while notifications still arrive.
  attr(item, 'aria-description', summary);
  attr(item, 'aria-expanded', row.children.length ? String(!collapsed.has(row.seq)) : undefined);
  attr(item, 'aria-selected', String(selected));
  attr(item, 'data-status', row.status);
  // VS Code's webview/context menu: a client tools/call row offers Save as Test (package.json); every row sets it, so a child never inherits its parent's.
  const section = row.method === 'tools/call' && row.kind === 'request' && row.direction === 'send' ? 'toolCall' : 'row';
  attr(item, 'data-vscode-context', JSON.stringify({ webviewSection: section, seq: row.seq }));
  item.tabIndex = selected ? 0 : -1;
  attr(item, 'data-replay-of', row.replayOf !== undefined ? String(row.replayOf) : undefined);
  const indent = `${(level - 1) * 16 + 4}px`;
  if (cells.line.style.paddingLeft !== indent) cells.line.style.paddingLeft = indent;
  text(cells.time, formatClock(row.startedAt));
  attr(cells.status, 'class', `status ${isErrorStatus(row.status) ? 'error' : row.status}`);
  attr(cells.status, 'title', row.statusText ?? STATUS_LABEL[row.status]);
  text(textOf(cells.status), STATUS_ICON[row.status]);
  attr(cells.server, 'title', row.serverLabel);
  text(textOf(cells.server), row.serverLabel);
  // The method cell: the ▾/▸ of a row with nested rows (a click shows or hides them; Left and Right do too), a replay's badge, the method.
  attr(cells.method, 'title', row.method);
  if (row.children.length) {
    const hidden = collapsed.has(row.seq);
    const twisty = (cells.twisty ??= twistyOf(item, actions));
    attr(twisty, 'title', hidden ? l10n.t('Show the nested exchanges') : l10n.t('Hide the nested exchanges'));
    text(textOf(twisty), hidden ? '▸ ' : '▾ ');
  }
  putChild(cells.method, cells.twisty, row.children.length > 0, cells.method.firstChild === cells.twisty ? cells.twisty.nextSibling : cells.method.firstChild);
  if (row.replayOf !== undefined) cells.replay ??= h('span', { class: 'replay-badge', title: l10n.t('Sent by Replay in the Inspector') }, '↻ ');
  putChild(cells.method, cells.replay, row.replayOf !== undefined, cells.methodText);
  text(cells.methodText, row.direction === 'receive' ? `⇠ ${row.method}` : row.method);
  // The name column: the name, a notification's message, what is nested under a call; cut to fit, whole in the tooltip.
  const nameText = [row.name, row.note].filter(Boolean).join(' ');
  attr(cells.name, 'title', [nameText, summary].filter(Boolean).join(' · '));
  if (row.outputIssue !== undefined) {
    cells.schema ??= h('span', { class: 'schema-badge' }, '⚠ ');
    attr(cells.schema, 'title', l10n.t("structuredContent breaks the tool's outputSchema: {0}", row.outputIssue));
  }
  putChild(cells.name, cells.schema, row.outputIssue !== undefined, cells.nameText);
  text(cells.nameText, nameText);
  if (summary) text(textOf((cells.summary ??= h('span', { class: 'group-summary' }, ''))), nameText ? ` · ${summary}` : summary);
  putChild(cells.name, cells.summary, !!summary, null);
  text(cells.latency, row.kind === 'request' ? (row.latencyMs === undefined ? l10n.t('pending') : formatLatency(row.latencyMs)) : '');
  text(cells.size, formatBytes(row.size));
  // Further lines, spanning the columns: the round, then an error's or a cancellation's text.
  if (row.round !== undefined) text(textOf((cells.round ??= h('span', { class: 'round' }, ''))), l10n.t('round {0}', row.round));
  const statusLine =
    row.statusText && isErrorStatus(row.status)
      ? row.statusText
      : row.status === 'cancelled'
        ? row.statusText
          ? l10n.t('cancelled: {0}', row.statusText)
          : STATUS_LABEL.cancelled
        : undefined;
  if (statusLine !== undefined) {
    cells.statusLine ??= h('span', {}, '');
    attr(cells.statusLine, 'class', `status-text ${row.status === 'cancelled' ? 'cancelled' : 'error'}`);
    text(textOf(cells.statusLine), statusLine);
  }
  putChild(cells.line, cells.statusLine, statusLine !== undefined, null);
  putChild(cells.line, cells.round, row.round !== undefined, cells.statusLine?.parentNode === cells.line ? cells.statusLine : null);
}

function twistyOf(item: RowElement, actions: RowActions): HTMLElement {
  const twisty = h('span', { class: 'twisty', 'aria-hidden': 'true' }, '');
  twisty.addEventListener('click', (event) => {
    event.stopPropagation();
    if (item.row) actions.toggle(item.row.seq);
  });
  return twisty;
}
