/**
 * A fake OpenAI-compatible chat-completions endpoint on 127.0.0.1 for the integration suites
 * (sampling, prompts): it records every request body and answers through a script that can
 * stream server-sent-event chunks one at a time (and wait between them), so a test can check
 * what reached the editor before the next chunk was even sent.
 */
import * as http from 'node:http';

export interface ChatCompletionsBody {
  model: string;
  messages: { role: string; content: unknown; tool_calls?: unknown[]; tool_call_id?: string }[];
  stream?: boolean;
  max_tokens?: number;
  temperature?: number;
  stop?: string[];
  tools?: { type: string; function: { name: string; description?: string; parameters: unknown } }[];
  tool_choice?: unknown;
}

/** One streamed answer: write chunks, then finish. Writes after the client went away are dropped. */
export interface SseAnswer {
  readonly body: ChatCompletionsBody;
  /** Sends `data: {choices:[{delta:{content}}]}`. */
  chunk(content: string): void;
  /** Streams one tool call (`delta.tool_calls`), its arguments split in two chunks; finish with `tool_calls`. */
  toolCall(index: number, id: string, name: string, args: Record<string, unknown>): void;
  /** Sends the finish reason (default `stop`) and `[DONE]`, and ends the response. */
  finish(reason?: string): void;
  /** True once the client closed the connection (e.g. it aborted the request). */
  readonly closed: boolean;
  /** Resolves when the client closed the connection before `finish`. */
  readonly aborted: Promise<void>;
}

export type FakeScript = (answer: SseAnswer) => void | Promise<void>;

export interface FakeOpenAi {
  /** The base URL to put into `mcpWorkbench.models.openaiCompatible.url` (`…/v1`). */
  readonly url: string;
  /** Every request body received, in order. */
  readonly requests: ChatCompletionsBody[];
  /** The Authorization header of each request (undefined when none was sent), in order. */
  readonly authorizations: (string | undefined)[];
  /** How the next requests are answered (replaceable per test). */
  script: FakeScript;
  close(): Promise<void>;
}

/** The default: streams `fake `, `says: `, and the last message's content, then `length`. */
export const echoScript: FakeScript = (answer) => {
  const last = answer.body.messages[answer.body.messages.length - 1]?.content;
  for (const part of ['fake ', 'says: ', String(last)]) answer.chunk(part);
  answer.finish('length');
};

export async function startFakeOpenAi(script: FakeScript = echoScript, reportedModel = 'fake-model-1'): Promise<FakeOpenAi> {
  const requests: ChatCompletionsBody[] = [];
  const authorizations: (string | undefined)[] = [];
  const fake: FakeOpenAi = { url: '', requests, authorizations, script, close: async () => undefined };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw) as ChatCompletionsBody;
      requests.push(body);
      authorizations.push(req.headers.authorization);
      let closed = false;
      let finished = false;
      let onAborted: () => void = () => undefined;
      const aborted = new Promise<void>((resolve) => (onAborted = resolve));
      res.on('close', () => {
        closed = true;
        if (!finished) onAborted();
      });
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.flushHeaders();
      const send = (event: unknown) => {
        if (!closed) res.write(`data: ${JSON.stringify(event)}\n\n`);
      };
      const answer: SseAnswer = {
        body,
        chunk: (content) => send({ model: reportedModel, choices: [{ index: 0, delta: { content } }] }),
        toolCall: (index, id, name, args) => {
          const json = JSON.stringify(args);
          const half = Math.floor(json.length / 2);
          send({
            model: reportedModel,
            choices: [{ index: 0, delta: { tool_calls: [{ index, id, type: 'function', function: { name, arguments: json.slice(0, half) } }] } }],
          });
          send({ model: reportedModel, choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: json.slice(half) } }] } }] });
        },
        finish: (reason = 'stop') => {
          send({ model: reportedModel, choices: [{ index: 0, delta: {}, finish_reason: reason }] });
          finished = true;
          if (!closed) res.end('data: [DONE]\n\n');
        },
        get closed() {
          return closed;
        },
        aborted,
      };
      Promise.resolve(fake.script(answer)).catch((error) => {
        if (!closed) res.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  (fake as { url: string }).url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
