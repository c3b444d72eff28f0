/**
 * Comparing JSON values the way saved tests need: a subset match (`match`) and an exact
 * comparison (snapshots), each giving the JSON paths where expected and actual part, so a
 * failure reads "$.content[0].text: expected "3", got "4"" instead of two walls of JSON.
 */

/** One place where the expected and the actual value differ. */
export interface JsonDifference {
  /** `$`, `$.content[0].text`, `$["odd key"]`. */
  path: string;
  message: string;
  expected?: unknown;
  actual?: unknown;
}

/** How many differences one comparison reports at most: past that, more detail does not help. */
export const MAX_DIFFERENCES = 20;

export function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function typeName(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/**
 * The differences of `actual` from the subset `expected`: members of an expected object must be
 * there and match (others are ignored); each element of an expected array must match a distinct
 * element of the actual array, in any order (a list's `tools` holds the one you name); anything
 * else must be equal.
 */
export function subsetDifferences(expected: unknown, actual: unknown, path = '$', out: JsonDifference[] = []): JsonDifference[] {
  if (out.length >= MAX_DIFFERENCES) return out;
  if (isObject(expected)) {
    if (!isObject(actual)) {
      out.push({ path, message: `expected an object, got ${typeName(actual)}`, expected, actual });
      return out;
    }
    for (const [key, value] of Object.entries(expected)) {
      const p = childPath(path, key);
      if (!(key in actual)) out.push({ path: p, message: 'is missing', expected: value });
      else subsetDifferences(value, actual[key], p, out);
    }
    return out;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) {
      out.push({ path, message: `expected an array, got ${typeName(actual)}`, expected, actual });
      return out;
    }
    const used = new Set<number>();
    expected.forEach((item, i) => {
      const found = actual.findIndex((candidate, j) => !used.has(j) && subsetDifferences(item, candidate).length === 0);
      if (found >= 0) {
        used.add(found);
        return;
      }
      // No element matches: show the differences from the element at the same place, if any.
      if (i < actual.length) subsetDifferences(item, actual[i], childPath(path, i), out);
      else
        out.push({ path: childPath(path, i), message: `is missing (the array has ${actual.length} element${actual.length === 1 ? '' : 's'})`, expected: item });
    });
    return out;
  }
  if (!Object.is(expected, actual)) out.push({ path, message: 'differs', expected, actual });
  return out;
}

/** The differences between two JSON values that must be equal (a stored snapshot and the new result). */
export function exactDifferences(expected: unknown, actual: unknown, path = '$', out: JsonDifference[] = []): JsonDifference[] {
  if (out.length >= MAX_DIFFERENCES) return out;
  if (isObject(expected) && isObject(actual)) {
    for (const key of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
      const p = childPath(path, key);
      if (!(key in actual)) out.push({ path: p, message: 'is missing', expected: expected[key] });
      else if (!(key in expected)) out.push({ path: p, message: 'is new', actual: actual[key] });
      else exactDifferences(expected[key], actual[key], p, out);
    }
    return out;
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const n = Math.max(expected.length, actual.length);
    for (let i = 0; i < n; i++) {
      const p = childPath(path, i);
      if (i >= actual.length) out.push({ path: p, message: 'is missing', expected: expected[i] });
      else if (i >= expected.length) out.push({ path: p, message: 'is new', actual: actual[i] });
      else exactDifferences(expected[i], actual[i], p, out);
    }
    return out;
  }
  if (typeName(expected) !== typeName(actual)) out.push({ path, message: `expected ${typeName(expected)}, got ${typeName(actual)}`, expected, actual });
  else if (!Object.is(expected, actual)) out.push({ path, message: 'differs', expected, actual });
  return out;
}

/** JSON made comparable: what JSON.stringify would keep (undefined members dropped), keys sorted. */
export function normalizeJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : normalizeJson(v)));
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) if (value[key] !== undefined) out[key] = normalizeJson(value[key]);
    return out;
  }
  return value;
}

/** One difference as one line: `$.content[0].text: differs (expected "3", got "4")`. */
export function formatDifference(d: JsonDifference): string {
  const parts: string[] = [];
  if ('expected' in d) parts.push(`expected ${short(d.expected)}`);
  if ('actual' in d) parts.push(`got ${short(d.actual)}`);
  return `${d.path}: ${d.message}${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

type PathSegment = string | number | '*';

/** `$.content[*].annotations` as segments, or undefined when it is not such a path. */
export function parseJsonPath(path: string): PathSegment[] | undefined {
  if (!path.startsWith('$')) return undefined;
  const segments: PathSegment[] = [];
  const token = /\.([A-Za-z_$][\w$]*)|\[(\d+|\*)\]|\[("(?:[^"\\]|\\.)*")\]/y;
  token.lastIndex = 1;
  while (token.lastIndex < path.length) {
    const m = token.exec(path);
    if (!m) return undefined;
    segments.push(m[1] ?? (m[2] === '*' ? '*' : m[2] !== undefined ? Number(m[2]) : (JSON.parse(m[3]) as string)));
  }
  return segments;
}

/** A copy of `value` without what the paths name (`[*]`: every element or member); a path that names nothing is no error. */
export function withoutPaths(value: unknown, paths: readonly PathSegment[][]): unknown {
  const copy = JSON.parse(JSON.stringify(value ?? null)) as unknown;
  const remove = (node: unknown, segments: readonly PathSegment[]): void => {
    if (typeof node !== 'object' || node === null || !segments.length) return;
    const [head, ...rest] = segments;
    const container = node as Record<string | number, unknown>;
    const keys = head === '*' ? Object.keys(container) : [head];
    if (!rest.length) {
      if (Array.isArray(node) && head !== '*') node.splice(Number(head), 1);
      else if (Array.isArray(node)) node.length = 0;
      else for (const key of keys) delete container[key];
      return;
    }
    for (const key of keys) remove(container[key], rest);
  };
  for (const path of paths) {
    if (!path.length) return null;
    remove(copy, path);
  }
  return copy;
}
