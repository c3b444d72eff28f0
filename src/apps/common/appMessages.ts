/**
 * Checks the JSON-RPC messages that cross the app frame's boundary. Both the webview (before
 * relaying what the frame posted) and the extension host (before the AppBridge sees it) run
 * the same check: a message must be a JSON-RPC 2.0 request, notification or response of
 * bounded size, with a method name and id of sane shape. Anything else is dropped.
 */

export type AppJsonRpcMessage =
  | { jsonrpc: '2.0'; id: string | number; method: string; params?: Record<string, unknown> }
  | { jsonrpc: '2.0'; method: string; params?: Record<string, unknown> }
  | { jsonrpc: '2.0'; id: string | number; result: Record<string, unknown> }
  | { jsonrpc: '2.0'; id: string | number | null; error: { code: number; message: string; data?: unknown } };

/** Largest message accepted from an app (a download may carry a file as base64). */
export const MAX_APP_MESSAGE_CHARS = 16 * 1024 * 1024;
const METHOD = /^[A-Za-z][\w./-]{0,127}$/;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is string | number => (typeof v === 'string' && v.length <= 256) || (typeof v === 'number' && Number.isFinite(v));

/**
 * The message as a well-formed JSON-RPC message (a structural copy: no prototypes or
 * getters survive), or undefined with `reason` set on the returned object's absence.
 */
export function parseAppMessage(raw: unknown): { message: AppJsonRpcMessage } | { reason: string } {
  let text: string;
  try {
    text = JSON.stringify(raw) ?? '';
  } catch {
    return { reason: 'not serializable' };
  }
  if (text.length > MAX_APP_MESSAGE_CHARS) return { reason: `too large (${text.length} characters)` };
  const copy: unknown = JSON.parse(text || 'null');
  if (!isRecord(copy) || copy.jsonrpc !== '2.0') return { reason: 'not JSON-RPC 2.0' };
  if ('method' in copy) {
    if (typeof copy.method !== 'string' || !METHOD.test(copy.method)) return { reason: 'bad method name' };
    if (copy.params !== undefined && !isRecord(copy.params)) return { reason: 'params is not an object' };
    if ('id' in copy && !isId(copy.id)) return { reason: 'bad id' };
    const base = { jsonrpc: '2.0' as const, method: copy.method, ...(copy.params ? { params: copy.params } : {}) };
    return { message: 'id' in copy ? { ...base, id: copy.id as string | number } : base };
  }
  if (isRecord(copy.result)) {
    return isId(copy.id) ? { message: { jsonrpc: '2.0', id: copy.id, result: copy.result } } : { reason: 'bad id' };
  }
  if (isRecord(copy.error)) {
    const { code, message, data } = copy.error;
    if (!Number.isInteger(code) || typeof message !== 'string') return { reason: 'malformed error' };
    if (copy.id !== null && !isId(copy.id)) return { reason: 'bad id' };
    return {
      message: {
        jsonrpc: '2.0',
        id: copy.id as string | number | null,
        error: { code: code as number, message: message.slice(0, 4000), ...(data !== undefined ? { data } : {}) },
      },
    };
  }
  return { reason: 'neither request, notification nor response' };
}
