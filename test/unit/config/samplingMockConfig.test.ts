import * as assert from 'node:assert/strict';
import { parseConfigText, parseServerMapValue } from '../../../src/config/common/serverConfig';
import { regexProblem, resolveSamplingMock } from '../../../src/config/common/samplingMockConfig';
import { buildDefinitions } from '../../../src/config/common/definitionBuilder';
import { DEFAULT_TIMEOUTS } from '../../../src/config/common/serverConfig';

const messages = (text: string) => parseConfigText(text).problems.map((p) => `${p.severity}: ${p.message}`);

describe('sampling mock profiles in config', () => {
  it('reads named profiles and a server that uses one, inline profiles too', () => {
    const parsed = parseConfigText(`{
      "servers": {
        "weather": { "command": "node", "sampling": { "mock": "sunny" } },
        "inline": { "command": "node", "sampling": { "mock": { "name": "quick", "reply": "ok" } } },
        "unnamed": { "command": "node", "sampling": { "mock": { "replies": ["a", "b"] } } }
      },
      "samplingMocks": {
        "sunny": {
          "description": "Always sunny", "model": "mock-sun", "stopReason": "endTurn",
          "rules": [{ "match": "weather", "reply": "Sunny." }, { "regex": "^temp", "flags": "i", "reply": { "text": "21", "stopReason": "maxTokens" } },
                    { "match": "tool", "reply": { "toolUse": [{ "name": "get_weather", "input": { "city": "Paris" }, "id": "c1" }] } }],
          "replies": ["I do not know."]
        }
      }
    }`);
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(parsed.samplingMocks, [
      {
        name: 'sunny',
        description: 'Always sunny',
        model: 'mock-sun',
        stopReason: 'endTurn',
        rules: [
          { match: 'weather', reply: { text: 'Sunny.' } },
          { regex: '^temp', flags: 'i', reply: { text: '21', stopReason: 'maxTokens' } },
          { match: 'tool', reply: { toolUse: [{ name: 'get_weather', input: { city: 'Paris' }, id: 'c1' }] } },
        ],
        replies: [{ text: 'I do not know.' }],
      },
    ]);
    assert.deepEqual(parsed.servers[0].entry.sampling, { mock: 'sunny' });
    assert.deepEqual(parsed.servers[1].entry.sampling, { mock: { name: 'quick', rules: [], replies: [{ text: 'ok' }] } });
    assert.equal((parsed.servers[2].entry.sampling?.mock as { name: string }).name, 'unnamed', 'an inline profile is named after its server');
  });

  it('the definition carries the resolved profile, or why the name does not resolve; neither blocks the start', () => {
    const doc = (text: string) => ({
      source: { scope: 'workspace' as const, label: '.vscode/mcp.json', file: '/ws/.vscode/mcp.json' },
      parsed: parseConfigText(text),
      text,
      folderPath: '/ws',
    });
    const defs = buildDefinitions(
      [
        doc(`{ "servers": { "a": { "command": "node", "sampling": { "mock": "p" } }, "b": { "command": "node", "sampling": { "mock": "typo" } }, "c": { "command": "node" } },
      "samplingMocks": { "p": { "reply": "hi" } } }`),
      ],
      { workspaceFolders: [{ name: 'ws', path: '/ws' }], userHome: '/home', env: {}, defaultTimeouts: DEFAULT_TIMEOUTS, inputValue: () => undefined },
    );
    assert.deepEqual(defs[0].samplingMock, { name: 'p', profile: { name: 'p', rules: [], replies: [{ text: 'hi' }] } });
    assert.deepEqual(defs[1].samplingMock, {
      name: 'typo',
      problem: 'No sampling mock profile "typo" is defined in "samplingMocks" of .vscode/mcp.json (defined: "p").',
    });
    assert.equal(defs[1].error, undefined);
    assert.equal(defs[2].samplingMock, undefined);
  });

  it('the servers setting takes inline profiles', () => {
    const { servers, problems } = parseServerMapValue({ s: { command: 'node', sampling: { mock: { rules: [{ match: 'x', reply: 'y' }] } } } });
    assert.deepEqual(problems, []);
    assert.deepEqual(resolveSamplingMock(servers[0].entry.sampling, [], 'Settings'), {
      name: 's',
      profile: { name: 's', rules: [{ match: 'x', reply: { text: 'y' } }], replies: [] },
    });
  });

  it('says what is wrong, where', () => {
    assert.deepEqual(
      messages(`{ "servers": { "s": { "command": "node", "sampling": { "mock": 3, "auto": true } } }, "samplingMocks": {
      "empty": {},
      "bad": { "replies": [42], "rules": [{ "reply": "x" }, { "match": "a" }, { "regex": "(", "reply": "x" }, { "regex": "(a)\\\\1", "reply": "x" }, { "regex": "a", "flags": "g", "reply": "x" }], "colour": "red" },
      "both": { "reply": "a", "replies": ["b"] },
      "tools": { "reply": { "toolUse": { "input": {} } } }
    } }`),
      [
        'error: "sampling.mock" of server "s" must be the name of a profile in "samplingMocks" or a profile object.',
        'warning: Unknown key "auto" in "sampling" of server "s": only "mock" is known.',
        'warning: The sampling mock profile samplingMocks.empty has no "replies" and no "rules": it cannot answer.',
        'warning: Unknown key "colour" in the sampling mock profile samplingMocks.bad; known: name, description, model, stopReason, rules, replies, reply.',
        'error: A reply of the sampling mock profile samplingMocks.bad must be text or an object with "text" and/or "toolUse".',
        'error: A rule of the sampling mock profile samplingMocks.bad needs "match" (text) or "regex".',
        'error: A rule of the sampling mock profile samplingMocks.bad needs a "reply".',
        'error: The regex "(" cannot be used: error parsing regexp: missing closing ): `(` (rules use RE2 syntax: no backreferences or lookaround). The rule is not used.',
        'error: The regex "(a)\\\\1" cannot be used: error parsing regexp: invalid escape sequence: `\\1` (rules use RE2 syntax: no backreferences or lookaround). The rule is not used.',
        'error: The regex flags "g" are not allowed: use any of i, m, s, u. The rule is not used.',
        'warning: The sampling mock profile samplingMocks.bad has no "replies" and no "rules": it cannot answer.',
        'warning: The sampling mock profile samplingMocks.both has both "reply" and "replies"; "reply" is ignored.',
        'error: "toolUse" of a reply of the sampling mock profile samplingMocks.tools needs { "name": "<tool>", "input": { … } }.',
        'error: A reply of the sampling mock profile samplingMocks.tools needs "text" or "toolUse".',
        'warning: The sampling mock profile samplingMocks.tools has no "replies" and no "rules": it cannot answer.',
      ],
    );
  });

  it('compiles rules for a linear-time matcher: JavaScript escapes are translated, too-large programs refused', () => {
    for (const ok of [
      '^translate (\\w+)$',
      '(ab)+',
      '(a+)?',
      '[(a+)]+',
      'weather|forecast',
      '\\(a+\\)+',
      '(a{2})+',
      '(a+)+',
      '\\u00e9',
      '(?<word>\\w+)',
      '.{500}',
    ])
      assert.equal(regexProblem(ok), undefined, ok);
    assert.match(String(regexProblem('(?<=a)b')), /^The regex "\(\?<=a\)b" cannot be used: .*no backreferences or lookaround\)\.$/);
    assert.match(
      String(regexProblem('(.*a){200}')),
      /^The regex "\(\.\*a\)\{200\}" is too large to test on every message; shorten it or lower its repeat counts\.$/,
    );
    assert.match(String(regexProblem('a', 'gy')), /flags "gy" are not allowed/);
  });
});
