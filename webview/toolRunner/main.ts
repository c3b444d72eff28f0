// The Run Tool webview: renders the form model the host sends, turns the values into
// arguments (schemaFields.ts and formValues.ts, shared with the host), and shows progress and the outcome.
// Validation against the schema happens in the host (ajv needs `new Function`, which this
// page's CSP forbids). Everything typed is kept with setState, so hiding the panel loses nothing.
// While the server waits for a sampling/elicitation answer, #awaiting-user says so, with
// #show-requests revealing the MCP Requests panel.
import './style.css';
import { defaultValues, formToArguments, valuesFromArguments, type FieldProblem } from '../../src/toolRunner/common/formValues';
import { constraintHints, type FormField, type FormModel, type Json } from '../../src/toolRunner/common/schemaFields';
import type { FromWebview, ProgressInfo, ResultBlock, RunOutcome, ToolInfo, ToWebview } from '../../src/toolRunner/common/toolRunnerProtocol';

interface VsCodeApi {
  postMessage(message: FromWebview): void;
  getState(): unknown;
  setState(state: SavedState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;
const vscode = acquireVsCodeApi();

/** What survives the webview being re-created (the panel is not retained when hidden). */
interface SavedState {
  schemaKey: string;
  values: Json;
  mode: 'form' | 'json';
  rawJson: string;
}

interface ViewState extends SavedState {
  tool: ToolInfo;
  form: FormModel;
  remembered: boolean;
  issues: FieldProblem[];
  /** A status line under the buttons (declined, validation notes). */
  status?: { text: string; kind: 'info' | 'error' };
  pending?: string;
  running?: { requestId: string; progress?: ProgressInfo; awaitingUser?: boolean };
  last?: { requestId: string; outcome: RunOutcome };
}

let view: ViewState | undefined;
let requestCounter = 0;
const app = document.getElementById('app')!;

function post(message: FromWebview): void {
  vscode.postMessage(message);
}

function save(): void {
  if (view) vscode.setState({ schemaKey: view.schemaKey, values: view.values, mode: view.mode, rawJson: view.rawJson });
}

window.addEventListener('error', (event) => post({ type: 'error', message: String(event.error?.stack ?? event.message) }));
window.addEventListener('unhandledrejection', (event) => post({ type: 'error', message: String(event.reason?.stack ?? event.reason) }));

window.addEventListener('message', (event: MessageEvent<ToWebview>) => {
  const message = event.data;
  switch (message.type) {
    case 'init': {
      const saved = vscode.getState() as SavedState | undefined;
      const useSaved = saved?.schemaKey === message.schemaKey;
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
        view.status = { text: 'The tool’s input schema changed; the form was rebuilt.', kind: 'info' };
        save();
      }
      render();
      return;
    }
    case 'invalid':
      if (!view || view.pending !== message.requestId) return;
      view.pending = undefined;
      view.issues = message.issues;
      view.status = { text: message.issues.length === 1 ? 'Not sent: 1 problem with the arguments.' : `Not sent: ${message.issues.length} problems with the arguments.`, kind: 'error' };
      render();
      return;
    case 'declined':
      if (!view || view.pending !== message.requestId) return;
      view.pending = undefined;
      view.status = { text: 'Not sent: the run was not confirmed.', kind: 'info' };
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
      renderProgress();
      return;
    case 'awaitingUser':
      if (!view?.running || view.running.requestId !== message.requestId) return;
      view.running.awaitingUser = message.awaitingUser;
      renderProgress();
      return;
    case 'outcome':
      if (!view) return;
      if (view.running?.requestId === message.requestId) view.running = undefined;
      view.last = { requestId: message.requestId, outcome: message.outcome };
      render();
      document.getElementById('result')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
      return;
  }
});

post({ type: 'ready' });

// ---------------------------------------------------------------------------------------
// DOM helpers

type Child = Node | string | undefined | false;

function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<Record<string, string | boolean>> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === false) continue;
    if (key === 'class') el.className = String(value);
    else el.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children) if (child !== undefined && child !== false) el.append(child);
  return el;
}

function button(label: string, onClick: () => void, props: Partial<Record<string, string | boolean>> = {}): HTMLButtonElement {
  const el = h('button', { type: 'button', ...props }, label);
  el.addEventListener('click', onClick);
  return el;
}

let idCounter = 0;
const newId = () => `f${++idCounter}`;

// ---------------------------------------------------------------------------------------
// page

function render(): void {
  if (!view) return;
  const v = view;
  const busy = !!v.running || !!v.pending;
  app.replaceChildren(
    renderHeader(v.tool),
    renderIssues(v),
    v.mode === 'form' ? renderForm(v) : renderJsonEditor(v),
    h('div', { class: 'actions' },
      button(v.running ? 'Running…' : 'Run', submit, { class: 'primary', disabled: busy, title: 'Run the tool (Ctrl+Enter)' }),
      v.running && button('Cancel', () => post({ type: 'cancel', requestId: v.running!.requestId }), { class: 'secondary' }),
      button(v.mode === 'form' ? 'Edit as JSON' : 'Edit as form', toggleMode, {
        class: 'secondary',
        disabled: v.mode === 'json' && !v.form.formSupported,
        title: v.form.formSupported ? '' : 'The input schema cannot be shown as a form',
      }),
      button('Reset', reset, { class: 'secondary', title: 'Back to the schema defaults' }),
      v.remembered && h('span', { class: 'muted' }, 'Pre-filled with the last arguments.'),
    ),
    h('div', { id: 'status', class: `status ${v.status?.kind ?? ''}` }, v.status?.text ?? ''),
    h('div', { id: 'progress' }),
    h('section', { id: 'result' }, v.last ? renderOutcome(v.last.requestId, v.last.outcome) : ''),
  );
  renderProgress();
  markIssues(v.issues);
}

function renderHeader(tool: ToolInfo): HTMLElement {
  return h('header', {},
    h('h1', {}, tool.title ?? tool.name, tool.title ? h('code', { class: 'tool-name' }, tool.name) : undefined),
    h('div', { class: 'server' }, `Server: ${tool.serverLabel}`),
    tool.badges.length ? h('div', { class: 'badges' }, ...tool.badges.map((b) => h('span', { class: `badge ${b.kind}` }, b.label))) : undefined,
    tool.description ? h('p', { class: 'description' }, tool.description) : undefined,
    tool.notice ? h('p', { class: 'notice' }, tool.notice) : undefined,
  );
}

function renderIssues(v: ViewState): HTMLElement {
  const unsupported = v.mode === 'form' && v.form.unsupported.length
    ? h('div', { class: 'note' }, 'Parts of the schema are edited as JSON: ',
      ...v.form.unsupported.map((u, i) => h('span', {}, i ? '; ' : '', h('code', {}, u.pointer || '(arguments)'), ` ${u.reason}`)))
    : undefined;
  const issues = v.issues.length
    ? h('ul', { class: 'issues', role: 'alert' }, ...v.issues.map((i) => h('li', {}, h('code', {}, i.pointer ? i.pointer.slice(1).replace(/\//g, '.') : 'arguments'), ` ${i.message}`)))
    : undefined;
  return h('div', {}, unsupported, issues);
}

function renderForm(v: ViewState): HTMLElement {
  const form = h('form', { class: 'form', novalidate: true });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    submit();
  });
  if (v.form.root.fields.length === 0) form.append(h('p', { class: 'muted' }, 'This tool takes no arguments.'));
  const holder = { root: v.values };
  if (typeof holder.root !== 'object' || holder.root === null || Array.isArray(holder.root)) holder.root = defaultValues(v.form.root);
  v.values = holder.root;
  for (const field of v.form.root.fields) {
    form.append(renderField(field, holder.root as Record<string, Json>, field.name ?? '', `/${escapePointer(field.name ?? '')}`));
  }
  return form;
}

function renderJsonEditor(v: ViewState): HTMLElement {
  const area = h('textarea', { class: 'json', id: 'raw-json', spellcheck: 'false', rows: '14', 'aria-label': 'Arguments as JSON' });
  area.value = v.rawJson;
  area.addEventListener('input', () => {
    v.rawJson = area.value;
    save();
  });
  return h('div', { class: 'json-editor' },
    !v.form.formSupported ? h('p', { class: 'note' }, `The input schema cannot be shown as a form (${v.form.unsupported[0]?.reason ?? 'unsupported'}); edit the arguments as JSON.`) : undefined,
    area,
    h('details', {}, h('summary', {}, 'Input schema'), h('pre', { class: 'schema' }, v.tool.inputSchemaJson)),
  );
}

/** Renders one field whose value lives at `container[key]`; `pointer` locates it in the arguments. */
function renderField(field: FormField, container: Record<string, Json> | Json[], key: string | number, pointer: string, itemLabel?: string): HTMLElement {
  const get = (): Json => (container as Record<string, Json>)[key as string];
  const set = (value: Json) => {
    (container as Record<string, Json>)[key as string] = value;
    save();
  };
  const id = newId();
  const wrap = h('div', { class: `field kind-${field.kind}`, 'data-pointer': pointer });
  const label = itemLabel ?? field.label;
  const labelEl = h('label', { for: id },
    label,
    field.required && itemLabel === undefined ? h('span', { class: 'required', title: 'required' }, ' *') : undefined,
    field.name && field.name !== label ? h('code', { class: 'prop' }, field.name) : undefined,
    field.deprecated ? h('span', { class: 'badge warning' }, 'deprecated') : undefined,
  );
  const hints = constraintHints(field);
  const after: HTMLElement[] = [h('div', { class: 'error', id: `${id}-error` })];
  if (hints.length) after.unshift(h('div', { class: 'hints' }, hints.join(' · ')));
  const description = field.description ? h('div', { class: 'desc' }, field.description) : undefined;

  switch (field.kind) {
    case 'string': {
      const type = field.secret ? 'password' : ({ email: 'email', uri: 'url', url: 'url', date: 'date', time: 'time' } as Record<string, string>)[field.format ?? ''] ?? undefined;
      const single = type !== undefined || field.pattern !== undefined || (field.maxLength !== undefined && field.maxLength <= 200);
      const input = single
        ? h('input', { id, type: type ?? 'text', placeholder: field.default !== undefined ? String(field.default) : '' })
        : h('textarea', { id, rows: '2', placeholder: field.default !== undefined ? String(field.default) : '' });
      input.value = typeof get() === 'string' ? (get() as string) : '';
      input.addEventListener('input', () => set(input.value));
      wrap.append(labelEl, description ?? '', input, ...after);
      return wrap;
    }
    case 'number':
    case 'integer': {
      const input = h('input', { id, type: 'text', inputmode: field.kind === 'integer' ? 'numeric' : 'decimal', placeholder: field.default !== undefined ? String(field.default) : '' });
      input.value = typeof get() === 'string' ? (get() as string) : '';
      input.addEventListener('input', () => set(input.value));
      wrap.append(labelEl, description ?? '', input, ...after);
      return wrap;
    }
    case 'boolean': {
      if (field.required && !field.nullable) {
        const box = h('input', { id, type: 'checkbox' });
        box.checked = get() === true;
        box.addEventListener('change', () => set(box.checked));
        wrap.classList.add('checkbox');
        wrap.append(h('div', { class: 'row' }, box, labelEl), description ?? '', ...after);
        return wrap;
      }
      const select = h('select', { id }, h('option', { value: '' }, '(not set)'), h('option', { value: 'true' }, 'true'), h('option', { value: 'false' }, 'false'));
      select.value = get() === true ? 'true' : get() === false ? 'false' : '';
      select.addEventListener('change', () => set(select.value === '' ? null : select.value === 'true'));
      wrap.append(labelEl, description ?? '', select, ...after);
      return wrap;
    }
    case 'enum': {
      const select = h('select', { id }, h('option', { value: '' }, '(not set)'), ...field.options.map((o, i) => h('option', { value: String(i) }, o.label)));
      select.value = typeof get() === 'string' ? (get() as string) : '';
      select.addEventListener('change', () => set(select.value));
      wrap.append(labelEl, description ?? '', select, ...after);
      return wrap;
    }
    case 'const': {
      wrap.append(labelEl, description ?? '', h('code', { id, class: 'const' }, JSON.stringify(field.value)));
      return wrap;
    }
    case 'json': {
      const area = h('textarea', { id, class: 'json', rows: '3', spellcheck: 'false', placeholder: 'JSON' });
      area.value = typeof get() === 'string' ? (get() as string) : '';
      area.addEventListener('input', () => set(area.value));
      wrap.append(labelEl, description ?? '', area, h('div', { class: 'hints' }, `JSON: ${field.reason}`), ...after);
      return wrap;
    }
    case 'array': {
      let items = get();
      if (!Array.isArray(items)) {
        items = [];
        set(items);
      }
      const list = items as Json[];
      const fieldset = h('fieldset', { class: 'array' }, h('legend', {}, labelEl));
      if (description) fieldset.append(description);
      list.forEach((_item, i) => {
        const remove = button('Remove', () => {
          list.splice(i, 1);
          save();
          rerenderForm();
        }, { class: 'link', title: `Remove item ${i + 1}`, disabled: field.minItems !== undefined && list.length <= field.minItems });
        const row = h('div', { class: 'array-item' }, renderField(field.items, list, i, `${pointer}/${i}`, `${i + 1}.`), remove);
        fieldset.append(row);
      });
      fieldset.append(button('Add item', () => {
        list.push(defaultValues(field.items));
        save();
        rerenderForm(`${pointer}/${list.length - 1}`);
      }, { class: 'secondary small', disabled: field.maxItems !== undefined && list.length >= field.maxItems }));
      fieldset.append(...after);
      wrap.append(fieldset);
      return wrap;
    }
    case 'object': {
      let value = get();
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        value = defaultValues(field);
        set(value);
      }
      const record = value as Record<string, Json>;
      const fieldset = h('fieldset', { class: 'object' }, h('legend', {}, labelEl));
      if (description) fieldset.append(description);
      for (const child of field.fields) fieldset.append(renderField(child, record, child.name ?? '', `${pointer}/${escapePointer(child.name ?? '')}`));
      if (field.fields.length === 0) fieldset.append(h('p', { class: 'muted' }, '(no properties)'));
      fieldset.append(...after);
      wrap.append(fieldset);
      return wrap;
    }
    case 'choice': {
      let value = get();
      if (typeof value !== 'object' || value === null || Array.isArray(value) || typeof value.option !== 'number') {
        value = defaultValues(field);
        set(value);
      }
      const choice = value as { option: number; value: Json };
      const select = h('select', { id, 'aria-label': `${label}: kind of value` }, ...field.options.map((o, i) => h('option', { value: String(i) }, o.label)));
      select.value = String(choice.option);
      select.addEventListener('change', () => {
        const option = Number(select.value);
        choice.option = option;
        choice.value = defaultValues(field.options[option].field);
        save();
        rerenderForm();
      });
      const option = field.options[choice.option] ?? field.options[0];
      const holder = choice as unknown as Record<string, Json>;
      const inner = renderField({ ...option.field, description: undefined }, holder, 'value', pointer, option.field.kind === 'object' ? '' : 'value');
      const fieldset = h('fieldset', { class: 'choice' }, h('legend', {}, labelEl));
      if (description) fieldset.append(description);
      fieldset.append(h('div', { class: 'hints' }, field.combinator === 'oneOf' ? 'one of:' : 'any of:'), select, inner, ...after);
      wrap.append(fieldset);
      return wrap;
    }
  }
}

function rerenderForm(focusPointer?: string): void {
  if (!view) return;
  const scroll = window.scrollY;
  render();
  window.scrollTo(0, scroll);
  if (focusPointer) (document.querySelector(`[data-pointer="${CSS.escape(focusPointer)}"] :is(input, textarea, select)`) as HTMLElement | null)?.focus();
}

function markIssues(issues: FieldProblem[]): void {
  for (const issue of issues) {
    const field = document.querySelector(`.field[data-pointer="${CSS.escape(issue.pointer)}"]`);
    if (!field) continue;
    field.classList.add('invalid');
    const error = field.querySelector(':scope > .error, :scope > fieldset > .error');
    if (error) error.textContent = error.textContent ? `${error.textContent}; ${issue.message}` : issue.message;
  }
  if (issues.length) (document.querySelector('.field.invalid :is(input, textarea, select)') as HTMLElement | null)?.focus();
}

function escapePointer(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

// ---------------------------------------------------------------------------------------
// actions

function currentArguments(v: ViewState): { args?: Record<string, unknown>; problems: FieldProblem[] } {
  if (v.mode === 'form') return formToArguments(v.form, v.values);
  try {
    const parsed: unknown = JSON.parse(v.rawJson.trim() || '{}');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { problems: [{ pointer: '', message: 'must be a JSON object' }] };
    return { args: parsed as Record<string, unknown>, problems: [] };
  } catch (error) {
    return { problems: [{ pointer: '', message: `are not valid JSON: ${error instanceof Error ? error.message : String(error)}` }] };
  }
}

function submit(): void {
  const v = view;
  if (!v || v.running || v.pending) return;
  const { args, problems } = currentArguments(v);
  v.issues = problems;
  if (problems.length || !args) {
    v.status = { text: 'Not sent: fix the arguments first.', kind: 'error' };
    render();
    return;
  }
  v.pending = `wv-${Date.now().toString(36)}-${++requestCounter}`;
  v.status = { text: 'Checking the arguments…', kind: 'info' };
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

// ---------------------------------------------------------------------------------------
// progress and result

function renderProgress(): void {
  const holder = document.getElementById('progress');
  if (!holder || !view) return;
  const running = view.running;
  if (!running) {
    holder.replaceChildren();
    return;
  }
  if (running.awaitingUser) {
    // The server asked for sampling or elicitation: the call waits for the user, not the server.
    holder.replaceChildren(h('div', { class: 'progress awaiting-user', id: 'awaiting-user', role: 'status' },
      h('span', {}, 'The server is waiting for your answer in MCP Requests.'),
      button('Show MCP Requests', () => post({ type: 'showRequests' }), { class: 'link', id: 'show-requests' })));
    return;
  }
  const p = running.progress;
  const bar = h('progress', { 'aria-label': 'Tool progress' });
  if (p?.total) {
    bar.max = p.total;
    bar.value = Math.min(p.progress, p.total);
  }
  holder.replaceChildren(h('div', { class: 'progress' }, bar,
    h('span', {}, p ? (p.message ?? (p.total ? `${p.progress} / ${p.total}` : `${p.progress}`)) : 'Waiting for the server…')));
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function renderOutcome(requestId: string, outcome: RunOutcome): HTMLElement {
  const took = h('span', { class: 'muted' }, ` ${outcome.durationMs} ms`);
  switch (outcome.kind) {
    case 'result': {
      const section = h('div', { class: outcome.isError ? 'outcome tool-error' : 'outcome' },
        h('h2', {}, outcome.isError ? 'Tool error' : 'Result', took),
        outcome.isError ? h('p', { class: 'error-text' }, 'The tool ran and reported a failure (isError: true):') : undefined,
      );
      if (outcome.blocks.length === 0) section.append(h('p', { class: 'muted' }, '(no content)'));
      for (const block of outcome.blocks) section.append(renderBlock(requestId, block));
      if (outcome.structured) {
        const validation = outcome.structured.validation;
        const badge = validation === undefined
          ? h('span', { class: 'badge info' }, 'no outputSchema')
          : validation.valid === true
            ? h('span', { class: 'badge safe' }, 'matches outputSchema')
            : validation.valid === false
              ? h('span', { class: 'badge warning' }, 'does not match outputSchema')
              : h('span', { class: 'badge warning' }, 'outputSchema could not be compiled');
        section.append(h('div', { class: 'block structured' },
          h('h3', {}, 'Structured content ', badge),
          validation?.valid === false ? h('ul', { class: 'issues' }, ...validation.issues.map((i) => h('li', {}, i))) : undefined,
          validation?.valid === undefined && validation ? h('p', { class: 'muted' }, validation.schemaError) : undefined,
          h('pre', {}, outcome.structured.json)));
      }
      return section;
    }
    case 'protocolError':
      return h('div', { class: 'outcome protocol-error' },
        h('h2', {}, 'Protocol error ', h('code', {}, String(outcome.code)), took),
        h('p', { class: 'error-text' }, outcome.message),
        h('p', { class: 'muted' }, 'The server answered the tools/call request with a JSON-RPC error; the tool did not run.'),
        outcome.data ? h('pre', {}, outcome.data) : undefined);
    case 'failure':
      return h('div', { class: 'outcome protocol-error' }, h('h2', {}, 'Call failed', took), h('p', { class: 'error-text' }, outcome.message));
    case 'cancelled':
      return h('div', { class: 'outcome' }, h('h2', {}, 'Cancelled', took), h('p', { class: 'muted' }, 'The call was cancelled; the server was sent notifications/cancelled.'));
  }
}

function renderBlock(requestId: string, block: ResultBlock): HTMLElement {
  switch (block.kind) {
    case 'text':
      return h('div', { class: 'block' }, h('pre', { class: 'text' }, block.text));
    case 'markdown': {
      const body = h('div', { class: 'markdown' });
      // Safe: `html` is produced by markdownLite.ts from escaped text and contains only its own tags.
      body.innerHTML = block.html;
      const source = h('details', {}, h('summary', {}, 'Source'), h('pre', { class: 'text' }, block.text));
      return h('div', { class: 'block' }, body, source);
    }
    case 'image':
      return h('div', { class: 'block' }, h('img', { src: block.dataUri, alt: `image (${block.mimeType})` }), h('div', { class: 'hints' }, `${block.mimeType}, ${formatBytes(block.bytes)}`));
    case 'audio':
      return h('div', { class: 'block' }, h('audio', { controls: true, src: block.dataUri }), h('div', { class: 'hints' }, `${block.mimeType}, ${formatBytes(block.bytes)}`));
    case 'resourceLink': {
      const link = h('a', { href: '#', title: `Open ${block.uri}` }, block.title ?? block.name);
      link.addEventListener('click', (e) => {
        e.preventDefault();
        post({ type: 'openResource', uri: block.uri });
      });
      const meta = [block.uri, block.mimeType, block.size !== undefined ? formatBytes(block.size) : undefined].filter(Boolean).join(' · ');
      return h('div', { class: 'block resource' }, h('span', { class: 'badge info' }, 'resource link'), ' ', link,
        h('div', { class: 'hints' }, meta), block.description ? h('div', { class: 'desc' }, block.description) : undefined);
    }
    case 'resourceText':
      return h('div', { class: 'block resource' }, h('span', { class: 'badge info' }, 'embedded resource'), ' ', h('code', {}, block.uri),
        block.mimeType ? h('span', { class: 'hints' }, ` ${block.mimeType}`) : undefined, h('pre', { class: 'text' }, block.text));
    case 'resourceBlob':
      return h('div', { class: 'block resource' }, h('span', { class: 'badge info' }, 'embedded resource'), ' ', h('code', {}, block.uri),
        h('div', { class: 'hints' }, `${block.mimeType ?? 'binary'}, ${formatBytes(block.bytes)}`),
        button('Save…', () => post({ type: 'saveBlob', requestId, index: block.index }), { class: 'secondary small' }));
    case 'unknown':
      return h('div', { class: 'block' }, h('span', { class: 'badge warning' }, `content type "${block.type}"`), h('pre', {}, block.json));
  }
}
