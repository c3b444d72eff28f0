// The Run Tool webview: answers the host's messages, draws the page and runs its buttons
// (Run, Cancel, Edit as JSON/form, Reset). It renders the form model the host sends
// (form.ts), turns the values into arguments (schemaFields.ts and formValues.ts, shared with
// the host), and shows progress and the outcome (results.ts). Validation against the schema
// happens in the host (ajv needs `new Function`, which this page's CSP forbids). Everything
// typed is kept with setState, so hiding the panel loses nothing.
import '../shared/l10nSetup';
import * as l10n from '@vscode/l10n';
import './style.css';
import '../apps/style.css';
import { AppArea, onHostMessage } from '../apps/appFrame';
import { connectHost, typedMessage } from '../shared/hostChannel';
import type { AppFromWebview } from '../../src/apps/common/appsProtocol';
import { defaultValues, formToArguments, valuesFromArguments, type FieldProblem } from '../../src/jsonSchema/common/formValues';
import type { FromWebview, ToolInfo, ToWebview } from '../../src/toolRunner/common/toolRunnerProtocol';
import { button, h } from './dom';
import { keepingFocus } from '../shared/keepingFocus';
import { markIssues, renderForm, renderIssues, renderJsonEditor, type FormActions } from './form';
import { renderOutcome, renderProgress } from './results';
import { renderDiff, renderHistory, renderPresets, runTime, type HistoryActions } from './history';
import type { ResultView, SavedState, ViewState } from './viewState';
import { errorMessage } from '../../src/shared/common/errors';

const host = connectHost<FromWebview | AppFromWebview, SavedState>();

let view: ViewState | undefined;
let requestCounter = 0;
const app = document.getElementById('app')!;
// The tool's MCP App lives outside #app, which is rebuilt on every render: moving a frame in
// the DOM would reload the app.
const appArea = new AppArea((message) => host.post(message), 'inline');
app.after(appArea.element);

function post(message: FromWebview): void {
  host.post(message);
}

function save(): void {
  if (view)
    host.saveState({
      schemaKey: view.schemaKey,
      values: view.values,
      mode: view.mode,
      rawJson: view.rawJson,
      resultView: view.resultView,
      historyOpen: view.historyOpen,
    });
}

const formActions: FormActions = { save, submit, rerender: rerenderForm };
const historyActions: HistoryActions = {
  post,
  save,
  render: () => rerenderForm(),
  fillForm,
  currentArguments: () => {
    if (!view) return undefined;
    const { args, problems } = currentArguments(view);
    view.issues = problems;
    if (args && !problems.length) return args;
    view.status = { text: l10n.t('Not saved: fix the arguments first.'), kind: 'error' };
    rerenderForm();
    return undefined;
  },
};

window.addEventListener('error', (event) => post({ type: 'error', message: String(event.error?.stack ?? event.message) }));
window.addEventListener('unhandledrejection', (event) => post({ type: 'error', message: String(event.reason?.stack ?? event.reason) }));

// What the host says. Only the extension's messages reach it (onHostMessage, below): the app
// frame below this page can post to it too, and must not be able to draw an outcome, replace
// the form or answer for the host.
function receive(message: ToWebview): void {
  if (appArea.handle(message)) return;
  switch (message.type) {
    case 'init': {
      const saved = host.savedState();
      const useSaved = saved?.schemaKey === message.schemaKey && !message.prefilled;
      view = {
        tool: message.tool,
        form: message.form,
        schemaKey: message.schemaKey,
        remembered: message.remembered,
        values: useSaved ? saved.values : message.values,
        mode: useSaved ? saved.mode : message.form.formSupported ? 'form' : 'json',
        rawJson: useSaved ? saved.rawJson : JSON.stringify(message.arguments, null, 2),
        issues: [],
        running: message.running,
        last: message.last,
        ...(message.prefilled ? { status: { text: l10n.t('Filled with the arguments from the Inspector.'), kind: 'info' as const } } : {}),
        resultView: saved?.resultView ?? 'rendered',
        historyOpen: saved?.historyOpen,
        history: message.history,
        selected: [],
        presets: message.presets,
        diff: message.diff,
      };
      save();
      render();
      return;
    }
    case 'toolChanged': {
      if (!view) return;
      const schemaChanged = view.schemaKey !== message.schemaKey;
      view.tool = message.tool;
      if (schemaChanged) {
        // Carry over what still fits the new schema.
        const { args } = formToArguments(view.form, view.values);
        view.form = message.form;
        view.schemaKey = message.schemaKey;
        view.values = valuesFromArguments(view.form.root, args);
        if (!view.form.formSupported) view.mode = 'json';
        view.status = { text: l10n.t('The tool’s input schema changed; the form was rebuilt.'), kind: 'info' };
        save();
      }
      render();
      return;
    }
    case 'invalid':
      if (!view || view.pending !== message.requestId) return;
      view.pending = undefined;
      view.issues = message.issues;
      view.status = {
        text:
          message.issues.length === 1
            ? l10n.t('Not sent: 1 problem with the arguments.')
            : l10n.t('Not sent: {0} problems with the arguments.', message.issues.length),
        kind: 'error',
      };
      render();
      return;
    case 'declined':
      if (!view || view.pending !== message.requestId) return;
      view.pending = undefined;
      view.status = { text: l10n.t('Not sent: the run was not confirmed.'), kind: 'info' };
      render();
      return;
    case 'started':
      if (!view) return;
      view.pending = undefined;
      view.issues = [];
      view.running = { requestId: message.requestId };
      view.status = message.schemaNote ? { text: message.schemaNote, kind: 'info' } : undefined;
      render();
      return;
    case 'progress':
      if (!view?.running || view.running.requestId !== message.requestId) return;
      view.running.progress = message.progress;
      renderProgress(view.running, post);
      return;
    case 'task':
      if (!view?.running || view.running.requestId !== message.requestId) return;
      view.running.task = message.task;
      renderProgress(view.running, post);
      return;
    case 'awaitingUser':
      if (!view?.running || view.running.requestId !== message.requestId) return;
      view.running.awaitingUser = message.awaitingUser;
      renderProgress(view.running, post);
      return;
    case 'outcome':
      if (!view) return;
      if (view.running?.requestId === message.requestId) view.running = undefined;
      view.last = { requestId: message.requestId, outcome: message.outcome };
      view.shown = undefined;
      render();
      document.getElementById('result')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
      return;
    case 'history':
      if (!view) return;
      view.history = message.entries;
      view.selected = view.selected.filter((id) => message.entries.some((e) => e.id === id));
      rerenderForm();
      return;
    case 'presets':
      if (!view) return;
      view.presets = message.presets;
      if (view.deletedPreset && message.presets.some((p) => p.name === view!.deletedPreset!.name)) view.deletedPreset = undefined;
      rerenderForm();
      return;
    case 'run':
      if (!view) return;
      view.shown = { entry: message.entry, outcome: message.outcome };
      render();
      document.getElementById('result')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
      return;
    case 'diff':
      if (!view) return;
      view.diff = message.diff;
      rerenderForm();
      return;
  }
}

host.start({ parse: typedMessage<ToWebview>, receive, listen: (handle) => onHostMessage(appArea, handle) });

// ---------------------------------------------------------------------------------------
// page

function render(): void {
  if (!view) return;
  const v = view;
  const busy = !!v.running || !!v.pending;
  keepingFocus(app, () => draw(v, busy));
  renderProgress(v.running, post);
  markIssues(v.issues);
}

function draw(v: ViewState, busy: boolean): void {
  app.replaceChildren(
    renderHeader(v.tool),
    renderIssues(v),
    v.mode === 'form' ? renderForm(v, formActions) : renderJsonEditor(v, formActions),
    h(
      'div',
      { class: 'actions' },
      button(v.running ? l10n.t('Running…') : l10n.t('Run'), submit, { class: 'primary', disabled: busy, title: l10n.t('Run the tool (Ctrl+Enter)') }),
      v.running && button(l10n.t('Cancel'), () => post({ type: 'cancel', requestId: v.running!.requestId }), { class: 'secondary' }),
      button(v.mode === 'form' ? l10n.t('Edit as JSON') : l10n.t('Edit as form'), toggleMode, {
        class: 'secondary',
        disabled: v.mode === 'json' && !v.form.formSupported,
        title: v.form.formSupported ? '' : l10n.t('The input schema cannot be shown as a form'),
      }),
      button(l10n.t('Reset'), reset, { class: 'secondary', title: l10n.t('Back to the schema defaults') }),
      v.remembered && h('span', { class: 'muted' }, l10n.t('Pre-filled with the last arguments.')),
    ),
    h('div', { id: 'status', class: `status ${v.status?.kind ?? ''}` }, v.status?.text ?? ''),
    renderPresets(v, historyActions),
    h('div', { id: 'progress' }),
    v.diff ? renderDiff(v.diff, closeDiff) : '',
    h('section', { id: 'result' }, renderResult(v)),
    renderHistory(v, historyActions),
  );
}

function setResultView(resultView: ResultView): void {
  if (!view) return;
  view.resultView = resultView;
  save();
  rerenderForm();
}

/** The last outcome, or the earlier run picked in the history (with a way back). */
function renderResult(v: ViewState): HTMLElement | string {
  if (v.shown) {
    const { entry, outcome } = v.shown;
    return h(
      'div',
      {},
      renderOutcome(entry.id, outcome, post, v.resultView, setResultView, l10n.t('Run of {0}', runTime(entry.time))),
      h(
        'div',
        { class: 'actions' },
        button(l10n.t('Use these arguments'), () => fillForm(entry.args, l10n.t('Filled with the arguments of the run of {0}.', runTime(entry.time))), {
          class: 'secondary',
          id: 'use-shown-arguments',
        }),
        v.last
          ? button(
              l10n.t('Back to the last result'),
              () => {
                v.shown = undefined;
                rerenderForm();
              },
              { class: 'secondary', id: 'back-to-last' },
            )
          : undefined,
      ),
    );
  }
  return v.last ? renderOutcome(v.last.requestId, v.last.outcome, post, v.resultView, setResultView) : '';
}

function closeDiff(): void {
  if (!view) return;
  view.diff = undefined;
  rerenderForm();
}

/** Puts arguments (a preset, an earlier run) into the form, or into the JSON editor when the form cannot show them. */
function fillForm(args: Record<string, unknown>, note: string): void {
  const v = view;
  if (!v) return;
  v.values = valuesFromArguments(v.form.root, args);
  v.rawJson = JSON.stringify(args, null, 2);
  v.issues = [];
  v.remembered = false;
  v.status = { text: note, kind: 'info' };
  save();
  rerenderForm();
}

function renderHeader(tool: ToolInfo): HTMLElement {
  return h(
    'header',
    {},
    h(
      'h1',
      { title: tool.title ? `${tool.title} (${tool.name})` : tool.name },
      tool.title ?? tool.name,
      tool.title ? h('code', { class: 'tool-name' }, tool.name) : undefined,
    ),
    h('div', { class: 'server' }, l10n.t('Server: {0}', tool.serverLabel)),
    tool.badges.length ? h('div', { class: 'badges' }, ...tool.badges.map((b) => h('span', { class: `badge ${b.kind}` }, b.label))) : undefined,
    tool.description ? h('p', { class: 'description' }, tool.description) : undefined,
    tool.notice ? h('p', { class: 'notice' }, tool.notice) : undefined,
  );
}

function rerenderForm(focusPointer?: string): void {
  if (!view) return;
  const scroll = window.scrollY;
  render();
  window.scrollTo(0, scroll);
  if (focusPointer) (document.querySelector(`[data-pointer="${CSS.escape(focusPointer)}"] :is(input, textarea, select)`) as HTMLElement | null)?.focus();
}

// ---------------------------------------------------------------------------------------
// actions

function currentArguments(v: ViewState): { args?: Record<string, unknown>; problems: FieldProblem[] } {
  if (v.mode === 'form') return formToArguments(v.form, v.values);
  try {
    const parsed: unknown = JSON.parse(v.rawJson.trim() || '{}');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      return { problems: [{ pointer: '', message: l10n.t('must be a JSON object') }] };
    return { args: parsed as Record<string, unknown>, problems: [] };
  } catch (error) {
    return { problems: [{ pointer: '', message: l10n.t('are not valid JSON: {0}', errorMessage(error)) }] };
  }
}

function submit(): void {
  const v = view;
  if (!v || v.running || v.pending) return;
  const { args, problems } = currentArguments(v);
  v.issues = problems;
  if (problems.length || !args) {
    v.status = { text: l10n.t('Not sent: fix the arguments first.'), kind: 'error' };
    render();
    return;
  }
  v.pending = `wv-${Date.now().toString(36)}-${++requestCounter}`;
  v.status = { text: l10n.t('Checking the arguments…'), kind: 'info' };
  render();
  post({ type: 'submit', requestId: v.pending, args });
}

function toggleMode(): void {
  const v = view;
  if (!v) return;
  if (v.mode === 'form') {
    v.rawJson = JSON.stringify(formToArguments(v.form, v.values).args, null, 2);
    v.mode = 'json';
  } else {
    const { args, problems } = currentArguments(v);
    if (!args) {
      v.issues = problems;
      render();
      return;
    }
    v.values = valuesFromArguments(v.form.root, args);
    v.mode = 'form';
  }
  v.issues = [];
  v.status = undefined;
  save();
  render();
}

function reset(): void {
  const v = view;
  if (!v) return;
  v.values = defaultValues(v.form.root);
  v.rawJson = JSON.stringify(formToArguments(v.form, v.values).args, null, 2);
  v.issues = [];
  v.status = undefined;
  v.remembered = false;
  save();
  render();
}

document.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    submit();
  }
});
