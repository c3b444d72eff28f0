/** Builds Check Server inputs from exchanges recorded by the real ActivityLog (as the extension records them). */
import { ActivityLog, type ActivityServer } from '../../../src/traffic/common/activityLog';
import { DEFAULT_BUDGETS, type CheckInput } from '../../../src/check/common/checkTypes';

const SERVER: ActivityServer = { id: 's', label: 'server', secrets: [] };

export class Recorder {
  private readonly log = new ActivityLog(10000);
  private nextId = 1;
  private at = 1000;

  /** A client request and the server's answer `ms` later; returns the request's seq. */
  request(method: string, params: unknown, result: unknown, ms = 5): number {
    const id = this.nextId++;
    const start = this.at;
    this.at += ms + 1;
    const entry = this.log.add(SERVER, { direction: 'send', kind: 'request', method, id, message: { jsonrpc: '2.0', id, method, params } }, start)!;
    this.log.add(SERVER, { direction: 'receive', kind: 'response', id, message: { jsonrpc: '2.0', id, result } }, start + ms);
    return entry.seq;
  }

  /** A notification from the server. */
  notification(method: string, params?: unknown): number {
    return this.log.add(SERVER, { direction: 'receive', kind: 'notification', method, message: { jsonrpc: '2.0', method, params } }, this.at++)!.seq;
  }

  /** A request from the server to the client. */
  serverRequest(method: string, params: unknown): number {
    const id = this.nextId++;
    return this.log.add(SERVER, { direction: 'receive', kind: 'request', method, id, message: { jsonrpc: '2.0', id, method, params } }, this.at++)!.seq;
  }

  input(overrides: Partial<CheckInput> = {}): CheckInput {
    return {
      protocolVersion: '2025-11-25',
      era: 'legacy',
      transport: 'stdio',
      capabilities: { tools: {} },
      tools: [],
      prompts: [],
      resources: [],
      resourceTemplates: [],
      messages: this.log.entries().reverse(),
      budgets: DEFAULT_BUDGETS,
      ...overrides,
    };
  }
}
