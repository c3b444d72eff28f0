import * as assert from 'node:assert/strict';
import { ActivityLog, type ActivityServer } from '../../../src/traffic/common/activityLog';
import {
  editableParams,
  firstRedacted,
  isReplayOf,
  parseParamsText,
  planReplay,
  replayUnavailable,
  withoutRedacted,
} from '../../../src/inspector/common/replayRequest';
import { REDACTED } from '../../../src/shared/common/redact';

const SECRET = 'sk-live-very-secret-4711';
const A: ActivityServer = { id: 'a', label: 'alpha', secrets: [SECRET] };

/** A tools/call recorded by the real activity log: its `request` is redacted, its `rerun` is not. */
function recordedCall(args: Record<string, unknown>) {
  const log = new ActivityLog(10);
  const entry = log.add(
    A,
    {
      direction: 'send',
      kind: 'request',
      method: 'tools/call',
      id: 7,
      message: { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'login', arguments: args, _meta: { progressToken: 3 }, task: { ttl: 1000 } } },
    },
    1,
  );
  assert.ok(entry);
  return entry;
}

describe('Inspector replay: which requests, and the params the user edits', () => {
  it("replays only requests this client sent, and never the connection's own", () => {
    assert.equal(replayUnavailable({ kind: 'request', direction: 'send', method: 'tools/call' }), undefined);
    assert.equal(replayUnavailable({ kind: 'request', direction: 'send', method: 'resources/list' }), undefined);
    assert.match(replayUnavailable({ kind: 'request', direction: 'receive', method: 'sampling/createMessage' }) ?? '', /server sent/);
    assert.match(replayUnavailable({ kind: 'notification', direction: 'send', method: 'notifications/initialized' }) ?? '', /notification/);
    assert.match(replayUnavailable({ kind: 'request', direction: 'send', method: 'initialize' }) ?? '', /connection itself/);
    assert.match(replayUnavailable({ kind: 'request', direction: 'send', method: 'subscriptions/listen' }) ?? '', /connection itself/);
  });

  it('leaves out what the client sets on every request (_meta) and the task request of tools/call', () => {
    const entry = recordedCall({ user: 'ann' });
    assert.deepEqual(editableParams('tools/call', entry.request), { name: 'login', arguments: { user: 'ann' } });
    assert.deepEqual(editableParams('resources/list', { params: { cursor: 'c2', _meta: { x: 1 } } }), { cursor: 'c2' });
    assert.deepEqual(editableParams('ping', { method: 'ping' }), {});
  });

  it('checks the edited text as a JSON object and says where it is wrong', () => {
    assert.deepEqual(parseParamsText('{"a": 1}'), { ok: true, params: { a: 1 } });
    assert.deepEqual(parseParamsText('  '), { ok: true, params: {} });
    const broken = parseParamsText('{\n  "a": 1,\n  "b": }');
    assert.equal(broken.ok, false);
    assert.equal(!broken.ok ? broken.error : '', 'Not valid JSON (line 3, column 8): value expected');
    const unclosed = parseParamsText('{"a": 1');
    assert.equal(!unclosed.ok ? unclosed.error : '', 'Not valid JSON (line 1, column 8): close brace expected');
    const notObject = parseParamsText('[1, 2]');
    assert.match(!notObject.ok ? notObject.error : '', /must be a JSON object/);
  });
});

describe('Inspector replay: the call made from the edited params', () => {
  it('sends a tools/call through the tool call with the edited arguments', () => {
    const entry = recordedCall({ user: 'ann', count: 1 });
    const text = JSON.stringify({ name: 'login', arguments: { user: 'bob', count: 2 } });
    assert.deepEqual(planReplay({ method: 'tools/call', request: entry.request, rerun: entry.rerun }, text), {
      ok: true,
      plan: { kind: 'tool', name: 'login', arguments: { user: 'bob', count: 2 } },
    });
  });

  it('puts a secret left redacted back from the kept arguments, and keeps what the user changed', () => {
    const entry = recordedCall({ key: SECRET, password: 'hunter22', note: `uses ${SECRET}`, user: 'ann' });
    const shown = editableParams('tools/call', entry.request) as { arguments: Record<string, unknown> };
    assert.equal(shown.arguments.key, REDACTED);
    assert.equal(shown.arguments.password, REDACTED);
    assert.equal(shown.arguments.note, `uses ${REDACTED}`);
    const edited = { ...shown, arguments: { ...shown.arguments, user: 'bob', password: 'new-password' } };
    const planned = planReplay({ method: 'tools/call', request: entry.request, rerun: entry.rerun }, JSON.stringify(edited));
    assert.deepEqual(planned, {
      ok: true,
      plan: { kind: 'tool', name: 'login', arguments: { key: SECRET, password: 'new-password', note: `uses ${SECRET}`, user: 'bob' } },
    });
  });

  it('refuses to send a «redacted» it cannot put back', () => {
    const entry = recordedCall({ key: SECRET });
    // Moved to another place: the kept value is not there.
    const moved = planReplay(
      { method: 'tools/call', request: entry.request, rerun: entry.rerun },
      JSON.stringify({ name: 'login', arguments: { other: REDACTED } }),
    );
    assert.match(!moved.ok ? moved.error : '', /^arguments\.other still holds «redacted»/);
    // Another method: nothing unredacted is kept.
    const read = planReplay({ method: 'resources/read', request: { params: { uri: `file:///${REDACTED}` } } }, JSON.stringify({ uri: `file:///${REDACTED}` }));
    assert.match(!read.ok ? read.error : '', /^uri still holds/);
  });

  it('maps resources/read, prompts/get and the rest, with one-line reasons for bad params', () => {
    assert.deepEqual(planReplay({ method: 'resources/read', request: {} }, '{"uri":"mem://a"}'), { ok: true, plan: { kind: 'resource', uri: 'mem://a' } });
    assert.deepEqual(planReplay({ method: 'prompts/get', request: {} }, '{"name":"greet","arguments":{"who":"x"}}'), {
      ok: true,
      plan: { kind: 'prompt', name: 'greet', arguments: { who: 'x' } },
    });
    assert.deepEqual(planReplay({ method: 'tools/list', request: {} }, '{"cursor":"2"}'), {
      ok: true,
      plan: { kind: 'request', method: 'tools/list', params: { cursor: '2' } },
    });
    assert.match((planReplay({ method: 'tools/call', request: {} }, '{"arguments":{}}') as { error: string }).error, /needs "name"/);
    assert.match(
      (planReplay({ method: 'tools/call', request: {} }, '{"name":"x","arguments":[1]}') as { error: string }).error,
      /"arguments" must be a JSON object/,
    );
    assert.match((planReplay({ method: 'prompts/get', request: {} }, '{"name":"p","arguments":{"n":1}}') as { error: string }).error, /object of strings/);
    assert.match((planReplay({ method: 'resources/read', request: {} }, '{}') as { error: string }).error, /needs "uri"/);
    assert.match((planReplay({ method: 'tools/call', request: {} }, '{"name": ') as { error: string }).error, /^Not valid JSON/);
  });

  it("recognizes the request the replay sent among the client's requests", () => {
    const tool = { kind: 'tool', name: 'echo' } as const;
    assert.equal(isReplayOf(tool, 'tools/call', { name: 'echo', arguments: {} }), true);
    assert.equal(isReplayOf(tool, 'tools/call', { name: 'other' }), false);
    assert.equal(isReplayOf(tool, 'tools/list', {}), false);
    assert.equal(isReplayOf({ kind: 'resource', uri: 'a://1' }, 'resources/read', { uri: 'a://1' }), true);
    assert.equal(isReplayOf({ kind: 'request', method: 'tools/list', params: {} }, 'tools/list', undefined), true);
  });

  it('leaves redacted arguments out of what Open in Run Tool fills in', () => {
    assert.deepEqual(withoutRedacted({ a: 1, key: REDACTED, nested: { t: `x ${REDACTED}` }, list: ['ok'] }), { a: 1, list: ['ok'] });
    assert.equal(firstRedacted({ a: [{ b: REDACTED }] }), 'a[0].b');
  });
});
