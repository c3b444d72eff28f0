import * as assert from 'node:assert/strict';
import { redactedJsonPrefix, redactText, redactValue, REDACTED } from '../../../src/shared/common/redact';
import { formatTrace } from '../../../src/mcp/trace';
import { channelLevelFor } from '../../../src/shared/common/logLevels';

describe('redaction and trace lines', () => {
  it('redacts known secrets, bearer tokens and credential keys', () => {
    assert.equal(redactText('key=hunter22 and Bearer abcdefghijkl', ['hunter22']), `key=${REDACTED} and Bearer ${REDACTED}`);
    assert.deepEqual(redactValue({ headers: { Authorization: 'x', other: 'ok' }, nested: [{ access_token: 't' }] }, []), {
      headers: { Authorization: REDACTED, other: 'ok' },
      nested: [{ access_token: REDACTED }],
    });
  });

  it('redactedJsonPrefix is the prefix of the redacted JSON, walking only what it shows', () => {
    const value = {
      jsonrpc: '2.0',
      id: 7,
      skip: undefined,
      result: { token: 'abc123456', list: [1, null, undefined, true, 'has hunter22 in it', { api_key: 42 }], text: 'Bearer abcdefghijkl' },
    };
    const full = JSON.stringify(redactValue(value, ['hunter22']));
    assert.equal(redactedJsonPrefix(value, ['hunter22'], 10_000), full);
    for (const n of [1, 17, 40, full.length - 1]) assert.equal(redactedJsonPrefix(value, ['hunter22'], n), full.slice(0, n));
    // A million items: only the first few are visited (a getter past them would throw).
    const items: unknown[] = Array.from({ length: 1_000_000 }, (_, i) => ({ name: `tool-${i}`, secret: 'hunter22' }));
    Object.defineProperty(items[1000], 'name', {
      enumerable: true,
      get: () => {
        throw new Error('walked too far');
      },
    });
    const preview = redactedJsonPrefix({ tools: items }, [], 1000);
    assert.equal(preview.length, 1000);
    assert.ok(!preview.includes('hunter22'));
  });

  it('formats direction, method, id, latency and errors', () => {
    const message = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { arguments: { password: 'pw-secret-1' } } };
    assert.equal(formatTrace('w', { direction: 'send', kind: 'request', method: 'tools/call', id: 3, message }, 'messages', []), '[w] → request tools/call #3');
    assert.equal(
      formatTrace(
        'w',
        { direction: 'receive', kind: 'error', method: 'tools/call', id: 3, latencyMs: 12, errorCode: -32602, errorMessage: 'Invalid params', message: {} },
        'messages',
        [],
      ),
      '[w] ← error tools/call #3 (12 ms): -32602 Invalid params',
    );
    const verbose = formatTrace('w', { direction: 'send', kind: 'request', method: 'tools/call', id: 3, message }, 'verbose', []);
    assert.ok(!verbose.includes('pw-secret-1'));
    assert.ok(verbose.includes(REDACTED));
  });

  it('maps MCP log levels onto channel levels', () => {
    assert.deepEqual(['debug', 'info', 'notice', 'warning', 'error', 'emergency'].map(channelLevelFor), ['debug', 'info', 'info', 'warn', 'error', 'error']);
  });
});
