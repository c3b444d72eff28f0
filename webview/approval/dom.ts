/**
 * DOM builders of the approval panel. Apart from main.ts so that the form controls
 * (formFields.ts) and the panel build elements the same way without importing each other.
 */

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string | undefined)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) if (c !== undefined) node.append(c);
  return node;
}

export function button(id: string, label: string, onClick: () => void, kind: 'primary' | 'secondary' = 'secondary', disabled = false): HTMLButtonElement {
  const b = el('button', { id, type: 'button', class: kind });
  b.textContent = label;
  b.disabled = disabled;
  b.addEventListener('click', onClick);
  return b;
}
