/**
 * The replies of a sampling mock profile (see src/config/common/samplingMockConfig.ts): which
 * canned reply answers a request, as a model response. Pure; never calls a model.
 *
 * The first rule whose `match` (case-insensitive substring) or `regex` finds the text of the
 * last user message answers; else `replies[turn % replies.length]`, where `turn` counts the
 * requests of that server that fell through to `replies` (0 for the first): a rule that answers
 * in between does not skip a step of the script.
 */
import * as l10n from '@vscode/l10n';
import { compileMockRegex, MAX_MATCHED_TEXT, type MockReply, type MockRule, type SamplingMockProfile } from '../../config/common/samplingMockConfig';
import type { ModelInfo, ModelRequest, ModelResponse } from './modelBackend';

/** The model choice a mock profile appears as in the approval panel. */
export function mockModelInfo(profile: Pick<SamplingMockProfile, 'name' | 'model'>): ModelInfo {
  return { id: `mock:${profile.name}`, label: `Mock profile '${profile.name}'`, model: profile.model ?? 'mock', backend: 'mock' };
}

export type MockAnswer =
  | { ok: true; response: ModelResponse; /** What answered, e.g. `rule 2 (match "weather")` or `reply 1 of 3`. */ source: string }
  | { ok: false; reason: string };

/** The text of the last user message: its text blocks and tool results, one per line. */
export function lastUserText(request: Pick<ModelRequest, 'messages'>): string {
  const last = [...request.messages].reverse().find((m) => m.role === 'user');
  return (last?.content ?? [])
    .map((c) => (c.type === 'text' ? c.text : c.type === 'tool_result' ? c.text : ''))
    .filter(Boolean)
    .join('\n');
}

/**
 * The profile's reply to a request, or why it has none. `turn` is asked for only when the
 * request falls through to `replies` (then it counts as one of theirs).
 */
export function mockAnswer(profile: SamplingMockProfile, request: ModelRequest, turn: number | (() => number)): MockAnswer {
  const text = lastUserText(request).slice(0, MAX_MATCHED_TEXT);
  const lower = text.toLowerCase();
  for (const [i, rule] of profile.rules.entries()) {
    let hit = false;
    if (rule.match !== undefined) hit = lower.includes(rule.match.toLowerCase());
    else if (rule.regex !== undefined) {
      hit = compiledRegex(rule)?.test(text) ?? false;
    }
    if (hit) {
      const source =
        rule.match !== undefined
          ? l10n.t('rule {0} (match {1})', i + 1, JSON.stringify(rule.match))
          : l10n.t('rule {0} (regex {1})', i + 1, JSON.stringify(rule.regex));
      return respond(profile, rule.reply, request, source);
    }
  }
  if (!profile.replies.length) {
    return {
      ok: false,
      reason: l10n.t('Mock profile \'{0}\' has no reply for this request: no rule matches the last user message and it has no "replies".', profile.name),
    };
  }
  const n = typeof turn === 'number' ? turn : turn();
  const index = ((n % profile.replies.length) + profile.replies.length) % profile.replies.length;
  return respond(profile, profile.replies[index], request, l10n.t('reply {0} of {1}', index + 1, profile.replies.length));
}

/** Each rule's regex compiled once (RE2: linear in the text; see compileMockRegex); null when it cannot be used. */
const compiled = new WeakMap<MockRule, { test(text: string): boolean } | null>();

function compiledRegex(rule: MockRule): { test(text: string): boolean } | null {
  let regex = compiled.get(rule);
  if (regex === undefined) {
    regex = rule.regex !== undefined ? (compileMockRegex(rule.regex, rule.flags).regex ?? null) : null;
    compiled.set(rule, regex);
  }
  return regex;
}

/** Ids of generated tool calls: unique enough for a server to pair its tool results with. */
let callCount = 0;

function respond(profile: SamplingMockProfile, reply: MockReply, request: ModelRequest, source: string): MockAnswer {
  const calls = reply.toolUse ?? [];
  if (calls.length) {
    const offered = request.tools ?? [];
    if (!offered.length) return { ok: false, reason: `Mock profile '${profile.name}' answers with a tool call (${source}), but this request offers no tools.` };
    if (request.toolChoice === 'none')
      return { ok: false, reason: `Mock profile '${profile.name}' answers with a tool call (${source}), but the request's toolChoice is "none".` };
    const unknown = calls.find((c) => !offered.some((t) => t.name === c.name));
    if (unknown) {
      return {
        ok: false,
        reason: `Mock profile '${profile.name}' calls the tool "${unknown.name}" (${source}), which is not one of the offered tools (${offered.map((t) => t.name).join(', ')}).`,
      };
    }
  }
  const toolCalls = calls.map((c) => ({ id: c.id ?? `mock_call_${++callCount}`, name: c.name, input: c.input }));
  return {
    ok: true,
    source,
    response: {
      text: reply.text ?? '',
      stopReason: reply.stopReason ?? profile.stopReason ?? (toolCalls.length ? 'toolUse' : 'endTurn'),
      model: reply.model ?? profile.model ?? 'mock',
      ...(toolCalls.length ? { toolCalls } : {}),
    },
  };
}
