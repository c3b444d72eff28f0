/**
 * Observes every JSON-RPC message an SDK transport sends and receives, for the protocol trace
 * (method, id, latency) and the Activity view.
 *
 * The transport is instrumented in place rather than wrapped: the v2 SDK recognizes its own
 * stdio transport by shape (`stderr`, `pid`, its prototype) to run the 2026-07-28
 * `server/discover` probe on a disposable sibling process, and a wrapper would hide that.
 *
 * Multi-round-trip requests (2026-07-28): the SDK answers an `input_required` result by sending
 * the original request again, on a fresh id, with `inputResponses`. Such a retry is tagged with
 * its round and the id of the first round, so a reader sees one request in several rounds.
 */
import {
  StreamableHTTPClientTransport,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';
import type { TraceRecord } from '../trace';
import { streamCutResponse } from './streamCut';
import { errorMessage } from '../../shared/common/errors';

type Pending = { method: string; startedAt: number; target?: string; round: number; originId: string | number };
type MessageHandler = (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

/** An `input_required` answer waiting for the SDK's retry. */
interface AwaitingRetry {
  method: string;
  target?: string;
  round: number;
  originId: string | number;
}

export class MessageTracer {
  private readonly sent = new Map<string | number, Pending>();
  private readonly received = new Map<string | number, Pending>();
  private awaiting: AwaitingRetry[] = [];

  constructor(private readonly observe: ((record: TraceRecord) => void) | undefined) {}

  record(direction: 'send' | 'receive', message: JSONRPCMessage): void {
    const m = message as {
      id?: string | number;
      method?: string;
      params?: Record<string, unknown>;
      result?: Record<string, unknown>;
      error?: { code: number; message: string };
    };
    const outgoing = direction === 'send' ? this.sent : this.received;
    const incoming = direction === 'send' ? this.received : this.sent;
    let record: TraceRecord;
    if (m.method !== undefined && m.id !== undefined) {
      const target = targetOf(m.params);
      const retryOf =
        direction === 'send' && m.params && ('inputResponses' in m.params || 'requestState' in m.params) ? this.takeAwaiting(m.method, target) : undefined;
      const round = retryOf ? retryOf.round + 1 : 1;
      const originId = retryOf ? retryOf.originId : m.id;
      outgoing.set(m.id, { method: m.method, startedAt: Date.now(), target, round, originId });
      record = { direction, kind: 'request', method: m.method, id: m.id, message };
      if (retryOf) {
        record.round = round;
        record.originId = originId;
      }
    } else if (m.method !== undefined) {
      record = { direction, kind: 'notification', method: m.method, message };
    } else {
      const pending = m.id !== undefined ? incoming.get(m.id) : undefined;
      if (m.id !== undefined) incoming.delete(m.id);
      const latencyMs = pending ? Date.now() - pending.startedAt : undefined;
      if (pending && direction === 'receive' && m.result?.resultType === 'input_required') {
        this.awaiting.push({ method: pending.method, target: pending.target, round: pending.round, originId: pending.originId });
        if (this.awaiting.length > 50) this.awaiting.shift();
        record = {
          direction,
          kind: 'response',
          method: pending.method,
          id: m.id,
          latencyMs,
          message,
          inputRequired: true,
          round: pending.round,
          originId: pending.originId,
        };
      } else {
        record = m.error
          ? { direction, kind: 'error', method: pending?.method, id: m.id, latencyMs, errorCode: m.error.code, errorMessage: m.error.message, message }
          : { direction, kind: 'response', method: pending?.method, id: m.id, latencyMs, message };
        if (pending && pending.round > 1) {
          record.round = pending.round;
          record.originId = pending.originId;
        }
      }
    }
    this.observe?.(record);
  }

  /**
   * A request that the transport could not deliver, or whose HTTP answer was not JSON-RPC (a
   * 400 to the era probe, a 404): recorded as its error answer, so it does not stay pending in
   * the trace, with what the transport said (status and body) as the message.
   */
  failed(id: string | number, error: unknown): void {
    const pending = this.sent.get(id);
    if (!pending) return;
    this.sent.delete(id);
    const status = (error as { code?: unknown }).code;
    const code = typeof status === 'number' ? status : -32000;
    const text = errorMessage(error);
    this.observe?.({
      direction: 'receive',
      kind: 'error',
      method: pending.method,
      id,
      latencyMs: Date.now() - pending.startedAt,
      errorCode: code,
      errorMessage: text,
      message: { jsonrpc: '2.0', id, error: { code, message: text } },
    });
  }

  /** The newest `input_required` answer to the same method and tool/prompt/resource. */
  private takeAwaiting(method: string, target: string | undefined): AwaitingRetry | undefined {
    for (let i = this.awaiting.length - 1; i >= 0; i--) {
      const entry = this.awaiting[i];
      if (entry.method === method && entry.target === target) {
        this.awaiting.splice(i, 1);
        return entry;
      }
    }
    return undefined;
  }
}

/** What a request is about: the tool or prompt name, or the resource URI. */
function targetOf(params: Record<string, unknown> | undefined): string | undefined {
  const value = params?.name ?? params?.uri;
  return typeof value === 'string' ? value : undefined;
}

/**
 * Makes `transport` report every message to `observe`: its `send` is wrapped, and the
 * `onmessage` the SDK sets (and may set again, e.g. after the negotiation probe) is wrapped
 * on the way in. The same transport object is returned, its class and shape unchanged.
 * On Streamable HTTP it also answers a request whose response stream was cut (streamCut.ts),
 * whether tracing is on or not, since both need the same two hooks.
 */
export function traceTransport<T extends Transport>(transport: T, observe: ((record: TraceRecord) => void) | undefined): T {
  const http = transport instanceof StreamableHTTPClientTransport;
  if (!observe && !http) return transport;
  const tracer = observe ? new MessageTracer(observe) : undefined;
  /** Requests sent on Streamable HTTP that have no answer yet. */
  const unanswered = new Set<string | number>();
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage, options?: TransportSendOptions) => {
    tracer?.record('send', message);
    const m = message as { id?: string | number; method?: string };
    const request = m.id !== undefined && m.method !== undefined ? m.id : undefined;
    const failed = (error: unknown): never => {
      if (request !== undefined) tracer?.failed(request, error);
      throw error;
    };
    // A `subscriptions/listen` stream has no answer to wait for: the SDK handles its end.
    if (!http || m.id === undefined || m.method === undefined || m.method === 'subscriptions/listen') return send(message, options).catch(failed);
    const id = m.id;
    unanswered.add(id);
    const onRequestStreamEnd = () => {
      options?.onRequestStreamEnd?.();
      if (unanswered.delete(id)) transport.onmessage?.(streamCutResponse(id));
    };
    return send(message, { ...options, onRequestStreamEnd }).catch((error: unknown) => {
      unanswered.delete(id);
      return failed(error);
    });
  };
  // Handlers are wrapped once each, and a wrapper read back and set again is unwrapped, so a
  // handler saved and restored by the SDK never records a message twice.
  const wrappers = new WeakMap<MessageHandler, MessageHandler>();
  const originals = new WeakMap<MessageHandler, MessageHandler>();
  /** The handler the SDK set, and its wrapper (what the transport calls, per message). */
  let wrapper: MessageHandler | undefined;
  const wrap = (inner: MessageHandler): MessageHandler => {
    let wrapped = wrappers.get(inner);
    if (!wrapped) {
      wrapped = (message, extra) => {
        tracer?.record('receive', message);
        const m = message as { id?: string | number; method?: string };
        if (m.id !== undefined && m.method === undefined) unanswered.delete(m.id);
        inner(message, extra);
      };
      wrappers.set(inner, wrapped);
      originals.set(wrapped, inner);
    }
    return wrapped;
  };
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => wrapper,
    set: (value: MessageHandler | undefined) => {
      const handler = value ? (originals.get(value) ?? value) : undefined;
      wrapper = handler ? wrap(handler) : undefined;
    },
  });
  return transport;
}
