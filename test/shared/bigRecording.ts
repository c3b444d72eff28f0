/**
 * A big Inspector recording (issue 29: "a 100k-message recording scrolls and filters without a
 * frame over 50 ms"): `calls` tools/call exchanges, each with `notes` notifications/message nested
 * under it, as the Inspector exports them (JSON Lines with the format header). The e2e imports it
 * into the real workbench (test/e2e/inspector.e2e.mjs), the bench into the page alone
 * (test/bench/scenarios/inspectorScroll.ts): the same rows in both.
 */
export function bigRecording(calls: number, notes: number): string {
  const lines = [JSON.stringify({ format: 'mcp-workbench-recording', version: 1, exportedAt: 1_800_000_000_000 })];
  let seq = 0;
  for (let c = 0; c < calls; c++) {
    const call = ++seq;
    const at = 1_800_000_000_000 + call * 10;
    const name = `tool${c % 50}`;
    lines.push(
      JSON.stringify({
        seq: call,
        serverId: 'big',
        serverLabel: 'big-server',
        method: 'tools/call',
        kind: 'request',
        id: c,
        direction: 'send',
        startedAt: at,
        endedAt: at + 5,
        status: { kind: 'ok' },
        requestSize: 80,
        responseSize: 60,
        request: { jsonrpc: '2.0', id: c, method: 'tools/call', params: { name } },
        response: { jsonrpc: '2.0', id: c, result: { content: [] } },
      }),
    );
    for (let n = 0; n < notes; n++) {
      const s = ++seq;
      lines.push(
        JSON.stringify({
          seq: s,
          serverId: 'big',
          serverLabel: 'big-server',
          method: 'notifications/message',
          kind: 'notification',
          direction: 'receive',
          startedAt: at + 1,
          endedAt: at + 1,
          status: { kind: 'ok' },
          requestSize: 70,
          parentSeq: call,
          request: { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `line ${n} of call ${c}` } },
        }),
      );
    }
  }
  return lines.join('\n') + '\n';
}
