// The Run Tool webview's argument editors: the form built from the field model (one input per
// field, nested for objects, arrays and choices), the raw-JSON editor, and the problems found
// in the arguments, listed above the form and marked on the fields they belong to. Every edit
// goes straight into the view's values and is saved; the page is redrawn when the shape of
// the form changes (an item added or removed, another choice picked).
import * as l10n from '@vscode/l10n';
import { defaultValues, type FieldProblem } from '../../src/jsonSchema/common/formValues';
import { constraintHints, escapePointer, type FormField, type Json } from '../../src/jsonSchema/common/schemaFields';
import { button, h, newId } from './dom';
import type { ViewState } from './viewState';

/** What the form needs from the page around it. */
export interface FormActions {
  /** Keep the values (setState), after every edit. */
  save(): void;
  /** Run the tool (Enter in the form). */
  submit(): void;
  /** Redraw the page after the form's shape changed, then focus the field at `focusPointer`. */
  rerender(focusPointer?: string): void;
}

export function renderIssues(v: ViewState): HTMLElement {
  const unsupported =
    v.mode === 'form' && v.form.unsupported.length
      ? h(
          'div',
          { class: 'note' },
          l10n.t('Parts of the schema are edited as JSON:'),
          ' ',
          ...v.form.unsupported.map((u, i) => h('span', {}, i ? '; ' : '', h('code', {}, u.pointer || l10n.t('(arguments)')), ` ${u.reason}`)),
        )
      : undefined;
  const issues = v.issues.length
    ? h(
        'ul',
        { class: 'issues', role: 'alert' },
        ...v.issues.map((i) => h('li', {}, h('code', {}, i.pointer ? i.pointer.slice(1).replace(/\//g, '.') : l10n.t('arguments')), ` ${i.message}`)),
      )
    : undefined;
  return h('div', {}, unsupported, issues);
}

export function renderForm(v: ViewState, actions: FormActions): HTMLElement {
  const form = h('form', { class: 'form', novalidate: true });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    actions.submit();
  });
  if (v.form.root.fields.length === 0) form.append(h('p', { class: 'muted' }, l10n.t('This tool takes no arguments.')));
  const holder = { root: v.values };
  if (typeof holder.root !== 'object' || holder.root === null || Array.isArray(holder.root)) holder.root = defaultValues(v.form.root);
  v.values = holder.root;
  for (const field of v.form.root.fields) {
    form.append(renderField(field, holder.root as Record<string, Json>, field.name ?? '', `/${escapePointer(field.name ?? '')}`, actions));
  }
  return form;
}

export function renderJsonEditor(v: ViewState, actions: FormActions): HTMLElement {
  const area = h('textarea', { class: 'json', id: 'raw-json', spellcheck: 'false', rows: '14', 'aria-label': l10n.t('Arguments as JSON') });
  area.value = v.rawJson;
  area.addEventListener('input', () => {
    v.rawJson = area.value;
    actions.save();
  });
  return h(
    'div',
    { class: 'json-editor' },
    !v.form.formSupported
      ? h(
          'p',
          { class: 'note' },
          l10n.t('The input schema cannot be shown as a form ({0}); edit the arguments as JSON.', v.form.unsupported[0]?.reason ?? l10n.t('unsupported')),
        )
      : undefined,
    area,
    h('details', {}, h('summary', {}, l10n.t('Input schema')), h('pre', { class: 'schema' }, v.tool.inputSchemaJson)),
  );
}

/** Renders one field whose value lives at `container[key]`; `pointer` locates it in the arguments. */
function renderField(
  field: FormField,
  container: Record<string, Json> | Json[],
  key: string | number,
  pointer: string,
  actions: FormActions,
  itemLabel?: string,
): HTMLElement {
  const get = (): Json => (container as Record<string, Json>)[key as string];
  const set = (value: Json) => {
    (container as Record<string, Json>)[key as string] = value;
    actions.save();
  };
  const id = newId();
  const wrap = h('div', { class: `field kind-${field.kind}`, 'data-pointer': pointer });
  const label = itemLabel ?? field.label;
  const labelEl = h(
    'label',
    { for: id },
    label,
    field.required && itemLabel === undefined ? h('span', { class: 'required', title: l10n.t('required') }, ' *') : undefined,
    field.name && field.name !== label ? h('code', { class: 'prop' }, field.name) : undefined,
    field.deprecated ? h('span', { class: 'badge warning' }, l10n.t('deprecated')) : undefined,
  );
  const hints = constraintHints(field);
  const after: HTMLElement[] = [h('div', { class: 'error', id: `${id}-error` })];
  if (hints.length) after.unshift(h('div', { class: 'hints' }, hints.join(' · ')));
  const description = field.description ? h('div', { class: 'desc' }, field.description) : undefined;

  switch (field.kind) {
    case 'string': {
      const type = field.secret
        ? 'password'
        : (({ email: 'email', uri: 'url', url: 'url', date: 'date', time: 'time' } as Record<string, string>)[field.format ?? ''] ?? undefined);
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
      const input = h('input', {
        id,
        type: 'text',
        inputmode: field.kind === 'integer' ? 'numeric' : 'decimal',
        placeholder: field.default !== undefined ? String(field.default) : '',
      });
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
      const select = h(
        'select',
        { id },
        h('option', { value: '' }, l10n.t('(not set)')),
        h('option', { value: 'true' }, 'true'),
        h('option', { value: 'false' }, 'false'),
      );
      select.value = get() === true ? 'true' : get() === false ? 'false' : '';
      select.addEventListener('change', () => set(select.value === '' ? null : select.value === 'true'));
      wrap.append(labelEl, description ?? '', select, ...after);
      return wrap;
    }
    case 'enum': {
      const select = h(
        'select',
        { id },
        h('option', { value: '' }, l10n.t('(not set)')),
        ...field.options.map((o, i) => h('option', { value: String(i) }, o.label)),
      );
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
      wrap.append(labelEl, description ?? '', area, h('div', { class: 'hints' }, l10n.t('JSON: {0}', field.reason)), ...after);
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
        const remove = button(
          l10n.t('Remove'),
          () => {
            list.splice(i, 1);
            actions.save();
            actions.rerender();
          },
          { class: 'link', title: l10n.t('Remove item {0}', i + 1), disabled: field.minItems !== undefined && list.length <= field.minItems },
        );
        const row = h('div', { class: 'array-item' }, renderField(field.items, list, i, `${pointer}/${i}`, actions, `${i + 1}.`), remove);
        fieldset.append(row);
      });
      fieldset.append(
        button(
          l10n.t('Add item'),
          () => {
            list.push(defaultValues(field.items));
            actions.save();
            actions.rerender(`${pointer}/${list.length - 1}`);
          },
          { class: 'secondary small', disabled: field.maxItems !== undefined && list.length >= field.maxItems },
        ),
      );
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
      for (const child of field.fields) fieldset.append(renderField(child, record, child.name ?? '', `${pointer}/${escapePointer(child.name ?? '')}`, actions));
      if (field.fields.length === 0) fieldset.append(h('p', { class: 'muted' }, l10n.t('(no properties)')));
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
      const select = h(
        'select',
        { id, 'aria-label': l10n.t('{0}: kind of value', label) },
        ...field.options.map((o, i) => h('option', { value: String(i) }, o.label)),
      );
      select.value = String(choice.option);
      select.addEventListener('change', () => {
        const option = Number(select.value);
        choice.option = option;
        choice.value = defaultValues(field.options[option].field);
        actions.save();
        actions.rerender();
      });
      const option = field.options[choice.option] ?? field.options[0];
      const holder = choice as unknown as Record<string, Json>;
      const inner = renderField(
        { ...option.field, description: undefined },
        holder,
        'value',
        pointer,
        actions,
        option.field.kind === 'object' ? '' : l10n.t('value'),
      );
      const fieldset = h('fieldset', { class: 'choice' }, h('legend', {}, labelEl));
      if (description) fieldset.append(description);
      fieldset.append(h('div', { class: 'hints' }, field.combinator === 'oneOf' ? l10n.t('one of:') : l10n.t('any of:')), select, inner, ...after);
      wrap.append(fieldset);
      return wrap;
    }
  }
}

export function markIssues(issues: FieldProblem[]): void {
  for (const issue of issues) {
    const field = document.querySelector(`.field[data-pointer="${CSS.escape(issue.pointer)}"]`);
    if (!field) continue;
    field.classList.add('invalid');
    const error = field.querySelector(':scope > .error, :scope > fieldset > .error');
    if (error) error.textContent = error.textContent ? `${error.textContent}; ${issue.message}` : issue.message;
  }
  if (issues.length) (document.querySelector('.field.invalid :is(input, textarea, select)') as HTMLElement | null)?.focus();
}
