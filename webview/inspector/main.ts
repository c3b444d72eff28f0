// The Inspector webview (an editor tab or the bottom panel's view): two tabs. Exchanges: a
// filter bar, the exchanges as a tree (notifications and later rounds under their request), and
// the selected exchange's request and response side by side as foldable JSON (detail.ts: find,
// replay and the other actions). Console (console.ts): a server's stderr and log messages.
// Every string from the host is server text: it is set with textContent only. What the user set
// or typed is in the saved state: the panel's view is unloaded while hidden.
// Filtering runs here with the same pure code the host's tests cover (inspectorRows.ts); the
// host's deltas are applied to the page's copy of the rows by rowsDelta.ts, drawn by rowsView.ts.
import '../shared/l10nSetup';
import * as l10n from '@vscode/l10n';
import './style.css';
import { filterChoices, formatClock, payloadsShowMore, type InspectorRow, type RowFilter } from '../../src/inspector/common/inspectorRows';
import { RowTree } from '../../src/inspector/common/rowsDelta';
import { parseToWebview, type FromWebview } from '../../src/inspector/common/inspectorProtocol';
import { parseConsoleToWebview, type ConsoleFromWebview } from '../../src/inspector/common/consoleProtocol';
import { ConsoleView, type ConsoleState } from './console';
import { DetailView } from './detail';
import { h } from './dom';
import { RowsView } from './rowsView';
import { Splitter } from './splitter';
import { connectHost } from '../shared/hostChannel';

type Tab = 'exchanges' | 'console';
interface SavedState {
  filter: RowFilter;
  selected?: number;
  tab?: Tab;
  console?: ConsoleState;
  /** Params edited and not sent yet, by exchange (the newest few). */
  drafts?: [number, string][];
  scroll?: number;
  /** Rows whose nested rows are hidden (the newest few). */
  collapsed?: number[];
  /** The list's share of the width beside the detail, in percent. */
  split?: number;
}
const host = connectHost<FromWebview | ConsoleFromWebview, SavedState>();
const post = (message: FromWebview | ConsoleFromWebview) => host.post(message);
const MAX_SAVED_DRAFTS = 20;
const MAX_SAVED_COLLAPSED = 500;

window.addEventListener('error', (event) => post({ type: 'error', message: String(event.error?.stack ?? event.message) }));

const saved = host.savedState();
let filter: RowFilter = saved?.filter ?? {};
let selected: number | undefined = saved?.selected;
let tab: Tab = saved?.tab === 'console' ? 'console' : 'exchanges';
const collapsed = new Set<number>((saved?.collapsed ?? []).filter((seq) => Number.isSafeInteger(seq)));
/** The exchanges whose messages hold the filter's words, as the host answered for `text` (undefined: not asked, or not answered yet). */
let payloads: { text: string; seqs: Set<number> } | undefined;
/** A search the host has not answered yet, and whether the rows changed since it was asked. */
let searching: { text: string; again: boolean } | undefined;
/** The rows as the host sent them (every row, then deltas). */
const tree = new RowTree();
let readOnly = false;
let source: string | undefined;
/** The status and size of the selected row when its detail was asked for: a change asks again (a response arrived). */
let detailKey: string | undefined;

const app = document.getElementById('app')!;
app.textContent = '';
// The shell's polite live region would read out every row and console line as it arrives.
app.removeAttribute('aria-live');
const serverSelect = h('select', { 'aria-label': l10n.t('Server') });
const methodSelect = h('select', { 'aria-label': l10n.t('Method') });
const errorsOnly = h('input', { type: 'checkbox', id: 'errors-only' });
const hidePings = h('input', { type: 'checkbox', id: 'hide-pings' });
const textInput = h('input', {
  type: 'search',
  placeholder: l10n.t('Filter (server, method, name, params, results)'),
  'aria-label': l10n.t('Filter text'),
  title: l10n.t('Words that must all occur in the row or in its request and response'),
});
const exportButton = h('button', { type: 'button', title: l10n.t('Save the recording as JSON Lines (secrets redacted)') }, l10n.t('Export…'));
const harButton = h(
  'button',
  { type: 'button', class: 'export-har', title: l10n.t('Save the HTTP exchanges of HTTP servers as HAR 1.2 (secrets redacted)') },
  l10n.t('Export HAR…'),
);
const importButton = h('button', { type: 'button', title: l10n.t('Open a recording (.jsonl) read-only') }, l10n.t('Import…'));
const sourceLabel = h('span', { class: 'source' });
const toolbar = h(
  'div',
  { class: 'toolbar', role: 'toolbar', 'aria-label': l10n.t('Filters') },
  serverSelect,
  methodSelect,
  h('label', { class: 'check' }, errorsOnly, l10n.t('Errors only')),
  h('label', { class: 'check' }, hidePings, l10n.t('Hide pings')),
  textInput,
  sourceLabel,
  exportButton,
  harButton,
  importButton,
);
const list = h('div', { class: 'rows', role: 'tree', 'aria-label': l10n.t('Exchanges'), tabindex: '0' });
const empty = h('p', { class: 'empty' });
const detailView = new DetailView({
  post,
  drafts: new Map(saved?.drafts ?? []),
  onDraft: () => save(),
  select: (seq) => select(seq, false),
  timeOf: (seq) => {
    const row = tree.find(seq);
    return row && formatClock(row.startedAt);
  },
});
const consoleView = new ConsoleView({ post, save: () => save() }, saved?.console ?? { filter: {} });
const listPane = h('div', { class: 'list-pane' }, list, empty);
const splitter = new Splitter(listPane, saved?.split, () => save());
const tabs = {
  exchanges: h('button', { type: 'button', role: 'tab', id: 'tab-exchanges', 'aria-controls': 'panel-exchanges' }, l10n.t('Exchanges')),
  console: h('button', { type: 'button', role: 'tab', id: 'tab-console', 'aria-controls': 'panel-console' }, l10n.t('Console')),
};
const panels = {
  exchanges: h(
    'div',
    { class: 'tab-panel', role: 'tabpanel', id: 'panel-exchanges', 'aria-labelledby': 'tab-exchanges' },
    toolbar,
    h('div', { class: 'split' }, listPane, splitter.element, detailView.element),
  ),
  console: h('div', { class: 'tab-panel', role: 'tabpanel', id: 'panel-console', 'aria-labelledby': 'tab-console' }, consoleView.element),
};
const tabList = h('div', { class: 'tabs', role: 'tablist', 'aria-label': l10n.t('Inspector') }, tabs.exchanges, tabs.console);
app.append(tabList, panels.exchanges, panels.console);

function showTab(next: Tab, focus = false): void {
  tab = next;
  for (const name of ['exchanges', 'console'] as const) {
    const on = name === next;
    tabs[name].setAttribute('aria-selected', String(on));
    tabs[name].tabIndex = on ? 0 : -1;
    panels[name].hidden = !on;
  }
  if (focus) tabs[next].focus();
  consoleView.setShown(next === 'console' && !readOnly);
  save();
}
tabs.exchanges.addEventListener('click', () => showTab('exchanges'));
tabs.console.addEventListener('click', () => showTab('console'));
// Arrow keys move between tabs (the WAI-ARIA tabs pattern); Tab goes on into the panel.
tabList.addEventListener('keydown', (event) => {
  if (!['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(event.key) || tabs.console.hidden) return;
  event.preventDefault();
  showTab(tab === 'exchanges' ? 'console' : 'exchanges', true);
});
// Saved a moment after scrolling stops, not per scroll event: saving posts the state to VS Code.
let scrollSave: ReturnType<typeof setTimeout> | undefined;
listPane.addEventListener('scroll', () => {
  clearTimeout(scrollSave);
  scrollSave = setTimeout(save, 250);
});

/** The user changed a filter: once the list is drawn, a selected row it hides is let go. */
let filterChanged = false;
const rowsView = new RowsView(list, listPane, {
  selected: () => selected,
  select: (seq) => select(seq),
  rendered: () => rowsRendered(),
  collapsed: () => collapsed,
  toggle: (seq) => toggle(seq),
});

/** The list shows the rows as filtered now. */
function rowsRendered(): void {
  renderEmpty();
  if (filterChanged && !awaitingPayloads()) dropHiddenSelection();
}

/**
 * A filter that hides the selected row (Errors only, a server, a method, words) clears the
 * selection: the detail would otherwise keep showing an exchange the list no longer has.
 */
function dropHiddenSelection(): void {
  filterChanged = false;
  if (selected === undefined || rowsView.isShown(selected)) return;
  selected = undefined;
  detailKey = undefined;
  detailView.show(undefined);
  save();
}

/** Words are filtered but the host has not yet said which payloads hold them: the selected row may still match there. */
function awaitingPayloads(): boolean {
  return Boolean(filter.text?.trim()) && payloads?.text !== filter.text;
}

/** Shows or hides the rows nested under `seq`. */
function toggle(seq: number, expand = collapsed.has(seq)): void {
  if (expand === !collapsed.has(seq)) return;
  if (expand) collapsed.delete(seq);
  else collapsed.add(seq);
  save();
  rowsView.redrawRow(seq);
  drawList();
}

/** The rows as filtered, the host's payload matches with them once it answered for this text. */
function drawList(): void {
  rowsView.render(tree.rows, filter, payloads && payloads.text === (filter.text ?? '') ? payloads.seqs : undefined);
}

const SEARCH_AFTER_MS = 150;
let searchTimer: ReturnType<typeof setTimeout> | undefined;

/** Asks the host which exchanges hold the filter's words in their messages (once at a time; again if the rows changed meanwhile). */
function searchPayloads(): void {
  const text = filter.text?.trim() ? filter.text : '';
  if (!text) {
    // The host stops a search under way (a 100,000-record recording takes a while), and answers nothing that matters.
    if (searching) post({ type: 'search', text: '' });
    payloads = undefined;
    searching = undefined;
    return;
  }
  if (searching?.text === text) {
    searching.again = true;
    return;
  }
  searching = { text, again: false };
  post({ type: 'search', text });
}
const rowKey = (row: InspectorRow | undefined) => (row ? `${row.status}:${row.size}` : '');

const SAVE_TEXT_AFTER_MS = 300;
let textSave: ReturnType<typeof setTimeout> | undefined;
const saveTypedText = () => {
  if (textSave === undefined) return;
  save();
};
textInput.addEventListener('blur', saveTypedText);
window.addEventListener('blur', saveTypedText);
window.addEventListener('pagehide', saveTypedText);
document.addEventListener('visibilitychange', saveTypedText);

function save(): void {
  clearTimeout(textSave);
  textSave = undefined;
  const drafts = [...detailView.drafts].slice(-MAX_SAVED_DRAFTS);
  host.saveState({
    filter,
    selected,
    tab,
    console: consoleView.state,
    ...(drafts.length ? { drafts } : {}),
    scroll: listPane.scrollTop,
    ...(collapsed.size ? { collapsed: [...collapsed].slice(-MAX_SAVED_COLLAPSED) } : {}),
    ...(splitter.percent !== undefined ? { split: splitter.percent } : {}),
  });
}

serverSelect.addEventListener('change', () => {
  filter = { ...filter, serverId: serverSelect.value || undefined };
  filterChanged = true;
  save();
  renderRows();
});
methodSelect.addEventListener('change', () => {
  filter = { ...filter, method: methodSelect.value || undefined };
  filterChanged = true;
  save();
  renderRows();
});
errorsOnly.addEventListener('change', () => {
  filter = { ...filter, errorsOnly: errorsOnly.checked || undefined };
  filterChanged = true;
  save();
  renderRows();
});
hidePings.addEventListener('change', () => {
  filter = { ...filter, hidePings: hidePings.checked || undefined };
  filterChanged = true;
  save();
  renderRows();
});
textInput.addEventListener('input', () => {
  filter = { ...filter, text: textInput.value || undefined };
  filterChanged = true;
  // Saved once typing pauses, not per keystroke (each save posts the whole state through VS Code,
  // which in 1.139.1 runs on the page's own thread), and at once when the page loses the focus or
  // is hidden: what was typed is never lost.
  clearTimeout(textSave);
  textSave = setTimeout(save, SAVE_TEXT_AFTER_MS);
  // The list alone: typing changes neither the dropdowns nor the toolbar. The rows' own text
  // filters now; the payloads' matches are added when the host answers, asked once typing pauses
  // (an answer that shows more rows lays the list out again: a 100,000-row recording in slices).
  clearTimeout(searchTimer);
  if (filter.text?.trim()) searchTimer = setTimeout(searchPayloads, SEARCH_AFTER_MS);
  else searchPayloads();
  drawList();
  renderEmpty();
});
exportButton.addEventListener('click', () => post({ type: 'export', format: 'jsonl' }));
harButton.addEventListener('click', () => post({ type: 'export', format: 'har' }));
importButton.addEventListener('click', () => post({ type: 'import' }));
errorsOnly.checked = !!filter.errorsOnly;
hidePings.checked = !!filter.hidePings;
textInput.value = filter.text ?? '';

function fillSelect(select: HTMLSelectElement, allLabel: string, options: { value: string; label: string }[], value: string | undefined): void {
  select.textContent = '';
  select.append(h('option', { value: '' }, allLabel));
  for (const o of options) select.append(h('option', { value: o.value }, o.label));
  select.value = value && options.some((o) => o.value === value) ? value : '';
}

/** The servers and methods the dropdowns offer, to refill them only when they change. */
let choicesKey = '';

function renderChoices(): void {
  const choices = filterChoices(tree.rows);
  const key = JSON.stringify(choices);
  if (key === choicesKey) return;
  choicesKey = key;
  const { servers, methods } = choices;
  fillSelect(
    serverSelect,
    l10n.t('All servers'),
    servers.map((s) => ({ value: s.id, label: s.label })),
    filter.serverId,
  );
  fillSelect(
    methodSelect,
    l10n.t('All methods'),
    methods.map((m) => ({ value: m, label: m })),
    filter.method,
  );
}

function renderEmpty(): void {
  empty.textContent = !tree.rows.length
    ? readOnly
      ? l10n.t('This recording has no exchanges.')
      : l10n.t('No exchanges yet: start a server or run a tool, and they appear here as they happen.')
    : !rowsView.shownCount
      ? l10n.t('No exchanges match the filters.')
      : '';
}

function renderRows(): void {
  renderChoices();
  sourceLabel.textContent = readOnly && source ? l10n.t('{0} (read-only)', source) : '';
  // A recording has no console: the Console tab is for live servers.
  tabs.console.hidden = readOnly;
  if (readOnly && tab === 'console') showTab('exchanges');
  exportButton.hidden = readOnly;
  harButton.hidden = readOnly;
  drawList();
  renderEmpty();
}

function select(seq: number, focus = true): void {
  selected = seq;
  save();
  rowsView.select(seq, focus);
  post({ type: 'select', seq });
}

list.addEventListener('keydown', (event) => {
  // Left and Right as in a tree: hide or show the nested rows, or go to the parent or the first child.
  if ((event.key === 'ArrowLeft' || event.key === 'ArrowRight') && selected !== undefined) {
    const at = rowsView.treeOf(selected);
    if (!at) return;
    event.preventDefault();
    const open = at.children > 0 && !collapsed.has(selected);
    if (event.key === 'ArrowRight') {
      if (at.children && !open) toggle(selected, true);
      else if (open) {
        const order = rowsView.visibleOrder();
        const child = order[order.indexOf(selected) + 1];
        if (child !== undefined && rowsView.treeOf(child)?.level === at.level + 1) select(child);
      }
    } else if (open) toggle(selected, false);
    else if (at.parent !== undefined) select(at.parent);
    return;
  }
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp' && event.key !== 'Home' && event.key !== 'End') return;
  event.preventDefault();
  const visibleOrder = rowsView.visibleOrder();
  if (!visibleOrder.length) return;
  const at = selected === undefined ? -1 : visibleOrder.indexOf(selected);
  const next =
    event.key === 'Home'
      ? 0
      : event.key === 'End'
        ? visibleOrder.length - 1
        : Math.min(visibleOrder.length - 1, Math.max(0, at + (event.key === 'ArrowDown' ? 1 : -1)));
  select(visibleOrder[next]);
});

let restoredScroll = saved?.scroll;
function receive(data: unknown): void {
  const consoleMessage = parseConsoleToWebview(data);
  if (consoleMessage) {
    consoleView.receive(consoleMessage);
    return;
  }
  const message = parseToWebview(data);
  if (!message) return;
  if (message.type === 'rows' || message.type === 'rowsDelta') {
    if (message.type === 'rows') {
      tree.reset(message.rows);
      readOnly = message.readOnly;
      source = message.source;
      searchPayloads();
      renderRows();
      if (restoredScroll !== undefined) {
        listPane.scrollTop = restoredScroll;
        restoredScroll = undefined;
      }
    } else {
      rowsView.patch(tree.apply(message), filter, renderRows, tree.rows);
      if (filter.text?.trim()) searchPayloads();
      renderChoices();
      renderEmpty();
    }
    if (message.select !== undefined) select(message.select);
    else if (selected !== undefined && (detailView.seq !== selected || rowKey(tree.find(selected)) !== detailKey))
      post({ type: 'select', seq: selected, refresh: true });
    return;
  }
  if (message.type === 'searchMatches') {
    const again = searching?.text === message.text && searching.again;
    if (searching?.text === message.text) searching = undefined;
    if (message.text !== (filter.text ?? '')) return;
    payloads = { text: message.text, seqs: new Set(message.seqs) };
    if (again) searchPayloads();
    // The host leaves out the rows that hold the words themselves: most answers add no row, and
    // the list as the words filtered it stands (laying out 100,000 rows again for nothing was a
    // second render per pause in typing, issue 29). What waited for the answer is done now.
    if (payloadsShowMore(filter, payloads.seqs, (seq) => tree.find(seq))) drawList();
    else if (!rowsView.rendering) rowsRendered();
    renderEmpty();
    return;
  }
  if (message.type === 'actionStatus') {
    detailView.status(message);
    return;
  }
  if (message.seq !== selected) return;
  detailKey = rowKey(tree.find(message.seq));
  detailView.show(message);
}

detailView.show(undefined);
showTab(tab);
// receive checks each message with the parser of its kind (Console or the rest).
host.start({ parse: (raw: unknown) => raw, receive });
