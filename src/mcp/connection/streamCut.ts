/**
 * A Streamable HTTP request whose SSE response stream ends before its answer (the server
 * crashed mid-response, a proxy cut the connection). The SDK resumes such a stream itself when
 * the server gave event ids (GET with Last-Event-ID, twice with backoff); when it cannot, or
 * resuming failed, it only calls the request's `onRequestStreamEnd`, and the request would wait
 * out its whole timeout. The instrumented transport (tracingTransport) then answers the request
 * with this error at once. No `vscode` import.
 */
import { ProtocolError, type JSONRPCMessage } from '@modelcontextprotocol/client';

/** JSON-RPC "server error" range: the code of the error put in place of the missing answer. */
const STREAM_CUT_CODE = -32099;
const STREAM_CUT_TEXT = 'The response stream ended before the server answered.';

/** The error response delivered to the SDK for request `id` whose stream was cut. */
export function streamCutResponse(id: string | number): JSONRPCMessage {
  return { jsonrpc: '2.0', id, error: { code: STREAM_CUT_CODE, message: STREAM_CUT_TEXT } };
}

export function isStreamCut(error: unknown): boolean {
  return error instanceof ProtocolError && error.code === STREAM_CUT_CODE && error.message.includes(STREAM_CUT_TEXT);
}
