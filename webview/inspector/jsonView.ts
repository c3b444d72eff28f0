// A foldable JSON view built with DOM nodes and textContent only (server text never becomes
// markup): objects and arrays are <details> that open to the first levels; a very large value
// falls back to pretty text, which the browser shows without building thousands of nodes.

import * as l10n from '@vscode/l10n';

const MAX_NODES = 4000;
const OPEN_DEPTH = 3;

function el(tag: string, className: string, text?: string): HTMLElement {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function scalar(value: unknown): HTMLElement {
  if (typeof value === 'string') return el('span', 'json-string', JSON.stringify(value));
  if (typeof value === 'number') return el('span', 'json-number', String(value));
  if (typeof value === 'boolean') return el('span', 'json-boolean', String(value));
  return el('span', 'json-null', 'null');
}

function countNodes(value: unknown, limit: number): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length && count <= limit) {
    const v = stack.pop();
    count++;
    if (Array.isArray(v)) stack.push(...v);
    else if (v && typeof v === 'object') stack.push(...Object.values(v));
  }
  return count;
}

function node(key: string | undefined, value: unknown, depth: number, last: boolean): HTMLElement {
  const comma = last ? '' : ',';
  const keyLabel = key === undefined ? undefined : el('span', 'json-key', `${JSON.stringify(key)}: `);
  if (value === null || typeof value !== 'object') {
    const line = el('div', 'json-line');
    if (keyLabel) line.append(keyLabel);
    line.append(scalar(value), comma);
    return line;
  }
  const isArray = Array.isArray(value);
  const entries: [string | undefined, unknown][] = isArray ? value.map((v) => [undefined, v]) : Object.entries(value as Record<string, unknown>);
  const [open, close] = isArray ? ['[', ']'] : ['{', '}'];
  if (!entries.length) {
    const line = el('div', 'json-line');
    if (keyLabel) line.append(keyLabel);
    line.append(`${open}${close}${comma}`);
    return line;
  }
  const details = document.createElement('details');
  details.className = 'json-fold';
  details.open = depth < OPEN_DEPTH;
  const summary = document.createElement('summary');
  if (keyLabel) summary.append(keyLabel);
  summary.append(
    open,
    el(
      'span',
      'json-count',
      ` ${isArray ? (entries.length === 1 ? l10n.t('1 item') : l10n.t('{0} items', entries.length)) : entries.length === 1 ? l10n.t('1 key') : l10n.t('{0} keys', entries.length)} `,
    ),
  );
  details.append(summary);
  const body = el('div', 'json-body');
  entries.forEach(([k, v], i) => body.append(node(k, v, depth + 1, i === entries.length - 1)));
  details.append(body, el('div', 'json-close', `${close}${comma}`));
  return details;
}

/** The value as a foldable tree (or pretty text past MAX_NODES). */
export function renderJson(value: unknown): HTMLElement {
  if (countNodes(value, MAX_NODES) > MAX_NODES) return el('pre', 'json-text', JSON.stringify(value, null, 2));
  const root = el('div', 'json-tree');
  root.append(node(undefined, value, 0, true));
  return root;
}
