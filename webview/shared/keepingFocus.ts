// Drawing a page anew without moving the user: the control that had the focus gets it back, with
// its caret and selection. Run Tool and MCP Requests (approval) draw their pages anew when the
// host's state changes, and whoever was typing meanwhile must go on typing where they were.
// Controls are found again by their field's `data-pointer` and place in it (Run Tool's form), else
// by their own id, except ids handed out per drawing (`f1`, `f2`, …: Run Tool's newId).

/** A control of the page, found again in the page drawn anew: its field's pointer and place in it, or its own id. */
interface ControlKey {
  pointer?: string;
  index: number;
  id?: string;
}

type TextControl = HTMLInputElement | HTMLTextAreaElement;

/**
 * Runs `draw`, which replaces what `root` holds, and gives the focus back to the control that had
 * it, with its caret and selection (the text typed so far must be in the page's model already:
 * each keystroke saved, as both pages do).
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
  // Ids handed out per drawing (Run Tool's newId) change with every drawing; the page's own ids do not.
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
