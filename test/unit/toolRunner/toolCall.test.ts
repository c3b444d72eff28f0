import * as assert from 'node:assert/strict';
import { ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { looksLikeMarkdown, renderMarkdown } from '../../../src/shared/common/markdownLite';
import {
  argumentsPreview,
  blobFileName,
  contentBlock,
  errorOutcome,
  needsConfirmation,
  rememberedArgumentsKey,
  resultOutcome,
  shortToolLabel,
  toolBadges,
} from '../../../src/toolRunner/common/toolCall';
import { parseFromWebview } from '../../../src/toolRunner/common/toolRunnerProtocol';

describe('toolCall', () => {
  it('asks for confirmation unless the tool is read-only (and not destructive)', () => {
    assert.equal(needsConfirmation({}), true, 'no annotations: spec defaults are not read-only, destructive');
    assert.equal(needsConfirmation({ annotations: { readOnlyHint: true } }), false);
    assert.equal(needsConfirmation({ annotations: { readOnlyHint: false, destructiveHint: false } }), true);
    assert.equal(needsConfirmation({ annotations: { destructiveHint: true } }), true);
    assert.equal(needsConfirmation({ annotations: { readOnlyHint: true, destructiveHint: true } }), true);
    assert.equal(needsConfirmation({ annotations: { idempotentHint: true } }), true);
  });

  it('shows the stated annotations as badges', () => {
    assert.deepEqual(
      toolBadges({ annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false } }).map((b) => b.label),
      ['read-only', 'idempotent', 'closed-world'],
    );
    assert.deepEqual(
      toolBadges({ annotations: { destructiveHint: true, openWorldHint: true } }).map((b) => b.label),
      ['destructive', 'open-world'],
    );
    assert.deepEqual(toolBadges({}), []);
  });

  it('keys remembered arguments by server name and tool name', () => {
    assert.notEqual(rememberedArgumentsKey('a/b', 'c'), rememberedArgumentsKey('a', 'b/c'));
    assert.match(argumentsPreview({}), /no arguments/);
    assert.match(argumentsPreview({ t: 'x'.repeat(50) }, 20), /more characters/);
  });

  it('turns every content type into a display block', () => {
    const png = 'iVBORw0KGgo=';
    assert.deepEqual(contentBlock({ type: 'text', text: 'plain' }, 0), { kind: 'text', text: 'plain' });
    assert.equal(contentBlock({ type: 'text', text: '# Title\n\nbody' }, 0).kind, 'markdown');
    assert.deepEqual(contentBlock({ type: 'image', data: png, mimeType: 'image/png' }, 0), {
      kind: 'image',
      mimeType: 'image/png',
      dataUri: `data:image/png;base64,${png}`,
      bytes: 8,
    });
    assert.equal(contentBlock({ type: 'audio', data: png, mimeType: 'audio/wav' }, 0).kind, 'audio');
    assert.equal(contentBlock({ type: 'image', data: png, mimeType: 'text/html' }, 0).kind, 'unknown', 'an image must be image/*');
    assert.equal(contentBlock({ type: 'image', data: '"><script>', mimeType: 'image/png' }, 0).kind, 'unknown', 'data must be base64');
    assert.deepEqual(contentBlock({ type: 'resource_link', uri: 'x://a', name: 'a', mimeType: 'text/plain' }, 0), {
      kind: 'resourceLink',
      uri: 'x://a',
      name: 'a',
      mimeType: 'text/plain',
    });
    assert.deepEqual(contentBlock({ type: 'resource', resource: { uri: 'x://t', text: 'hi' } }, 0), { kind: 'resourceText', uri: 'x://t', text: 'hi' });
    assert.deepEqual(contentBlock({ type: 'resource', resource: { uri: 'x://b', blob: png, mimeType: 'image/png' } }, 3), {
      kind: 'resourceBlob',
      uri: 'x://b',
      mimeType: 'image/png',
      bytes: 8,
      index: 3,
    });
    assert.equal(contentBlock({ type: 'video', url: 'x' }, 0).kind, 'unknown');
  });

  it("keeps each item's annotations and _meta, and pretty-prints JSON text", () => {
    const item = { type: 'text' as const, text: '{"a":[1,2]}', annotations: { audience: ['user' as const], priority: 0.5 }, _meta: { 'x/y': 1 } };
    assert.deepEqual(contentBlock(item, 0), {
      kind: 'text',
      text: '{"a":[1,2]}',
      json: '{\n  "a": [\n    1,\n    2\n  ]\n}',
      annotations: JSON.stringify(item.annotations, null, 2),
      meta: '{\n  "x/y": 1\n}',
    });
    assert.equal(
      contentBlock({ type: 'text', text: '42' }, 0).kind === 'text' && (contentBlock({ type: 'text', text: '42' }, 0) as { json?: string }).json,
      undefined,
      'a bare number stays text',
    );
    assert.equal((contentBlock({ type: 'text', text: '{not json' }, 0) as { json?: string }).json, undefined);
    const result = { content: [item], structuredContent: { n: 1 }, isError: false, _meta: { trace: 'abc' } };
    const outcome = resultOutcome(result, undefined, 3);
    assert.ok(outcome.kind === 'result');
    assert.deepEqual(JSON.parse(outcome.raw), result, 'Raw is the whole result as received');
    assert.deepEqual(JSON.parse(outcome.meta!), { trace: 'abc' });
  });

  it('validates structuredContent against the outputSchema', () => {
    const tool = { outputSchema: { type: 'object' as const, properties: { n: { type: 'integer' } }, required: ['n'] } };
    const ok = resultOutcome({ content: [], structuredContent: { n: 1 } }, tool, 5);
    assert.deepEqual(ok.kind === 'result' && ok.structured, { json: '{\n  "n": 1\n}', validation: { valid: true } });
    const bad = resultOutcome({ content: [], structuredContent: { n: 'x' } }, tool, 5);
    assert.deepEqual(bad.kind === 'result' && bad.structured?.validation, { valid: false, issues: ['n must be integer'] });
    const none = resultOutcome({ content: [{ type: 'text', text: 'x' }], isError: true }, tool, 5);
    assert.equal(none.kind === 'result' && none.isError, true);
  });

  it('names a blob to save from its URI, even when the URI has a malformed %-escape', () => {
    assert.equal(blobFileName('fixture://static/pixel.png'), 'pixel.png');
    assert.equal(blobFileName('file:///tmp/a%20b.bin'), 'a_b.bin');
    // A server chooses the URI: `%E0%A4%A` is not valid UTF-8 and made decodeURIComponent throw.
    assert.doesNotThrow(() => blobFileName('fixture://x/bad%E0%A4%A.bin'));
    assert.match(blobFileName('fixture://x/bad%E0%A4%A.bin'), /^bad.*\.bin$/);
    assert.doesNotMatch(blobFileName('fixture://x/..%2F..%2Fetc%2Fpasswd'), /[/\\]/);
    assert.equal(blobFileName(''), 'resource');
  });

  it('tells protocol errors, failures and cancellation apart', () => {
    assert.deepEqual(errorOutcome(new ProtocolError(ProtocolErrorCode.InvalidParams, 'Unknown tool: x'), 3, false), {
      kind: 'protocolError',
      code: -32602,
      message: 'Unknown tool: x',
      durationMs: 3,
    });
    assert.equal(
      (errorOutcome(new ProtocolError(ProtocolErrorCode.InvalidParams, 'MCP error -32602: Unknown tool: x'), 3, false) as { message: string }).message,
      'Unknown tool: x',
    );
    assert.equal(errorOutcome(new Error('tools/call got no answer within 60 s. Raise "timeouts.request"'), 3, false).kind, 'failure');
    assert.equal(errorOutcome(new Error('AbortError'), 3, true).kind, 'cancelled');
    assert.equal(errorOutcome(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'), 3, false).kind, 'failure');
  });

  describe('markdown', () => {
    it('recognises markdown and leaves plain text alone', () => {
      assert.ok(looksLikeMarkdown('# Title'));
      assert.ok(looksLikeMarkdown('- a\n- b'));
      assert.ok(looksLikeMarkdown('see [docs](https://example.com)'));
      assert.ok(!looksLikeMarkdown('just a line of text'));
      assert.ok(!looksLikeMarkdown('a - b * c'));
    });

    it('renders the subset and never passes HTML through', () => {
      assert.equal(
        renderMarkdown('# Hi <b>x</b>\n\n- **a**\n- `<i>`'),
        '<h1>Hi &lt;b&gt;x&lt;/b&gt;</h1>\n<ul><li><strong>a</strong></li><li><code>&lt;i&gt;</code></li></ul>',
      );
      assert.equal(renderMarkdown('<script>alert(1)</script>'), '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
      assert.equal(renderMarkdown('[x](javascript:alert(1))'), '<p>[x](javascript:alert(1))</p>');
      assert.equal(renderMarkdown('[x](https://e.com/?a="b")'), '<p><a href="https://e.com/?a=&quot;b&quot;" title="https://e.com/?a=&quot;b&quot;">x</a></p>');
      assert.equal(renderMarkdown('```js\n<img onerror=x>\n```'), '<pre><code class="language-js">&lt;img onerror=x&gt;</code></pre>');
    });
  });

  describe('webview messages', () => {
    it('accepts well-formed messages and rejects everything else', () => {
      assert.deepEqual(parseFromWebview({ type: 'ready' }), { type: 'ready' });
      assert.deepEqual(parseFromWebview({ type: 'submit', requestId: 'r1', args: { a: 1 } }), { type: 'submit', requestId: 'r1', args: { a: 1 } });
      assert.equal(parseFromWebview({ type: 'submit', requestId: 'r1', args: [1] }), undefined);
      assert.equal(parseFromWebview({ type: 'submit', args: {} }), undefined);
      assert.equal(parseFromWebview({ type: 'saveBlob', requestId: 'r', index: -1 }), undefined);
      assert.equal(parseFromWebview({ type: 'openResource', uri: '' }), undefined);
      assert.equal(parseFromWebview({ type: 'runCommand', command: 'x' }), undefined);
      assert.equal(parseFromWebview('ready'), undefined);
      assert.equal(parseFromWebview(null), undefined);
      assert.deepEqual(parseFromWebview({ type: 'showRun', id: 'r1' }), { type: 'showRun', id: 'r1' });
      assert.equal(parseFromWebview({ type: 'showRun', id: 'x'.repeat(101) }), undefined);
      assert.deepEqual(parseFromWebview({ type: 'diffRuns', before: 'a', after: 'b' }), { type: 'diffRuns', before: 'a', after: 'b' });
      assert.equal(parseFromWebview({ type: 'diffRuns', before: 'a', after: 'a' }), undefined, 'a run against itself');
      assert.equal(parseFromWebview({ type: 'diffRuns', before: 'a' }), undefined);
      assert.deepEqual(parseFromWebview({ type: 'savePreset', args: { a: 1 } }), { type: 'savePreset', args: { a: 1 } });
      assert.deepEqual(parseFromWebview({ type: 'savePreset', args: {}, name: 'n' }), { type: 'savePreset', args: {}, name: 'n' });
      assert.equal(parseFromWebview({ type: 'savePreset', args: {}, name: 3 }), undefined);
      assert.equal(parseFromWebview({ type: 'savePreset', args: 'x' }), undefined);
      assert.equal(parseFromWebview({ type: 'deletePreset', name: '' }), undefined);
      assert.deepEqual(parseFromWebview({ type: 'deletePreset', name: 'n' }), { type: 'deletePreset', name: 'n' });
      assert.deepEqual(parseFromWebview({ type: 'saveAsTest', id: 'host-1' }), { type: 'saveAsTest', id: 'host-1' });
      assert.equal(parseFromWebview({ type: 'saveAsTest' }), undefined);
      assert.equal(parseFromWebview({ type: 'saveAsTest', id: 'x'.repeat(101) }), undefined);
    });
  });
});

describe('shortToolLabel', () => {
  it('keeps short names, and the start and end of long ones for the tab', () => {
    assert.equal(shortToolLabel('echo'), 'echo');
    const long = 'github_create_pull_request_review_comment_reply';
    const short = shortToolLabel(long);
    assert.equal([...short].length, 36);
    assert.ok(short.startsWith('github_create_pull') && short.endsWith('comment_reply') && short.includes('…'), short);
    assert.equal(shortToolLabel('x'.repeat(36)), 'x'.repeat(36));
    assert.equal([...shortToolLabel('🙂'.repeat(50))].length, 36, 'counts characters, not UTF-16 units');
  });
});
