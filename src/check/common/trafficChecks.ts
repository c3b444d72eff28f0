/**
 * What the recording shows about the server's answers: results over the size budget, slow
 * answers (with p50 and max per method), notifications of capabilities it never declared,
 * and features the revision it speaks deprecates.
 */
import type { ActivityEntry } from '../../traffic/common/activityEntry';
import { isObject, paramsOf, resultOf, type CheckInput, type Finding } from './checkTypes';
import { specSection } from './specLinks';

const kb = (bytes: number) => (bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

/** What the request was about, for messages: `tools/call echo`. */
function described(entry: ActivityEntry): string {
  const params = paramsOf(entry);
  const name = params?.name ?? params?.uri;
  return typeof name === 'string' ? `${entry.method} "${name}"` : entry.method;
}

/** Client requests the server answered. */
const answered = (input: CheckInput) =>
  input.messages.filter((e) => e.kind === 'request' && e.direction === 'send' && e.endedAt !== undefined && e.status.kind === 'ok');

export function checkResultSizes(input: CheckInput): Finding[] {
  const limit = input.budgets.maxResultBytes;
  return answered(input)
    .filter((e) => (e.responseSize ?? 0) > limit)
    .map((e) => ({
      check: 'result-size',
      severity: 'warning' as const,
      subject: described(e),
      seq: e.seq,
      spec: specSection(input, 'Tools › Tool Result', 'server/tools', 'tool-result'),
      message: `${described(e)} answered ${kb(e.responseSize!)} (budget ${kb(limit)}): clients cut or refuse results this large, and a model's context fills up.`,
    }));
}

/** The value below which half the values lie (the lower middle one for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** Requests that open a connection: the process (or HTTP session) is just starting when they are sent. */
const STARTS = new Set(['initialize', 'server/discover']);

/**
 * The requests of a cold start: each `initialize` / `server/discover`, and the first request of
 * each method that follows it (the first lists, the first tools/call, the first resources/read…).
 * They time the runtime loading the server's code (a `node` or `python` start, an `npx` download,
 * the modules a tool imports on first use, a loaded machine), not how fast the server answers, so
 * a user who checks a server they just started would otherwise get a latency warning for that.
 * The recording's first request of each method counts as cold too: a 2026-07-28 server probed on
 * a sibling process starts with no `server/discover` of its own in the recording.
 */
export function coldStartSeqs(messages: readonly ActivityEntry[]): Set<number> {
  const cold = new Set<number>();
  let seen = new Set<string>();
  for (const e of messages) {
    if (e.kind !== 'request' || e.direction !== 'send') continue;
    if (STARTS.has(e.method)) {
      cold.add(e.seq);
      seen = new Set();
    } else if (!seen.has(e.method)) {
      seen.add(e.method);
      cold.add(e.seq);
    }
  }
  return cold;
}

export function checkLatency(input: CheckInput): Finding[] {
  const byMethod = new Map<string, ActivityEntry[]>();
  const cold = coldStartSeqs(input.messages);
  for (const e of answered(input)) {
    // A multi-round-trip request waits for the user between rounds: not the server's time.
    if (e.inputRequired || e.round !== undefined) continue;
    if (cold.has(e.seq)) continue;
    const list = byMethod.get(e.method) ?? [];
    list.push(e);
    byMethod.set(e.method, list);
  }
  const spec = specSection(
    input,
    'Lifecycle › Timeouts',
    input.era === 'modern' ? 'basic/patterns/cancellation' : 'basic/lifecycle',
    input.era === 'modern' ? undefined : 'timeouts',
  );
  const findings: Finding[] = [];
  for (const [method, entries] of byMethod) {
    const times = entries.map((e) => e.endedAt! - e.startedAt);
    const max = Math.max(...times);
    const budget = method === 'tools/call' ? input.budgets.slowToolCallMs : input.budgets.slowRequestMs;
    if (max <= budget) continue;
    const slowest = entries[times.indexOf(max)];
    const slow = times.filter((t) => t > budget).length;
    findings.push({
      check: 'latency',
      severity: 'warning',
      subject: method,
      spec,
      seq: slowest.seq,
      message: `${method}: ${slow} of ${times.length} answer(s) slower than ${budget} ms (p50 ${median(times)} ms, max ${max} ms, ${described(slowest)}).`,
    });
  }
  return findings;
}

/** Notifications a server may send only when it declared the capability behind them. */
const NEEDS: Record<string, { path: [string, string?]; title: string; page: string; anchor?: string }> = {
  'notifications/tools/list_changed': {
    path: ['tools', 'listChanged'],
    title: 'Tools › List Changed Notification',
    page: 'server/tools',
    anchor: 'list-changed-notification',
  },
  'notifications/prompts/list_changed': {
    path: ['prompts', 'listChanged'],
    title: 'Prompts › List Changed Notification',
    page: 'server/prompts',
    anchor: 'list-changed-notification',
  },
  'notifications/resources/list_changed': {
    path: ['resources', 'listChanged'],
    title: 'Resources › List Changed Notification',
    page: 'server/resources',
    anchor: 'list-changed-notification',
  },
  'notifications/resources/updated': {
    path: ['resources', 'subscribe'],
    title: 'Resources › Subscriptions',
    page: 'server/resources',
    anchor: 'subscriptions',
  },
  'notifications/message': { path: ['logging'], title: 'Logging › Capabilities', page: 'server/utilities/logging', anchor: 'capabilities' },
};

export function checkUndeclaredCapabilities(input: CheckInput): Finding[] {
  const findings: Finding[] = [];
  const reported = new Set<string>();
  for (const e of input.messages) {
    const need = NEEDS[e.method];
    if (!need || e.direction !== 'receive' || e.kind !== 'notification' || reported.has(e.method)) continue;
    const [capability, flag] = need.path;
    const declared = input.capabilities[capability];
    const ok = flag === undefined ? declared !== undefined : isObject(declared) && declared[flag] === true;
    if (ok) continue;
    reported.add(e.method);
    const what = flag === undefined ? `the \`${capability}\` capability` : `\`capabilities.${capability}.${flag}\``;
    findings.push({
      check: 'capabilities',
      severity: 'error',
      subject: e.method,
      seq: e.seq,
      spec: specSection(input, need.title, need.page, need.anchor),
      message: `The server sent \`${e.method}\` without declaring ${what}; clients may ignore it or close the connection.`,
    });
  }
  return findings;
}

/** What the server asked of the client, directly (2025) or in an `input_required` result (2026-07-28). */
function serverAsks(input: CheckInput): { method: string; params: Record<string, unknown> | undefined; seq: number }[] {
  const asks: { method: string; params: Record<string, unknown> | undefined; seq: number }[] = [];
  for (const e of input.messages) {
    if (e.kind === 'request' && e.direction === 'receive') asks.push({ method: e.method, params: paramsOf(e), seq: e.seq });
    const inputRequests = e.inputRequired ? resultOf(e)?.inputRequests : undefined;
    if (isObject(inputRequests)) {
      for (const request of Object.values(inputRequests)) {
        if (isObject(request) && typeof request.method === 'string')
          asks.push({ method: request.method, params: isObject(request.params) ? request.params : undefined, seq: e.seq });
      }
    }
  }
  return asks;
}

/**
 * 2026-07-28 deprecates Roots, Sampling and Logging (SEP-2577) and reclassifies HTTP+SSE and
 * sampling's `includeContext` "thisServer"/"allServers" as Deprecated (SEP-2596); HTTP+SSE was
 * already deprecated in 2025-03-26, `includeContext` soft-deprecated in 2025-11-25.
 */
export function checkDeprecated(input: CheckInput): Finding[] {
  const modern = input.era === 'modern' || input.protocolVersion >= '2026-07-28';
  const registry = (title: string) => specSection(input, `Deprecated Features › ${title}`, modern ? 'deprecated' : 'changelog');
  const findings: Finding[] = [];
  if (input.transport === 'sse') {
    findings.push({
      check: 'deprecated',
      severity: 'warning',
      subject: 'HTTP+SSE',
      spec: specSection({ protocolVersion: '2026-07-28', era: 'modern' }, 'Deprecated Features › HTTP+SSE transport', 'deprecated'),
      message: 'The server is reached over the deprecated HTTP+SSE transport (deprecated since 2025-03-26); serve Streamable HTTP instead.',
    });
  }
  const asks = serverAsks(input);
  const sampling = asks.find(
    (a) => a.method === 'sampling/createMessage' && (a.params?.includeContext === 'thisServer' || a.params?.includeContext === 'allServers'),
  );
  if (sampling && input.protocolVersion >= '2025-11-25') {
    findings.push({
      check: 'deprecated',
      severity: 'warning',
      subject: 'includeContext',
      seq: sampling.seq,
      spec: registry('includeContext'),
      message: `A sampling request asks for \`includeContext: "${String(sampling.params!.includeContext)}"\`, which is deprecated; omit it or use "none".`,
    });
  }
  if (!modern) return findings;
  const first = (method: string) => asks.find((a) => a.method === method);
  const features: [string, string, string | undefined, number | undefined][] = [
    ['Roots', 'roots/list', 'pass directories or files as tool parameters, resource URIs or server configuration', first('roots/list')?.seq],
    ['Sampling', 'sampling/createMessage', "integrate with a model provider's API directly", first('sampling/createMessage')?.seq],
  ];
  for (const [feature, method, migration, seq] of features) {
    if (seq === undefined) continue;
    findings.push({
      check: 'deprecated',
      severity: 'warning',
      subject: feature,
      seq,
      spec: registry(feature),
      message: `The server uses ${feature} (\`${method}\`), deprecated in 2026-07-28: ${migration}.`,
    });
  }
  const log = input.messages.find((e) => e.method === 'notifications/message' && e.direction === 'receive');
  if (input.capabilities.logging !== undefined || log) {
    findings.push({
      check: 'deprecated',
      severity: 'warning',
      subject: 'Logging',
      seq: log?.seq,
      spec: registry('Logging'),
      message: `The server ${log ? 'sends log notifications' : 'declares the `logging` capability'}; Logging is deprecated in 2026-07-28: log to stderr (stdio) or use OpenTelemetry.`,
    });
  }
  return findings;
}
