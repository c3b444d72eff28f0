import * as assert from 'node:assert/strict';
import {
  CspViolationLog,
  MAX_REPORTS,
  VIOLATION_LISTENER,
  describeCspViolation,
  parseCspViolation,
  withViolationListener,
} from '../../../src/apps/common/cspViolation';
import { parseAppFromWebview } from '../../../src/apps/common/appsProtocol';

describe('apps: what the app policy blocked', () => {
  it('takes a report of the right shape, cut to size and without control characters', () => {
    assert.deepEqual(parseCspViolation({ directive: 'connect-src', blockedUri: 'https://undeclared.invalid/data.json' }), {
      directive: 'connect-src',
      blockedUri: 'https://undeclared.invalid/data.json',
    });
    assert.deepEqual(parseCspViolation({ directive: 'Worker-Src ', blockedUri: 'blob' }), { directive: 'worker-src', blockedUri: 'blob' });
    assert.deepEqual(parseCspViolation({ directive: 'script-src', blockedUri: '' }), { directive: 'script-src', blockedUri: '(inline)' });
    assert.equal(parseCspViolation({ directive: 'connect-src', blockedUri: `https://a.example/${'x'.repeat(1000)}` })!.blockedUri.length, 300);
    assert.equal(
      parseCspViolation({ directive: 'connect-src', blockedUri: 'https://a.example/\nforged log line' })!.blockedUri,
      'https://a.example/forged log line',
    );
    for (const bad of [
      undefined,
      null,
      'connect-src',
      [],
      { directive: 'connect-src' },
      { directive: 1, blockedUri: 'x' },
      { directive: 'connect-src; script-src *', blockedUri: 'x' },
      { directive: 'x'.repeat(41), blockedUri: 'x' },
    ]) {
      assert.equal(parseCspViolation(bad), undefined, JSON.stringify(bad));
    }
  });

  it('says in one line what the app tried', () => {
    assert.equal(
      describeCspViolation({ directive: 'connect-src', blockedUri: 'https://undeclared.invalid/data.json' }),
      'the app tried to load https://undeclared.invalid/data.json (connect-src), which its declared domains do not allow',
    );
    assert.match(describeCspViolation({ directive: 'script-src', blockedUri: 'eval' }), /evaluate code/);
    assert.match(describeCspViolation({ directive: 'script-src-elem', blockedUri: 'inline' }), /inline code/);
  });

  it('keeps a sample of blocked code as one short quoted line', () => {
    const parsed = parseCspViolation({ directive: 'script-src', blockedUri: 'eval', sample: `alert(1)\n[warn] forged${'x'.repeat(200)}` })!;
    assert.equal(parsed.sample!.length, 80);
    assert.ok(!/[\n\r]/.test(parsed.sample!));
    assert.equal(
      describeCspViolation({ directive: 'script-src', blockedUri: 'eval', sample: 'new Function("x")' }),
      'the app tried to evaluate code (script-src), which its policy does not allow ("new Function(\\"x\\")")',
    );
    assert.deepEqual(parseCspViolation({ directive: 'connect-src', blockedUri: 'https://a.example', sample: '' }), {
      directive: 'connect-src',
      blockedUri: 'https://a.example',
    });
    assert.deepEqual(parseCspViolation({ directive: 'connect-src', blockedUri: 'https://a.example', sample: 7 }), {
      directive: 'connect-src',
      blockedUri: 'https://a.example',
    });
  });

  it('counts each directive + URI once, and at most MAX_REPORTS', () => {
    const log = new CspViolationLog();
    assert.equal(log.add({ directive: 'connect-src', blockedUri: 'https://a.example' }), true);
    assert.equal(log.add({ directive: 'connect-src', blockedUri: 'https://a.example' }), false);
    assert.equal(log.add({ directive: 'img-src', blockedUri: 'https://a.example' }), true);
    for (let i = 0; i < MAX_REPORTS * 2; i++) log.add({ directive: 'connect-src', blockedUri: `https://${i}.example` });
    assert.equal(log.add({ directive: 'connect-src', blockedUri: 'https://late.example' }), false);
    assert.equal(log.count, MAX_REPORTS * 2 + 2 + 1);
  });

  it('crosses the webview boundary only as a checked appCspViolation', () => {
    assert.deepEqual(parseAppFromWebview({ type: 'appCspViolation', appId: 'app-1', violation: { directive: 'worker-src', blockedUri: 'blob' } }), {
      type: 'appCspViolation',
      appId: 'app-1',
      violation: { directive: 'worker-src', blockedUri: 'blob' },
    });
    assert.equal(parseAppFromWebview({ type: 'appCspViolation', appId: 'app-1', violation: { directive: 'worker-src' } }), undefined);
  });

  it("puts the listener before the app's own markup, keeping the doctype first", () => {
    assert.equal(
      withViolationListener('<!doctype html><html lang="en"><head><script>a()</script>'),
      `<!doctype html><html lang="en"><head>${VIOLATION_LISTENER}<script>a()</script>`,
    );
    assert.equal(withViolationListener('<html><body>x</body></html>'), `<html>${VIOLATION_LISTENER}<body>x</body></html>`);
    assert.equal(withViolationListener('<!DOCTYPE html><p>x</p>'), `<!DOCTYPE html>${VIOLATION_LISTENER}<p>x</p>`);
    assert.equal(withViolationListener('<p>x</p>'), `${VIOLATION_LISTENER}<p>x</p>`);
    // <header> is not <head>.
    assert.equal(withViolationListener('<header>x</header>'), `${VIOLATION_LISTENER}<header>x</header>`);
  });
});
