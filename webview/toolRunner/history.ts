// The Run Tool webview's memory of earlier work: the named argument presets (apply, save,
// delete with undo), the history of runs (show one, refill the form from it, tick two to
// compare) and the diff of two runs. Colours come from the theme and every change also says
// what it is in text ("+ added"), so nothing depends on telling red from green.
import type { FromWebview, RunDiff } from '../../src/toolRunner/common/toolRunnerProtocol';
import type { DiffChange } from '../../src/toolRunner/common/jsonDiff';
import type { HistorySummary, RunStatus } from '../../src/toolRunner/common/runHistory';
import { formatDuration } from '../../src/shared/common/durations';
import { button, h } from './dom';
import type { ViewState } from './viewState';

/** What these sections need from the page around them. */
export interface HistoryActions {
  post(message: FromWebview): void;
  /** Redraw the page (keeping the scroll position). */
  render(): void;
  /** Keep the view with setState. */
  save(): void;
  /** Fill the form (or the JSON editor) with these arguments; `note` goes to the status line. */
  fillForm(args: Record<string, unknown>, note: string): void;
  /** The arguments the form holds now, or undefined (the status line then says what is wrong). */
  currentArguments(): Record<string, unknown> | undefined;
}

const STATUS_TEXT: Record<RunStatus, string> = {
  ok: 'ok',
  toolError: 'tool error',
  protocolError: 'protocol error',
  failure: 'failed',
  cancelled: 'cancelled',
};

/** "14:05:09", with the date when it is not today. */
export function runTime(time: number): string {
  const date = new Date(time);
  const clock = date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  return date.toDateString() === new Date().toDateString() ? clock : `${date.toLocaleDateString()} ${clock}`;
}

function argsPreview(args: Record<string, unknown>, max = 120): string {
  const text = JSON.stringify(args);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

export function renderPresets(v: ViewState, actions: HistoryActions): HTMLElement {
  const select = h('select', { id: 'preset-select', 'aria-label': 'Argument preset to apply or delete' },
    h('option', { value: '' }, v.presets.length ? 'Choose a preset…' : '(no presets yet)'),
    ...v.presets.map((p) => h('option', { value: p.name }, p.name)));
  select.value = v.presets.some((p) => p.name === v.presetChoice) ? v.presetChoice! : '';
  const picked = () => v.presets.find((p) => p.name === select.value);
  const apply = button('Apply', () => {
    const preset = picked();
    if (preset) actions.fillForm(preset.args, `Filled with the preset "${preset.name}".`);
  }, { class: 'secondary', id: 'apply-preset', title: 'Fill the form with the chosen preset' });
  const remove = button('Delete', () => {
    const preset = picked();
    if (!preset) return;
    v.deletedPreset = preset;
    v.presetChoice = undefined;
    actions.post({ type: 'deletePreset', name: preset.name });
  }, { class: 'secondary', id: 'delete-preset', title: 'Delete the chosen preset' });
  const sync = () => {
    apply.disabled = remove.disabled = !picked();
  };
  select.addEventListener('change', () => {
    v.presetChoice = select.value || undefined;
    sync();
  });
  sync();
  const save = button('Save as preset…', () => {
    const args = actions.currentArguments();
    if (args) actions.post({ type: 'savePreset', args });
  }, { class: 'secondary', id: 'save-preset', title: 'Keep the current arguments under a name (secret fields are not saved)' });
  const undo = v.deletedPreset
    ? h('span', { class: 'muted', role: 'status' }, `Deleted "${v.deletedPreset.name}". `, button('Undo', () => {
      const preset = v.deletedPreset;
      v.deletedPreset = undefined;
      if (preset) actions.post({ type: 'savePreset', name: preset.name, args: preset.args });
    }, { class: 'link', id: 'undo-delete-preset' }))
    : undefined;
  return h('div', { class: 'presets', role: 'group', 'aria-label': 'Argument presets' }, h('span', { class: 'label' }, 'Presets'), select, apply, remove, save, undo);
}

export function renderHistory(v: ViewState, actions: HistoryActions): HTMLElement {
  const details = h('details', { id: 'history', class: 'history', open: v.historyOpen === true });
  details.addEventListener('toggle', () => {
    v.historyOpen = details.open;
    actions.save();
  });
  details.append(h('summary', {}, `History (${v.history.length} ${v.history.length === 1 ? 'run' : 'runs'})`));
  if (v.history.length === 0) {
    details.append(h('p', { class: 'muted' }, 'Runs of this tool are listed here (the last 50, kept for this workspace; secret fields are not kept).'));
    return details;
  }
  const compareSelected = button('Compare selected', () => {
    const [a, b] = [...v.selected].map((id) => v.history.find((e) => e.id === id)).filter((e): e is HistorySummary => !!e).sort((x, y) => x.time - y.time);
    if (a && b) actions.post({ type: 'diffRuns', before: a.id, after: b.id });
  }, { class: 'secondary', id: 'diff-selected', disabled: v.selected.length !== 2, title: 'Tick two runs to compare them' });
  const compareLast = button('Compare last two runs', () => {
    const [after, before] = v.history;
    if (before && after) actions.post({ type: 'diffRuns', before: before.id, after: after.id });
  }, { class: 'secondary', id: 'diff-last', disabled: v.history.length < 2 });
  const list = h('ul', { class: 'history-list', 'aria-label': 'Runs, newest first' });
  for (const entry of v.history) {
    const when = runTime(entry.time);
    const box = h('input', { type: 'checkbox', 'aria-label': `Select the run of ${when} for comparison` });
    box.checked = v.selected.includes(entry.id);
    box.addEventListener('change', () => {
      v.selected = box.checked ? [...v.selected.filter((id) => id !== entry.id), entry.id].slice(-2) : v.selected.filter((id) => id !== entry.id);
      actions.render();
    });
    const shown = v.shown?.entry.id === entry.id;
    list.append(h('li', { class: `history-item${shown ? ' shown' : ''}`, 'data-id': entry.id },
      box,
      h('span', { class: 'time' }, when),
      h('span', { class: `run-status ${entry.status}` }, STATUS_TEXT[entry.status] ?? entry.status),
      h('span', { class: 'muted' }, formatDuration(entry.durationMs)),
      h('code', { class: 'args', title: JSON.stringify(entry.args, null, 2) }, argsPreview(entry.args)),
      button('Show', () => actions.post({ type: 'showRun', id: entry.id }), { class: 'link', 'aria-label': `Show the result of the run of ${when}` }),
      button('Use arguments', () => actions.fillForm(entry.args, `Filled with the arguments of the run of ${when}.`), { class: 'link', 'aria-label': `Fill the form with the arguments of the run of ${when}` }),
      entry.omitted ? h('div', { class: 'hints' }, entry.omitted) : undefined));
  }
  details.append(h('div', { class: 'actions' }, compareLast, compareSelected), list);
  return details;
}

const MARKERS: Record<DiffChange['kind'], string> = { added: '+', removed: '−', changed: '~' };

export function renderDiff(diff: RunDiff, onClose: () => void): HTMLElement {
  const { before, after } = diff;
  const argsChanged = JSON.stringify(before.args) !== JSON.stringify(after.args);
  const section = h('section', { id: 'diff', class: 'diff', 'aria-label': 'Changes between two runs' },
    h('div', { class: 'outcome-head' },
      h('h2', {}, 'Changes ', h('span', { class: 'muted' }, `from the run of ${runTime(before.time)} to the run of ${runTime(after.time)}`)),
      button('Close', onClose, { class: 'link', id: 'close-diff', 'aria-label': 'Close the changes' })),
    diff.reason ? h('p', { class: 'muted' }, diff.reason) : undefined,
    h('p', { class: 'hints' }, argsChanged
      ? `Arguments: ${argsPreview(before.args)} → ${argsPreview(after.args)}`
      : `Same arguments: ${argsPreview(after.args)}`));
  const changes = diff.diff.changes;
  if (changes.length === 0) {
    section.append(h('p', { class: 'no-changes', role: 'status' }, 'No changes: both runs returned the same result.'));
    return section;
  }
  const counts = (['added', 'removed', 'changed'] as const).map((kind) => [kind, changes.filter((c) => c.kind === kind).length] as const).filter(([, n]) => n > 0);
  section.append(h('p', { role: 'status' }, counts.map(([kind, n]) => `${n} ${kind}`).join(', ') + (diff.diff.truncated ? ' (only the first changes are listed)' : '')));
  section.append(h('ul', { class: 'diff-list', 'aria-label': 'Changes' }, ...changes.map((change) => h('li', { class: `diff-change ${change.kind}` },
    h('span', { class: 'marker' }, `${MARKERS[change.kind]} ${change.kind}`),
    h('code', { class: 'path' }, change.path || '(whole result)'),
    change.before !== undefined ? h('code', { class: 'before', 'aria-label': 'before' }, change.before) : undefined,
    change.kind === 'changed' ? h('span', { class: 'arrow', 'aria-hidden': 'true' }, '→') : undefined,
    change.after !== undefined ? h('code', { class: 'after', 'aria-label': 'after' }, change.after) : undefined))));
  return section;
}
