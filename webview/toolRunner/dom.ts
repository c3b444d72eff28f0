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
