/**
 * What the approval queue holds for each kind of server request (sampling, an elicitation form,
 * a URL elicitation) and how the panel sees one. Apart from approvalService.ts, which decides
 * them, so the request shapes and their views read in one place.
 */
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  ElicitResult,
} from '@modelcontextprotocol/client';
import type { QueueEntry } from './common/approvalQueue';
import type { SamplingPolicy } from './common/approvalPolicy';
import type { PendingView, SamplingDraft } from './common/approvalProtocol';
import type { ElicitationFormModel, ElicitationValues } from './common/elicitationForm';
import { samplingViewOf } from './common/samplingMessages';
import type { ServerDefinition } from '../config/common/launchDefinition';
import type { SamplingMockProfile } from '../config/common/samplingMockConfig';
import type { FieldProblem } from '../jsonSchema/common/formValues';
import type { UrlCheck } from '../shared/common/urlSafety';
import type { ModelInfo } from '../models/common/modelBackend';

export interface SamplingData {
  kind: 'sampling';
  server: ServerDefinition;
  params: CreateMessageRequestParams;
  models: ModelInfo[];
  draft: SamplingDraft;
  response?: { model: string; stopReason: string; mock?: { profile: string; source: string } };
  error?: string;
  generation?: AbortController;
  /** The server's mock profile and the request's turn in its `replies`, once it fell through to them (Send again keeps it). */
  mock?: { profile: SamplingMockProfile; turn?: number };
}

export interface ElicitFormData {
  kind: 'elicitForm';
  server: ServerDefinition;
  params: ElicitRequestFormParams;
  form: ElicitationFormModel;
  values: ElicitationValues;
  issues?: FieldProblem[];
}

export interface ElicitUrlData {
  kind: 'elicitUrl';
  server: ServerDefinition;
  params: ElicitRequestURLParams;
  check: UrlCheck;
}

export type PendingData = SamplingData | ElicitFormData | ElicitUrlData;
export type Entry = QueueEntry<PendingData, CreateMessageResult | ElicitResult>;

/** What the panel shows for a pending request; `policyOf` gives a server's sampling policy now. */
export function viewOf(entry: Entry, policyOf: (server: ServerDefinition) => SamplingPolicy): PendingView {
  const d = entry.data;
  const server = { id: d.server.id, label: d.server.label, name: d.server.name };
  const common = { id: entry.id, server, receivedAt: entry.receivedAt, ...(entry.deadline ? { deadline: entry.deadline } : {}) };
  if (d.kind === 'sampling') return { ...common, ...samplingViewOf(d, entry.stage, policyOf(d.server)) };
  if (d.kind === 'elicitForm') {
    return { ...common, kind: 'elicitForm', message: d.params.message, form: d.form, values: d.values, ...(d.issues ? { issues: d.issues } : {}) };
  }
  return {
    ...common,
    kind: 'elicitUrl',
    message: d.params.message,
    url: d.params.url,
    ...(d.check.domain ? { domain: d.check.domain } : {}),
    ...(d.check.ok ? {} : { blocked: d.check.reason }),
    opened: false,
  };
}
