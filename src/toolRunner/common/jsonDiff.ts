/**
 * A structural diff of two JSON values (two tool results of the Run Tool history): which
 * members were added, removed or changed, each located by a readable path
 * (`structuredContent.items[2].name`). Arrays are compared index by index: tool results are
 * mostly short lists whose order means something (content items), and a positional diff says
 * plainly "item 3 changed". Pure; the host computes it and the webview shows it.
 */

export type DiffKind = 'added' | 'removed' | 'changed';

export interface DiffChange {
  kind: DiffKind;
  /** Where: `''` for the whole value, else `a.b[0].c` (odd keys quoted: `["a.b"]`). */
  path: string;
  /** The value before, as compact JSON (absent when added), cut at the preview length. */
  before?: string;
  /** The value after, as compact JSON (absent when removed), cut at the preview length. */
  after?: string;
}

export interface JsonDiff {
  changes: DiffChange[];
  /** More changes than `maxChanges` were found: only the first ones are listed. */
  truncated: boolean;
}

export interface DiffOptions {
  /** At most this many changes are listed (a result rewritten from top to bottom would list thousands). */
  maxChanges?: number;
  /** Values longer than this many characters of JSON are cut in the previews. */
  maxPreview?: number;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `a.b`, `a[0]`, `a["odd key"]`. */
export function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  if (IDENTIFIER.test(key)) return parent ? `${parent}.${key}` : key;
  return `${parent}[${JSON.stringify(key)}]`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function preview(value: unknown, max: number): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

/** The changes that turn `before` into `after`. Equal values give no changes. */
export function diffJson(before: unknown, after: unknown, options: DiffOptions = {}): JsonDiff {
  const maxChanges = options.maxChanges ?? 500;
  const maxPreview = options.maxPreview ?? 400;
  const changes: DiffChange[] = [];
  let truncated = false;
  const push = (change: DiffChange): boolean => {
    if (changes.length >= maxChanges) {
      truncated = true;
      return false;
    }
    changes.push(change);
    return true;
  };
  const walk = (a: unknown, b: unknown, path: string): boolean => {
    if (Array.isArray(a) && Array.isArray(b)) {
      const common = Math.min(a.length, b.length);
      for (let i = 0; i < common; i++) if (!walk(a[i], b[i], childPath(path, i))) return false;
      for (let i = common; i < b.length; i++) if (!push({ kind: 'added', path: childPath(path, i), after: preview(b[i], maxPreview) })) return false;
      for (let i = common; i < a.length; i++) if (!push({ kind: 'removed', path: childPath(path, i), before: preview(a[i], maxPreview) })) return false;
      return true;
    }
    if (isRecord(a) && isRecord(b)) {
      for (const key of Object.keys(a)) {
        const next = childPath(path, key);
        if (!(key in b)) {
          if (!push({ kind: 'removed', path: next, before: preview(a[key], maxPreview) })) return false;
        } else if (!walk(a[key], b[key], next)) return false;
      }
      for (const key of Object.keys(b)) {
        if (!(key in a) && !push({ kind: 'added', path: childPath(path, key), after: preview(b[key], maxPreview) })) return false;
      }
      return true;
    }
    if (a === b || (typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b))) return true;
    return push({ kind: 'changed', path, before: preview(a, maxPreview), after: preview(b, maxPreview) });
  };
  walk(before, after, '');
  return { changes, truncated };
}
