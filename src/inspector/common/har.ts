/**
 * HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) of recorded HTTP exchanges, for
 * browser dev tools and HAR viewers. Built from the redacted views only (httpExchange.ts): no
 * credential can reach the file. Response bodies are not recorded (the JSON-RPC messages are in
 * the JSON Lines export); request bodies are the redacted JSON-RPC text.
 */
import type { HttpExchangeView } from '../../traffic/common/httpExchange';

export interface HarEntryInput {
  serverLabel: string;
  view: HttpExchangeView;
}

const headersOf = (headers: HttpExchangeView['requestHeaders']) => headers.map((h) => ({ name: h.name, value: h.value }));

function queryOf(url: string): { name: string; value: string }[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

const headerValue = (headers: HttpExchangeView['requestHeaders'], name: string) => headers.find((h) => h.name.toLowerCase() === name)?.value;

export function buildHar(entries: readonly HarEntryInput[], creatorVersion: string): object {
  const sorted = [...entries].sort((a, b) => a.view.startedAt - b.view.startedAt);
  return {
    log: {
      version: '1.2',
      creator: { name: 'MCP Workbench', version: creatorVersion },
      pages: [],
      entries: sorted.map(({ serverLabel, view }) => {
        const wait = view.headersMs ?? -1;
        const receive = view.totalMs !== undefined && view.headersMs !== undefined ? Math.max(0, view.totalMs - view.headersMs) : -1;
        const mime = headerValue(view.responseHeaders, 'content-type') ?? '';
        return {
          startedDateTime: new Date(view.startedAt).toISOString(),
          time: view.totalMs ?? view.headersMs ?? 0,
          request: {
            method: view.method,
            url: view.url,
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: headersOf(view.requestHeaders),
            queryString: queryOf(view.url),
            ...(view.requestBody !== undefined
              ? { postData: { mimeType: headerValue(view.requestHeaders, 'content-type') ?? 'application/json', text: view.requestBody } }
              : {}),
            headersSize: -1,
            bodySize: view.requestBytes ?? (view.method === 'GET' ? 0 : -1),
          },
          response: {
            status: view.status ?? 0,
            statusText: view.statusText ?? (view.error ? `(failed: ${view.error})` : ''),
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: headersOf(view.responseHeaders),
            content: { size: view.responseBytes ?? 0, mimeType: mime, comment: 'Body not recorded: the JSON-RPC messages are in the JSON Lines export.' },
            redirectURL: '',
            headersSize: -1,
            bodySize: view.responseBytes ?? -1,
          },
          cache: {},
          timings: { send: 0, wait, receive },
          comment: `${serverLabel}${view.stream ? ' (SSE stream)' : ''}${view.open ? ' (still open when exported)' : ''}`,
        };
      }),
    },
  };
}
