import * as assert from 'node:assert/strict';
import * as jsonc from 'jsonc-parser';
import { MAX_MATCHED_TEXT, parseSamplingMocks, type SamplingMockProfile } from '../../../src/config/common/samplingMockConfig';
import { lastUserText, mockAnswer, mockModelInfo } from '../../../src/models/common/mockReplies';
import type { ModelRequest } from '../../../src/models/common/modelBackend';
import { MockTurns } from '../../../src/approval/common/mockTurns';

function profile(json: string): SamplingMockProfile {
  const problems: unknown[] = [];
  const [parsed] = parseSamplingMocks(jsonc.parseTree(`{ "p": ${json} }`)!, problems as never);
  assert.deepEqual(problems, []);
  return parsed;
}

const ask = (text: string, extra: Partial<ModelRequest> = {}): ModelRequest => ({ messages: [{ role: 'user', content: [{ type: 'text', text }] }], ...extra });
const WEATHER_TOOL = { name: 'get_weather', inputSchema: { type: 'object' } };

describe('sampling mock replies', () => {
  it('the first matching rule answers: match is a substring in any case, regex as written', () => {
    const p = profile(`{ "rules": [
      { "match": "WEATHER", "reply": "Sunny." },
      { "regex": "^translate (\\\\w+)$", "reply": { "text": "Bonjour", "stopReason": "maxTokens", "model": "translator" } },
      { "match": "weather", "reply": "never reached" }
    ], "replies": ["fallback"] }`);
    assert.deepEqual(mockAnswer(p, ask('What is the weather like?'), 0), {
      ok: true,
      source: 'rule 1 (match "WEATHER")',
      response: { text: 'Sunny.', stopReason: 'endTurn', model: 'mock' },
    });
    const regex = mockAnswer(p, ask('translate hello'), 0);
    assert.deepEqual(regex, {
      ok: true,
      source: 'rule 2 (regex "^translate (\\\\w+)$")',
      response: { text: 'Bonjour', stopReason: 'maxTokens', model: 'translator' },
    });
    // A regex is case-sensitive unless its flags say otherwise.
    assert.equal(mockAnswer(p, ask('Translate hello'), 0).ok && (mockAnswer(p, ask('Translate hello'), 0) as { source: string }).source, 'reply 1 of 1');
  });

  it("a server's text cannot make a rule take long: patterns that backtrack exponentially are matched in linear time", () => {
    // Issue 26: these passed the old nested-quantifier check, and JavaScript's backtracking
    // RegExp took ~18 s, ~0.4 s and ~9 s on these 25-character messages (minutes on longer
    // ones), on the extension host's only thread.
    const hostile = [
      ['(a|a)*$', `${'a'.repeat(27)}b`, 'matched'],
      ['(.*a){12}$', `${'a'.repeat(24)}b`, 'no rule'],
      ['^(\\\\w|\\\\d)*$', `${'1'.repeat(26)}!`, 'no rule'],
    ];
    const profiles = hostile.map(([regex]) => profile(`{ "rules": [{ "regex": "${regex}", "reply": "matched" }], "replies": ["no rule"] }`));
    assert.deepEqual(
      profiles.map((p) => p.rules.length),
      [1, 1, 1],
      'the patterns are accepted',
    );
    const answer = (p: SamplingMockProfile, text: string) => (mockAnswer(p, ask(text), 0) as { response: { text: string } }).response.text;
    const started = Date.now();
    const answers = hostile.map(([, text], i) => answer(profiles[i], text));
    // RE2 takes a few milliseconds here; the bound is generous for a loaded machine and still
    // far below what backtracking takes.
    const elapsed = Date.now() - started;
    assert.ok(elapsed < 5000, `matching took ${elapsed} ms`);
    assert.deepEqual(
      answers,
      hostile.map(([, , expected]) => expected),
    );
    // The longest text a rule searches, made to nearly match: still linear.
    const long = Date.now();
    hostile.forEach(([, text], i) => answer(profiles[i], text.slice(0, 1).repeat(MAX_MATCHED_TEXT - 1) + text.slice(-1)));
    assert.ok(Date.now() - long < 5000, `matching ${MAX_MATCHED_TEXT} characters took ${Date.now() - long} ms`);
  });

  it('without a matching rule, replies are used in turn and start over after the last', () => {
    const p = profile(`{ "model": "scripted", "replies": ["one", { "text": "two" }, "three"] }`);
    const texts = [0, 1, 2, 3, 4].map((turn) => {
      const a = mockAnswer(p, ask('anything'), turn);
      assert.ok(a.ok);
      assert.equal(a.response.model, 'scripted');
      return `${a.response.text}@${a.source}`;
    });
    assert.deepEqual(texts, ['one@reply 1 of 3', 'two@reply 2 of 3', 'three@reply 3 of 3', 'one@reply 1 of 3', 'two@reply 2 of 3']);
  });

  it('the turn is taken only when no rule answers, so a rule in between does not skip a step', () => {
    const p = profile(`{ "rules": [{ "match": "status", "reply": "all good" }], "replies": ["step 1", "step 2"] }`);
    let taken = 0;
    const turn = () => taken++;
    const texts = ['go', 'status?', 'go on'].map((m) => (mockAnswer(p, ask(m), turn) as { response: { text: string } }).response.text);
    assert.deepEqual(texts, ['step 1', 'all good', 'step 2']);
    assert.equal(taken, 2);
  });

  it('"reply" is one reply for every turn', () => {
    const p = profile(`{ "reply": "always this" }`);
    assert.deepEqual(
      [0, 1, 7].map((t) => (mockAnswer(p, ask('x'), t) as { response: { text: string } }).response.text),
      ['always this', 'always this', 'always this'],
    );
  });

  it('matches the last user message only, its tool results included', () => {
    const request: ModelRequest = {
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'weather in Paris?' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'get_weather', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', toolUseId: 'c1', text: 'rain, 12 °C' }] },
      ],
      tools: [WEATHER_TOOL],
    };
    assert.equal(lastUserText(request), 'rain, 12 °C');
    const p = profile(`{ "rules": [{ "match": "paris", "reply": "first round" }, { "match": "rain", "reply": "It rains." }] }`);
    assert.equal((mockAnswer(p, request, 1) as { response: { text: string } }).response.text, 'It rains.');
  });

  it('a tool-use reply becomes tool calls with generated ids and stopReason toolUse, only when the tool is offered', () => {
    const p = profile(
      `{ "rules": [{ "match": "weather", "reply": { "text": "Let me check.", "toolUse": { "name": "get_weather", "input": { "city": "Paris" } } } }] }`,
    );
    const answer = mockAnswer(p, ask('weather?', { tools: [WEATHER_TOOL] }), 2);
    assert.ok(answer.ok);
    const id = answer.response.toolCalls?.[0]?.id;
    assert.match(String(id), /^mock_call_\d+$/);
    assert.deepEqual(answer, {
      ok: true,
      source: 'rule 1 (match "weather")',
      response: { text: 'Let me check.', stopReason: 'toolUse', model: 'mock', toolCalls: [{ id, name: 'get_weather', input: { city: 'Paris' } }] },
    });
    assert.notEqual(
      (mockAnswer(p, ask('weather?', { tools: [WEATHER_TOOL] }), 2) as typeof answer).response.toolCalls?.[0]?.id,
      id,
      'each call gets its own id',
    );
    const noTools = mockAnswer(p, ask('weather?'), 0);
    assert.equal(noTools.ok, false);
    assert.match((noTools as { reason: string }).reason, /answers with a tool call \(rule 1 \(match "weather"\)\), but this request offers no tools/);
    const other = mockAnswer(p, ask('weather?', { tools: [{ name: 'search', inputSchema: {} }] }), 0);
    assert.match((other as { reason: string }).reason, /calls the tool "get_weather".*not one of the offered tools \(search\)/);
    const none = mockAnswer(p, ask('weather?', { tools: [WEATHER_TOOL], toolChoice: 'none' }), 0);
    assert.match((none as { reason: string }).reason, /toolChoice is "none"/);
  });

  it('a profile with nothing for the request says why', () => {
    const p = profile(`{ "name": "strict", "rules": [{ "match": "only this", "reply": "ok" }] }`);
    assert.deepEqual(mockAnswer(p, ask('something else'), 0), {
      ok: false,
      reason: 'Mock profile \'p\' has no reply for this request: no rule matches the last user message and it has no "replies".',
    });
  });

  it('appears in the panel as its own model choice', () => {
    assert.deepEqual(mockModelInfo({ name: 'happy', model: 'm-1' }), { id: 'mock:happy', label: "Mock profile 'happy'", model: 'm-1', backend: 'mock' });
    assert.equal(mockModelInfo({ name: 'x' }).model, 'mock');
  });

  it('turns count per server and start over when the profile changes or the server restarts', () => {
    const turns = new MockTurns();
    const a = profile(`{ "replies": ["1", "2"] }`);
    assert.deepEqual([turns.next('s1', a), turns.next('s1', a), turns.next('s2', a), turns.next('s1', a)], [0, 1, 0, 2]);
    assert.equal(turns.next('s1', profile(`{ "replies": ["1", "2", "3"] }`)), 0, 'an edited profile starts over');
    turns.reset('s2');
    assert.equal(turns.next('s2', a), 0);
  });
});
