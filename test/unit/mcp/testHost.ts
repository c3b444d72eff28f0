/** Shared helpers for connection tests: a definition builder, a recording host and log. */
import * as path from 'node:path';
import type { ServerDefinition, Launch } from '../../../src/config/common/launchDefinition';
import { DEFAULT_TIMEOUTS, type TimeoutSettings } from '../../../src/config/common/serverConfig';
import type { TraceRecord } from '../../../src/mcp/trace';
import type { ConnectionHost, ServerLog } from '../../../src/mcp/connection/connectionTypes';

export const FIXTURES = path.resolve(__dirname, '../../fixtures/servers');
export const STDIO_FIXTURE = path.join(FIXTURES, 'stdioServer.js');

export function stdioLaunch(env: Record<string, string | null> = {}, extra: Partial<Launch> = {}): Launch {
  return { type: 'stdio', command: 'node', args: [STDIO_FIXTURE], env, cwd: undefined, ...extra } as Launch;
}

export function definition(
  launch: Launch,
  overrides: Omit<Partial<ServerDefinition>, 'timeouts'> & { timeouts?: Partial<TimeoutSettings> } = {},
): ServerDefinition {
  const { timeouts, ...rest } = overrides;
  return {
    id: rest.id ?? 'fixture',
    name: 'fixture',
    label: 'fixture',
    source: { scope: 'user', label: 'test config' },
    disabled: false,
    secrets: [],
    launch,
    ...rest,
    timeouts: { ...DEFAULT_TIMEOUTS, ...timeouts },
  };
}

export class RecordingLog implements ServerLog {
  readonly lines: { level: string; message: string }[] = [];
  log(level: string, message: string): void {
    this.lines.push({ level, message });
  }
  stderr(line: string): void {
    this.lines.push({ level: 'stderr', message: line });
  }
  text(level?: string): string {
    return this.lines
      .filter((l) => !level || l.level === level)
      .map((l) => l.message)
      .join('\n');
  }
}

export function recordingHost(options: { roots?: { uri: string; name?: string }[]; logLevel?: 'debug' | 'info' | 'warning' } = {}) {
  const traces: TraceRecord[] = [];
  let roots = options.roots ?? [{ uri: 'file:///workspace/one', name: 'one' }];
  const host: ConnectionHost & { traces: TraceRecord[]; setRoots(r: typeof roots): void } = {
    clientInfo: { name: 'mcp-workbench-test', version: '0.0.0' },
    roots: () => roots,
    baseEnv: async () => ({ ...process.env }),
    serverLogLevel: () => options.logLevel,
    trace: (_def, record) => traces.push(record),
    traces,
    setRoots: (r) => {
      roots = r;
    },
  };
  return host;
}

export async function waitFor<T>(check: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export function textOf(result: { content?: unknown }): string {
  const content = (result.content ?? []) as { type: string; text?: string }[];
  return content
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('');
}
