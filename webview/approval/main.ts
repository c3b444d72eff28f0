/**
 * The approval panel's webview: the queue of pending requests on the left, the selected one
 * on the right (sampling review, elicitation form, or URL confirmation). A view of the host's
 * state (`state` messages); every button posts an action with the request's id. What the user
 * types is posted as a draft (debounced) so it survives the panel being hidden.
 *
 * DOM ids (stable, for end-to-end tests): #queue (buttons .queue-item[data-id]), #detail;
 * sampling: #system-prompt, #msg-<m>-<b> (text blocks), #tools (li.tool[data-name]), #model,
 * #send, #stop, #response, #mock-profile (a mock profile wrote the reply), #tool-calls (when tools are offered), #approve, #deny, #policy; elicitation: #elicit-form, #field-<name> (checkbox lists:
 * #field-<name>-<i>), #problem-<name>, #accept, #decline, #cancel; URL: #url-full,
 * #url-domain, #open-url, #decline, #cancel. The final buttons (.actions.final) are a sticky
 * bar at the bottom; a failed Accept focuses the first invalid field.
 */
import '../shared/l10nSetup';
import * as l10n from '@vscode/l10n';
import {
  hasSamplingReply,
  type ElicitFormView,
  type ElicitUrlView,
  type FromWebview,
  type PendingView,
  type SamplingDraft,
  type SamplingView,
  type ToWebview,
} from '../../src/approval/common/approvalProtocol';
import { elicitationContent, type ElicitationValues } from '../../src/approval/common/elicitationForm';
import { button, el } from './dom';
import { field, focusFirstProblem, markInvalid } from './formFields';
import { fill } from '../shared/fill';
import { timeOfDay } from '../../src/shared/common/durations';
import { connectHost, typedMessage } from '../shared/hostChannel';
import { keepingFocus } from '../shared/keepingFocus';
import './style.css';

const host = connectHost<FromWebview, { selected?: string }>();
const app = document.getElementById('app') as HTMLElement;

let pending: PendingView[] = [];
let selected: string | undefined = host.savedState()?.selected;
let renderedKey = '';
const samplingDrafts = new Map<string, SamplingDraft>();
const formValues = new Map<string, ElicitationValues>();
const streaming = new Map<string, string>();
/** The form whose Accept was just pressed: when its answer lists problems, the first invalid field gets the focus. */
let focusProblemOf: string | undefined;

function post(message: FromWebview): void {
  host.post(message);
}

window.addEventListener('error', (e) => post({ type: 'error', message: String(e.message) }));
function receive(m: ToWebview): void {
  if (m.type === 'state') {
    pending = m.pending;
    for (const p of pending) {
      if (p.kind === 'sampling' && !samplingDrafts.has(p.id)) samplingDrafts.set(p.id, structuredClone(p.draft));
      if (p.kind === 'sampling' && p.stage === 'response' && p.draft.responseText !== undefined) {
        const d = samplingDrafts.get(p.id)!;
        if (d.responseText === undefined || streaming.has(p.id)) d.responseText = p.draft.responseText;
        if (d.toolCallsJson === undefined && p.draft.toolCallsJson !== undefined) d.toolCallsJson = p.draft.toolCallsJson;
        streaming.delete(p.id);
      }
      if (p.kind === 'elicitForm' && !formValues.has(p.id)) formValues.set(p.id, structuredClone(p.values));
    }
    if (m.selected) selected = m.selected;
    if (!pending.some((p) => p.id === selected)) selected = pending[0]?.id;
    render();
    const current = pending.find((p) => p.id === selected);
    if (current?.kind === 'elicitForm' && focusProblemOf === current.id && current.issues?.length) {
      focusProblemOf = undefined;
      focusFirstProblem(current, new Set(current.issues.map((i) => i.pointer.slice(1).split('/')[0])));
    }
  } else if (m.type === 'chunk') {
    streaming.set(m.requestId, (streaming.get(m.requestId) ?? '') + m.text);
    const box = document.getElementById('response') as HTMLTextAreaElement | null;
    if (box && m.requestId === selected) box.value = streaming.get(m.requestId) ?? '';
  }
}

const timers = new Map<string, ReturnType<typeof setTimeout>>();
function debounce(key: string, fn: () => void): void {
  clearTimeout(timers.get(key));
  timers.set(key, setTimeout(fn, 250));
}

function keyOf(p: PendingView | undefined): string {
  if (!p) return 'none';
  const ids = pending.map((x) => `${x.id}:${x.kind === 'sampling' ? x.stage : x.kind === 'elicitUrl' ? String(x.opened) : ''}`).join(',');
  const extra =
    p.kind === 'sampling' ? JSON.stringify([p.error, p.response, p.policy, p.models.length]) : p.kind === 'elicitForm' ? JSON.stringify(p.issues ?? []) : '';
  return `${ids}|${p.id}|${extra}`;
}

function render(): void {
  host.saveState({ selected });
  const current = pending.find((p) => p.id === selected);
  const key = keyOf(current);
  if (key === renderedKey) return;
  // Rebuilding (another request arrived, a state changed) must not move the form under the
  // user: the same request keeps its scroll position and focus.
  const sameRequest = renderedKey.split('|')[1] === current?.id;
  renderedKey = key;
  const scrolled = document.scrollingElement?.scrollTop ?? 0;
  // The control being typed in keeps the focus and its caret: a request arriving meanwhile must
  // not send the next keys to the end of the text (as focusing the new field by its id did).
  keepingFocus(app, () => draw(current));
  if (sameRequest && document.scrollingElement) document.scrollingElement.scrollTop = scrolled;
}

/** The queue and the selected request's detail, drawn anew. */
function draw(current: PendingView | undefined): void {
  app.replaceChildren();
  if (!pending.length) {
    app.append(el('p', { class: 'empty', id: 'empty' }, l10n.t('No requests are waiting. Sampling and elicitation requests from MCP servers appear here.')));
    return;
  }
  const queue = el('nav', { id: 'queue', 'aria-label': l10n.t('Pending requests') });
  for (const p of pending) {
    const b = el('button', {
      type: 'button',
      class: `queue-item${p.id === selected ? ' selected' : ''}`,
      'data-id': p.id,
      'aria-current': String(p.id === selected),
    });
    b.append(
      el('span', { class: 'server' }, p.server.label),
      el(
        'span',
        { class: 'kind' },
        p.kind === 'sampling'
          ? l10n.t('sampling · {0}', stageLabel(p.stage))
          : p.kind === 'elicitForm'
            ? l10n.t('form')
            : p.opened
              ? l10n.t('URL · waiting for completion')
              : l10n.t('URL'),
      ),
    );
    b.addEventListener('click', () => {
      selected = p.id;
      post({ type: 'select', requestId: p.id });
      render();
    });
    queue.append(b);
  }
  const detail = el('section', { id: 'detail' });
  if (current?.kind === 'sampling') renderSampling(detail, current);
  else if (current?.kind === 'elicitForm') renderForm(detail, current);
  else if (current?.kind === 'elicitUrl') renderUrl(detail, current);
  app.append(queue, detail);
}

function stageLabel(stage: SamplingView['stage']): string {
  return stage === 'review' ? l10n.t('review') : stage === 'generating' ? l10n.t('generating') : l10n.t('response');
}

function header(p: PendingView, title: string): HTMLElement {
  const h = el('header');
  h.append(el('h1', {}, title), el('p', { class: 'asker' }, ...fill(l10n.t('Asked by MCP server {0}'), el('strong', { id: 'asker' }, p.server.label))));
  if (p.deadline) h.append(el('p', { class: 'deadline' }, l10n.t('Answer before {0} or it is cancelled.', timeOfDay(p.deadline))));
  return h;
}

function renderSampling(root: HTMLElement, p: SamplingView): void {
  const draft = samplingDrafts.get(p.id) ?? { texts: {} };
  const save = () => debounce(p.id, () => post({ type: 'samplingDraft', requestId: p.id, draft }));
  root.append(header(p, l10n.t('Sampling request')));
  const info = el('dl', { class: 'params' });
  const row = (k: string, v: string) => info.append(el('dt', {}, k), el('dd', {}, v));
  row('maxTokens', String(p.maxTokens));
  if (p.temperature !== undefined) row('temperature', String(p.temperature));
  if (p.stopSequences) row(l10n.t('stop sequences'), p.stopSequences.map((s) => JSON.stringify(s)).join(', '));
  if (p.includeContext)
    row('includeContext', p.includeContext !== 'none' ? l10n.t('{0} (not supported: no context is added)', p.includeContext) : p.includeContext);
  if (p.modelPreferences) {
    const mp = p.modelPreferences;
    row(l10n.t('model hints'), mp.hints.join(', ') || l10n.t('(none)'));
    const prio = [
      [l10n.t('cost {0}', String(mp.costPriority)), mp.costPriority],
      [l10n.t('speed {0}', String(mp.speedPriority)), mp.speedPriority],
      [l10n.t('intelligence {0}', String(mp.intelligencePriority)), mp.intelligencePriority],
    ]
      .filter(([, v]) => v !== undefined)
      .map(([text]) => text);
    if (prio.length) row(l10n.t('priorities'), prio.join(', '));
  }
  root.append(info);

  const sys = el('textarea', { id: 'system-prompt', rows: '2', 'aria-label': l10n.t('System prompt') });
  sys.value = draft.systemPrompt ?? p.systemPrompt ?? '';
  sys.addEventListener('input', () => {
    draft.systemPrompt = sys.value;
    save();
  });
  root.append(el('label', { for: 'system-prompt' }, l10n.t('System prompt')), sys);

  const messages = el('ol', { class: 'messages' });
  p.messages.forEach((m, mi) => {
    const li = el('li', { class: `message ${m.role}` }, el('span', { class: 'role' }, m.role));
    m.blocks.forEach((b, bi) => {
      if (b.kind === 'text') {
        const t = el('textarea', { id: `msg-${mi}-${bi}`, rows: '3', 'aria-label': l10n.t('{0} message {1}', m.role, mi + 1) });
        t.value = draft.texts[`${mi}.${bi}`] ?? b.text;
        t.addEventListener('input', () => {
          draft.texts[`${mi}.${bi}`] = t.value;
          save();
        });
        li.append(t);
      } else if (b.kind === 'image') {
        li.append(el('img', { src: b.dataUri, alt: l10n.t('image {0}, {1} bytes', b.mimeType, b.bytes) }));
      } else if (b.kind === 'audio') {
        li.append(el('audio', { src: b.dataUri, controls: '' }));
      } else {
        li.append(
          el('span', { class: 'block-type' }, b.type === 'tool_use' ? l10n.t('tool call') : b.type === 'tool_result' ? l10n.t('tool result') : b.type),
          el('pre', { class: `block ${b.type}` }, b.json),
        );
      }
    });
    messages.append(li);
  });
  root.append(el('h2', {}, l10n.t('Messages')), messages);
  if (p.tools?.length) {
    const tools = el('ul', { id: 'tools', class: 'tools' });
    for (const t of p.tools) {
      const details = el('details', {}, el('summary', {}, l10n.t('input schema')), el('pre', {}, t.inputSchema));
      tools.append(el('li', { class: 'tool', 'data-name': t.name }, el('code', {}, t.name), t.description ? ` — ${t.description}` : '', details));
    }
    root.append(
      el('h2', {}, p.toolChoice ? l10n.t('Tools offered to the model (toolChoice: {0})', p.toolChoice) : l10n.t('Tools offered to the model')),
      tools,
    );
  }

  const model = el('select', { id: 'model', 'aria-label': l10n.t('Model') });
  for (const m of p.models) {
    const o = el('option', { value: m.id }, `${m.label} — ${m.backend}`);
    if (m.id === draft.modelId) o.selected = true;
    model.append(o);
  }
  const generating = p.stage === 'generating';
  // "Answer by hand" sends nothing anywhere: its button opens the reply for the user to write.
  const byHand = () => p.models.find((m) => m.id === model.value)?.backend === 'manual';
  const sendLabel = () =>
    byHand()
      ? p.stage === 'response'
        ? l10n.t('Start the reply over')
        : l10n.t('Write the reply')
      : p.stage === 'response'
        ? l10n.t('Send again')
        : l10n.t('Send to model');
  const send = button(
    'send',
    sendLabel(),
    () => {
      post({ type: 'send', requestId: p.id, draft });
      // The new reply (text and tool calls) comes from the host with the next state.
      delete draft.responseText;
      delete draft.toolCallsJson;
    },
    'primary',
    generating || !p.models.length,
  );
  model.addEventListener('change', () => {
    draft.modelId = model.value;
    send.textContent = sendLabel();
    save();
  });
  const actions = el(
    'div',
    { class: 'actions' },
    el('label', { for: 'model' }, l10n.t('Model'), ' '),
    model,
    send,
    generating ? button('stop', l10n.t('Stop'), () => post({ type: 'stop', requestId: p.id })) : undefined,
  );
  root.append(actions);
  if (p.error) root.append(el('p', { class: 'error', role: 'alert' }, p.error));

  // Approve waits for a reply: an empty one is not an answer (Deny is).
  const approve = button(
    'approve',
    l10n.t('Approve'),
    () => post({ type: 'approve', requestId: p.id, draft }),
    'primary',
    p.stage !== 'response' || !hasSamplingReply(draft),
  );
  const replyChanged = () => (approve.disabled = p.stage !== 'response' || !hasSamplingReply(draft));
  if (p.stage !== 'review') {
    const response = el('textarea', { id: 'response', rows: '6', 'aria-label': l10n.t('Response') });
    response.value = generating ? (streaming.get(p.id) ?? '') : (draft.responseText ?? '');
    response.readOnly = generating;
    response.addEventListener('input', () => {
      draft.responseText = response.value;
      replyChanged();
      save();
    });
    root.append(el('h2', {}, l10n.t('Response')));
    if (p.response?.mock && !generating) root.append(mockNote(p.response.mock));
    root.append(response);
    if (p.tools?.length) {
      const calls = el('textarea', { id: 'tool-calls', rows: '6', class: 'json', 'aria-label': l10n.t('Tool calls (JSON)'), spellcheck: 'false' });
      calls.value = generating ? '' : (draft.toolCallsJson ?? '[]');
      calls.readOnly = generating;
      calls.addEventListener('input', () => {
        draft.toolCallsJson = calls.value;
        replyChanged();
        save();
      });
      root.append(
        el('label', { for: 'tool-calls' }, l10n.t('Tool calls in the reply (JSON array of {0}; empty array: none)', '{"id", "name", "input"}')),
        calls,
      );
    }
    if (p.response) root.append(el('p', { class: 'meta' }, l10n.t('model {0}, stopReason {1}', p.response.model, p.response.stopReason)));
  }
  const policy = el('select', { id: 'policy', 'aria-label': l10n.t('Sampling policy for this server') });
  for (const [value, label] of [
    ['ask', l10n.t('Ask every time')],
    ['session', l10n.t('Allow for this session')],
    ['always', l10n.t('Always allow')],
    ['never', l10n.t('Never allow')],
  ]) {
    const o = el('option', { value }, label);
    if (value === p.policy) o.selected = true;
    policy.append(o);
  }
  policy.addEventListener('change', () => post({ type: 'setPolicy', requestId: p.id, policy: policy.value as SamplingView['policy'] }));
  root.append(
    el(
      'div',
      { class: 'actions final' },
      approve,
      button('deny', l10n.t('Deny'), () => post({ type: 'deny', requestId: p.id })),
      el('label', { for: 'policy' }, l10n.t('Requests from {0}:', p.server.label), ' '),
      policy,
    ),
  );
}

/** Says that a sampling mock profile wrote the reply, not a model (#mock-profile). */
function mockNote(mock: { profile: string; source: string }): HTMLElement {
  return el(
    'p',
    { id: 'mock-profile', class: 'mock-note', role: 'status' },
    l10n.t("Answered by mock profile '{0}' ({1}), not by a model. Edit the reply, then Approve, or Deny.", mock.profile, mock.source),
  );
}

function renderForm(root: HTMLElement, p: ElicitFormView): void {
  const values = formValues.get(p.id) ?? {};
  const save = () => debounce(p.id, () => post({ type: 'formDraft', requestId: p.id, values }));
  root.append(header(p, l10n.t('Information requested')), el('p', { class: 'message-text', id: 'elicit-message' }, p.message));
  root.append(el('p', { class: 'note' }, l10n.t('Servers must not ask for passwords or other secrets this way. Do not enter any.')));
  const form = el('form', { id: 'elicit-form', novalidate: '' });
  const problems = new Map((p.issues ?? []).map((i) => [i.pointer.slice(1), i.message]));
  for (const f of p.form.fields) form.append(field(f, values, save, problems.get(f.name)));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    accept();
  });
  const accept = () => {
    const local = elicitationContent(p.form, values).problems;
    if (local.length) {
      for (const f of p.form.fields) {
        const message = local.find((x) => x.pointer.slice(1) === f.name)?.message ?? '';
        const slot = document.getElementById(`problem-${f.name}`);
        if (slot) slot.textContent = message;
        markInvalid(f.name, !!message);
      }
      focusFirstProblem(p, new Set(local.map((x) => x.pointer.slice(1))));
      return;
    }
    focusProblemOf = p.id;
    post({ type: 'accept', requestId: p.id, values });
  };
  root.append(
    form,
    el(
      'div',
      { class: 'actions final' },
      button('accept', l10n.t('Accept'), accept, 'primary'),
      button('decline', l10n.t('Decline'), () => post({ type: 'decline', requestId: p.id })),
      button('cancel', l10n.t('Cancel'), () => post({ type: 'cancel', requestId: p.id })),
    ),
  );
}

function renderUrl(root: HTMLElement, p: ElicitUrlView): void {
  root.append(header(p, p.opened ? l10n.t('Waiting for the server') : l10n.t('Open a web page?')), el('p', { class: 'message-text' }, p.message));
  root.append(
    el('p', { class: 'domain' }, ...fill(l10n.t('Domain: {0}'), el('strong', { id: 'url-domain' }, p.domain ?? l10n.t('(none)')))),
    el('p', { class: 'url' }, el('code', { id: 'url-full' }, p.url)),
  );
  if (p.blocked) root.append(el('p', { class: 'error', role: 'alert' }, l10n.t('This address will not be opened: {0}.', p.blocked)));
  if (p.opened) {
    root.append(
      el('p', {}, l10n.t('The page was opened in your browser. This entry goes away when the server reports that you finished.')),
      el(
        'div',
        { class: 'actions final' },
        button('cancel', l10n.t('Dismiss'), () => post({ type: 'cancel', requestId: p.id })),
      ),
    );
    return;
  }
  root.append(
    el(
      'div',
      { class: 'actions final' },
      button('open-url', l10n.t('Open in browser…'), () => post({ type: 'openUrl', requestId: p.id }), 'primary', !!p.blocked),
      button('decline', l10n.t('Decline'), () => post({ type: 'decline', requestId: p.id })),
      button('cancel', l10n.t('Cancel'), () => post({ type: 'cancel', requestId: p.id })),
    ),
  );
}

host.start({ parse: typedMessage<ToWebview>, receive });
