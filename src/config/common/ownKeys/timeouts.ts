/**
 * A server's `timeouts`: the type, the defaults and the parser of the entry's field. Pure: no
 * `vscode`, no I/O. (Out of serverConfig.ts, which re-exports it, to keep that file short.)
 */
import * as jsonc from 'jsonc-parser';

/** A problem at a place in the file (the shape of serverConfig's ConfigProblem, which imports this file). */
interface ConfigProblem {
  severity: 'error' | 'warning' | 'info';
  message: string;
  offset: number;
  length: number;
}

/** Per-server timeouts, in seconds (what users think in; converted to ms at the SDK boundary). */
export interface TimeoutSettings {
  /** Time allowed for the `initialize` handshake (including spawning the process). */
  connect: number;
  /** Time allowed for one request without any response or progress. */
  request: number;
  /** Whether a `notifications/progress` for a request restarts its `request` timer. */
  resetOnProgress: boolean;
  /** Hard cap on one request's total duration, even with progress; 0 = none. */
  maxTotal: number;
}

export const DEFAULT_TIMEOUTS: TimeoutSettings = {
  connect: 30,
  request: 60,
  resetOnProgress: true,
  maxTotal: 0,
};

export function mergeTimeouts(defaults: TimeoutSettings, override?: Partial<TimeoutSettings>): TimeoutSettings {
  return { ...defaults, ...(override ?? {}) };
}

export function parseTimeouts(raw: unknown, name: string, node: jsonc.Node, problems: ConfigProblem[]): Partial<TimeoutSettings> | undefined {
  const problemAt = (n: jsonc.Node, severity: ConfigProblem['severity'], message: string) => ({ severity, message, offset: n.offset, length: n.length });
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    problems.push(problemAt(node, 'error', `"timeouts" of server "${name}" must be an object.`));
    return undefined;
  }
  const out: Partial<TimeoutSettings> = {};
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    const child = jsonc.findNodeAtLocation(node, [k]) ?? node;
    if (k === 'resetOnProgress') {
      if (typeof v === 'boolean') out.resetOnProgress = v;
      else problems.push(problemAt(child, 'error', `"timeouts.resetOnProgress" must be true or false.`));
    } else if (k === 'connect' || k === 'request' || k === 'maxTotal') {
      if (typeof v === 'number' && v >= 0 && Number.isFinite(v)) out[k] = v;
      else problems.push(problemAt(child, 'error', `"timeouts.${k}" must be a number of seconds (0 or more).`));
    } else {
      problems.push(problemAt(child, 'warning', `Unknown timeout "${k}": use connect, request, resetOnProgress or maxTotal.`));
    }
  }
  return out;
}
