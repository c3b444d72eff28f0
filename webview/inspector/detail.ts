// The detail pane: the selected exchange's request and response side by side as foldable JSON,
// with a find bar over both; for a request this client sent, its params in an editable box
// (checked as JSON while typing) and the actions on it: Replay, Open in Run Tool (tools/call),
// Copy as Inspector CLI Command. The host answers an action with one status line.
import * as l10n from '@vscode/l10n';
import type { FromWebview, ToWebview } from '../../src/inspector/common/inspectorProtocol';
import { editableParams, parseParamsText } from '../../src/inspector/common/replayRequest';
import { h } from './dom';
import { FindBar } from './findBar';
import { renderJson } from './jsonView';
import { httpSection } from './httpSection';

type Detail = Extract<ToWebview, { type: 'detail' }>;
type Status = Extract<ToWebview, { type: 'actionStatus' }>;

export interface DetailHost {
  post(message: FromWebview): void;
  /** Selects a row (a replay's new exchange, or the original of a replay). */
  select(seq: number): void;
  /** `HH:MM:SS.mmm` of a row, if listed. */
  timeOf(seq: number): string | undefined;
  /** Drafts kept from before the page was reloaded, and where to say one changed (the page saves them). */
  drafts?: Map<number, string>;
  onDraft?(): void;
}

export class DetailView {
  readonly element: HTMLElement;
  private detail: Detail | undefined;
  /** What the user typed in the params box, per exchange: switching rows loses nothing. */
  readonly drafts: Map<number, string>;
  private readonly statuses = new Map<number, Status>();
  private readonly find: FindBar;
  private readonly body: HTMLElement;

  constructor(private readonly host: DetailHost) {
    this.drafts = host.drafts ?? new Map();
    this.body = h('div', { class: 'detail-body' });
    this.find = new FindBar(() => [...this.body.querySelectorAll<HTMLElement>('.json-tree, .json-text')]);
    this.element = h('div', { class: 'detail', 'aria-label': l10n.t('Selected exchange') }, this.find.element, this.body);
  }

  show(detail: Detail | undefined): void {
    this.detail = detail;
    this.render();
  }

  get seq(): number | undefined {
    return this.detail?.seq;
  }

  status(status: Status): void {
    this.statuses.set(status.seq, status);
    if (status.newSeq !== undefined) {
      // Replayed: the new exchange holds the edited params as sent; the original shows its recorded ones again.
      if (status.action === 'replay' && this.drafts.delete(status.seq)) this.host.onDraft?.();
      this.host.select(status.newSeq);
    } else if (status.seq === this.detail?.seq) this.render();
  }

  private render(): void {
    const focused = document.activeElement;
    const keepFocus = focused instanceof HTMLElement && this.body.contains(focused) ? focused.dataset.focusKey : undefined;
    this.body.textContent = '';
    const detail = this.detail;
    if (!detail) {
      this.body.append(h('p', { class: 'empty' }, l10n.t('Select an exchange to see its request and response.')));
      this.find.refresh();
      return;
    }
    const seq = detail.seq;
    const method = typeof (detail.request as { method?: unknown } | undefined)?.method === 'string' ? (detail.request as { method: string }).method : '';
    const editable = detail.replayUnavailable === undefined || detail.runTool || detail.cliUnavailable === undefined;
    const box = h('textarea', { class: 'params-editor', spellcheck: 'false', 'aria-label': l10n.t('Params to replay (JSON)'), 'data-focus-key': 'params' });
    // Edits are a draft for Replay and Open in Run Tool: the exchange itself, and Copy as Inspector CLI Command, keep the recorded params.
    const recorded = JSON.stringify(editableParams(method, detail.request), null, 2);
    box.value = this.drafts.get(seq) ?? recorded;
    box.rows = Math.min(14, Math.max(3, box.value.split('\n').length));
    const problem = h('p', { class: 'params-error', role: 'alert' });
    const actionButtons: HTMLButtonElement[] = [];
    const reset = h(
      'button',
      { type: 'button', class: 'action-reset', title: l10n.t('Put the recorded params back in the box (your edits are dropped)'), 'data-focus-key': 'reset' },
      l10n.t('Reset to Recorded Params'),
    );
    const check = (): boolean => {
      const parsed = parseParamsText(box.value);
      problem.textContent = parsed.ok ? '' : parsed.error;
      box.setAttribute('aria-invalid', String(!parsed.ok));
      // Copy as CLI sends the recorded params: a broken draft does not stop it.
      for (const b of actionButtons) b.disabled = (!parsed.ok && b.dataset.draft === 'true') || b.dataset.unavailable === 'true';
      reset.hidden = box.value === recorded;
      return parsed.ok;
    };
    reset.addEventListener('click', () => {
      box.value = recorded;
      this.drafts.delete(seq);
      this.host.onDraft?.();
      check();
      box.focus();
    });
    const act = (action: 'replay' | 'runTool' | 'copyCli') => {
      if (action === 'copyCli') this.host.post({ type: 'action', action, seq, params: recorded });
      else if (check()) this.host.post({ type: 'action', action, seq, params: box.value });
    };
    const button = (label: string, title: string, action: 'replay' | 'runTool' | 'copyCli', unavailable?: string) => {
      const b = h('button', { type: 'button', class: `action-${action}`, title: unavailable ?? title, 'data-focus-key': action }, label);
      if (unavailable) b.dataset.unavailable = 'true';
      if (action !== 'copyCli') b.dataset.draft = 'true';
      b.addEventListener('click', () => act(action));
      actionButtons.push(b);
      return b;
    };
    const both = h('button', { type: 'button', title: l10n.t('Copy request and response as one JSON object') }, l10n.t('Copy Both'));
    both.addEventListener('click', () => this.host.post({ type: 'copy', seq, part: 'both' }));
    const bar = h('div', { class: 'detail-bar' });
    if (detail.replayUnavailable === undefined)
      bar.append(button(l10n.t('Replay'), l10n.t('Send these params again to the same server (Ctrl+Enter in the box)'), 'replay'));
    if (detail.runTool) bar.append(button(l10n.t('Open in Run Tool'), l10n.t('Open the Run Tool form of this tool with these arguments'), 'runTool'));
    if (editable)
      bar.append(
        button(
          l10n.t('Copy as Inspector CLI Command'),
          l10n.t('Copy the {0} command that sends the recorded request (secrets left out)', 'npx @modelcontextprotocol/inspector --cli'),
          'copyCli',
          detail.cliUnavailable,
        ),
      );
    if (detail.cancellable) {
      const cancel = h(
        'button',
        { type: 'button', class: 'action-cancel', title: l10n.t('Stop this replay: the server is sent notifications/cancelled'), 'data-focus-key': 'cancel' },
        l10n.t('Cancel'),
      );
      cancel.addEventListener('click', () => {
        cancel.disabled = true;
        this.host.post({ type: 'cancelReplay', seq });
      });
      bar.append(cancel);
    }
    bar.append(h('span', { class: 'spacer' }), both);
    this.body.append(bar);
    const status = this.statuses.get(seq);
    if (status) this.body.append(this.statusLine(status));
    if (detail.replayOf !== undefined) {
      const original = detail.replayOf;
      const show = h('button', { type: 'button', class: 'link' }, l10n.t('Show the original'));
      show.addEventListener('click', () => this.host.select(original));
      const at = this.host.timeOf(original);
      this.body.append(h('p', { class: 'replay-of' }, at ? l10n.t('↻ Replay of the exchange at {0}.', at) : l10n.t('↻ Replay of the exchange.'), ' ', show));
    }
    const request = this.pane(l10n.t('Request'), 'request', detail.request, undefined, seq);
    if (editable) {
      box.addEventListener('input', () => {
        this.drafts.set(seq, box.value);
        this.host.onDraft?.();
        check();
      });
      box.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && detail.replayUnavailable === undefined) {
          event.preventDefault();
          act('replay');
        }
      });
      request.insertBefore(
        h(
          'div',
          { class: 'params' },
          h('label', { class: 'params-label' }, detail.replayUnavailable === undefined ? l10n.t('Params (edit, then Replay)') : l10n.t('Params (JSON)'), box),
          h('div', { class: 'params-tools' }, reset),
          problem,
        ),
        request.children[1] ?? null,
      );
    }
    const response = this.pane(l10n.t('Response'), 'response', detail.response, detail.note, seq);
    if (detail.outputIssues?.length) {
      // Server text (the issues quote member names): textContent only, through h().
      response.insertBefore(
        h(
          'div',
          { class: 'schema-issues', role: 'note' },
          h('p', {}, l10n.t("⚠ structuredContent breaks the tool's outputSchema:")),
          h('ul', {}, ...detail.outputIssues.map((issue) => h('li', {}, issue))),
        ),
        response.children[1] ?? null,
      );
    }
    this.body.append(h('div', { class: 'panes' }, request, response));
    const http = httpSection(detail.http);
    if (http) this.body.append(http);
    check();
    this.find.refresh();
    if (keepFocus) this.body.querySelector<HTMLElement>(`[data-focus-key="${keepFocus}"]`)?.focus();
  }

  private statusLine(status: Status): HTMLElement {
    const line = h('p', { class: `action-status ${status.kind}`, role: 'status' }, status.text);
    if (status.kind === 'notRunning') {
      const start = h('button', { type: 'button', class: 'start-server' }, l10n.t('Start Server'));
      start.addEventListener('click', () => this.host.post({ type: 'startServer', seq: status.seq }));
      line.append(' ', start);
    }
    return line;
  }

  private pane(title: string, part: 'request' | 'response', value: unknown, note: string | undefined, seq: number): HTMLElement {
    const copy = h(
      'button',
      { type: 'button', class: 'copy', title: part === 'request' ? l10n.t('Copy the request as JSON') : l10n.t('Copy the response as JSON') },
      l10n.t('Copy JSON'),
    );
    copy.addEventListener('click', () => this.host.post({ type: 'copy', seq, part }));
    const section = h('section', { class: `pane ${part}`, 'aria-label': title }, h('header', {}, h('h2', {}, title), copy));
    if (value === undefined) {
      copy.disabled = true;
      section.append(h('p', { class: 'note' }, note ?? l10n.t('Nothing recorded.')));
    } else {
      section.append(renderJson(value));
    }
    return section;
  }
}
