// The Run Tool webview's run views: progress while the tool runs, and the outcome (result
// blocks, structured content checked against the outputSchema, protocol errors, failures and
// cancellation). While the server waits for a sampling/elicitation answer, #awaiting-user says
// so, with #show-requests revealing the MCP Requests panel.
import * as l10n from '@vscode/l10n';
import type { FromWebview, ResultBlock, RunOutcome } from '../../src/toolRunner/common/toolRunnerProtocol';
import { fill } from '../shared/fill';
import { button, h } from './dom';
import type { ResultView, ViewState } from './viewState';
import { formatBytes, formatDuration } from '../../src/shared/common/durations';
import { renderMarkdown } from '../../src/shared/common/markdownLite';
import { progressLine, progressPercent } from '../../src/toolRunner/common/progressLine';

/** Sends a message to the extension host. */
type Post = (message: FromWebview) => void;

/** Fills #progress for the run under way, if any. */
export function renderProgress(running: ViewState['running'], post: Post): void {
  const holder = document.getElementById('progress');
  if (!holder) return;
  if (!running) {
    holder.replaceChildren();
    return;
  }
  if (running.awaitingUser) {
    // The server asked for sampling or elicitation: the call waits for the user, not the server.
    holder.replaceChildren(
      h(
        'div',
        { class: 'progress awaiting-user', id: 'awaiting-user', role: 'status' },
        h('span', {}, l10n.t('The server is waiting for your answer in MCP Requests.')),
        button(l10n.t('Show MCP Requests'), () => post({ type: 'showRequests' }), { class: 'link', id: 'show-requests' }),
      ),
    );
    return;
  }
  if (running.task) {
    // The server runs the call as a task: its state is polled, its message is the progress.
    holder.replaceChildren(
      h(
        'div',
        { class: 'progress task', id: 'task-status', role: 'status', title: l10n.t('Task {0}', running.task.taskId) },
        h('progress', { 'aria-label': l10n.t('Task progress') }),
        h('span', {}, progressLine(running)),
      ),
    );
    return;
  }
  // The same line and fill as the progress notification (progressLine.ts).
  const bar = h('progress', { 'aria-label': l10n.t('Tool progress') });
  const percent = progressPercent(running);
  if (percent !== undefined) {
    bar.max = 100;
    bar.value = percent;
  }
  holder.replaceChildren(h('div', { class: 'progress' }, bar, h('span', { id: 'progress-line' }, progressLine(running))));
}

/** The Rendered | Raw switch: two toggle buttons (aria-pressed), arrow keys move between them. */
function viewSwitch(current: ResultView, onChange: (view: ResultView) => void): HTMLElement {
  const make = (view: ResultView, label: string) =>
    button(label, () => onChange(view), {
      class: `toggle${current === view ? ' pressed' : ''}`,
      'aria-pressed': current === view ? 'true' : 'false',
      id: `view-${view}`,
    });
  const group = h(
    'div',
    { class: 'view-switch', role: 'group', 'aria-label': l10n.t('Show the result') },
    make('rendered', l10n.t('Rendered')),
    make('raw', l10n.t('Raw')),
  );
  group.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const next = current === 'rendered' ? 'raw' : 'rendered';
    onChange(next);
    (document.getElementById(`view-${next}`) as HTMLElement | null)?.focus();
  });
  return group;
}

/** The outcome of a run. `heading` names an earlier run; `view`/`onView` drive the Rendered | Raw switch. */
export function renderOutcome(
  requestId: string,
  outcome: RunOutcome,
  post: Post,
  view: ResultView = 'rendered',
  onView?: (view: ResultView) => void,
  heading?: string,
): HTMLElement {
  const took = h('span', { class: 'muted', title: `${outcome.durationMs} ms` }, ` ${formatDuration(outcome.durationMs)}`);
  switch (outcome.kind) {
    case 'result': {
      const section = h(
        'div',
        { class: outcome.isError ? 'outcome tool-error' : 'outcome' },
        h(
          'div',
          { class: 'outcome-head' },
          h('h2', {}, heading ?? (outcome.isError ? l10n.t('Tool error') : l10n.t('Result')), took),
          onView ? viewSwitch(view, onView) : undefined,
          // The run's history id is its request id: the host saves what the history kept (secrets removed).
          button(l10n.t('Save as Test'), () => post({ type: 'saveAsTest', id: requestId }), {
            class: 'secondary small',
            id: 'save-as-test',
            title: l10n.t('Save this call and its result as a test in a *.mcptest.json file'),
          }),
        ),
        outcome.isError ? h('p', { class: 'error-text' }, l10n.t('The tool ran and reported a failure (isError: true):')) : undefined,
      );
      if (view === 'raw') {
        section.append(h('pre', { class: 'raw', id: 'raw-result', tabindex: '0', 'aria-label': l10n.t('The result as received (JSON)') }, outcome.raw));
        return section;
      }
      if (outcome.blocks.length === 0) section.append(h('p', { class: 'muted' }, l10n.t('(no content)')));
      for (const block of outcome.blocks) section.append(withExtras(renderBlock(requestId, block, post), block));
      if (outcome.meta) section.append(extrasDetails(l10n.t('Result _meta'), outcome.meta, 'result-meta'));
      if (outcome.structured) {
        const validation = outcome.structured.validation;
        const badge =
          validation === undefined
            ? h('span', { class: 'badge info' }, l10n.t('no outputSchema'))
            : validation.valid === true
              ? h('span', { class: 'badge safe' }, l10n.t('matches outputSchema'))
              : validation.valid === false
                ? h('span', { class: 'badge warning' }, l10n.t('does not match outputSchema'))
                : h('span', { class: 'badge warning' }, l10n.t('outputSchema could not be compiled'));
        section.append(
          h(
            'div',
            { class: 'block structured' },
            h('h3', {}, ...fill(l10n.t('Structured content {0}'), badge)),
            validation?.valid === false ? h('ul', { class: 'issues' }, ...validation.issues.map((i) => h('li', {}, i))) : undefined,
            validation?.valid === undefined && validation ? h('p', { class: 'muted' }, validation.schemaError) : undefined,
            h('pre', {}, outcome.structured.json),
          ),
        );
      }
      return section;
    }
    case 'protocolError':
      return h(
        'div',
        { class: 'outcome protocol-error' },
        h('h2', {}, ...fill(l10n.t('Protocol error {0}'), h('code', {}, String(outcome.code))), took),
        h('p', { class: 'error-text' }, outcome.message),
        h('p', { class: 'muted' }, l10n.t('The server answered the tools/call request with a JSON-RPC error; the tool did not run.')),
        outcome.data ? h('pre', {}, outcome.data) : undefined,
      );
    case 'failure':
      return h('div', { class: 'outcome protocol-error' }, h('h2', {}, l10n.t('Call failed'), took), h('p', { class: 'error-text' }, outcome.message));
    case 'cancelled':
      return h(
        'div',
        { class: 'outcome' },
        h('h2', {}, l10n.t('Cancelled'), took),
        h('p', { class: 'muted' }, l10n.t('The call was cancelled; the server was sent notifications/cancelled.')),
      );
  }
}

function extrasDetails(label: string, json: string, kind: string): HTMLElement {
  return h('details', { class: `extras ${kind}` }, h('summary', {}, label), h('pre', {}, json));
}

/** A content item's annotations and `_meta`, collapsed under it. */
function withExtras(element: HTMLElement, block: ResultBlock): HTMLElement {
  if (block.annotations) element.append(extrasDetails(l10n.t('annotations'), block.annotations, 'annotations'));
  if (block.meta) element.append(extrasDetails('_meta', block.meta, 'meta'));
  return element;
}

function renderBlock(requestId: string, block: ResultBlock, post: Post): HTMLElement {
  switch (block.kind) {
    case 'text':
      if (block.json !== undefined) {
        return h('div', { class: 'block' }, h('span', { class: 'badge info' }, l10n.t('JSON text')), h('pre', { class: 'text json-text' }, block.json));
      }
      return h('div', { class: 'block' }, h('pre', { class: 'text' }, block.text));
    case 'markdown': {
      const body = h('div', { class: 'markdown' });
      // Rendered here from the text, not taken from the message: this page writes no HTML it
      // was sent. markdownLite escapes the text first and writes only its own tags.
      body.innerHTML = renderMarkdown(block.text);
      const source = h('details', {}, h('summary', {}, l10n.t('Source')), h('pre', { class: 'text' }, block.text));
      return h('div', { class: 'block' }, body, source);
    }
    case 'image':
      return h(
        'div',
        { class: 'block' },
        h('img', { src: block.dataUri, alt: l10n.t('image ({0})', block.mimeType) }),
        h('div', { class: 'hints' }, `${block.mimeType}, ${formatBytes(block.bytes)}`),
      );
    case 'audio':
      return h(
        'div',
        { class: 'block' },
        h('audio', { controls: true, src: block.dataUri }),
        h('div', { class: 'hints' }, `${block.mimeType}, ${formatBytes(block.bytes)}`),
      );
    case 'resourceLink': {
      const link = h('a', { href: '#', title: l10n.t('Open {0}', block.uri) }, block.title ?? block.name);
      link.addEventListener('click', (e) => {
        e.preventDefault();
        post({ type: 'openResource', uri: block.uri });
      });
      const meta = [block.uri, block.mimeType, block.size !== undefined ? formatBytes(block.size) : undefined].filter(Boolean).join(' · ');
      return h(
        'div',
        { class: 'block resource' },
        h('span', { class: 'badge info' }, l10n.t('resource link')),
        ' ',
        link,
        h('div', { class: 'hints' }, meta),
        block.description ? h('div', { class: 'desc' }, block.description) : undefined,
      );
    }
    case 'resourceText':
      return h(
        'div',
        { class: 'block resource' },
        h('span', { class: 'badge info' }, l10n.t('embedded resource')),
        ' ',
        h('code', {}, block.uri),
        block.mimeType ? h('span', { class: 'hints' }, ` ${block.mimeType}`) : undefined,
        h('pre', { class: 'text' }, block.text),
      );
    case 'resourceBlob':
      return h(
        'div',
        { class: 'block resource' },
        h('span', { class: 'badge info' }, l10n.t('embedded resource')),
        ' ',
        h('code', {}, block.uri),
        h('div', { class: 'hints' }, `${block.mimeType ?? l10n.t('binary')}, ${formatBytes(block.bytes)}`),
        button(l10n.t('Save…'), () => post({ type: 'saveBlob', requestId, index: block.index }), { class: 'secondary small' }),
      );
    case 'unknown':
      return h('div', { class: 'block' }, h('span', { class: 'badge warning' }, l10n.t('content type "{0}"', block.type)), h('pre', {}, block.json));
  }
}
