import * as assert from 'node:assert/strict';
import { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import { definition, recordingHost, RecordingLog } from './testHost';

describe('connection state redaction', () => {
  it('keeps a secret in the URL out of the state itself, not only out of what displays it', async () => {
    const secret = 'query-SECRET-9137';
    // Port 9 (discard) on loopback refuses the connection: the start fails and names the URL.
    const def = definition({ type: 'http', url: `http://127.0.0.1:9/mcp?api_key=${secret}`, headers: {} }, { secrets: [secret], timeouts: { connect: 3 } });
    const connection = new McpServerConnection(def, recordingHost(), new RecordingLog());
    const states: string[] = [];
    connection.onDidChangeState((s) => states.push(JSON.stringify(s)));
    await connection.start().catch(() => undefined);
    await connection.dispose();
    assert.equal(connection.state.kind === 'error' || connection.state.kind === 'stopped', true, JSON.stringify(connection.state));
    assert.ok(
      states.some((s) => s.includes('127.0.0.1:9')),
      `the failure names the URL: ${states.join('\n')}`,
    );
    for (const s of [...states, JSON.stringify(connection.state)]) assert.ok(!s.includes(secret), s);
  });
});
