/**
 * What a tool call costs on the SDK (issue 30): SDK 2.4.0's `client.request` without a result
 * schema validates `undefined` against the era's schema on every request to learn whether the
 * method exists in the era, a failed zod parse with its error built and dropped (~8 µs of CPU
 * per call). The connection hands the SDK the same validator made once per era
 * (callResultValidator in src/mcp/connection/toolCalls.ts). Real fixture server, real SDK; the
 * one thing watched is the SDK's era codec, wrapped (and put back) to count what it validates.
 */
import * as assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/client';
import { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import { callResultValidator } from '../../../src/mcp/connection/toolCalls';
import { definition, recordingHost, RecordingLog, stdioLaunch } from './testHost';

type Outcome = { ok: true; value: unknown } | { ok: false; reason: string; message?: string };
type Codec = { validateResult(method: string, raw: unknown): Outcome };

function codecOf(client: Client): Codec {
  const codec = (client as unknown as { _wireCodec?: () => Codec })._wireCodec?.();
  assert.ok(codec, 'the SDK no longer has Protocol._wireCodec(): tool calls pay its per-call validator again (see callResultValidator)');
  return codec;
}

describe('tool call cost on the SDK', function () {
  this.timeout(20000);
  let connection: McpServerConnection | undefined;
  afterEach(async () => {
    await connection?.dispose();
    connection = undefined;
  });

  async function running(): Promise<{ c: McpServerConnection; client: Client }> {
    const c = new McpServerConnection(definition(stdioLaunch(), { protocolEra: 'legacy' }), recordingHost(), new RecordingLog());
    connection = c;
    await c.start();
    assert.equal(c.state.kind, 'running', JSON.stringify(c.state));
    return { c, client: c.client! };
  }

  it('validates each tools/call result once, never `undefined` to probe the era', async () => {
    const { c, client } = await running();
    const codec = codecOf(client);
    const original = Object.getOwnPropertyDescriptor(codec, 'validateResult')!;
    const validated: unknown[] = [];
    Object.defineProperty(codec, 'validateResult', {
      ...original,
      value: (method: string, raw: unknown) => {
        if (method === 'tools/call') validated.push(raw);
        return (original.value as Codec['validateResult'])(method, raw);
      },
    });
    try {
      for (let i = 0; i < 3; i++) {
        const result = await c.callTool('echo', { text: `call ${i}` });
        assert.equal((result.content[0] as { text: string }).text, `echo: call ${i}`);
      }
    } finally {
      Object.defineProperty(codec, 'validateResult', original);
    }
    assert.equal(validated.filter((raw) => raw === undefined).length, 0, `era probes with undefined: ${validated.length} validations for 3 calls`);
    assert.equal(validated.length, 3);
  });

  it("keeps the SDK's own validation and its message", async () => {
    const { client } = await running();
    const validator = callResultValidator(client);
    assert.ok(validator, 'callResultValidator found the codec');
    assert.equal(callResultValidator(client), validator, 'made once per era');
    const good = { content: [{ type: 'text', text: 'hi' }] };
    const parsed = codecOf(client).validateResult('tools/call', good);
    assert.ok(parsed.ok);
    assert.deepEqual(await validator['~standard'].validate(good), { value: parsed.value });
    const bad = { content: 'not a list' };
    const expected = codecOf(client).validateResult('tools/call', bad);
    assert.equal(expected.ok, false);
    assert.deepEqual(await validator['~standard'].validate(bad), { issues: [{ message: (expected as { message: string }).message }] });
  });
});
