/**
 * Run by faultCases.test.ts in a Node process of its own: a 100k-notification flood against the
 * fault fixture, with a heap that holds nothing but this flood. (In the unit suite's process the
 * garbage V8 lets pile up before it collects depends on everything earlier tests left there: the
 * same flood peaked at 70 MB alone and 270–300 MB in the full suite.) Prints one JSON line.
 */
import { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import { CountingLog, faultDefinition, heapAfterGc } from './faultHelpers';
import { recordingHost, textOf } from './testHost';

export interface FloodProbeResult {
  answer: string;
  logged: number;
  state: string;
  /** Highest heapUsed above the start while the call ran (garbage included), in bytes. */
  peak: number;
  /** Heap after a full collection, minus the start, in bytes. */
  grown: number;
}

async function probe(count: number): Promise<FloodProbeResult> {
  const log = new CountingLog();
  const c = new McpServerConnection(
    faultDefinition({ FAULT_MODE: 'notification-flood', FAULT_COUNT: String(count) }, { request: 80 }),
    { ...recordingHost(), trace: undefined },
    log,
  );
  try {
    await c.start();
    const before = heapAfterGc();
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 20);
    let answer: string;
    try {
      answer = textOf(await c.callTool('work', {}));
    } finally {
      clearInterval(sampler);
    }
    return { answer, logged: log.counts.info ?? 0, state: c.state.kind, peak: peak - before, grown: heapAfterGc() - before };
  } finally {
    await c.dispose();
  }
}

if (require.main === module) {
  probe(Number(process.argv[2] ?? 100000)).then(
    (result) => {
      process.stdout.write(`${JSON.stringify(result)}\n`);
      process.exit(0);
    },
    (error) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
}
