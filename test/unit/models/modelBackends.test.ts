/**
 * The model backends that need no VS Code, on plain Node: the OpenAI-compatible backend against
 * a local HTTP server (SSE split at awkward byte boundaries, `[DONE]`, plain JSON, errors,
 * abort mid-stream, the key header) and the "answer by hand" backend.
 */
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import { MANUAL_MODEL, ManualBackend, NoManualAnswerError } from '../../../src/models/common/manualBackend';
import type { ModelInfo, ModelRequest } from '../../../src/models/common/modelBackend';
import {
  OpenAiCompatibleBackend,
  ToolCallAccumulator,
  chatCompletionsUrl,
  toOpenAiMessages,
  toOpenAiTools,
} from '../../../src/models/common/openAiCompatibleBackend';

type Handler = (req: http.IncomingMessage, body: Record<string, unknown>, res: http.ServerResponse) => void;

const sse = (content: string) => `data: ${JSON.stringify({ model: 'served-model', choices: [{ delta: { content } }] })}\n\n`;
const finish = (reason: string) => `data: ${JSON.stringify({ choices: [{ delta: {}, finish_reason: reason }] })}\n\n`;
const tick = () => new Promise((r) => setTimeout(r, 5));

describe('OpenAI-compatible backend', () => {
  let server: http.Server;
  let url = '';
  let handler: Handler;
  let headers: http.IncomingHttpHeaders[] = [];
  let key: string | undefined;
  const model: ModelInfo = { id: 'openai:m', label: 'm', model: 'm', backend: 'openai-compatible' };
  const request: ModelRequest = { messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] };
  const backend = () =>
    new OpenAiCompatibleBackend(
      () => ({ url, model: 'm' }),
      async () => key,
    );

  before(async () => {
    server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        headers.push(req.headers);
        handler(req, JSON.parse(raw), res);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1/`;
  });

  after(() => {
    server.closeAllConnections();
    server.close();
  });

  beforeEach(() => {
    headers = [];
    key = undefined;
  });

  it('builds the chat-completions URL from a base URL or takes the full one', () => {
    assert.equal(chatCompletionsUrl('http://localhost:11434/v1'), 'http://localhost:11434/v1/chat/completions');
    assert.equal(chatCompletionsUrl(' http://h/v1/// '), 'http://h/v1/chat/completions');
    assert.equal(chatCompletionsUrl('http://h/v1/chat/completions'), 'http://h/v1/chat/completions');
  });

  it('lists one model only when URL and model name are set', async () => {
    assert.deepEqual(
      await new OpenAiCompatibleBackend(
        () => undefined,
        async () => undefined,
      ).models(),
      [],
    );
    assert.deepEqual(
      await new OpenAiCompatibleBackend(
        () => ({ url: 'http://h:1/v1', model: '' }),
        async () => undefined,
      ).models(),
      [],
    );
    assert.deepEqual(
      await new OpenAiCompatibleBackend(
        () => ({ url: 'http://h:1/v1', model: 'llama' }),
        async () => undefined,
      ).models(),
      [{ id: 'openai:llama', label: 'llama (h:1)', model: 'llama', backend: 'openai-compatible' }],
    );
  });

  it('streams SSE chunks in order even when events and UTF-8 characters are split across reads; stops at [DONE]', async () => {
    const wire = Buffer.from(sse('Grüße ') + ': a comment\n\n' + sse('aus ') + sse('Köln ✓') + finish('stop') + 'data: [DONE]\n\n' + sse('after done'));
    handler = async (_req, body, res) => {
      assert.equal(body.stream, true);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // Odd-sized slices cut through event boundaries and multi-byte characters.
      for (let i = 0; i < wire.length; i += 7) {
        res.write(wire.subarray(i, i + 7));
        await tick();
      }
      res.end();
    };
    const chunks: string[] = [];
    const response = await backend().generate(model, request, (c) => chunks.push(c), new AbortController().signal);
    assert.deepEqual(chunks, ['Grüße ', 'aus ', 'Köln ✓']);
    assert.deepEqual(response, { text: 'Grüße aus Köln ✓', stopReason: 'endTurn', model: 'served-model' });
  });

  it('accepts a plain JSON answer; sends the key as a bearer token only when one is stored', async () => {
    handler = (_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ model: 'json-model', choices: [{ message: { content: 'whole answer' }, finish_reason: 'length' }] }));
    };
    const chunks: string[] = [];
    const response = await backend().generate(model, request, (c) => chunks.push(c), new AbortController().signal);
    assert.deepEqual(chunks, ['whole answer']);
    assert.deepEqual(response, { text: 'whole answer', stopReason: 'maxTokens', model: 'json-model' });
    assert.equal(headers[0].authorization, undefined);
    key = 'sk-test';
    await backend().generate(model, request, () => undefined, new AbortController().signal);
    assert.equal(headers[1].authorization, 'Bearer sk-test');
  });

  it('reports HTTP errors and error events clearly', async () => {
    handler = (_req, _body, res) => {
      res.writeHead(401, 'Unauthorized', { 'content-type': 'application/json' });
      res.end('{"error":"bad key"}');
    };
    await assert.rejects(
      backend().generate(model, request, () => undefined, new AbortController().signal),
      /HTTP 401 Unauthorized: \{"error":"bad key"\}/,
    );
    handler = (_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(sse('partial') + `data: ${JSON.stringify({ error: { message: 'overloaded' } })}\n\n`);
    };
    await assert.rejects(
      backend().generate(model, request, () => undefined, new AbortController().signal),
      /reported an error: overloaded/,
    );
  });

  it('an abort mid-stream rejects, closes the connection and delivers no further chunk', async () => {
    let closed!: () => void;
    const serverSawClose = new Promise<void>((r) => (closed = r));
    handler = async (_req, _body, res) => {
      res.on('close', () => closed());
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sse('one '));
      await tick();
      res.write(sse('two '));
      await serverSawClose;
    };
    const controller = new AbortController();
    const chunks: string[] = [];
    const generating = backend().generate(
      model,
      request,
      (c) => {
        chunks.push(c);
        if (chunks.length === 2) controller.abort();
      },
      controller.signal,
    );
    await assert.rejects(generating, (e: Error) => e.name === 'AbortError');
    await serverSawClose;
    assert.deepEqual(chunks, ['one ', 'two ']);
  });

  it('an abort while handling one read stops the events that came with it', async () => {
    handler = (_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sse('one ') + sse('two ') + sse('three '));
    };
    const controller = new AbortController();
    const chunks: string[] = [];
    await assert.rejects(
      backend().generate(
        model,
        request,
        (c) => {
          chunks.push(c);
          controller.abort();
        },
        controller.signal,
      ),
      (e: Error) => e.name === 'AbortError',
    );
    assert.deepEqual(chunks, ['one ']);
  });

  it('cuts the text at a stop sequence the endpoint ignored', async () => {
    handler = (_req, body, res) => {
      assert.deepEqual(body.stop, ['END']);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(sse('keep this END drop this') + 'data: [DONE]\n\n');
    };
    const response = await backend().generate(model, { ...request, stopSequences: ['END'] }, () => undefined, new AbortController().signal);
    assert.equal(response.text, 'keep this ');
    assert.equal(response.stopReason, 'stopSequence');
  });

  const weather = { name: 'get_weather', description: 'Weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } };

  it('tools: sends `tools` and `tool_choice`; streamed tool_calls (arguments in pieces, two calls) come back as tool calls with stopReason toolUse', async () => {
    const toolDelta = (d: unknown) => `data: ${JSON.stringify({ model: 'served-model', choices: [{ delta: { tool_calls: [d] } }] })}\n\n`;
    handler = (_req, body, res) => {
      assert.deepEqual(body.tools, [{ type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: weather.inputSchema } }]);
      assert.equal(body.tool_choice, 'required');
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        sse('Checking. ') +
          toolDelta({ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"ci' } }) +
          toolDelta({ index: 1, id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{}' } }) +
          toolDelta({ index: 0, function: { arguments: 'ty":"Oslo"}' } }) +
          finish('tool_calls') +
          'data: [DONE]\n\n',
      );
    };
    const response = await backend().generate(model, { ...request, tools: [weather], toolChoice: 'required' }, () => undefined, new AbortController().signal);
    assert.deepEqual(response, {
      text: 'Checking. ',
      stopReason: 'toolUse',
      model: 'served-model',
      toolCalls: [
        { id: 'call_1', name: 'get_weather', input: { city: 'Oslo' } },
        { id: 'call_2', name: 'get_weather', input: {} },
      ],
    });
  });

  it('tools: a plain JSON answer with message.tool_calls; no tools offered means no tools sent', async () => {
    handler = (_req, body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (!body.tools) {
        res.end(JSON.stringify({ choices: [{ message: { content: 'plain' }, finish_reason: 'stop' }] }));
        return;
      }
      res.end(
        JSON.stringify({
          model: 'j',
          choices: [
            {
              message: { content: null, tool_calls: [{ id: 'c9', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } }] },
              finish_reason: 'tool_calls',
            },
          ],
        }),
      );
    };
    assert.deepEqual(await backend().generate(model, { ...request, tools: [weather] }, () => undefined, new AbortController().signal), {
      text: '',
      stopReason: 'toolUse',
      model: 'j',
      toolCalls: [{ id: 'c9', name: 'get_weather', input: { city: 'Rome' } }],
    });
    const plain = await backend().generate(model, request, () => undefined, new AbortController().signal);
    assert.equal(plain.text, 'plain');
    assert.equal(plain.toolCalls, undefined);
  });

  it('tools: arguments that are not a JSON object fail clearly', () => {
    const acc = new ToolCallAccumulator();
    acc.push({ index: 0, id: 'x', function: { name: 'get_weather', arguments: '{"city":' } });
    assert.throws(() => acc.result(), /get_weather.*not JSON/);
    const arr = new ToolCallAccumulator();
    arr.push({ id: 'y', function: { name: 'get_weather', arguments: '[1]' } });
    assert.throws(() => arr.result(), /not a JSON object/);
    const none = new ToolCallAccumulator();
    none.push({ function: { name: 'get_weather' } });
    assert.deepEqual(none.result(), [{ id: 'call_0', name: 'get_weather', input: {} }]);
  });
});

describe('answer by hand backend', () => {
  it('the typed text is the whole answer, model "human"; no text or an abort is a NoManualAnswerError', async () => {
    const seen: ModelRequest[] = [];
    const backend = new ManualBackend(async (r) => {
      seen.push(r);
      return 'typed';
    });
    assert.deepEqual(await backend.models(), [MANUAL_MODEL]);
    const chunks: string[] = [];
    const request: ModelRequest = { messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }] };
    assert.deepEqual(await backend.generate(MANUAL_MODEL, request, (c) => chunks.push(c), new AbortController().signal), {
      text: 'typed',
      stopReason: 'endTurn',
      model: 'human',
    });
    assert.deepEqual(chunks, ['typed']);
    assert.deepEqual(seen, [request]);
    await assert.rejects(
      new ManualBackend(async () => undefined).generate(MANUAL_MODEL, request, () => undefined, new AbortController().signal),
      NoManualAnswerError,
    );
    const aborted = new AbortController();
    aborted.abort();
    await assert.rejects(
      new ManualBackend(async () => 'late').generate(MANUAL_MODEL, request, () => undefined, aborted.signal),
      NoManualAnswerError,
    );
  });
});

describe('OpenAI format conversions (tool use)', () => {
  it('tool_use becomes an assistant message with tool_calls; tool_result becomes role "tool" messages before the rest of the user message', () => {
    const messages = toOpenAiMessages({
      systemPrompt: 'sys',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'weather in Oslo and Rome?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'a', name: 'get_weather', input: { city: 'Oslo' } },
            { type: 'tool_use', id: 'b', name: 'get_weather', input: { city: 'Rome' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', toolUseId: 'a', text: 'rain' },
            { type: 'tool_result', toolUseId: 'b', text: 'timeout', isError: true },
            { type: 'text', text: 'and be brief' },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'c', name: 'noop', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', toolUseId: 'c', text: '' }] },
      ],
    });
    assert.deepEqual(messages, [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'weather in Oslo and Rome?' },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          { id: 'a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
          { id: 'b', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'a', content: 'rain' },
      { role: 'tool', tool_call_id: 'b', content: 'Error: timeout' },
      { role: 'user', content: 'and be brief' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'noop', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c', content: '' },
    ]);
  });

  it('messages without tool blocks keep their form (text as a string, images as parts)', () => {
    assert.deepEqual(
      toOpenAiMessages({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'hi' },
              { type: 'image', data: 'AAAA', mimeType: 'image/png' },
            ],
          },
          { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
        ],
      }),
      [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'hi' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          ],
        },
        { role: 'assistant', content: 'hello' },
      ],
    );
  });

  it('tools become function definitions', () => {
    assert.deepEqual(toOpenAiTools({ messages: [], tools: [{ name: 't', inputSchema: { type: 'object' } }] }), [
      { type: 'function', function: { name: 't', parameters: { type: 'object' } } },
    ]);
  });
});
