/**
 * Sampling mock profiles: canned or scripted replies to a server's `sampling/createMessage`,
 * so a server author can test sampling flows without a model. Pure: no `vscode`, no I/O.
 *
 * Where they are written (the same file as the servers that use them):
 * - named profiles in a top-level `samplingMocks` map (`{ "name": profile }`), used by a server
 *   entry's `"sampling": { "mock": "name" }`;
 * - or inline: `"sampling": { "mock": { ...profile } }` (the only way in the
 *   `mcpWorkbench.servers` setting, which has no top level).
 *
 * A profile answers with the first rule whose `match` (substring, case-insensitive) or `regex`
 * finds the last user message; else with `replies` in turn (starting over after the last).
 * A mock never decides alone: its reply waits for the user's approval like a model's, unless
 * the user's own `mcpWorkbench.sampling.serverPolicies` allows the server.
 */
import * as jsonc from 'jsonc-parser';
import { RE2JS } from 're2js';
import { errorMessage } from '../../shared/common/errors';

/** A tool call a mock reply makes (a `tool_use` block; `id` is generated when absent). */
export interface MockToolUse {
  name: string;
  input: Record<string, unknown>;
  id?: string;
}

/** One canned reply: text and/or tool calls, with optional overrides of the profile's model and stop reason. */
export interface MockReply {
  text?: string;
  toolUse?: MockToolUse[];
  stopReason?: string;
  model?: string;
}

/** A reply used when the last user message matches. */
export interface MockRule {
  /** Substring of the last user message, case-insensitive. */
  match?: string;
  /** Regular expression (RE2 syntax, linear time) tested against the last user message. */
  regex?: string;
  /** Flags of `regex` (`i`, `m`, `s`, `u`). */
  flags?: string;
  reply: MockReply;
}

export interface SamplingMockProfile {
  /** The key in `samplingMocks`, or for an inline profile its `name` (default: the server's name). */
  name: string;
  description?: string;
  /** The `model` reported to the server (default `mock`). */
  model?: string;
  /** The `stopReason` reported (default `endTurn`; `toolUse` when the reply calls tools). */
  stopReason?: string;
  rules: MockRule[];
  /** Used in turn when no rule matches; the turn count starts over after the last. */
  replies: MockReply[];
}

/** A server entry's `sampling` field. */
export interface SamplingSettings {
  /** A profile name (from the file's `samplingMocks`) or an inline profile. */
  mock?: string | SamplingMockProfile;
}

interface Problem {
  severity: 'error' | 'warning' | 'info';
  message: string;
  offset: number;
  length: number;
}

const PROFILE_KEYS = ['name', 'description', 'model', 'stopReason', 'rules', 'replies', 'reply'];
const RULE_KEYS = ['match', 'regex', 'flags', 'reply'];
const REPLY_KEYS = ['text', 'toolUse', 'stopReason', 'model'];

/** Parses the top-level `samplingMocks` map. */
export function parseSamplingMocks(node: jsonc.Node, problems: Problem[]): SamplingMockProfile[] {
  if (node.type !== 'object') {
    problems.push(at(node, 'error', '"samplingMocks" must be an object mapping profile names to profiles.'));
    return [];
  }
  const profiles: SamplingMockProfile[] = [];
  for (const property of node.children ?? []) {
    const [key, value] = property.children ?? [];
    if (!key || !value) continue;
    const name = String(key.value);
    if (!name.trim()) {
      problems.push(at(key, 'error', 'A sampling mock profile name must not be empty.'));
      continue;
    }
    const profile = parseProfile(value, name, `samplingMocks.${name}`, problems);
    if (profile) profiles.push(profile);
  }
  return profiles;
}

/** Parses a server entry's `sampling` field. */
export function parseSamplingSettings(node: jsonc.Node, server: string, problems: Problem[]): SamplingSettings | undefined {
  if (node.type !== 'object') {
    problems.push(at(node, 'error', `"sampling" of server "${server}" must be an object such as { "mock": "profile name" }.`));
    return undefined;
  }
  const settings: SamplingSettings = {};
  for (const property of node.children ?? []) {
    const [key, value] = property.children ?? [];
    if (!key || !value) continue;
    if (key.value !== 'mock') {
      problems.push(at(key, 'warning', `Unknown key "${String(key.value)}" in "sampling" of server "${server}": only "mock" is known.`));
      continue;
    }
    if (value.type === 'string') settings.mock = String(value.value);
    else if (value.type === 'object') {
      const nameNode = jsonc.findNodeAtLocation(value, ['name']);
      const name = nameNode?.type === 'string' && String(nameNode.value).trim() ? String(nameNode.value) : server;
      settings.mock = parseProfile(value, name, `sampling.mock of server "${server}"`, problems);
    } else if (value.type !== 'null') {
      problems.push(at(value, 'error', `"sampling.mock" of server "${server}" must be the name of a profile in "samplingMocks" or a profile object.`));
    }
  }
  return settings;
}

function parseProfile(node: jsonc.Node, name: string, where: string, problems: Problem[]): SamplingMockProfile | undefined {
  if (node.type !== 'object') {
    problems.push(at(node, 'error', `The sampling mock profile ${where} must be an object such as { "replies": ["Hello"] }.`));
    return undefined;
  }
  unknownKeys(node, PROFILE_KEYS, `the sampling mock profile ${where}`, problems);
  const profile: SamplingMockProfile = { name, rules: [], replies: [] };
  const str = (key: string): string | undefined => stringField(node, key, where, problems);
  const description = str('description');
  const model = str('model');
  const stopReason = str('stopReason');
  if (description !== undefined) profile.description = description;
  if (model !== undefined) profile.model = model;
  if (stopReason !== undefined) profile.stopReason = stopReason;

  const reply = jsonc.findNodeAtLocation(node, ['reply']);
  const replies = jsonc.findNodeAtLocation(node, ['replies']);
  if (reply && replies)
    problems.push(at(reply.parent ?? reply, 'warning', `The sampling mock profile ${where} has both "reply" and "replies"; "reply" is ignored.`));
  if (replies) {
    if (replies.type === 'array') {
      for (const child of replies.children ?? []) {
        const parsed = parseReply(child, where, problems);
        if (parsed) profile.replies.push(parsed);
      }
    } else {
      const parsed = parseReply(replies, where, problems);
      if (parsed) profile.replies.push(parsed);
    }
  } else if (reply) {
    const parsed = parseReply(reply, where, problems);
    if (parsed) profile.replies.push(parsed);
  }

  const rules = jsonc.findNodeAtLocation(node, ['rules']);
  if (rules && rules.type !== 'array')
    problems.push(at(rules, 'error', `"rules" of the sampling mock profile ${where} must be an array of { "match" | "regex", "reply" }.`));
  for (const child of rules?.type === 'array' ? (rules.children ?? []) : []) {
    const rule = parseRule(child, where, problems);
    if (rule) profile.rules.push(rule);
  }
  if (!profile.rules.length && !profile.replies.length) {
    problems.push(at(node.parent?.children?.[0] ?? node, 'warning', `The sampling mock profile ${where} has no "replies" and no "rules": it cannot answer.`));
  }
  return profile;
}

function parseRule(node: jsonc.Node, where: string, problems: Problem[]): MockRule | undefined {
  if (node.type !== 'object') {
    problems.push(at(node, 'error', `A rule of the sampling mock profile ${where} must be an object such as { "match": "weather", "reply": "Sunny" }.`));
    return undefined;
  }
  unknownKeys(node, RULE_KEYS, `a rule of the sampling mock profile ${where}`, problems);
  const match = stringField(node, 'match', where, problems);
  const regex = stringField(node, 'regex', where, problems);
  const flags = stringField(node, 'flags', where, problems);
  const replyNode = jsonc.findNodeAtLocation(node, ['reply']);
  if (match === undefined && regex === undefined) {
    problems.push(at(node, 'error', `A rule of the sampling mock profile ${where} needs "match" (text) or "regex".`));
    return undefined;
  }
  if (!replyNode) {
    problems.push(at(node, 'error', `A rule of the sampling mock profile ${where} needs a "reply".`));
    return undefined;
  }
  if (regex !== undefined) {
    const problem = regexProblem(regex, flags);
    if (problem) {
      const regexNode = jsonc.findNodeAtLocation(node, [flags !== undefined && problem.startsWith('The regex flags') ? 'flags' : 'regex'])!;
      problems.push(at(regexNode, 'error', `${problem} The rule is not used.`));
      return undefined;
    }
  }
  const reply = parseReply(replyNode, where, problems);
  if (!reply) return undefined;
  return { ...(match !== undefined ? { match } : {}), ...(regex !== undefined ? { regex } : {}), ...(flags ? { flags } : {}), reply };
}

function parseReply(node: jsonc.Node, where: string, problems: Problem[]): MockReply | undefined {
  if (node.type === 'string') return { text: String(node.value) };
  if (node.type !== 'object') {
    problems.push(at(node, 'error', `A reply of the sampling mock profile ${where} must be text or an object with "text" and/or "toolUse".`));
    return undefined;
  }
  unknownKeys(node, REPLY_KEYS, `a reply of the sampling mock profile ${where}`, problems);
  const reply: MockReply = {};
  for (const key of ['text', 'stopReason', 'model'] as const) {
    const value = stringField(node, key, where, problems);
    if (value !== undefined) reply[key] = value;
  }
  const toolUse = jsonc.findNodeAtLocation(node, ['toolUse']);
  if (toolUse) {
    const items = toolUse.type === 'array' ? (toolUse.children ?? []) : [toolUse];
    const calls: MockToolUse[] = [];
    for (const item of items) {
      const value = jsonc.getNodeValue(item) as Record<string, unknown> | null;
      if (item.type !== 'object' || typeof value?.name !== 'string' || !value.name) {
        problems.push(at(item, 'error', `"toolUse" of a reply of the sampling mock profile ${where} needs { "name": "<tool>", "input": { … } }.`));
        continue;
      }
      if (value.input !== undefined && (typeof value.input !== 'object' || value.input === null || Array.isArray(value.input))) {
        problems.push(
          at(jsonc.findNodeAtLocation(item, ['input']) ?? item, 'error', `"toolUse.input" of the sampling mock profile ${where} must be an object.`),
        );
        continue;
      }
      // getNodeValue builds objects without a prototype: plain ones are what the SDK and tests expect.
      calls.push({
        name: value.name,
        input: value.input ? (JSON.parse(JSON.stringify(value.input)) as Record<string, unknown>) : {},
        ...(typeof value.id === 'string' && value.id ? { id: value.id } : {}),
      });
    }
    if (calls.length) reply.toolUse = calls;
  }
  if (reply.text === undefined && !reply.toolUse) {
    problems.push(at(node, 'error', `A reply of the sampling mock profile ${where} needs "text" or "toolUse".`));
    return undefined;
  }
  return reply;
}

/**
 * The longest message a regex rule is tested on: the rest is not searched. With
 * MAX_REGEX_PROGRAM it bounds one rule's matching to about 50 ms on a slow machine.
 */
export const MAX_MATCHED_TEXT = 8_000;
/**
 * The largest compiled rule, in RE2 instructions (`(.*a){12}$` has 63, `.{1000}x` 1003):
 * linear-time matching still costs the program's size for every character.
 */
export const MAX_REGEX_PROGRAM = 1_000;

/**
 * A rule's regex, compiled for RE2's linear-time matcher, or why it cannot be used. The text
 * it is tested on is a server's (sampling messages) and the pattern may come from a
 * repository's file: a backtracking engine (JavaScript's RegExp) can take minutes on
 * patterns no check can reliably spot (`(a|a)*$`, `(.*a){12}$`), on the extension host's
 * only thread. RE2 takes time proportional to the text; it has no backreferences or
 * lookaround. JavaScript escapes (`\u00e9`, `(?<name>…)`) are translated to RE2's.
 */
export function compileMockRegex(pattern: string, flags?: string): { regex: RE2JS; problem?: undefined } | { regex?: undefined; problem: string } {
  if (flags !== undefined && !/^[imsu]*$/.test(flags)) return { problem: `The regex flags "${flags}" are not allowed: use any of i, m, s, u.` };
  // Read here, not at load: re2js is required on first use (esbuild.mjs, lazy bundles). `u` is
  // RE2's way anyway (it matches code points).
  const flagBits: Readonly<Record<string, number>> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL, u: 0 };
  let regex: RE2JS;
  try {
    regex = RE2JS.compile(
      RE2JS.translateRegExp(pattern),
      [...new Set(flags ?? '')].reduce((all, f) => all | flagBits[f], 0),
    );
  } catch (error) {
    const reason = errorMessage(error).replace(/\s+/g, ' ');
    return { problem: `The regex ${JSON.stringify(pattern)} cannot be used: ${reason} (rules use RE2 syntax: no backreferences or lookaround).` };
  }
  // RE2 exposes its program for inspection only as a field; a change there must not let a pattern through unchecked.
  const size = (regex.re2Input?.prog as { numInst?(): number } | undefined)?.numInst?.() ?? Infinity;
  if (size > MAX_REGEX_PROGRAM)
    return { problem: `The regex ${JSON.stringify(pattern)} is too large to test on every message; shorten it or lower its repeat counts.` };
  return { regex };
}

/** Why a rule's regex cannot be used, or undefined (see compileMockRegex). */
export function regexProblem(pattern: string, flags?: string): string | undefined {
  return compileMockRegex(pattern, flags).problem;
}

function stringField(node: jsonc.Node, key: string, where: string, problems: Problem[]): string | undefined {
  const field = jsonc.findNodeAtLocation(node, [key]);
  if (!field) return undefined;
  if (field.type !== 'string') {
    problems.push(at(field, 'error', `"${key}" in the sampling mock profile ${where} must be a string.`));
    return undefined;
  }
  return String(field.value);
}

function unknownKeys(node: jsonc.Node, known: readonly string[], what: string, problems: Problem[]): void {
  for (const property of node.children ?? []) {
    const key = property.children?.[0];
    if (key && !known.includes(String(key.value)))
      problems.push(at(key, 'warning', `Unknown key "${String(key.value)}" in ${what}; known: ${known.join(', ')}.`));
  }
}

function at(node: jsonc.Node, severity: Problem['severity'], message: string): Problem {
  return { severity, message, offset: node.offset, length: node.length };
}

/**
 * The profile a server uses: its inline one, or the named one from its file's `samplingMocks`.
 * `problem` says why a named profile cannot be used (the server still runs; its sampling
 * requests then show the problem in the approval panel).
 */
export function resolveSamplingMock(
  settings: SamplingSettings | undefined,
  named: readonly SamplingMockProfile[],
  where: string,
): { name: string; profile?: SamplingMockProfile; problem?: string } | undefined {
  const mock = settings?.mock;
  if (mock === undefined) return undefined;
  if (typeof mock !== 'string') return { name: mock.name, profile: mock };
  const profile = named.find((p) => p.name === mock);
  if (profile) return { name: mock, profile };
  const known = named.map((p) => `"${p.name}"`).join(', ');
  return { name: mock, problem: `No sampling mock profile "${mock}" is defined in "samplingMocks" of ${where}${known ? ` (defined: ${known})` : ''}.` };
}
