/**
 * The host side of the panels' webview channel. The webview is a recording stand-in: a real one
 * exists only inside VS Code, where the e2e tests of Run Tool, MCP Requests, Apps and the
 * Inspector drive the channel with their real pages.
 */
import * as assert from 'node:assert/strict';
import { MAX_QUEUED_POSTS, WebviewChannel, type ChannelWebview } from '../../../src/shared/webviewChannel';

type In = { type: 'ping'; n: number };
type Out = { type: 'state' | 'chunk'; n: number };

class RecordingWebview implements ChannelWebview {
  readonly posted: unknown[] = [];
  listener: ((message: unknown) => void) | undefined;
  postMessage(message: unknown): PromiseLike<boolean> {
    this.posted.push(message);
    return Promise.resolve(true);
  }
  onDidReceiveMessage(listener: (message: unknown) => void) {
    this.listener = listener;
    return { dispose: () => (this.listener = undefined) };
  }
  /** What the page sends. */
  send(message: unknown): void {
    this.listener?.(message);
  }
}

const parsePing = (raw: unknown): In | undefined => {
  const m = raw as { type?: unknown; n?: unknown } | null;
  return m && m.type === 'ping' && typeof m.n === 'number' ? { type: 'ping', n: m.n } : undefined;
};

describe('WebviewChannel', () => {
  let webview: RecordingWebview;
  let received: In[];
  let invalid: unknown[];
  let errors: unknown[];
  let channel: WebviewChannel<In, Out>;

  beforeEach(() => {
    webview = new RecordingWebview();
    received = [];
    invalid = [];
    errors = [];
    channel = new WebviewChannel<In, Out>(webview, {
      parse: parsePing,
      receive: (m) => void received.push(m),
      ready: () => channel.post({ type: 'state', n: 0 }),
      invalid: (raw) => invalid.push(raw),
      error: (e) => errors.push(e),
    });
  });

  it('keeps posts made before ready and sends them, in order, before the ready handler posts; later ones at once', async () => {
    channel.post({ type: 'chunk', n: 1 });
    channel.post({ type: 'chunk', n: 2 });
    assert.deepEqual(webview.posted, [], 'nothing reaches a page that has not loaded');
    assert.equal(channel.isReady, false);
    webview.send({ type: 'ready' });
    await channel.whenReady;
    assert.equal(channel.isReady, true);
    channel.post({ type: 'chunk', n: 3 });
    assert.deepEqual(webview.posted, [
      { type: 'chunk', n: 1 },
      { type: 'chunk', n: 2 },
      { type: 'state', n: 0 },
      { type: 'chunk', n: 3 },
    ]);
  });

  it('runs the ready handler again when a re-created page says ready, with nothing sent twice', () => {
    channel.post({ type: 'chunk', n: 1 });
    webview.send({ type: 'ready' });
    webview.send({ type: 'ready' });
    assert.deepEqual(webview.posted, [
      { type: 'chunk', n: 1 },
      { type: 'state', n: 0 },
      { type: 'state', n: 0 },
    ]);
  });

  it("hands only what the panel's parser accepts to receive; the rest to invalid", () => {
    webview.send({ type: 'ready' });
    webview.send({ type: 'ping', n: 7 });
    webview.send({ type: 'ping', n: 'seven' });
    webview.send({ type: 'submit', args: {} });
    webview.send(null);
    webview.send('ready');
    assert.deepEqual(received, [{ type: 'ping', n: 7 }]);
    assert.deepEqual(invalid, [{ type: 'ping', n: 'seven' }, { type: 'submit', args: {} }, null, 'ready']);
  });

  it('hands a throwing or rejecting handler to error, never leaving a rejection unhandled', async () => {
    const failing = new WebviewChannel<In, Out>(webview, {
      parse: parsePing,
      receive: async (m) => {
        if (m.n === 1) throw new Error('async failure');
      },
      ready: () => {
        throw new Error('sync failure');
      },
      error: (e) => errors.push(e),
    });
    webview.send({ type: 'ready' });
    webview.send({ type: 'ping', n: 1 });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(
      errors.map((e) => (e as Error).message),
      ['sync failure', 'async failure'],
    );
    failing.dispose();
  });

  it('after dispose posts nothing, drops what it queued and stops listening', () => {
    channel.post({ type: 'chunk', n: 1 });
    channel.dispose();
    channel.post({ type: 'chunk', n: 2 });
    assert.equal(webview.listener, undefined, 'the listener was disposed');
    webview.send({ type: 'ready' });
    assert.deepEqual(webview.posted, []);
    assert.equal(channel.isReady, false);
  });

  it(`keeps at most ${MAX_QUEUED_POSTS} posts for a page that never loads, the newest`, () => {
    for (let n = 0; n < MAX_QUEUED_POSTS + 5; n++) channel.post({ type: 'chunk', n });
    webview.send({ type: 'ready' });
    assert.equal(webview.posted.length, MAX_QUEUED_POSTS + 1);
    assert.deepEqual(webview.posted[0], { type: 'chunk', n: 5 });
  });
});
