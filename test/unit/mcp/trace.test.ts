import * as assert from 'node:assert/strict';
import { redactText, redactValue, REDACTED } from '../../../src/shared/common/redact';
import { formatTrace } from '../../../src/mcp/trace';
import { channelLevelFor } from '../../../src/shared/common/logLevels';

describe('redaction and trace lines', () => {
  it('redacts known secrets, bearer tokens and credential keys', () => {
    assert.equal(redactText('key=hunter22 and Bearer abcdefghijkl', ['hunter22']), `key=${REDACTED} and Bearer ${REDACTED}`);
    assert.deepEqual(redactValue({ headers: { Authorization: 'x', other: 'ok' }, nested: [{ access_token: 't' }] }, []),
      { headers: { Authorization: REDACTED, other: 'ok' }, nested: [{ access_token: REDACTED }] });
  });

  it('formats direction, method, id, latency and errors', () => {
    const message = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { arguments: { password: 'pw-secret-1' } } };
    assert.equal(formatTrace('w', { direction: 'send', kind: 'request', method: 'tools/call', id: 3, message }, 'messages', []), '[w] → request tools/call #3');
    assert.equal(formatTrace('w', { direction: 'receive', kind: 'error', method: 'tools/call', id: 3, latencyMs: 12, errorCode: -32602, errorMessage: 'Invalid params', message: {} }, 'messages', []),
      '[w] ← error tools/call #3 (12 ms): -32602 Invalid params');
    const verbose = formatTrace('w', { direction: 'send', kind: 'request', method: 'tools/call', id: 3, message }, 'verbose', []);
    assert.ok(!verbose.includes('pw-secret-1'));
    assert.ok(verbose.includes(REDACTED));
  });

  it('maps MCP log levels onto channel levels', () => {
    assert.deepEqual(['debug', 'info', 'notice', 'warning', 'error', 'emergency'].map(channelLevelFor), ['debug', 'info', 'info', 'warn', 'error', 'error']);
  });
});
