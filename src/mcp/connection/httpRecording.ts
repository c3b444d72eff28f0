/**
 * The `fetch` every HTTP transport of a connection uses (Streamable HTTP, legacy SSE, and the
 * OAuth requests they make), wrapped for two jobs:
 *
 * - Recording the HTTP exchange for the Inspector: method, URL, headers, status, timing, sizes.
 *   Cheap on purpose (the tool-call path runs through it): the header objects and the body
 *   string the SDK already made are kept by reference, counters are numbers, and nothing is
 *   stringified, parsed or redacted here; the Inspector does that when an exchange is opened.
 *   A response body is passed through a counting stream, so an SSE stream's lifetime and bytes
 *   are known without keeping any event.
 * - Giving each request its own AbortSignal tied to the transport's long-lived one. undici adds
 *   an abort listener to the signal it is given and drops it only at GC, so one shared signal
 *   collects a listener per request (MaxListenersExceededWarning in long sessions). The link is
 *   undone when the request settles: fetch failed, no body, or the body ended or was cancelled.
 *
 * No `vscode` import.
 */
import { errorMessage } from '../../shared/common/errors';

/** One HTTP exchange as recorded: raw (unredacted) and updated in place as it goes on. */
export interface HttpRecord {
  readonly startedAt: number;
  readonly method: string;
  readonly url: string;
  /** As given to fetch (not copied): read only when the exchange is opened, redacted then. */
  readonly requestHeaders: RequestInit['headers'] | undefined;
  /** The body when it is a string (the SDK's JSON-RPC text); other bodies are not kept. */
  readonly requestBody: string | undefined;
  /** Milliseconds from start to the response headers. */
  headersMs?: number;
  status?: number;
  statusText?: string;
  responseHeaders?: Headers;
  /** Milliseconds from start until the response body ended (or the request failed). */
  totalMs?: number;
  /** Bytes of the response body read so far (all of it once `totalMs` is set). */
  responseBytes: number;
  /** `text/event-stream`: a stream whose lifetime is recorded, not its events. */
  stream?: boolean;
  /** Why the request or its body failed (a network error, an abort). */
  error?: string;
}

/**
 * A signal that aborts when `parent` does, and a `release` that removes the one listener it put
 * on `parent` (idempotent). `AbortSignal.any` would do the linking but keeps its own reference
 * from the parent until GC too, which is what this avoids.
 */
export function linkedSignal(parent: AbortSignal): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, release: () => {} };
  }
  const onAbort = () => controller.abort(parent.reason);
  parent.addEventListener('abort', onAbort, { once: true });
  return { signal: controller.signal, release: () => parent.removeEventListener('abort', onAbort) };
}

function methodOf(input: Parameters<typeof fetch>[0], init: RequestInit | undefined): string {
  return (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
}

function urlOf(input: Parameters<typeof fetch>[0]): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}

/**
 * Wraps `inner` (global fetch, or the OAuth wrapper's fetch) so each call is recorded through
 * `observe` (called once per request, with the record it then keeps updating) and gets its own
 * linked AbortSignal. `observe` undefined: only the signal linking.
 */
export function recordingFetch(inner: typeof fetch, observe: ((record: HttpRecord) => void) | undefined): typeof fetch {
  return async (input, init) => {
    const link = init?.signal ? linkedSignal(init.signal) : undefined;
    const call = link ? { ...init, signal: link.signal } : init;
    const startedAt = Date.now();
    const t0 = performance.now();
    const record: HttpRecord | undefined = observe && {
      startedAt,
      method: methodOf(input, init),
      url: urlOf(input),
      requestHeaders: init?.headers,
      requestBody: typeof init?.body === 'string' ? init.body : undefined,
      responseBytes: 0,
    };
    if (record) observe!(record);
    let response: Response;
    try {
      response = await inner(input, call);
    } catch (error) {
      link?.release();
      if (record) {
        record.totalMs = performance.now() - t0;
        record.error = errorMessage(error);
      }
      throw error;
    }
    if (record) {
      record.headersMs = performance.now() - t0;
      record.status = response.status;
      record.statusText = response.statusText;
      record.responseHeaders = response.headers;
      record.stream = response.headers.get('content-type')?.includes('text/event-stream') || undefined;
    }
    const body = response.body;
    if (!body) {
      link?.release();
      if (record) record.totalMs = record.headersMs;
      return response;
    }
    if (!record && !link) return response;
    const settle = (error?: unknown) => {
      link?.release();
      if (record && record.totalMs === undefined) {
        record.totalMs = performance.now() - t0;
        if (error !== undefined) record.error = errorMessage(error);
      }
    };
    // One stream that pulls from the body's reader, counting: lighter than piping through a
    // TransformStream (two more streams and a pipe per response, on every tool call's path).
    // It settles once whichever way the body ends: read to the end, cancelled by the reader,
    // the source failing, or the transport's signal aborting (the read then rejects).
    const reader = body.getReader();
    const counted = new ReadableStream<Uint8Array>(
      {
        pull: (controller) =>
          reader.read().then(
            ({ done, value }) => {
              if (done) {
                settle();
                controller.close();
                return;
              }
              if (record) record.responseBytes += value.byteLength;
              controller.enqueue(value);
            },
            (error: unknown) => {
              settle(error ?? 'aborted');
              controller.error(error);
            },
          ),
        cancel: (reason) => {
          settle(reason ?? 'cancelled');
          return reader.cancel(reason);
        },
      },
      { highWaterMark: 0 },
    );
    const wrapped = new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
    // A constructed Response has no url and is never `redirected`; the SDK's redirect handling
    // and EventSource's reconnect URL read them, so they are carried over.
    if (response.url) Object.defineProperty(wrapped, 'url', { value: response.url });
    if (response.redirected) Object.defineProperty(wrapped, 'redirected', { value: true });
    return wrapped;
  };
}
