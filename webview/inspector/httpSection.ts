// The detail pane's HTTP section: for an exchange with an HTTP server, the HTTP exchange(s) that
// carried it (the POST with the JSON-RPC message, the SSE stream a server message came on):
// method, URL, status, timing, session id, sizes, and both header lists with the Mcp-* headers
// highlighted and credentials shown as redacted. Everything arrives redacted from the host.
import type { HttpExchangeView, HttpHeader } from '../../src/traffic/common/httpExchange';
import { formatClock } from '../../src/inspector/common/inspectorRows';
import * as l10n from '@vscode/l10n';
import { h } from './dom';

function ms(value: number | undefined): string {
  if (value === undefined) return '—';
  return value < 1000 ? `${value.toFixed(value < 10 ? 1 : 0)} ms` : `${(value / 1000).toFixed(2)} s`;
}

function bytes(value: number | undefined): string {
  if (value === undefined) return '—';
  return value < 1024 ? `${value} B` : `${(value / 1024).toFixed(1)} KB`;
}

const LINKS: Record<string, () => string> = {
  id: () => l10n.t('This HTTP exchange carried this message (matched by JSON-RPC id).'),
  method: () => l10n.t('This HTTP exchange carried this notification (matched by method and time).'),
  stream: () => l10n.t('This HTTP exchange is the stream this message arrived on (matched by time); SSE events are the JSON-RPC rows, not repeated here.'),
};

function headerTable(title: string, headers: readonly HttpHeader[]): HTMLElement {
  const table = h('table', { class: 'http-headers', 'aria-label': title });
  for (const header of headers) {
    const row = h(
      'tr',
      { class: `${header.mcp ? 'mcp' : ''}${header.redacted ? ' redacted' : ''}`.trim() },
      h('th', { scope: 'row' }, header.name),
      h('td', {}, header.value),
    );
    if (header.mcp) row.title = l10n.t('MCP header');
    if (header.redacted) row.title = l10n.t('Redacted: a credential or a configured secret');
    table.append(row);
  }
  if (!headers.length) table.append(h('tr', {}, h('td', { class: 'note' }, l10n.t('None recorded.'))));
  return h('div', { class: 'http-header-block' }, h('h4', {}, title), table);
}

function exchange(view: HttpExchangeView): HTMLElement {
  const status =
    view.status !== undefined
      ? `${view.status}${view.statusText ? ` ${view.statusText}` : ''}`
      : view.error
        ? l10n.t('failed: {0}', view.error)
        : l10n.t('no response yet');
  const failed = view.error !== undefined || (view.status !== undefined && view.status >= 400);
  const facts = h(
    'dl',
    { class: 'http-facts' },
    h('dt', {}, l10n.t('Status')),
    h('dd', { class: failed ? 'error' : '' }, status),
    h('dt', {}, l10n.t('Started')),
    // Local time as the row's time column (the ISO form was UTC), 24-hour.
    h('dd', {}, formatClock(view.startedAt)),
    h('dt', {}, l10n.t('Time to headers')),
    h('dd', {}, ms(view.headersMs)),
    h('dt', {}, view.stream ? l10n.t('Stream open for') : l10n.t('Total')),
    h('dd', {}, view.open ? (view.stream ? l10n.t('still open') : l10n.t('pending')) : ms(view.totalMs)),
    h('dt', {}, l10n.t('Session')),
    h('dd', {}, view.sessionId ?? '—'),
    h('dt', {}, l10n.t('Request body')),
    h('dd', {}, bytes(view.requestBytes)),
    h('dt', {}, view.stream ? l10n.t('Stream bytes') : l10n.t('Response body')),
    h('dd', {}, bytes(view.responseBytes)),
  );
  const headline = h('p', { class: 'http-line' }, h('strong', {}, view.method), ' ', h('span', { class: 'http-url' }, view.url));
  const why = view.link && LINKS[view.link] ? h('p', { class: 'note' }, LINKS[view.link]()) : undefined;
  const section = h(
    'div',
    { class: 'http-exchange' },
    headline,
    facts,
    h(
      'div',
      { class: 'http-header-lists' },
      headerTable(l10n.t('Request headers'), view.requestHeaders),
      headerTable(l10n.t('Response headers'), view.responseHeaders),
    ),
  );
  if (why) section.insertBefore(why, facts);
  return section;
}

/** The HTTP section, or undefined when the exchange went over stdio (nothing recorded). */
export function httpSection(exchanges: readonly HttpExchangeView[] | undefined): HTMLElement | undefined {
  if (!exchanges?.length) return undefined;
  return h('section', { class: 'http', 'aria-label': l10n.t('HTTP') }, h('header', {}, h('h2', {}, l10n.t('HTTP'))), ...exchanges.map(exchange));
}
