// The Run Tool webview's memory of earlier work: the named argument presets (apply, save,
// delete with undo), the history of runs (show one, refill the form from it, tick two to
// compare) and the diff of two runs. Colours come from the theme and every change also says
// what it is in text ("+ added"), so nothing depends on telling red from green.
import * as l10n from '@vscode/l10n';
import type { FromWebview, RunDiff } from '../../src/toolRunner/common/toolRunnerProtocol';
import type { DiffChange } from '../../src/toolRunner/common/jsonDiff';
import type { HistorySummary, RunStatus } from '../../src/toolRunner/common/runHistory';
import { formatDuration, timeOfDay } from '../../src/shared/common/durations';
import { fill } from '../shared/fill';
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

/** A run's status in words (a function: the translations are configured when the page starts). */
function statusText(status: RunStatus): string {
  switch (status) {
    case 'ok':
      return l10n.t('ok');
    case 'toolError':
      return l10n.t('tool error');
    case 'protocolError':
      return l10n.t('protocol error');
    case 'failure':
      return l10n.t('failed');
    case 'cancelled':
      return l10n.t('cancelled');
    default:
      return status;
  }
}

/** "14:05:09", with the date when it is not today. */
export function runTime(time: number): string {
  const date = new Date(time);
  const clock = timeOfDay(time);
  return date.toDateString() === new Date().toDateString() ? clock : `${date.toLocaleDateString()} ${clock}`;
}

function argsPreview(args: Record<string, unknown>, max = 120): string {
  const text = JSON.stringify(args);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

export function renderPresets(v: ViewState, actions: HistoryActions): HTMLElement {
  const select = h(
    'select',
    { id: 'preset-select', 'aria-label': l10n.t('Argument preset to apply or delete') },
    h('option', { value: '' }, v.presets.length ? l10n.t('Choose a preset…') : l10n.t('(no presets yet)')),
    ...v.presets.map((p) => h('option', { value: p.name }, p.name)),
  );
  select.value = v.presets.some((p) => p.name === v.presetChoice) ? v.presetChoice! : '';
  const picked = () => v.presets.find((p) => p.name === select.value);
  const apply = button(
    l10n.t('Apply'),
    () => {
      const preset = picked();
      if (preset) actions.fillForm(preset.args, l10n.t('Filled with the preset "{0}".', preset.name));
    },
    { class: 'secondary', id: 'apply-preset', title: l10n.t('Fill the form with the chosen preset') },
  );
  const remove = button(
    l10n.t('Delete'),
    () => {
      const preset = picked();
      if (!preset) return;
      v.deletedPreset = preset;
      v.presetChoice = undefined;
      actions.post({ type: 'deletePreset', name: preset.name });
    },
    { class: 'secondary', id: 'delete-preset', title: l10n.t('Delete the chosen preset') },
  );
  const sync = () => {
    apply.disabled = remove.disabled = !picked();
  };
  select.addEventListener('change', () => {
    v.presetChoice = select.value || undefined;
    sync();
  });
  sync();
  const save = button(
    l10n.t('Save as preset…'),
    () => {
      const args = actions.currentArguments();
      if (args) actions.post({ type: 'savePreset', args });
    },
    { class: 'secondary', id: 'save-preset', title: l10n.t('Keep the current arguments under a name (secret fields are not saved)') },
  );
  const undo = v.deletedPreset
    ? h(
        'span',
        { class: 'muted', role: 'status' },
        l10n.t('Deleted "{0}".', v.deletedPreset.name),
        ' ',
        button(
          l10n.t('Undo'),
          () => {
            const preset = v.deletedPreset;
            v.deletedPreset = undefined;
            if (preset) actions.post({ type: 'savePreset', name: preset.name, args: preset.args });
          },
          { class: 'link', id: 'undo-delete-preset' },
        ),
      )
    : undefined;
  return h(
    'div',
    { class: 'presets', role: 'group', 'aria-label': l10n.t('Argument presets') },
    h('span', { class: 'label' }, l10n.t('Presets')),
    select,
    apply,
    remove,
    save,
    undo,
  );
}

export function renderHistory(v: ViewState, actions: HistoryActions): HTMLElement {
  const details = h('details', { id: 'history', class: 'history', open: v.historyOpen === true });
  details.addEventListener('toggle', () => {
    v.historyOpen = details.open;
    actions.save();
  });
  details.append(h('summary', {}, v.history.length === 1 ? l10n.t('History (1 run)') : l10n.t('History ({0} runs)', v.history.length)));
  if (v.history.length === 0) {
    details.append(h('p', { class: 'muted' }, l10n.t('Runs of this tool are listed here (the last 50, kept for this workspace; secret fields are not kept).')));
    return details;
  }
  const compareSelected = button(
    l10n.t('Compare selected'),
    () => {
      const [a, b] = [...v.selected]
        .map((id) => v.history.find((e) => e.id === id))
        .filter((e): e is HistorySummary => !!e)
        .sort((x, y) => x.time - y.time);
      if (a && b) actions.post({ type: 'diffRuns', before: a.id, after: b.id });
    },
    { class: 'secondary', id: 'diff-selected', disabled: v.selected.length !== 2, title: l10n.t('Tick two runs to compare them') },
  );
  const compareLast = button(
    l10n.t('Compare last two runs'),
    () => {
      const [after, before] = v.history;
      if (before && after) actions.post({ type: 'diffRuns', before: before.id, after: after.id });
    },
    { class: 'secondary', id: 'diff-last', disabled: v.history.length < 2 },
  );
  const list = h('ul', { class: 'history-list', 'aria-label': l10n.t('Runs, newest first') });
  for (const entry of v.history) {
    const when = runTime(entry.time);
    const box = h('input', { type: 'checkbox', 'aria-label': l10n.t('Select the run of {0} for comparison', when) });
    box.checked = v.selected.includes(entry.id);
    box.addEventListener('change', () => {
      v.selected = box.checked ? [...v.selected.filter((id) => id !== entry.id), entry.id].slice(-2) : v.selected.filter((id) => id !== entry.id);
      actions.render();
    });
    const shown = v.shown?.entry.id === entry.id;
    list.append(
      h(
        'li',
        { class: `history-item${shown ? ' shown' : ''}`, 'data-id': entry.id },
        box,
        h('span', { class: 'time' }, when),
        h('span', { class: `run-status ${entry.status}` }, statusText(entry.status)),
        h('span', { class: 'muted' }, formatDuration(entry.durationMs)),
        h('code', { class: 'args', title: JSON.stringify(entry.args, null, 2) }, argsPreview(entry.args)),
        button(l10n.t('Show'), () => actions.post({ type: 'showRun', id: entry.id }), {
          class: 'link',
          'aria-label': l10n.t('Show the result of the run of {0}', when),
        }),
        button(l10n.t('Use arguments'), () => actions.fillForm(entry.args, l10n.t('Filled with the arguments of the run of {0}.', when)), {
          class: 'link',
          'aria-label': l10n.t('Fill the form with the arguments of the run of {0}', when),
        }),
        !entry.omitted && (entry.status === 'ok' || entry.status === 'toolError')
          ? button(l10n.t('Save as Test'), () => actions.post({ type: 'saveAsTest', id: entry.id }), {
              class: 'link',
              'aria-label': l10n.t('Save the run of {0} as a test', when),
            })
          : undefined,
        entry.omitted ? h('div', { class: 'hints' }, entry.omitted) : undefined,
      ),
    );
  }
  details.append(h('div', { class: 'actions' }, compareLast, compareSelected), list);
  return details;
}

const MARKERS: Record<DiffChange['kind'], string> = { added: '+', removed: '−', changed: '~' };

function kindText(kind: DiffChange['kind']): string {
  return kind === 'added' ? l10n.t('added') : kind === 'removed' ? l10n.t('removed') : l10n.t('changed');
}

/** "2 added": the count and the kind of change in one sentence for translators. */
function countText(kind: DiffChange['kind'], n: number): string {
  return kind === 'added' ? l10n.t('{0} added', n) : kind === 'removed' ? l10n.t('{0} removed', n) : l10n.t('{0} changed', n);
}

export function renderDiff(diff: RunDiff, onClose: () => void): HTMLElement {
  const { before, after } = diff;
  const argsChanged = JSON.stringify(before.args) !== JSON.stringify(after.args);
  const section = h(
    'section',
    { id: 'diff', class: 'diff', 'aria-label': l10n.t('Changes between two runs') },
    h(
      'div',
      { class: 'outcome-head' },
      h(
        'h2',
        {},
        ...fill(
          l10n.t('Changes {0}'),
          h('span', { class: 'muted' }, l10n.t('from the run of {0} to the run of {1}', runTime(before.time), runTime(after.time))),
        ),
      ),
      button(l10n.t('Close'), onClose, { class: 'link', id: 'close-diff', 'aria-label': l10n.t('Close the changes') }),
    ),
    diff.reason ? h('p', { class: 'muted' }, diff.reason) : undefined,
    h(
      'p',
      { class: 'hints' },
      argsChanged ? l10n.t('Arguments: {0} → {1}', argsPreview(before.args), argsPreview(after.args)) : l10n.t('Same arguments: {0}', argsPreview(after.args)),
    ),
  );
  const changes = diff.diff.changes;
  if (changes.length === 0) {
    section.append(h('p', { class: 'no-changes', role: 'status' }, l10n.t('No changes: both runs returned the same result.')));
    return section;
  }
  const counts = (['added', 'removed', 'changed'] as const)
    .map((kind) => [kind, changes.filter((c) => c.kind === kind).length] as const)
    .filter(([, n]) => n > 0);
  section.append(
    h(
      'p',
      { role: 'status' },
      counts.map(([kind, n]) => countText(kind, n)).join(', ') + (diff.diff.truncated ? ` ${l10n.t('(only the first changes are listed)')}` : ''),
    ),
  );
  section.append(
    h(
      'ul',
      { class: 'diff-list', 'aria-label': l10n.t('Changes') },
      ...changes.map((change) =>
        h(
          'li',
          { class: `diff-change ${change.kind}` },
          h('span', { class: 'marker' }, `${MARKERS[change.kind]} ${kindText(change.kind)}`),
          h('code', { class: 'path' }, change.path || l10n.t('(whole result)')),
          change.before !== undefined ? h('code', { class: 'before', 'aria-label': l10n.t('before') }, change.before) : undefined,
          change.kind === 'changed' ? h('span', { class: 'arrow', 'aria-hidden': 'true' }, '→') : undefined,
          change.after !== undefined ? h('code', { class: 'after', 'aria-label': l10n.t('after') }, change.after) : undefined,
        ),
      ),
    ),
  );
  return section;
}
