/**
 * Says when a server we run has a second copy that VS Code's own MCP host started: VS Code
 * spawns stdio servers from the extension host (our process too), so a copy of the same launch
 * below it that we did not start is VS Code's (issue 28). Looked for at each server's start and
 * every 20 seconds while stdio servers run (a read of /proc on Linux, one `ps` elsewhere).
 */
import * as vscode from 'vscode';
import type { McpServerConnection } from '../mcp/connection/serverConnection';
import type { ServerRegistry } from '../mcp/serverRegistry';
import { processTable, secondCopies } from '../mcp/process/secondCopies';
import { DisposableStore } from '../shared/common/disposables';

const PERIOD_MS = 20_000;
/** After a start: VS Code's copy is usually started in the same moment (window open, a config save). */
const AFTER_START_MS = 2_000;

/** The pid of a connection's stdio server process (OwnedStdioTransport's), if it runs. */
function ownPid(c: McpServerConnection): number | undefined {
  return (c.client?.transport as { pid?: number | null } | undefined)?.pid ?? undefined;
}

export class SecondCopyWatch implements vscode.Disposable {
  private readonly onDidChangeEmitter = new vscode.EventEmitter<string>();
  /** Fires with the server id whose copies changed. */
  readonly onDidChange = this.onDidChangeEmitter.event;
  private readonly copies = new Map<string, number[]>();
  private readonly timer: NodeJS.Timeout;
  private soon: NodeJS.Timeout | undefined;
  private readonly subscriptions = new DisposableStore();
  private checking = false;

  constructor(private readonly registry: Pick<ServerRegistry, 'all' | 'onDidAddConnection'>) {
    const watch = (c: McpServerConnection) =>
      this.subscriptions.push(c.onDidChangeState((s) => (s.kind === 'running' ? this.checkSoon() : this.set(c.definition.id, []))));
    registry.all().forEach(watch);
    this.subscriptions.push(registry.onDidAddConnection(watch));
    this.timer = setInterval(() => void this.check(), PERIOD_MS);
    this.timer.unref?.();
  }

  /** The pids of the other copies of this server's launch, empty when none was seen. */
  of(serverId: string): number[] {
    return this.copies.get(serverId) ?? [];
  }

  private checkSoon(): void {
    clearTimeout(this.soon);
    this.soon = setTimeout(() => void this.check(), AFTER_START_MS);
  }

  /** Looks now (tests call it rather than wait for the timer). */
  async check(): Promise<void> {
    const launchOf = (c: McpServerConnection) => c.launchOverride?.launch ?? c.definition.launch;
    const running = this.registry.all().filter((c) => c.state.kind === 'running' && launchOf(c).type === 'stdio');
    if (this.checking || !running.length) return;
    this.checking = true;
    try {
      const table = await processTable(process.pid);
      const own = running.map(ownPid).filter((p): p is number => p !== undefined);
      for (const c of running) {
        const launch = launchOf(c);
        if (launch.type === 'stdio') this.set(c.definition.id, secondCopies(table, process.pid, own, launch));
      }
    } finally {
      this.checking = false;
    }
  }

  private set(id: string, pids: number[]): void {
    if ((this.copies.get(id) ?? []).join() === pids.join()) return;
    if (pids.length) this.copies.set(id, pids);
    else this.copies.delete(id);
    this.onDidChangeEmitter.fire(id);
  }

  dispose(): void {
    clearInterval(this.timer);
    clearTimeout(this.soon);
    this.subscriptions.dispose();
    this.onDidChangeEmitter.dispose();
  }
}
