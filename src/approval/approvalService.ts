/**
 * Sampling and elicitation requests from servers, decided by the user: the queue of pending
 * requests (shown by the approval panel), the per-server policy and rate limit, time-outs,
 * and the answers sent back. The service is the panel's controller: the webview calls the
 * same methods (`send`, `approve`, `deny`, `accept`…) that the integration tests call.
 */
import * as vscode from 'vscode';
import {
  ProtocolError,
  ProtocolErrorCode,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type ElicitRequestFormParams,
  type ElicitRequestURLParams,
  type ElicitResult,
} from '@modelcontextprotocol/client';
import type { ApprovalActivity } from './common/approvalActivity';
import { ApprovalQueue, REQUEST_TIMEOUT } from './common/approvalQueue';
import { USER_REJECTED_SAMPLING, decidesAlone, type SamplingPolicy } from './common/approvalPolicy';
import { SamplingPolicies } from './samplingPolicies';
import { hasSamplingReply, type ElicitUrlView, type PendingView, type SamplingDraft } from './common/approvalProtocol';
import { buildElicitationForm, elicitationContent, initialElicitationValues, type ElicitationValues } from './common/elicitationForm';
import type { ServerDefinition } from '../config/common/launchDefinition';
import type { FieldProblem } from '../jsonSchema/common/formValues';
import { validateAgainstSchema } from '../jsonSchema/common/schemaValidation';
import { checkElicitationUrl } from '../shared/common/urlSafety';
import { parseToolCallsJson, toolCallsJson } from '../models/common/samplingTools';
import { resultOf, toModelRequest } from './common/samplingMessages';
import { mockAnswer, mockModelInfo } from '../models/common/mockReplies';
import { MockTurns } from './common/mockTurns';
import { createClientFeatures, samplingRejected } from '../mcp/clientFeatures';
import type { ClientFeatures } from '../mcp/connection/connectionTypes';
import type { ModelResponse } from '../models/common/modelBackend';
import { toolsUnsupportedMessage, type ModelService } from '../models/common/modelService';
import { viewOf, type ElicitFormData, type ElicitUrlData, type Entry, type PendingData, type SamplingData } from './pendingRequests';
import { errorMessage } from '../shared/common/errors';
import { DisposableStore } from '../shared/common/disposables';

/** What an action on a request ended with (for the webview and the tests). */
export type ActionResult = { ok: true } | { ok: false; reason: string; issues?: FieldProblem[] };

const config = () => vscode.workspace.getConfiguration('mcpWorkbench');

export class ApprovalService implements vscode.Disposable {
  readonly queue = new ApprovalQueue<PendingData, CreateMessageResult | ElicitResult>('req');
  /** Fires on every change of the queue (and of the URL elicitations waiting for completion). */
  readonly onDidChange: vscode.Event<void>;
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  private readonly streamEmitter = new vscode.EventEmitter<{ requestId: string; text: string }>();
  /** Streamed reply chunks of a generating request. */
  readonly onDidStream = this.streamEmitter.event;
  private readonly requestEmitter = new vscode.EventEmitter<PendingView>();
  /** Fires when a request starts waiting for the user (the panel opens on it). */
  readonly onDidRequest = this.requestEmitter.event;
  private readonly policies = new SamplingPolicies(() => this.changed());
  /** URL elicitations the user opened, by server id + elicitationId, until the server reports completion. */
  private readonly waitingUrls = new Map<string, ElicitUrlView>();
  private readonly completed = new vscode.EventEmitter<{ serverId: string; elicitationId: string }>();
  readonly onDidCompleteElicitation = this.completed.event;
  private expiryTimer: ReturnType<typeof setInterval> | undefined;
  private readonly disposables = new DisposableStore();
  /** Opens a URL outside VS Code; tests replace it. */
  openExternal: (uri: vscode.Uri) => Thenable<boolean> = (uri) => vscode.env.openExternal(uri);
  readonly features: ClientFeatures;
  /** Requests each server's mock profile got since its last start. */
  readonly mockTurns = new MockTurns();

  /**
   * `models`: the extension's one ModelService (built by the composition root), also for the tests.
   * `activity`: where it publishes which servers wait for the user (Run Tool panels read it).
   * `mockOf`: a server's sampling mock as configured now (edits apply without a restart).
   */
  constructor(
    readonly models: ModelService,
    private readonly activity: ApprovalActivity,
    private readonly mockOf: (server: ServerDefinition) => ServerDefinition['samplingMock'] = (s) => s.samplingMock,
  ) {
    this.onDidChange = this.changeEmitter.event;
    this.disposables.push({ dispose: this.queue.onDidChange(() => this.changed()).dispose });
    this.features = createClientFeatures({
      sample: (server, params, signal) => this.sample(server, params, signal),
      elicitForm: (server, params, signal) => this.elicitForm(server, params, signal),
      elicitUrl: (server, params, signal) => this.elicitUrl(server, params, signal),
      elicitationComplete: (server, id) => this.elicitationComplete(server, id),
    });
  }

  /** Requests waiting for an answer (the badge count). */
  get pendingCount(): number {
    return this.queue.size;
  }

  /** Everything the panel shows: pending requests (oldest first), then opened URL elicitations. */
  views(): PendingView[] {
    return [...this.queue.pending().map((e) => this.view(e)), ...this.waitingUrls.values()];
  }

  view(entry: Entry): PendingView {
    return viewOf(entry, (server) => this.policyOf(server));
  }

  policyOf(server: ServerDefinition): SamplingPolicy {
    return this.policies.of(server);
  }

  /** See SamplingPolicies.set: `session` until VS Code closes, the others in the user setting. */
  setPolicy(server: ServerDefinition, policy: SamplingPolicy): Promise<void> {
    return this.policies.set(server, policy);
  }

  /** The policy choice in a request's panel: for the definition that sent the request. */
  async setPolicyOfRequest(requestId: string, policy: SamplingPolicy): Promise<ActionResult> {
    const entry = this.queue.get(requestId);
    if (!entry) return { ok: false, reason: 'no such request' };
    await this.policies.set(entry.data.server, policy);
    return { ok: true };
  }

  /** Forgets the session choices and rate-limit history (tests, "reset"). */
  resetSession(): void {
    this.policies.reset();
  }

  // ---------------------------------------------------------------------------------------
  // sampling

  async sample(server: ServerDefinition, params: CreateMessageRequestParams, signal: AbortSignal): Promise<CreateMessageResult> {
    this.policies.acquire(server);
    const policy = this.policyOf(server);
    const alone = decidesAlone(policy);
    if (alone === 'reject') throw samplingRejected(`the sampling policy for server "${server.name}" is "never" (setting mcpWorkbench.sampling.serverPolicies)`);
    const mock = this.mockOf(server);
    if (mock) return this.sampleWithMock(server, params, signal, mock, alone === 'allow');
    let models = await this.models.models();
    if (params.tools?.length) {
      // Only models whose backend can do tool calls may answer a request that offers tools.
      // Answered without the user, the model chosen in mcpWorkbench.models.preferred must be one.
      const preferred = models.find((m) => m.id === this.models.preferredModelId());
      const able = models.filter((m) => this.models.supportsTools(m));
      const unable = alone === 'allow' && preferred && !this.models.supportsTools(preferred) ? preferred : !able.length ? models[0] : undefined;
      if (unable || !models.length) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidRequest,
          `This sampling request offers tools, but the model to answer it cannot use them. ${unable ? toolsUnsupportedMessage(unable) : 'No model is available.'}`,
        );
      }
      models = able;
    }
    const picked = await this.models.pick(params.modelPreferences, models);
    if (alone === 'allow' && picked && picked.backend !== 'manual') {
      const response = await this.models
        .generate(picked, toModelRequest(params, { texts: {} }), () => undefined, signal)
        .catch((error) => {
          throw new ProtocolError(ProtocolErrorCode.InternalError, `Sampling failed with ${picked.label}: ${errorMessage(error)}`);
        });
      return resultOf(params, response.text, response.toolCalls ?? [], response.model, response.stopReason);
    }
    const data: SamplingData = { kind: 'sampling', server, params, models, draft: { texts: {}, ...(picked ? { modelId: picked.id } : {}) } };
    return this.wait(data, signal) as Promise<CreateMessageResult>;
  }

  /**
   * A server with a mock profile: the profile answers, never a model. Its reply waits for the
   * user like a model's (pre-filled, editable, with a note saying which profile answered) unless
   * the user's own policy lets the server sample without asking.
   */
  private async sampleWithMock(
    server: ServerDefinition,
    params: CreateMessageRequestParams,
    signal: AbortSignal,
    mock: NonNullable<ServerDefinition['samplingMock']>,
    alone: boolean,
  ): Promise<CreateMessageResult> {
    if (alone) {
      if (!mock.profile) throw new ProtocolError(ProtocolErrorCode.InternalError, `Sampling mock: ${mock.problem ?? `no profile "${mock.name}"`}`);
      const profile = mock.profile;
      const answer = mockAnswer(profile, toModelRequest(params, { texts: {} }), () => this.mockTurns.next(server.id, profile));
      if (!answer.ok) throw new ProtocolError(ProtocolErrorCode.InternalError, answer.reason);
      return resultOf(params, answer.response.text, answer.response.toolCalls ?? [], answer.response.model, answer.response.stopReason);
    }
    // The user may still answer by hand or with a real model: the mock comes first, pre-selected.
    const others = (await this.models.models()).filter((m) => !params.tools?.length || this.models.supportsTools(m));
    const models = mock.profile ? [mockModelInfo(mock.profile), ...others] : others;
    const data: SamplingData = {
      kind: 'sampling',
      server,
      params,
      models,
      draft: { texts: {}, ...(models[0] ? { modelId: models[0].id } : {}) },
      ...(mock.profile ? { mock: { profile: mock.profile } } : { error: mock.problem }),
    };
    return this.wait(data, signal, (entry) => {
      if (data.mock) this.answerWithMock(entry.id, data);
    }) as Promise<CreateMessageResult>;
  }

  /** The mock's reply becomes the editable response (or its reason for having none, the error). */
  private answerWithMock(id: string, data: SamplingData): ActionResult {
    const mock = data.mock!;
    const profile = mock.profile;
    this.queue.transition(id, 'generating'); // from review (a new request); Send has moved it already
    const answer = mockAnswer(profile, toModelRequest(data.params, data.draft), () => (mock.turn ??= this.mockTurns.next(data.server.id, profile)));
    if (!answer.ok) {
      data.error = answer.reason;
      this.queue.transition(id, 'review');
      return { ok: false, reason: answer.reason };
    }
    const { response } = answer;
    data.response = { model: response.model, stopReason: response.stopReason, mock: { profile: profile.name, source: answer.source } };
    data.draft.responseText = response.text;
    if (data.params.tools?.length) data.draft.toolCallsJson = toolCallsJson(response.toolCalls);
    this.queue.transition(id, 'response');
    return { ok: true };
  }

  /** Updates what the user edited (messages, system prompt, model, reply) without acting. */
  setSamplingDraft(id: string, draft: Partial<SamplingDraft>): ActionResult {
    const entry = this.queue.get(id);
    if (entry?.data.kind !== 'sampling') return { ok: false, reason: 'no such sampling request' };
    entry.data.draft = { ...entry.data.draft, ...draft, texts: { ...entry.data.draft.texts, ...(draft.texts ?? {}) } };
    return { ok: true };
  }

  /**
   * Sends the (edited) request to the chosen model; the reply becomes the editable response.
   * With "answer by hand" nothing is generated: the response editor opens empty.
   */
  async send(id: string, draft?: Partial<SamplingDraft>): Promise<ActionResult> {
    if (draft) this.setSamplingDraft(id, draft);
    const entry = this.queue.get(id);
    if (entry?.data.kind !== 'sampling') return { ok: false, reason: 'no such sampling request' };
    const data = entry.data;
    const model = data.models.find((m) => m.id === data.draft.modelId) ?? (await this.models.models()).find((m) => m.id === data.draft.modelId);
    if (!model) return { ok: false, reason: 'choose a model first' };
    if (!this.queue.transition(id, 'generating')) return { ok: false, reason: `cannot send while ${entry.stage}` };
    data.error = undefined;
    // A mock answers itself, tool calls included (and its problems go to data.error there).
    if (model.backend === 'mock' && data.mock) {
      data.draft.toolCallsJson = undefined;
      return this.answerWithMock(id, data);
    }
    if (data.params.tools?.length && !this.models.supportsTools(model)) {
      this.queue.transition(id, 'review');
      data.error = toolsUnsupportedMessage(model);
      return { ok: false, reason: data.error };
    }
    if (model.backend === 'manual') {
      data.response = { model: model.model, stopReason: 'endTurn' };
      data.draft.responseText = data.draft.responseText ?? '';
      if (data.params.tools?.length) data.draft.toolCallsJson = data.draft.toolCallsJson ?? '[]';
      this.queue.transition(id, 'response');
      return { ok: true };
    }
    const abort = new AbortController();
    data.generation = abort;
    data.draft.responseText = '';
    try {
      const response = await this.models.generate(
        model,
        toModelRequest(data.params, data.draft),
        (text) => this.streamEmitter.fire({ requestId: id, text }),
        abort.signal,
      );
      if (!this.queue.get(id)) return { ok: false, reason: 'the request was settled meanwhile' };
      data.response = { model: response.model, stopReason: response.stopReason };
      data.draft.responseText = response.text;
      if (data.params.tools?.length) data.draft.toolCallsJson = toolCallsJson(response.toolCalls);
      this.queue.transition(id, 'response');
      return { ok: true };
    } catch (error) {
      if (!this.queue.get(id)) return { ok: false, reason: 'the request was settled meanwhile' };
      data.error = abort.signal.aborted ? vscode.l10n.t('Generation stopped.') : errorMessage(error);
      this.queue.transition(id, 'review');
      return { ok: false, reason: data.error };
    } finally {
      data.generation = undefined;
    }
  }

  /** Stops a running generation (the request goes back to review). */
  stop(id: string): void {
    const entry = this.queue.get(id);
    if (entry?.data.kind === 'sampling') entry.data.generation?.abort();
  }

  /** Returns the (edited) response to the server. */
  approve(id: string, draft?: Partial<SamplingDraft>): ActionResult {
    if (draft) this.setSamplingDraft(id, draft);
    const entry = this.queue.get(id);
    if (entry?.data.kind !== 'sampling') return { ok: false, reason: 'no such sampling request' };
    if (entry.stage !== 'response' || !entry.data.response) return { ok: false, reason: 'there is no response to approve yet: Send first' };
    if (!hasSamplingReply(entry.data.draft)) return { ok: false, reason: 'the reply is empty: write one, or Deny' };
    const { model, stopReason } = entry.data.response;
    const params = entry.data.params;
    let calls: NonNullable<ModelResponse['toolCalls']> = [];
    if (params.tools?.length) {
      const parsed = parseToolCallsJson(entry.data.draft.toolCallsJson, params.tools);
      if (!parsed.ok) return { ok: false, reason: parsed.reason };
      calls = parsed.calls;
    }
    this.queue.settle(id, { kind: 'resolved', value: resultOf(params, entry.data.draft.responseText ?? '', calls, model, stopReason) });
    return { ok: true };
  }

  /** Rejects with the spec's "User rejected sampling request". */
  deny(id: string): ActionResult {
    const entry = this.queue.get(id);
    if (entry?.data.kind !== 'sampling') return { ok: false, reason: 'no such sampling request' };
    entry.data.generation?.abort();
    this.queue.settle(id, { kind: 'rejected', code: -1, message: USER_REJECTED_SAMPLING });
    return { ok: true };
  }

  // ---------------------------------------------------------------------------------------
  // elicitation

  private async elicitForm(server: ServerDefinition, params: ElicitRequestFormParams, signal: AbortSignal): Promise<ElicitResult> {
    const form = buildElicitationForm(params.requestedSchema);
    const data: ElicitFormData = { kind: 'elicitForm', server, params, form, values: initialElicitationValues(form) };
    return this.wait(data, signal) as Promise<ElicitResult>;
  }

  setFormValues(id: string, values: ElicitationValues): ActionResult {
    const entry = this.queue.get(id);
    if (entry?.data.kind !== 'elicitForm') return { ok: false, reason: 'no such form' };
    entry.data.values = { ...entry.data.values, ...values };
    return { ok: true };
  }

  /** Accepts a form: validated against the schema first; nothing is sent while it is invalid. */
  accept(id: string, values?: ElicitationValues): ActionResult {
    if (values) this.setFormValues(id, values);
    const entry = this.queue.get(id);
    if (entry?.data.kind !== 'elicitForm') return { ok: false, reason: 'no such form' };
    const data = entry.data;
    const { content, problems } = elicitationContent(data.form, data.values);
    let issues = problems;
    if (!issues.length) {
      const validation = validateAgainstSchema(data.params.requestedSchema, content);
      if (validation.valid === false) issues = validation.issues;
    }
    if (issues.length) {
      data.issues = issues;
      this.queue.touch();
      return { ok: false, reason: 'the form is not valid', issues };
    }
    this.queue.settle(id, { kind: 'resolved', value: { action: 'accept', content } });
    return { ok: true };
  }

  /** Declines a form or URL elicitation (the user said no). */
  decline(id: string): ActionResult {
    return this.answerElicitation(id, { action: 'decline' });
  }

  /** Cancels (the user dismissed it without choosing); for an opened URL, stops waiting. */
  cancel(id: string): ActionResult {
    for (const [key, view] of this.waitingUrls) {
      if (view.id === id) {
        this.waitingUrls.delete(key);
        this.changed();
        return { ok: true };
      }
    }
    return this.answerElicitation(id, { action: 'cancel' });
  }

  private answerElicitation(id: string, result: ElicitResult): ActionResult {
    const entry = this.queue.get(id);
    if (entry?.data.kind !== 'elicitForm' && entry?.data.kind !== 'elicitUrl') return { ok: false, reason: 'no such elicitation' };
    this.queue.settle(id, { kind: 'resolved', value: result });
    return { ok: true };
  }

  private async elicitUrl(server: ServerDefinition, params: ElicitRequestURLParams, signal: AbortSignal): Promise<ElicitResult> {
    const data: ElicitUrlData = { kind: 'elicitUrl', server, params, check: checkElicitationUrl(params.url) };
    return this.wait(data, signal) as Promise<ElicitResult>;
  }

  /**
   * The user agreed to open the URL: opened outside VS Code (only https, or http on
   * loopback), answered `accept`, then shown as waiting until the server's completion.
   */
  async openUrl(id: string): Promise<ActionResult> {
    const entry = this.queue.get(id);
    if (entry?.data.kind !== 'elicitUrl') return { ok: false, reason: 'no such URL request' };
    const { check, params, server } = entry.data;
    if (!check.ok) return { ok: false, reason: `this URL cannot be opened: ${check.reason}` };
    const opened = await this.openExternal(vscode.Uri.parse(check.url, true));
    if (!opened) return { ok: false, reason: 'the URL could not be opened' };
    const view = this.view(entry) as ElicitUrlView;
    this.waitingUrls.set(`${server.id}\u0000${params.elicitationId}`, { ...view, opened: true });
    this.queue.settle(id, { kind: 'resolved', value: { action: 'accept' } });
    return { ok: true };
  }

  /** URL elicitations opened and not yet completed by their server. */
  waiting(): ElicitUrlView[] {
    return [...this.waitingUrls.values()];
  }

  private elicitationComplete(server: ServerDefinition, elicitationId: string): void {
    const key = `${server.id}\u0000${elicitationId}`;
    const view = this.waitingUrls.get(key);
    this.waitingUrls.delete(key);
    this.completed.fire({ serverId: server.id, elicitationId });
    if (view) {
      this.changed();
      void vscode.window.setStatusBarMessage(vscode.l10n.t('MCP {0}: the request at {1} is complete.', server.label, view.domain ?? view.url), 5000);
    }
  }

  // ---------------------------------------------------------------------------------------

  /** Queues a request for the user and waits for the answer, a time-out or the server's cancel. */
  private async wait(data: PendingData, signal: AbortSignal, prepare?: (entry: Entry) => void): Promise<CreateMessageResult | ElicitResult> {
    const timeoutSeconds = config().get<number>('approval.timeoutSeconds', 600);
    const { entry, settled } = this.queue.add(data, Date.now(), timeoutSeconds > 0 ? timeoutSeconds * 1000 : undefined);
    prepare?.(entry);
    const onAbort = () => {
      if (entry.data.kind === 'sampling') entry.data.generation?.abort();
      this.queue.settle(entry.id, { kind: 'rejected', code: REQUEST_TIMEOUT, message: 'The server cancelled the request.' });
    };
    signal.addEventListener('abort', onAbort);
    this.ensureExpiryTimer();
    this.requestEmitter.fire(this.view(entry));
    try {
      const result = await settled;
      if (result.kind === 'rejected') throw new ProtocolError(result.code, result.message);
      return result.value;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  private ensureExpiryTimer(): void {
    if (this.expiryTimer) return;
    this.expiryTimer = setInterval(() => {
      for (const id of this.queue.expired(Date.now())) this.expire(id);
      if (this.queue.size === 0 && this.expiryTimer) {
        clearInterval(this.expiryTimer);
        this.expiryTimer = undefined;
      }
    }, 250);
  }

  private expire(id: string): void {
    const entry = this.queue.get(id);
    if (!entry) return;
    const seconds = Math.round(((entry.deadline ?? entry.receivedAt) - entry.receivedAt) / 1000);
    if (entry.data.kind === 'sampling') {
      entry.data.generation?.abort();
      this.queue.settle(id, {
        kind: 'rejected',
        code: REQUEST_TIMEOUT,
        message: `The sampling request was not answered within ${seconds} s (setting mcpWorkbench.approval.timeoutSeconds).`,
      });
    } else {
      // Elicitation has no error for this: the user did not choose, which is "cancel".
      this.queue.settle(id, { kind: 'resolved', value: { action: 'cancel' } });
    }
  }

  private changed(): void {
    this.activity.update(this.queue.pending().map((e) => e.data.server.id));
    this.changeEmitter.fire();
  }

  dispose(): void {
    for (const entry of this.queue.pending()) {
      if (entry.data.kind === 'sampling') entry.data.generation?.abort();
      this.queue.settle(entry.id, { kind: 'rejected', code: ProtocolErrorCode.InternalError, message: 'VS Code is closing.' });
    }
    if (this.expiryTimer) clearInterval(this.expiryTimer);
    this.queue.dispose();
    this.activity.update([]);
    this.disposables.dispose();
    this.changeEmitter.dispose();
    this.streamEmitter.dispose();
    this.requestEmitter.dispose();
    this.completed.dispose();
  }
}
