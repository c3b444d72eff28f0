// DOM helpers for the Run Tool webview: build elements and buttons, hand out unique ids.

type Child = Node | string | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<Record<string, string | boolean>> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === false) continue;
    if (key === 'class') el.className = String(value);
    else el.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children) if (child !== undefined && child !== false) el.append(child);
  return el;
}

export function button(label: string, onClick: () => void, props: Partial<Record<string, string | boolean>> = {}): HTMLButtonElement {
  const el = h('button', { type: 'button', ...props }, label);
  el.addEventListener('click', onClick);
  return el;
}

let idCounter = 0;
export const newId = () => `f${++idCounter}`;

/** A control of the page, found again in the page drawn anew: its field's pointer and place in it, or its own id. */
interface ControlKey {
  pointer?: string;
  index: number;
  id?: string;
}

type TextControl = HTMLInputElement | HTMLTextAreaElement;

/**
 * Runs `draw`, which replaces what `root` holds, and gives the focus back to the control that had
 * it, with its caret and selection: the page is drawn anew when a run ends, its history arrives or
 * the tool's schema changes, and whoever was typing the next arguments meanwhile must go on typing
 * where they were (the text typed so far is in the model already: each keystroke is saved).
 */
export function keepingFocus(root: HTMLElement, draw: () => void): void {
  const focused = document.activeElement;
  // Only while the page has the focus: nobody types into a page in the background, and focusing
  // there must not take the focus from the editor (a re-run from a key keeps it where it was).
  const key = document.hasFocus() && focused instanceof HTMLElement && root.contains(focused) ? controlKey(focused) : undefined;
  const caret = isTextControl(focused) ? ([focused.selectionStart ?? 0, focused.selectionEnd ?? 0, focused.selectionDirection ?? 'none'] as const) : undefined;
  draw();
  if (!key) return;
  const again = findControl(root, key);
  if (!again || again === document.activeElement) return;
  again.focus({ preventScroll: true });
  if (caret && isTextControl(again)) again.setSelectionRange(...caret);
}

function controlKey(el: HTMLElement): ControlKey | undefined {
  if (!el.matches('input, textarea, select, button')) return undefined;
  const field = el.closest<HTMLElement>('[data-pointer]');
  if (field) return { pointer: field.dataset.pointer, index: ownControls(field).indexOf(el) };
  // Ids from newId change with every drawing; the page's own ids do not.
  return el.id && !/^f\d+$/.test(el.id) ? { id: el.id, index: 0 } : undefined;
}

function findControl(root: HTMLElement, key: ControlKey): HTMLElement | undefined {
  if (key.id !== undefined) return document.getElementById(key.id) ?? undefined;
  const field = [...root.querySelectorAll<HTMLElement>('[data-pointer]')].find((f) => f.dataset.pointer === key.pointer);
  return field ? ownControls(field)[key.index] : undefined;
}

/** The controls of a field, not those of the fields nested in it. */
function ownControls(field: HTMLElement): HTMLElement[] {
  return [...field.querySelectorAll<HTMLElement>('input, textarea, select, button')].filter((c) => c.closest('[data-pointer]') === field);
}

/** A control with a caret: a textarea, or an input that has a selection (not a checkbox, number or date). */
function isTextControl(el: Element | null): el is TextControl {
  return el instanceof HTMLTextAreaElement || (el instanceof HTMLInputElement && el.selectionStart !== null);
}
