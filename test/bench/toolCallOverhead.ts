/**
 * Benchmark: what McpServerConnection adds to a tool call over the bare SDK Client.
 * Both talk to the same stdio fixture server; calls alternate in rounds so machine noise
 * hits both alike. Prints medians and the ratio (1.00 = no overhead).
 *
 *   npm run build && node out/test/bench/toolCallOverhead.js [calls=2000]
 */
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpServerConnection } from '../../src/mcp/connection/serverConnection';
import { DEFAULT_TIMEOUTS } from '../../src/config/common/serverConfig';

const FIXTURE = path.resolve(__dirname, '../fixtures/servers/stdioServer.js');
const CALLS = Number(process.argv[2] ?? 2000);

async function main(): Promise<void> {
  const bare = new Client({ name: 'bench-bare', version: '0' });
  await bare.connect(new StdioClientTransport({ command: process.execPath, args: [FIXTURE], stderr: 'ignore' }));
  const connection = new McpServerConnection({
    id: 'bench', name: 'bench', label: 'bench', source: { scope: 'user', label: 'bench' }, disabled: false,
    timeouts: DEFAULT_TIMEOUTS, secrets: [], launch: { type: 'stdio', command: process.execPath, args: [FIXTURE], env: {}, cwd: undefined },
  }, {
    clientInfo: { name: 'bench-workbench', version: '0' },
    roots: () => [],
    baseEnv: async () => ({ ...process.env }),
    serverLogLevel: () => undefined,
    // As in the extension: every message goes through the trace hook (the Activity view listens).
    trace: () => undefined,
  }, { log: () => undefined, stderr: () => undefined });
  await connection.start();
  if (connection.state.kind !== 'running') throw new Error(`fixture did not start: ${JSON.stringify(connection.state)}`);

  const bareTimes: number[] = [];
  const hostTimes: number[] = [];
  const args = { text: 'benchmark' };
  for (let i = 0; i < 200; i++) {
    await bare.callTool({ name: 'echo', arguments: args });
    await connection.callTool('echo', args);
  }
  for (let i = 0; i < CALLS; i++) {
    let t = process.hrtime.bigint();
    await bare.callTool({ name: 'echo', arguments: args });
    bareTimes.push(Number(process.hrtime.bigint() - t) / 1e3);
    t = process.hrtime.bigint();
    await connection.callTool('echo', args);
    hostTimes.push(Number(process.hrtime.bigint() - t) / 1e3);
  }
  await bare.close();
  await connection.dispose();
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];
  const mb = median(bareTimes);
  const mh = median(hostTimes);
  console.log(`tool call over stdio, ${CALLS} calls each (µs): bare SDK median ${mb.toFixed(0)} p90 ${p90(bareTimes).toFixed(0)}; `
    + `McpServerConnection median ${mh.toFixed(0)} p90 ${p90(hostTimes).toFixed(0)}`);
  console.log(`overhead ratio (connection / bare SDK, median): ${(mh / mb).toFixed(2)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
