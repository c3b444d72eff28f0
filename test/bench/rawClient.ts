/**
 * The floor: a client that speaks only the JSON-RPC a scenario needs, with no SDK, no schema
 * validation, no tracing. Over stdio it writes newline-delimited JSON to the child's stdin and
 * splits stdout on newlines (what the stdio transport is); over HTTP it POSTs with fetch and
 * reads the JSON or SSE answer. Nothing real can be faster on the same server and payloads,
 * so its ratio to the bare SDK shows how much of a call is the server and the pipe.
 */
import { spawn, type ChildProcess } from 'node:child_process';

const PROTOCOL_VERSION = '2025-06-18';
const INITIALIZE = { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'bench-raw', version: '0' } };

type Message = { id?: number; method?: string; result?: Record<string, unknown>; error?: { code: number; message: string } };

export interface RawClient {
  request(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Counts notifications/message from the server. */
  onLogMessage(listener: () => void): void;
  close(): Promise<void>;
}

/** Pages through tools/list then resources/list; returns the item counts. */
export async function rawListAll(client: RawClient, kinds: ('tools' | 'resources')[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const kind of kinds) {
    let cursor: string | undefined;
    counts[kind] = 0;
    do {
      const page = await client.request(`${kind}/list`, cursor ? { cursor } : undefined);
      counts[kind] += (page[kind] as unknown[]).length;
      cursor = page.nextCursor as string | undefined;
    } while (cursor);
  }
  return counts;
}

export async function connectRawStdio(command: string, args: string[], env: Record<string, string | undefined>): Promise<RawClient> {
  const child: ChildProcess = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'ignore'] });
  const pending = new Map<number, { resolve(m: Message): void; reject(e: Error): void }>();
  let logListener: (() => void) | undefined;
  let nextId = 1;
  // Only the new chunk is searched for newlines, so a message of many chunks costs linear time.
  let partial: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const handle = (line: string) => {
    if (!line.trim()) return;
    const message = JSON.parse(line) as Message;
    if (message.method === 'notifications/message') logListener?.();
    if (message.method !== undefined || message.id === undefined) return;
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.error) waiter?.reject(new Error(message.error.message));
    else waiter?.resolve(message);
  };
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    let start = 0;
    let newline = chunk.indexOf('\n');
    while (newline >= 0) {
      partial.push(chunk.slice(start, newline));
      handle(partial.join(''));
      partial = [];
      start = newline + 1;
      newline = chunk.indexOf('\n', start);
    }
    if (start < chunk.length) partial.push(chunk.slice(start));
  });
  child.once('exit', (code) => {
    for (const waiter of pending.values()) waiter.reject(new Error(`raw stdio server exited with ${code}`));
    pending.clear();
  });
  const write = (message: Record<string, unknown>) => child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  const request = (method: string, params?: Record<string, unknown>) => new Promise<Record<string, unknown>>((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve: (m) => resolve(m.result ?? {}), reject });
    write({ id, method, ...(params ? { params } : {}) });
  });
  await request('initialize', INITIALIZE);
  write({ method: 'notifications/initialized' });
  return {
    request,
    onLogMessage: (listener) => (logListener = listener),
    async close() {
      child.stdin!.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Streamable HTTP by hand: one POST per message, answers read as JSON or as an SSE stream. */
export async function connectRawHttp(url: string): Promise<RawClient> {
  let sessionId: string | undefined;
  let nextId = 1;
  const headers = () => ({
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': PROTOCOL_VERSION,
    ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
  });
  const post = async (message: Record<string, unknown>): Promise<Message | undefined> => {
    const response = await fetch(url, { method: 'POST', headers: headers(), body: JSON.stringify({ jsonrpc: '2.0', ...message }) });
    sessionId ??= response.headers.get('mcp-session-id') ?? undefined;
    if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
    if (response.status === 202) {
      await response.arrayBuffer();
      return undefined;
    }
    const body = await response.text();
    if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) return JSON.parse(body) as Message;
    // SSE: the answer is the `data:` event whose id matches (notifications may come first).
    for (const line of body.split('\n')) {
      if (!line.startsWith('data:')) continue;
      const m = JSON.parse(line.slice(5)) as Message;
      if (m.id === message.id && m.method === undefined) return m;
    }
    throw new Error('no answer in the SSE stream');
  };
  const request = async (method: string, params?: Record<string, unknown>) => {
    const answer = await post({ id: nextId++, method, ...(params ? { params } : {}) });
    if (answer?.error) throw new Error(answer.error.message);
    return answer?.result ?? {};
  };
  await request('initialize', INITIALIZE);
  await post({ method: 'notifications/initialized' });
  return {
    request,
    onLogMessage: () => {
      throw new Error('not used over HTTP');
    },
    async close() {
      if (sessionId) await fetch(url, { method: 'DELETE', headers: headers() }).then((r) => r.arrayBuffer()).catch(() => undefined);
    },
  };
}
