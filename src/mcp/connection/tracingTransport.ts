/**
 * Wraps any SDK transport to observe every JSON-RPC message in and out: for the protocol
 * trace (method, id, latency) and to learn the negotiated protocol version, which the SDK
 * client does not keep for stdio.
 */
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { TraceRecord } from '../trace';

type Pending = { method: string; startedAt: number };

export class TracingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  /** Protocol version from the server's `initialize` result. */
  negotiatedProtocolVersion: string | undefined;

  private readonly sent = new Map<string | number, Pending>();
  private readonly received = new Map<string | number, Pending>();
  private initializeId: string | number | undefined;

  constructor(
    readonly inner: Transport,
    private readonly observe: ((record: TraceRecord) => void) | undefined,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => {
      this.record('receive', message);
      this.onmessage?.(message, extra);
    };
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    await this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.record('send', message);
    await this.inner.send(message, options);
  }

  async close(): Promise<void> {
    await this.inner.close();
  }

  private record(direction: 'send' | 'receive', message: JSONRPCMessage): void {
    const m = message as { id?: string | number; method?: string; result?: unknown; error?: { code: number; message: string } };
    const outgoing = direction === 'send' ? this.sent : this.received;
    const incoming = direction === 'send' ? this.received : this.sent;
    let record: TraceRecord;
    if (m.method !== undefined && m.id !== undefined) {
      outgoing.set(m.id, { method: m.method, startedAt: Date.now() });
      if (direction === 'send' && m.method === 'initialize') this.initializeId = m.id;
      record = { direction, kind: 'request', method: m.method, id: m.id, message };
    } else if (m.method !== undefined) {
      record = { direction, kind: 'notification', method: m.method, message };
    } else {
      const pending = m.id !== undefined ? incoming.get(m.id) : undefined;
      if (m.id !== undefined) incoming.delete(m.id);
      const latencyMs = pending ? Date.now() - pending.startedAt : undefined;
      if (direction === 'receive' && m.id !== undefined && m.id === this.initializeId && m.result) {
        const version = (m.result as { protocolVersion?: unknown }).protocolVersion;
        if (typeof version === 'string') this.negotiatedProtocolVersion = version;
      }
      record = m.error
        ? { direction, kind: 'error', method: pending?.method, id: m.id, latencyMs, errorCode: m.error.code, errorMessage: m.error.message, message }
        : { direction, kind: 'response', method: pending?.method, id: m.id, latencyMs, message };
    }
    this.observe?.(record);
  }
}
