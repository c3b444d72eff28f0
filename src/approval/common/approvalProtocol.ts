/**
 * The messages between the approval panel (extension host, `src/approval/approvalPanel.ts`)
 * and its webview (`webview/approval/main.ts`). Defined once here, imported by both sides.
 *
 * Lifecycle: the webview posts `ready` when its script runs (first load, and every time it is
 * re-created after being hidden); the host answers with `state`, and sends `state` again on
 * every change of the queue. Every action names the request it is about (`requestId`, the
 * queue entry's id), so an action on a request that is already settled is ignored. What the
 * user types is sent as `draft` (debounced) and kept by the host, so it survives the panel
 * being hidden or closed. The host checks every incoming message with `parseFromWebview`.
 */
import type { FieldProblem } from '../../jsonSchema/common/formValues';
import type { Json } from '../../jsonSchema/common/schemaFields';
import type { ElicitationFormModel, ElicitationValues } from './elicitationForm';
import type { SamplingStage } from './approvalQueue';

/** A server definition's sampling policy: ask every time, allow for the session, always, never. */
export type SamplingPolicy = 'ask' | 'session' | 'always' | 'never';

/** A content block of a sampling message, ready to display. */
export type MessageBlockView =
  | { kind: 'text'; text: string }
  | { kind: 'image'; mimeType: string; dataUri: string; bytes: number }
  | { kind: 'audio'; mimeType: string; dataUri: string; bytes: number }
  | { kind: 'other'; type: string; json: string };

export interface ModelChoice {
  id: string;
  label: string;
  backend: string;
}

export interface SamplingView {
  kind: 'sampling';
  id: string;
  server: { id: string; label: string; name: string };
  receivedAt: number;
  deadline?: number;
  stage: SamplingStage;
  messages: { role: 'user' | 'assistant'; blocks: MessageBlockView[] }[];
  systemPrompt?: string;
  includeContext?: string;
  modelPreferences?: { hints: string[]; costPriority?: number; speedPriority?: number; intelligencePriority?: number };
  maxTokens: number;
  temperature?: number;
  stopSequences?: string[];
  /** Tools the server offers the model (`sampling.tools`); `inputSchema` as pretty JSON. */
  tools?: { name: string; description?: string; inputSchema: string }[];
  /** `toolChoice.mode`, when the server set it. */
  toolChoice?: string;
  models: ModelChoice[];
  policy: SamplingPolicy;
  draft: SamplingDraft;
  /**
   * The generated (or typed) reply, once there is one. `mock`: the server's sampling mock
   * profile wrote it (no model was asked), and which of its rules or replies.
   */
  response?: { model: string; stopReason: string; mock?: { profile: string; source: string } };
  /** Why the last generation failed. */
  error?: string;
}

/** What the user edited in a sampling request (only what differs from the request). */
export interface SamplingDraft {
  /** Edited text blocks by `"<message>.<block>"`. */
  texts: Record<string, string>;
  systemPrompt?: string;
  modelId?: string;
  /** The reply text as shown and edited. */
  responseText?: string;
  /** The reply's tool calls as editable JSON (`[{"id","name","input"}]`), when tools were offered. */
  toolCallsJson?: string;
}

/** Whether the draft has a reply to approve: some text, or at least one tool call. An empty one is never sent. */
export function hasSamplingReply(draft: Pick<SamplingDraft, 'responseText' | 'toolCallsJson'>): boolean {
  return (draft.responseText ?? '').trim() !== '' || (draft.toolCallsJson ?? '').replace(/[\s[\]]/g, '') !== '';
}

export interface ElicitFormView {
  kind: 'elicitForm';
  id: string;
  server: { id: string; label: string; name: string };
  receivedAt: number;
  deadline?: number;
  message: string;
  form: ElicitationFormModel;
  values: ElicitationValues;
  issues?: FieldProblem[];
}

export interface ElicitUrlView {
  kind: 'elicitUrl';
  id: string;
  server: { id: string; label: string; name: string };
  receivedAt: number;
  deadline?: number;
  message: string;
  url: string;
  /** The host name, shown prominently. */
  domain?: string;
  /** Set when the URL may not be opened, with why. */
  blocked?: string;
  /** The user agreed and the URL was opened: waiting for notifications/elicitation/complete. */
  opened: boolean;
}

export type PendingView = SamplingView | ElicitFormView | ElicitUrlView;

/** Host → webview. */
export type ToWebview =
  /** The whole queue (sent on `ready` and on every change); `selected` is the request shown. */
  | { type: 'state'; pending: PendingView[]; selected?: string }
  /** Streamed reply text of a generating request. */
  | { type: 'chunk'; requestId: string; text: string };

/** Webview → host. */
export type FromWebview =
  | { type: 'ready' }
  | { type: 'select'; requestId: string }
  | { type: 'samplingDraft'; requestId: string; draft: SamplingDraft }
  | { type: 'send'; requestId: string; draft: SamplingDraft }
  | { type: 'stop'; requestId: string }
  | { type: 'approve'; requestId: string; draft: SamplingDraft }
  | { type: 'deny'; requestId: string }
  | { type: 'setPolicy'; requestId: string; policy: SamplingPolicy }
  | { type: 'formDraft'; requestId: string; values: ElicitationValues }
  | { type: 'accept'; requestId: string; values: ElicitationValues }
  | { type: 'decline'; requestId: string }
  | { type: 'cancel'; requestId: string }
  | { type: 'openUrl'; requestId: string }
  | { type: 'error'; message: string };

const isString = (v: unknown): v is string => typeof v === 'string';
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const POLICIES = ['ask', 'session', 'always', 'never'];

function parseDraft(v: unknown): SamplingDraft | undefined {
  if (!isRecord(v) || !isRecord(v.texts)) return undefined;
  const texts: Record<string, string> = {};
  for (const [k, t] of Object.entries(v.texts)) {
    if (!/^\d+\.\d+$/.test(k) || !isString(t)) return undefined;
    texts[k] = t;
  }
  for (const key of ['systemPrompt', 'modelId', 'responseText', 'toolCallsJson'] as const) if (v[key] !== undefined && !isString(v[key])) return undefined;
  return {
    texts,
    ...(isString(v.systemPrompt) ? { systemPrompt: v.systemPrompt } : {}),
    ...(isString(v.modelId) ? { modelId: v.modelId } : {}),
    ...(isString(v.responseText) ? { responseText: v.responseText } : {}),
    ...(isString(v.toolCallsJson) ? { toolCallsJson: v.toolCallsJson } : {}),
  };
}

function parseValues(v: unknown): ElicitationValues | undefined {
  if (!isRecord(v)) return undefined;
  for (const value of Object.values(v)) {
    const ok =
      value === null || typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number' || (Array.isArray(value) && value.every(isString));
    if (!ok) return undefined;
  }
  return v as Record<string, Json>;
}

/** The message if it has the shape of a FromWebview, else undefined (then it is ignored). */
export function parseFromWebview(message: unknown): FromWebview | undefined {
  if (!isRecord(message) || !isString(message.type)) return undefined;
  const requestId = message.requestId;
  if (message.type === 'ready') return { type: 'ready' };
  if (message.type === 'error') return isString(message.message) ? { type: 'error', message: message.message.slice(0, 2000) } : undefined;
  if (!isString(requestId) || requestId.length > 100) return undefined;
  switch (message.type) {
    case 'select':
    case 'stop':
    case 'deny':
    case 'decline':
    case 'cancel':
    case 'openUrl':
      return { type: message.type, requestId };
    case 'samplingDraft':
    case 'send':
    case 'approve': {
      const draft = parseDraft(message.draft);
      return draft ? { type: message.type, requestId, draft } : undefined;
    }
    case 'setPolicy':
      return isString(message.policy) && POLICIES.includes(message.policy)
        ? { type: 'setPolicy', requestId, policy: message.policy as SamplingPolicy }
        : undefined;
    case 'formDraft':
    case 'accept': {
      const values = parseValues(message.values);
      return values ? { type: message.type, requestId, values } : undefined;
    }
    default:
      return undefined;
  }
}
