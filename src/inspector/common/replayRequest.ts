/**
 * Replay in the Inspector: which recorded requests can be sent again, the params the user
 * edits (as JSON text), and the call the host makes from the edited text. Pure: the webview
 * checks the text with the same `parseParamsText` the host uses before sending.
 *
 * The params shown are the redacted ones (the log's getters are the only way to them). A
 * `«redacted»` left in place by the user is put back from the unredacted tool arguments the
 * log keeps for Re-run (tools/call only, never shown); anywhere else it cannot be, and the
 * replay is refused with a one-line reason rather than sending the placeholder to the server.
 */
import { parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { REDACTED } from '../../shared/common/redact';

/** Requests that are part of the session itself, or streams: replaying them would break or hang the connection. */
const NOT_REPLAYABLE = new Set(['initialize', 'subscriptions/listen']);

export interface ReplayableRecord {
  kind: 'request' | 'notification';
  direction: 'send' | 'receive';
  method: string;
}

/** Why this exchange cannot be replayed, or undefined when it can. */
export function replayUnavailable(record: ReplayableRecord): string | undefined {
  if (record.kind !== 'request') return 'Only requests can be replayed; this is a notification.';
  if (record.direction !== 'send') return 'Only requests this client sent can be replayed; the server sent this one.';
  if (NOT_REPLAYABLE.has(record.method)) return `${record.method} belongs to the connection itself and is not replayed.`;
  return undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The params the user edits: the recorded ones without what the client sets by itself on
 * every request (`_meta`: progress token, log level) and, for tools/call, the `task` request.
 */
export function editableParams(method: string, request: unknown): Record<string, unknown> {
  const params = isRecord(request) && isRecord(request.params) ? request.params : {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) {
    if (key === '_meta' || (method === 'tools/call' && key === 'task')) continue;
    out[key] = value;
  }
  return out;
}

export type ParsedParams = { ok: true; params: Record<string, unknown> } | { ok: false; error: string };

/** The edited text as params: a JSON object, or a one-line error naming the line and column. */
export function parseParamsText(text: string): ParsedParams {
  if (!text.trim()) return { ok: true, params: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: `Not valid JSON${whereWrong(text)}` };
  }
  if (!isRecord(value)) return { ok: false, error: 'The params must be a JSON object ({ … }).' };
  return { ok: true, params: value };
}

/** ` (line L, column C): what is wrong`, from jsonc-parser (JSON.parse's messages differ by engine and often lack a position). */
function whereWrong(text: string): string {
  const errors: ParseError[] = [];
  parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  const first = errors[0];
  if (!first) return '';
  const before = text.slice(0, first.offset);
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  const what = printParseErrorCode(first.error)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return ` (line ${line}, column ${column}): ${what}`;
}

/**
 * Puts the real values back where the edited value still holds exactly what the redacted
 * original held at the same place, and that place was redacted; everything the user changed is kept.
 */
export function restoreRedacted(edited: unknown, redacted: unknown, original: unknown): unknown {
  if (typeof edited === 'string') {
    return edited === redacted && edited.includes(REDACTED) && original !== undefined ? original : edited;
  }
  if (Array.isArray(edited)) {
    return edited.map((v, i) => restoreRedacted(v, Array.isArray(redacted) ? redacted[i] : undefined, Array.isArray(original) ? original[i] : undefined));
  }
  if (isRecord(edited)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(edited))
      out[k] = restoreRedacted(v, isRecord(redacted) ? redacted[k] : undefined, isRecord(original) ? original[k] : undefined);
    return out;
  }
  return edited;
}

/** The path of the first string that still holds `«redacted»`, or undefined. */
export function firstRedacted(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes(REDACTED) ? path || '(the params)' : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = firstRedacted(value[i], `${path}[${i}]`);
      if (found) return found;
    }
  } else if (isRecord(value)) {
    for (const [k, v] of Object.entries(value)) {
      const found = firstRedacted(v, path ? `${path}.${k}` : k);
      if (found) return found;
    }
  }
  return undefined;
}

/** A copy without the members whose value holds `«redacted»` (Open in Run Tool: the form asks for them). */
export function withoutRedacted(args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) if (firstRedacted(v) === undefined) out[k] = v;
  return out;
}

/** How the host sends a replay: through the connection's own call for the method, else as a plain request. */
export type ReplayPlan =
  | { kind: 'tool'; name: string; arguments?: Record<string, unknown> }
  | { kind: 'resource'; uri: string }
  | { kind: 'prompt'; name: string; arguments?: Record<string, string> }
  | { kind: 'request'; method: string; params: Record<string, unknown> };

export interface ReplaySource {
  method: string;
  /** The recorded request, redacted (what the user saw). */
  request: unknown;
  /** For tools/call: the unredacted name and arguments the log keeps for Re-run. */
  rerun?: { name: string; arguments?: Record<string, unknown> };
}

/** The call to make from the edited params text, or a one-line reason not to send it. */
export function planReplay(source: ReplaySource, text: string): { ok: true; plan: ReplayPlan } | { ok: false; error: string } {
  const parsed = parseParamsText(text);
  if (!parsed.ok) return parsed;
  let params = parsed.params;
  if (source.method === 'tools/call' && source.rerun && isRecord(params.arguments)) {
    const redactedArgs = isRecord(source.request) && isRecord(source.request.params) ? source.request.params.arguments : undefined;
    params = { ...params, arguments: restoreRedacted(params.arguments, redactedArgs, source.rerun.arguments) };
  }
  const left = firstRedacted(params);
  if (left) return { ok: false, error: `${left} still holds ${REDACTED}: type the real value (it is not kept), or remove it.` };
  switch (source.method) {
    case 'tools/call': {
      if (typeof params.name !== 'string' || !params.name) return { ok: false, error: 'tools/call needs "name": the tool to call.' };
      if (params.arguments !== undefined && !isRecord(params.arguments)) return { ok: false, error: '"arguments" must be a JSON object.' };
      return { ok: true, plan: { kind: 'tool', name: params.name, ...(params.arguments !== undefined ? { arguments: params.arguments } : {}) } };
    }
    case 'resources/read':
      if (typeof params.uri !== 'string' || !params.uri) return { ok: false, error: 'resources/read needs "uri": the resource to read.' };
      return { ok: true, plan: { kind: 'resource', uri: params.uri } };
    case 'prompts/get': {
      if (typeof params.name !== 'string' || !params.name) return { ok: false, error: 'prompts/get needs "name": the prompt to get.' };
      const args = params.arguments;
      if (args !== undefined && (!isRecord(args) || Object.values(args).some((v) => typeof v !== 'string'))) {
        return { ok: false, error: 'Prompt "arguments" must be an object of strings.' };
      }
      return { ok: true, plan: { kind: 'prompt', name: params.name, ...(args !== undefined ? { arguments: args as Record<string, string> } : {}) } };
    }
    default:
      return { ok: true, plan: { kind: 'request', method: source.method, params } };
  }
}

/** Whether a request the client sent is the replay: same method, and same tool, prompt or resource. */
export function isReplayOf(plan: ReplayPlan, method: string, params: unknown): boolean {
  const p = isRecord(params) ? params : {};
  switch (plan.kind) {
    case 'tool':
      return method === 'tools/call' && p.name === plan.name;
    case 'prompt':
      return method === 'prompts/get' && p.name === plan.name;
    case 'resource':
      return method === 'resources/read' && p.uri === plan.uri;
    case 'request':
      return method === plan.method;
  }
}
