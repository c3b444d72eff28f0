/**
 * The SDK request options of a server's `timeouts`: the per-request timeout, whether progress
 * resets it, and the maximum total time. No `vscode` import.
 */
import { LOG_LEVEL_META_KEY, SdkError, SdkErrorCode, type Client, type RequestOptions } from '@modelcontextprotocol/client';
import type { TimeoutSettings } from '../../config/common/serverConfig';
import { secondsToMs, type CallOptions } from './connectionTypes';

/**
 * A progress handler is always set on `tools/call` so progress can reset the timer. The SDK
 * checks `maxTotalTimeout` only when progress arrives, so a call that hears nothing would wait
 * out the (longer) request timeout: a deadline signal enforces it as well.
 */
export function requestOptionsFor(t: TimeoutSettings, method: string, options: CallOptions = {}): RequestOptions {
  const maxTotalTimeout = t.maxTotal > 0 ? secondsToMs(t.maxTotal) : undefined;
  return {
    timeout: secondsToMs(t.request),
    resetTimeoutOnProgress: t.resetOnProgress,
    maxTotalTimeout,
    signal: maxTotalTimeout ? withDeadline(options.signal, maxTotalTimeout) : options.signal,
    onprogress: method === 'tools/call' || options.onprogress ? (options.onprogress ?? (() => undefined)) : undefined,
  };
}

/**
 * `signal`, also aborted after `ms` with the SDK's own maximum-total-timeout error (so it reads
 * as one). The timer does not hold the host open and ends with the deadline.
 */
function withDeadline(signal: AbortSignal | undefined, ms: number): AbortSignal {
  const deadline = new AbortController();
  setTimeout(() => deadline.abort(new SdkError(SdkErrorCode.RequestTimeout, 'Maximum total timeout exceeded', { maxTotalTimeout: ms })), ms).unref();
  return signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal;
}

/**
 * Per-request `_meta` for a 2026-07-28 server: the log level (which replaced
 * `logging/setLevel`; without it such a server sends no log messages for the request).
 * `level` is read only for such a server.
 */
export function requestMeta(client: Client, level: () => string | undefined): { _meta: Record<string, unknown> } | undefined {
  if (client.getProtocolEra() !== 'modern' || !client.getServerCapabilities()?.logging) return undefined;
  const current = level();
  return current ? { _meta: { [LOG_LEVEL_META_KEY]: current } } : undefined;
}
