/**
 * The controls of an elicitation form, one per field kind of the requested schema, and the
 * marking and focusing of fields with a problem. Apart from main.ts (the panel: queue, sampling
 * review, URL confirmation) because the field kinds grow with the elicitation schema alone.
 *
 * DOM ids: #field-<name> (checkbox lists: #field-<name>-<i>), #problem-<name>.
 */
import * as l10n from '@vscode/l10n';
import type { ElicitFormView } from '../../src/approval/common/approvalProtocol';
import { elicitationHints, type ElicitationField, type ElicitationValues } from '../../src/approval/common/elicitationForm';
import { el } from './dom';

/** One field's label, control, hints and problem slot; `save` is called after each edit of `values`. */
export function field(f: ElicitationField, values: ElicitationValues, save: () => void, problem: string | undefined): HTMLElement {
  const id = `field-${f.name}`;
  const wrap = el('div', { class: 'field' });
  const label = el('label', { for: id }, f.label, f.required ? el('span', { class: 'required', title: l10n.t('required') }, ' *') : undefined);
  wrap.append(label);
  if (f.description) wrap.append(el('p', { class: 'description' }, f.description));
  switch (f.kind) {
    case 'string':
    case 'number':
    case 'integer': {
      const type = f.kind !== 'string' ? 'text' : f.format === 'email' ? 'email' : f.format === 'uri' ? 'url' : f.format === 'date' ? 'date' : 'text';
      const input = el('input', {
        id,
        type,
        ...(f.kind !== 'string' ? { inputmode: 'decimal' } : {}),
        ...(f.kind === 'string' && f.format === 'date-time' ? { placeholder: '2025-01-31T14:30:00Z' } : {}),
      });
      input.value = typeof values[f.name] === 'string' ? (values[f.name] as string) : '';
      if (f.required) input.required = true;
      input.addEventListener('input', () => {
        values[f.name] = input.value;
        save();
      });
      wrap.append(input);
      break;
    }
    case 'boolean': {
      const input = el('input', { id, type: 'checkbox' });
      input.checked = values[f.name] === true;
      input.addEventListener('change', () => {
        values[f.name] = input.checked;
        save();
      });
      label.prepend(input);
      label.removeAttribute('for');
      break;
    }
    case 'enum': {
      const select = el('select', { id });
      select.append(el('option', { value: '' }, f.required ? l10n.t('— choose —') : l10n.t('(none)')));
      for (const o of f.options) {
        const option = el('option', { value: o.value }, o.label);
        if (values[f.name] === o.value) option.selected = true;
        select.append(option);
      }
      select.addEventListener('change', () => {
        values[f.name] = select.value;
        save();
      });
      wrap.append(select);
      break;
    }
    case 'multiEnum': {
      const list = el('fieldset', { id, class: 'choices' });
      const current = new Set(Array.isArray(values[f.name]) ? (values[f.name] as string[]) : []);
      f.options.forEach((o, i) => {
        const box = el('input', { id: `${id}-${i}`, type: 'checkbox', value: o.value });
        box.checked = current.has(o.value);
        box.addEventListener('change', () => {
          if (box.checked) current.add(o.value);
          else current.delete(o.value);
          values[f.name] = f.options.map((x) => x.value).filter((v) => current.has(v));
          save();
        });
        list.append(el('label', {}, box, ` ${o.label}`));
      });
      wrap.append(list);
      break;
    }
    case 'unsupported':
      wrap.append(el('p', { class: 'error' }, l10n.t('This field cannot be filled in here: {0}', f.reason)));
      break;
  }
  const hints = elicitationHints(f);
  if (hints.length) wrap.append(el('p', { class: 'hint' }, hints.join(' · ')));
  wrap.append(el('p', { class: 'problem', id: `problem-${f.name}`, role: 'alert' }, problem ?? ''));
  if (problem) for (const c of wrap.querySelectorAll('input, select')) c.setAttribute('aria-invalid', 'true');
  return wrap;
}

export function markInvalid(name: string, invalid: boolean): void {
  const wrap = document.getElementById(`problem-${name}`)?.closest('.field');
  for (const c of wrap?.querySelectorAll('input, select') ?? []) {
    if (invalid) c.setAttribute('aria-invalid', 'true');
    else c.removeAttribute('aria-invalid');
  }
}

/** Focuses the first field (in form order) with a problem and scrolls it into view, clear of the sticky action bar. */
export function focusFirstProblem(p: ElicitFormView, names: Set<string>): void {
  const first = p.form.fields.find((f) => names.has(f.name));
  if (!first) return;
  const target = document.getElementById(`field-${first.name}`);
  const focusable = target instanceof HTMLFieldSetElement ? target.querySelector<HTMLElement>('input') : target;
  const wrap = target?.closest('.field') as HTMLElement | null;
  focusable?.focus({ preventScroll: true });
  (wrap ?? focusable)?.scrollIntoView({ block: 'center' });
}
