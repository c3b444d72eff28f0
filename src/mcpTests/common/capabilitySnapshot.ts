/**
 * The capability snapshot: a server's tools, resources, resource templates and prompts with
 * their schemas, saved, and the difference of a new one classified as breaking (a client written
 * against the old lists fails) or compatible (it keeps working).
 */
import type { ListKind } from './testFormat';
import { childPath, normalizeJson } from './jsonCompare';

export type CapabilitySnapshot = Partial<Record<ListKind, Record<string, unknown>[]>>;

export interface CapabilityChange {
  severity: 'breaking' | 'compatible';
  /** Where: `tools["add"].inputSchema.properties.b`. */
  path: string;
  message: string;
}

/** The members of each list item that make up its contract (not `_meta`, icons or cache hints), sorted by identity. */
const KEPT: Record<ListKind, { id: string; keys: string[] }> = {
  tools: { id: 'name', keys: ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', 'execution'] },
  resources: { id: 'uri', keys: ['uri', 'name', 'title', 'description', 'mimeType'] },
  resourceTemplates: { id: 'uriTemplate', keys: ['uriTemplate', 'name', 'title', 'description', 'mimeType'] },
  prompts: { id: 'name', keys: ['name', 'title', 'description', 'arguments'] },
};

/** The snapshot of the lists as a server returned them. */
export function capabilitySnapshot(lists: Partial<Record<ListKind, readonly unknown[]>>): CapabilitySnapshot {
  const snapshot: CapabilitySnapshot = {};
  for (const kind of Object.keys(KEPT) as ListKind[]) {
    const items = lists[kind];
    if (!items) continue;
    const { id, keys } = KEPT[kind];
    snapshot[kind] = items
      .map((item) =>
        Object.fromEntries(keys.filter((k) => (item as Record<string, unknown>)[k] !== undefined).map((k) => [k, (item as Record<string, unknown>)[k]])),
      )
      .sort((a, b) => String(a[id]).localeCompare(String(b[id])));
  }
  return snapshot;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Equal as JSON, whatever the order of members (a stored snapshot has them sorted). */
const same = (a: unknown, b: unknown) => JSON.stringify(normalizeJson(a)) === JSON.stringify(normalizeJson(b));

/** The changes from `before` to `after`, breaking ones first. */
export function diffCapabilities(before: CapabilitySnapshot, after: CapabilitySnapshot): CapabilityChange[] {
  const changes: CapabilityChange[] = [];
  const add = (severity: CapabilityChange['severity'], path: string, message: string) => changes.push({ severity, path, message });
  for (const kind of Object.keys(KEPT) as ListKind[]) {
    const old = before[kind];
    const now = after[kind];
    if (!old || !now) {
      if (old && !now) add('breaking', kind, `${kind} are no longer listed`);
      else if (!old && now) add('compatible', kind, `${kind} are listed now`);
      continue;
    }
    const { id } = KEPT[kind];
    const byId = (items: Record<string, unknown>[]) => new Map(items.map((i) => [String(i[id]), i]));
    const oldItems = byId(old);
    const newItems = byId(now);
    for (const [key, item] of oldItems) {
      const path = childPath(kind, key);
      const next = newItems.get(key);
      if (!next) {
        add('breaking', path, `${singular(kind)} "${key}" was removed`);
        continue;
      }
      if (kind === 'tools') {
        diffInput(item.inputSchema, next.inputSchema, `${path}.inputSchema`, add);
        diffOutput(item.outputSchema, next.outputSchema, `${path}.outputSchema`, add);
      } else if (kind === 'prompts') diffPromptArguments(item.arguments, next.arguments, `${path}.arguments`, add);
      else if (!same(item.mimeType, next.mimeType))
        add('breaking', `${path}.mimeType`, `the MIME type changed from ${JSON.stringify(item.mimeType)} to ${JSON.stringify(next.mimeType)}`);
      for (const member of ['title', 'description', 'annotations', 'execution', 'name']) {
        if (member !== KEPT[kind].id && !same(item[member], next[member])) add('compatible', `${path}.${member}`, `the ${member} changed`);
      }
    }
    for (const key of newItems.keys()) if (!oldItems.has(key)) add('compatible', childPath(kind, key), `${singular(kind)} "${key}" was added`);
  }
  return changes.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'breaking' ? -1 : 1));
}

type Add = (severity: CapabilityChange['severity'], path: string, message: string) => void;

function singular(kind: ListKind): string {
  return { tools: 'tool', resources: 'resource', resourceTemplates: 'resource template', prompts: 'prompt' }[kind];
}

/** The JSON types a schema allows, or undefined for any. `integer` counts as a kind of `number`. */
function typesOf(schema: unknown): Set<string> | undefined {
  if (!isObject(schema) || schema.type === undefined) return undefined;
  return new Set(Array.isArray(schema.type) ? schema.type.map(String) : [String(schema.type)]);
}

/**
 * What a caller sends: breaking when the schema now refuses what it accepted (a new required
 * member, a type or enum narrowed, a member removed where no others are allowed).
 */
function diffInput(before: unknown, after: unknown, path: string, add: Add): void {
  if (!isObject(before) || !isObject(after)) {
    if (!same(before, after)) add('breaking', path, 'the schema changed shape');
    return;
  }
  const oldTypes = typesOf(before);
  const newTypes = typesOf(after);
  if (newTypes && (!oldTypes || [...oldTypes].some((t) => !newTypes.has(t) && !(t === 'integer' && newTypes.has('number'))))) {
    add('breaking', path, `the type was narrowed from ${oldTypes ? [...oldTypes].join(' | ') : 'any'} to ${[...newTypes].join(' | ')}`);
  } else if (oldTypes && newTypes && !same([...oldTypes].sort(), [...newTypes].sort())) add('compatible', path, 'the type was widened');
  if (Array.isArray(after.enum)) {
    const allowed = after.enum.map((v) => JSON.stringify(v));
    const lost = Array.isArray(before.enum) ? before.enum.filter((v) => !allowed.includes(JSON.stringify(v))) : ['(any value)'];
    if (lost.length)
      add('breaking', path, `no longer accepts ${lost.map((v) => (typeof v === 'string' && v === '(any value)' ? v : JSON.stringify(v))).join(', ')}`);
  }
  const oldRequired = new Set(Array.isArray(before.required) ? before.required.map(String) : []);
  const newRequired = Array.isArray(after.required) ? after.required.map(String) : [];
  const oldProps = isObject(before.properties) ? before.properties : {};
  const newProps = isObject(after.properties) ? after.properties : {};
  for (const name of newRequired) {
    if (!oldRequired.has(name))
      add('breaking', childPath(`${path}.properties`, name), name in oldProps ? `"${name}" is required now` : `a required argument "${name}" was added`);
  }
  for (const name of Object.keys(newProps)) {
    if (!(name in oldProps) && !newRequired.includes(name))
      add('compatible', childPath(`${path}.properties`, name), `an optional argument "${name}" was added`);
  }
  for (const [name, schema] of Object.entries(oldProps)) {
    const p = childPath(`${path}.properties`, name);
    if (!(name in newProps)) {
      if (after.additionalProperties === false) add('breaking', p, `"${name}" was removed and other members are refused`);
      else add('compatible', p, `"${name}" was removed (a caller's value is ignored)`);
    } else diffInput(schema, newProps[name], p, add);
  }
}

/** What a caller reads back: breaking when something it may rely on is gone or of another type. */
function diffOutput(before: unknown, after: unknown, path: string, add: Add): void {
  if (before === undefined) {
    if (after !== undefined) add('compatible', path, 'an output schema was added');
    return;
  }
  if (!isObject(before) || !isObject(after)) {
    add('breaking', path, after === undefined ? 'the output schema was removed' : 'the output schema changed shape');
    return;
  }
  const oldTypes = typesOf(before);
  const newTypes = typesOf(after);
  if (oldTypes && (!newTypes || [...newTypes].some((t) => !oldTypes.has(t) && !(t === 'integer' && oldTypes.has('number'))))) {
    add('breaking', path, `the type changed from ${[...oldTypes].join(' | ')} to ${newTypes ? [...newTypes].join(' | ') : 'any'}`);
  }
  const oldRequired = new Set(Array.isArray(before.required) ? before.required.map(String) : []);
  const newRequired = new Set(Array.isArray(after.required) ? after.required.map(String) : []);
  const oldProps = isObject(before.properties) ? before.properties : {};
  const newProps = isObject(after.properties) ? after.properties : {};
  for (const [name, schema] of Object.entries(oldProps)) {
    const p = childPath(`${path}.properties`, name);
    if (!(name in newProps)) add('breaking', p, `"${name}" is no longer returned`);
    else if (oldRequired.has(name) && !newRequired.has(name)) add('breaking', p, `"${name}" may be missing now`);
    else diffOutput(schema, newProps[name], p, add);
  }
  for (const name of Object.keys(newProps)) if (!(name in oldProps)) add('compatible', childPath(`${path}.properties`, name), `"${name}" is returned now`);
}

function diffPromptArguments(before: unknown, after: unknown, path: string, add: Add): void {
  type Arg = { name: string; required?: boolean };
  const list = (v: unknown): Arg[] => (Array.isArray(v) ? v.filter((a): a is Arg => isObject(a) && typeof a.name === 'string') : []);
  const old = new Map(list(before).map((a) => [a.name, a]));
  const now = new Map(list(after).map((a) => [a.name, a]));
  for (const [name, arg] of now) {
    const p = childPath(path, name);
    const was = old.get(name);
    if (!was)
      add(arg.required ? 'breaking' : 'compatible', p, arg.required ? `a required argument "${name}" was added` : `an optional argument "${name}" was added`);
    else if (arg.required && !was.required) add('breaking', p, `"${name}" is required now`);
    else if (!same(was, arg)) add('compatible', p, `"${name}" changed`);
  }
  for (const name of old.keys()) if (!now.has(name)) add('compatible', childPath(path, name), `"${name}" was removed (a caller's value is ignored)`);
}
