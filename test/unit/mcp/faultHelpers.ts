/** Helpers of the fault suites: the stdio fault fixture, unhandled-error capture, heap after GC. */
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import type { ServerDefinition } from '../../../src/config/common/launchDefinition';
import type { TimeoutSettings } from '../../../src/config/common/serverConfig';
import type { ServerLog } from '../../../src/mcp/connection/connectionTypes';
import { definition, FIXTURES } from './testHost';

export const FAULT_FIXTURE = path.join(FIXTURES, 'faultServer.js');

export function faultDefinition(env: Record<string, string>, timeouts: Partial<TimeoutSettings> = {}, name = 'f'): ServerDefinition {
  return definition(
    { type: 'stdio', command: 'node', args: [FAULT_FIXTURE], env, cwd: undefined } as ServerDefinition['launch'],
    // legacy: no era probe, which would spawn a second process per start.
    { id: name, name, label: name, protocolEra: 'legacy', timeouts: { connect: 5, request: 3, ...timeouts } },
  );
}

/** Collects unhandled rejections and uncaught exceptions while a test runs. */
export function watchUnhandled(): { readonly seen: unknown[]; dispose(): void } {
  const seen: unknown[] = [];
  const on = (reason: unknown) => seen.push(reason);
  process.on('unhandledRejection', on);
  process.on('uncaughtException', on);
  return {
    seen,
    dispose: () => {
      process.off('unhandledRejection', on);
      process.off('uncaughtException', on);
    },
  };
}

/** Heap in use after a full garbage collection (v8's gc exposed for the moment). */
export function heapAfterGc(): number {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Counts what a server logged by level and keeps only the last 50 lines, so a flood of lines does not fill the test's memory. */
export class CountingLog implements ServerLog {
  readonly counts: Record<string, number> = {};
  readonly last: string[] = [];
  log(level: string, message: string): void {
    this.keep(level, message);
  }
  stderr(line: string): void {
    this.keep('stderr', line);
  }
  private keep(level: string, message: string): void {
    this.counts[level] = (this.counts[level] ?? 0) + 1;
    this.last.push(`${level}: ${message}`);
    if (this.last.length > 50) this.last.shift();
  }
}
