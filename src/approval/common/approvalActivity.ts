/**
 * Which servers have a sampling or elicitation request waiting for the user: published by the
 * ApprovalService (src/approval), read by the Run Tool panel (src/toolRunner), which then says
 * that its call waits for an answer in MCP Requests instead of "Waiting for the server…".
 * Kept here, free of `vscode`, so the two modules do not import each other; the composition
 * root (src/extension.ts) builds the one instance and hands it to both.
 */
import { Emitter, type Event } from '../../shared/common/emitter';

export class ApprovalActivity {
  private servers = new Map<string, number>();
  private readonly emitter = new Emitter<void>();
  /** Fires when the set of servers with waiting requests changes. */
  readonly onDidChange: Event<void> = this.emitter.event;

  /** Sets the waiting requests: the server id of each (duplicates count). */
  update(serverIds: readonly string[]): void {
    const next = new Map<string, number>();
    for (const id of serverIds) next.set(id, (next.get(id) ?? 0) + 1);
    const same = next.size === this.servers.size && [...next].every(([id, n]) => this.servers.get(id) === n);
    this.servers = next;
    if (!same) this.emitter.fire();
  }

  /** How many requests of this server wait for the user. */
  waitingFor(serverId: string): number {
    return this.servers.get(serverId) ?? 0;
  }
}
