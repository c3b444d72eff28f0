import * as assert from 'node:assert/strict';
import {
  RateLimiter,
  decidesAlone,
  effectivePolicy,
  nameKeyApplies,
  policyKey,
  policyScope,
  rateLimitMessage,
  withPolicy,
  type PolicyServer,
} from '../../../src/approval/common/approvalPolicy';
import { ApprovalQueue } from '../../../src/approval/common/approvalQueue';
import { hasSamplingReply, parseFromWebview } from '../../../src/approval/common/approvalProtocol';
import { applyElicitationDefaults, buildElicitationForm, elicitationContent, initialElicitationValues } from '../../../src/approval/common/elicitationForm';
import { SseDataReader, applyStopSequences, chooseModel, stopReasonFromFinish } from '../../../src/models/common/modelSelection';
import { checkElicitationUrl } from '../../../src/shared/common/urlSafety';
import { validateAgainstSchema } from '../../../src/jsonSchema/common/schemaValidation';

describe('sampling policy', () => {
  const user = (name: string, url = 'https://api.example.com/mcp'): PolicyServer => ({
    name,
    source: { scope: 'user', label: 'Settings (mcpWorkbench.servers)', userSettings: true },
    target: url,
    launch: { type: 'http', url, headers: {} },
  });
  const workspace = (name: string, url: string, file = '/ws/.vscode/mcp.json'): PolicyServer => ({
    name,
    source: { scope: 'workspace', label: '.vscode/mcp.json', file, folder: 'ws' },
    target: url,
    launch: { type: 'http', url, headers: {} },
  });

  it('defaults to ask; the setting knows ask/always/never; a session choice wins', () => {
    const session = new Map();
    const a = user('a');
    const key = policyKey(a);
    assert.equal(key, 'a@user https://api.example.com/mcp');
    assert.equal(effectivePolicy(a, {}, session), 'ask');
    assert.equal(effectivePolicy(a, { [key]: 'always' }, session), 'always');
    assert.equal(effectivePolicy(a, { [key]: 'never' }, session), 'never');
    assert.equal(effectivePolicy(a, { [key]: 'session' }, session), 'ask', 'session is not a stored value');
    assert.equal(effectivePolicy(a, { [key]: 'bogus' }, session), 'ask');
    session.set(key, 'session');
    assert.equal(effectivePolicy(a, { [key]: 'never' }, session), 'session');
    assert.equal(decidesAlone('ask'), undefined);
    assert.equal(decidesAlone('session'), 'allow');
    assert.equal(decidesAlone('always'), 'allow');
    assert.equal(decidesAlone('never'), 'reject');
  });

  it('a workspace server named like a user-trusted one is asked: not by the name key, the user key or the session choice', () => {
    const mine = user('github', 'https://api.githubcopilot.com/mcp');
    const theirs = workspace('github', 'https://attacker.example/mcp');
    const sameUrl = workspace('github', 'https://api.githubcopilot.com/mcp');
    // A name-only key (earlier versions, or typed by hand) stays the user's own server's.
    assert.equal(effectivePolicy(mine, { github: 'always' }, new Map()), 'always');
    assert.equal(effectivePolicy(theirs, { github: 'always' }, new Map()), 'ask');
    assert.equal(effectivePolicy(sameUrl, { github: 'always' }, new Map()), 'ask', 'the same URL from a workspace file is still another definition');
    // "Always" / "Allow for this session" on the user's server do not reach the workspace's.
    const always = withPolicy({}, mine, 'always');
    assert.deepEqual(always, { 'github@user https://api.githubcopilot.com/mcp': 'always' });
    assert.equal(effectivePolicy(theirs, always, new Map()), 'ask');
    assert.equal(effectivePolicy(sameUrl, always, new Map()), 'ask');
    const session = new Map([[policyKey(mine), 'session' as const]]);
    assert.equal(effectivePolicy(theirs, {}, session), 'ask');
    // Another repository's file with the same name and URL is another definition too.
    const trusted = withPolicy({}, sameUrl, 'always');
    assert.equal(effectivePolicy(workspace('github', 'https://api.githubcopilot.com/mcp', '/other/.vscode/mcp.json'), trusted, new Map()), 'ask');
    assert.equal(effectivePolicy(sameUrl, trusted, new Map()), 'always');
  });

  it('a policy does not follow a config edit that points the server elsewhere', () => {
    const before = workspace('docs', 'https://docs.example.com/mcp');
    const settings = withPolicy({}, before, 'always');
    assert.equal(effectivePolicy(before, settings, new Map()), 'always');
    assert.equal(effectivePolicy(workspace('docs', 'https://attacker.example/mcp'), settings, new Map()), 'ask');
    assert.equal(effectivePolicy(user('docs', 'https://attacker.example/mcp'), { ...settings }, new Map()), 'ask');
  });

  it("scopes: user settings, profile, files; name keys only for the user's own configuration", () => {
    assert.equal(policyScope({ scope: 'user', label: 'Settings (mcpWorkbench.servers)', userSettings: true }), 'user');
    assert.equal(policyScope({ scope: 'user', label: 'Settings (mcp)', vscodeSetting: true }), 'user');
    assert.equal(policyScope({ scope: 'user', label: 'User mcp.json', file: '/home/u/.config/Code/User/mcp.json', vscodeProfile: true }), 'profile');
    assert.equal(policyScope({ scope: 'user', label: 'Claude Desktop', file: '/home/u/claude.json', discovered: 'claudeDesktop' }), '/home/u/claude.json');
    assert.equal(policyScope({ scope: 'user', label: 'launch configuration', folder: 'ws' }), 'launch configuration of ws');
    assert.equal(nameKeyApplies({ scope: 'user', label: 'launch configuration', folder: 'ws' }), false, 'a workspace launch.json names its debug servers');
    assert.equal(nameKeyApplies({ scope: 'workspace', label: '.mcp.json', file: '/ws/.mcp.json' }), false);
    assert.equal(nameKeyApplies({ scope: 'user', label: 'User mcp.json', file: '/p/mcp.json', vscodeProfile: true }), true);
    // Without a configured target (a debug session's server) the resolved launch is the target.
    assert.equal(
      policyKey({
        name: 'dbg',
        source: { scope: 'user', label: 'launch configuration' },
        launch: { type: 'stdio', command: 'node', args: ['a b.js'], env: {}, cwd: '/ws' },
      }),
      'dbg@launch configuration node "a b.js" (cwd /ws)',
    );
  });

  it("choosing a policy writes the definition's key and retires a name key that applied to it", () => {
    const mine = user('github');
    const key = policyKey(mine);
    assert.deepEqual(withPolicy({ github: 'always', other: 'never' }, mine, 'never'), { other: 'never', [key]: 'never' });
    assert.deepEqual(withPolicy({ github: 'always', [key]: 'always' }, mine, 'ask'), {});
    // A workspace server's choice leaves the user's name key alone.
    assert.deepEqual(withPolicy({ github: 'always' }, workspace('github', 'https://x.example/mcp'), 'never'), {
      github: 'always',
      'github@/ws/.vscode/mcp.json https://x.example/mcp': 'never',
    });
  });
});

describe('RateLimiter', () => {
  it('allows `limit` per window per key, then says when to retry', () => {
    const r = new RateLimiter(60_000);
    for (let i = 0; i < 3; i++) assert.deepEqual(r.tryAcquire('s', 3, 1000 + i), { ok: true });
    const denied = r.tryAcquire('s', 3, 2000);
    assert.equal(denied.ok, false);
    assert.equal(!denied.ok && denied.retryAfterMs, 59_000);
    assert.deepEqual(r.tryAcquire('other', 3, 2000), { ok: true }, 'per key');
    assert.deepEqual(r.tryAcquire('s', 3, 61_001), { ok: true }, 'the window slides');
    assert.equal(r.count('s', 61_001), 2, 'the two oldest left the window');
  });
  it('0 means no limit; the message names the setting', () => {
    const r = new RateLimiter();
    for (let i = 0; i < 100; i++) assert.ok(r.tryAcquire('s', 0, i).ok);
    assert.match(rateLimitMessage('srv', 10, 1500), /srv.*10 sampling requests per minute.*mcpWorkbench\.sampling\.rateLimitPerMinute.*2 s/);
  });
});

describe('ApprovalQueue', () => {
  it('settles each request exactly once and walks the sampling stages', async () => {
    const q = new ApprovalQueue<string, string>('t');
    let changes = 0;
    q.onDidChange(() => changes++);
    const a = q.add('a', 0, 1000);
    const b = q.add('b', 10, undefined);
    assert.deepEqual(
      q.pending().map((e) => e.data),
      ['a', 'b'],
    );
    assert.equal(q.transition(a.entry.id, 'response'), false, 'review → response is not allowed');
    assert.ok(q.transition(a.entry.id, 'generating'));
    assert.ok(q.transition(a.entry.id, 'response'));
    assert.ok(q.settle(a.entry.id, { kind: 'resolved', value: 'ok' }));
    assert.equal(q.settle(a.entry.id, { kind: 'resolved', value: 'late' }), false);
    assert.deepEqual(await a.settled, { kind: 'resolved', value: 'ok' });
    assert.deepEqual(q.expired(5000), [], 'b has no deadline');
    q.settle(b.entry.id, { kind: 'rejected', code: -1, message: 'no' });
    assert.deepEqual(await b.settled, { kind: 'rejected', code: -1, message: 'no' });
    assert.equal(q.size, 0);
    assert.ok(changes >= 5);
  });
  it('reports expired requests by deadline', () => {
    const q = new ApprovalQueue<string>();
    const a = q.add('a', 0, 100);
    q.add('b', 0, 500);
    assert.deepEqual(q.expired(99), []);
    assert.deepEqual(q.expired(100), [a.entry.id]);
  });
});

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2 },
    email: { type: 'string', format: 'email' },
    when: { type: 'string', format: 'date' },
    age: { type: 'integer', minimum: 0, maximum: 150, default: 30 },
    ratio: { type: 'number', maximum: 1 },
    ok: { type: 'boolean', default: true },
    maybe: { type: 'boolean' },
    color: { type: 'string', enum: ['red', 'green'], default: 'green' },
    size: {
      type: 'string',
      oneOf: [
        { const: 's', title: 'Small' },
        { const: 'l', title: 'Large' },
      ],
    },
    legacy: { type: 'string', enum: ['a', 'b'], enumNames: ['A', 'B'] },
    tags: { type: 'array', items: { type: 'string', enum: ['x', 'y'] }, default: ['x'] },
    titled: { type: 'array', items: { anyOf: [{ const: 'p', title: 'P' }] } },
  },
  required: ['name', 'age'],
};

describe('elicitation form', () => {
  it('builds every field kind with labels, required marks, options and defaults', () => {
    const form = buildElicitationForm(schema);
    assert.deepEqual(
      form.fields.map((f) => [f.name, f.kind, f.required]),
      [
        ['name', 'string', true],
        ['email', 'string', false],
        ['when', 'string', false],
        ['age', 'integer', true],
        ['ratio', 'number', false],
        ['ok', 'boolean', false],
        ['maybe', 'boolean', false],
        ['color', 'enum', false],
        ['size', 'enum', false],
        ['legacy', 'enum', false],
        ['tags', 'multiEnum', false],
        ['titled', 'multiEnum', false],
      ],
    );
    const size = form.fields[8];
    assert.ok(size.kind === 'enum' && size.options[1].label === 'Large');
    const legacy = form.fields[9];
    assert.ok(legacy.kind === 'enum' && legacy.options[0].label === 'A');
    assert.ok(!form.fields.some((f) => (f as { secret?: boolean }).secret), 'never a password field');
  });
  it('pre-fills defaults, so accepted content includes the untouched defaults (SEP-1034)', () => {
    const form = buildElicitationForm(schema);
    const values = initialElicitationValues(form);
    values.name = 'Ada';
    const { content, problems } = elicitationContent(form, values);
    assert.deepEqual(problems, []);
    assert.deepEqual(content, { name: 'Ada', age: 30, ok: true, maybe: false, color: 'green', tags: ['x'] });
    assert.deepEqual(validateAgainstSchema(schema, content), { valid: true });
  });
  it('sends an unchecked boolean as false: a checkbox left alone is an answer', () => {
    const form = buildElicitationForm(schema);
    const values = { ...initialElicitationValues(form), name: 'Ada', ok: false };
    const { content, problems } = elicitationContent(form, values);
    assert.deepEqual(problems, []);
    assert.equal(content.ok, false, 'unchecked after a default of true');
    assert.equal(content.maybe, false, 'never touched, no default');
    const required = buildElicitationForm({ type: 'object', properties: { agree: { type: 'boolean' } }, required: ['agree'] });
    assert.deepEqual(elicitationContent(required, initialElicitationValues(required)), { content: { agree: false }, problems: [] });
  });
  it('reports required, number, limit and format problems before anything is sent', () => {
    const form = buildElicitationForm(schema);
    const values = { ...initialElicitationValues(form), name: 'A', age: '1.5', ratio: 'x', email: 'nope', when: '2025-13-40', legacy: 'c' };
    const { problems } = elicitationContent(form, values);
    assert.deepEqual(problems.map((p) => p.pointer).sort(), ['/age', '/email', '/legacy', '/name', '/ratio', '/when']);
    const missing = elicitationContent(form, { ...initialElicitationValues(form), name: '', age: '' }).problems;
    assert.deepEqual(missing, [
      { pointer: '/name', message: 'is required' },
      { pointer: '/age', message: 'is required' },
    ]);
  });
  it('applyElicitationDefaults fills only what is missing', () => {
    assert.deepEqual(applyElicitationDefaults(schema, { age: 5 }), { age: 5, ok: true, color: 'green', tags: ['x'] });
    assert.deepEqual(applyElicitationDefaults(undefined, undefined), {});
  });
});

describe('URL safety', () => {
  it('allows https anywhere and http only on loopback', () => {
    assert.deepEqual(checkElicitationUrl('https://auth.example.com/x?y=1'), {
      ok: true,
      url: 'https://auth.example.com/x?y=1',
      domain: 'auth.example.com',
      loopback: false,
    });
    assert.ok(checkElicitationUrl('http://127.0.0.1:8080/cb').ok);
    assert.ok(checkElicitationUrl('http://localhost/cb').ok);
    assert.ok(checkElicitationUrl('http://[::1]:1/').ok);
    assert.equal(checkElicitationUrl('http://example.com/').ok, false);
  });
  it('refuses other schemes, credentials and garbage', () => {
    for (const bad of [
      'command:workbench.action.terminal.new',
      'file:///etc/passwd',
      'vscode://x',
      'javascript:alert(1)',
      'data:text/html,hi',
      'https://user:pw@example.com/',
      'not a url',
      'http://127.0.0.1.evil.com/',
    ]) {
      assert.equal(checkElicitationUrl(bad).ok, false, bad);
    }
  });
});

describe('model selection', () => {
  const models = [
    { id: 'vscode-lm:copilot/gpt-4o', label: 'GPT-4o', model: 'gpt-4o' },
    { id: 'openai:claude-3-sonnet', label: 'claude-3-sonnet (localhost)', model: 'claude-3-sonnet' },
    { id: 'manual', label: 'Answer by hand', model: 'human' },
  ];
  it('prefers the user choice, then hints in order, then the first model', () => {
    assert.equal(chooseModel(models, { hints: [{ name: 'sonnet' }] })?.id, 'openai:claude-3-sonnet');
    assert.equal(chooseModel(models, { hints: [{ name: 'nothing' }, { name: 'GPT' }] })?.id, 'vscode-lm:copilot/gpt-4o');
    assert.equal(chooseModel(models, undefined)?.id, 'vscode-lm:copilot/gpt-4o');
    assert.equal(chooseModel(models, { hints: [{ name: 'sonnet' }] }, 'manual')?.id, 'manual');
    assert.equal(chooseModel([], undefined), undefined);
  });
  it('applies stop sequences and maps finish reasons truthfully', () => {
    assert.deepEqual(applyStopSequences('one END two STOP', ['STOP', 'END']), { text: 'one ', stopped: true });
    assert.deepEqual(applyStopSequences('text', ['z']), { text: 'text', stopped: false });
    assert.equal(stopReasonFromFinish('stop'), 'endTurn');
    assert.equal(stopReasonFromFinish('length'), 'maxTokens');
    assert.equal(stopReasonFromFinish('content_filter'), 'content_filter');
  });
  it('reads SSE data events across chunk boundaries', () => {
    const r = new SseDataReader();
    assert.deepEqual(r.push('data: {"a"'), []);
    assert.deepEqual(r.push(':1}\r\n\r\ndata: [DONE]\n\n'), ['{"a":1}', '[DONE]']);
    assert.deepEqual(r.push('data: tail'), []);
    assert.deepEqual(r.flush(), ['tail']);
  });
});

describe('approval protocol', () => {
  it('accepts well-formed messages and rejects everything else', () => {
    assert.deepEqual(parseFromWebview({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(parseFromWebview({ type: 'deny', requestId: 'req-1' }), { type: 'deny', requestId: 'req-1' });
    assert.deepEqual(parseFromWebview({ type: 'approve', requestId: 'r', draft: { texts: { '0.0': 'hi' }, responseText: 'x' } }), {
      type: 'approve',
      requestId: 'r',
      draft: { texts: { '0.0': 'hi' }, responseText: 'x' },
    });
    assert.equal(parseFromWebview({ type: 'approve', requestId: 'r', draft: { texts: { evil: 'x' } } }), undefined);
    assert.equal(parseFromWebview({ type: 'setPolicy', requestId: 'r', policy: 'sometimes' }), undefined);
    assert.equal(parseFromWebview({ type: 'accept', requestId: 'r', values: { a: { nested: 1 } } }), undefined);
    assert.deepEqual(parseFromWebview({ type: 'accept', requestId: 'r', values: { a: ['x'], b: null, c: true } }), {
      type: 'accept',
      requestId: 'r',
      values: { a: ['x'], b: null, c: true },
    });
    assert.equal(parseFromWebview({ type: 'openUrl' }), undefined);
    assert.equal(parseFromWebview('ready'), undefined);
    assert.equal(parseFromWebview({ type: 'whatever', requestId: 'r' }), undefined);
  });
});

describe('hasSamplingReply', () => {
  it('wants some text or at least one tool call before Approve', () => {
    assert.equal(hasSamplingReply({}), false);
    assert.equal(hasSamplingReply({ responseText: ' \n\t' }), false);
    assert.equal(hasSamplingReply({ responseText: '', toolCallsJson: '[ ]' }), false);
    assert.equal(hasSamplingReply({ responseText: 'Hi' }), true);
    assert.equal(hasSamplingReply({ responseText: '', toolCallsJson: '[{"id":"1","name":"t","input":{}}]' }), true);
  });
});
