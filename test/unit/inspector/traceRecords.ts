/** Trace records and servers the Inspector's unit tests build their Activity logs from. */
import type { ActivityServer } from '../../../src/traffic/common/activityLog';
import type { TraceRecord } from '../../../src/mcp/trace';

export const A: ActivityServer = { id: 'a', label: 'alpha', secrets: [] };
export const B: ActivityServer = { id: 'b', label: 'beta', secrets: [] };

export const req = (id: number, method: string, params: unknown = {}, extra: Partial<TraceRecord> = {}): TraceRecord => ({
  direction: 'send',
  kind: 'request',
  method,
  id,
  message: { jsonrpc: '2.0', id, method, params },
  ...extra,
});

export const res = (id: number, result: unknown = {}, extra: Partial<TraceRecord> = {}): TraceRecord => ({
  direction: 'receive',
  kind: 'response',
  id,
  message: { jsonrpc: '2.0', id, result },
  ...extra,
});

export const note = (method: string, params: unknown = {}): TraceRecord => ({
  direction: 'receive',
  kind: 'notification',
  method,
  message: { jsonrpc: '2.0', method, params },
});
