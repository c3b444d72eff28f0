/**
 * One command per prompt of every running server, `mcpWorkbench.prompt.<server>.<prompt>`, so
 * users can bind keys to their favourite prompts (a keybinding's `args` object presets argument
 * values). Commands are registered when a prompt appears and disposed when it goes away (the
 * server stops, is removed, or its `prompts/list_changed` drops it).
 */
import * as vscode from 'vscode';
import type { PromptRef } from '../shared/common/commandArgs';
import { promptCommandIds } from './common/promptCommands';
import type { McpServerConnection } from '../mcp/connection/serverConnection';
import type { ServerRegistry } from '../mcp/serverRegistry';

interface Registered {
  ref: PromptRef;
  disposable: vscode.Disposable;
}

export class PromptCommandRegistry implements vscode.Disposable {
  private readonly commands = new Map<string, Registered>();
  private readonly watched = new Map<McpServerConnection, { dispose(): void }[]>();
  private readonly subscriptions: { dispose(): void }[] = [];
  private scheduled = false;
  private disposed = false;

  constructor(
    private readonly registry: Pick<ServerRegistry, 'all' | 'onDidAddConnection' | 'onDidChange'>,
    private readonly run: (ref: PromptRef, args: Record<string, string> | undefined) => unknown,
  ) {
    registry.all().forEach((c) => this.watch(c));
    this.subscriptions.push(
      registry.onDidAddConnection((c) => this.watch(c)),
      registry.onDidChange(() => this.schedule()),
    );
    this.update();
  }

  /** The ids registered now (for tests and the chat participant). */
  ids(): string[] {
    return [...this.commands.keys()].sort();
  }

  private watch(connection: McpServerConnection): void {
    if (this.watched.has(connection)) return;
    this.watched.set(connection, [
      connection.onDidChangeList((kind) => {
        if (kind === 'prompts') this.schedule();
      }),
      connection.onDidChangeState(() => this.schedule()),
    ]);
    this.schedule();
  }

  /** Coalesces bursts (a start fires state and list events together) into one update. */
  private schedule(): void {
    if (this.scheduled || this.disposed) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      if (!this.disposed) this.update();
    });
  }

  private update(): void {
    const live = new Set(this.registry.all());
    for (const [connection, subs] of this.watched) {
      if (!live.has(connection)) {
        subs.forEach((s) => s.dispose());
        this.watched.delete(connection);
      }
    }
    const prompts = [...live]
      .filter((c) => c.state.kind === 'running')
      .flatMap((c) => (c.cached('prompts') ?? []).map((p) => ({ serverId: c.definition.id, serverName: c.definition.name, promptName: p.name })));
    const wanted = promptCommandIds(prompts);
    for (const [id, entry] of this.commands) {
      const next = wanted.get(id);
      if (!next || next.serverId !== entry.ref.serverId || next.promptName !== entry.ref.promptName) {
        entry.disposable.dispose();
        this.commands.delete(id);
      }
    }
    for (const [id, p] of wanted) {
      if (this.commands.has(id)) continue;
      const ref: PromptRef = { serverId: p.serverId, promptName: p.promptName };
      try {
        const disposable = vscode.commands.registerCommand(id, (args?: unknown) => this.run(ref, stringArgs(args)));
        this.commands.set(id, { ref, disposable });
      } catch (error) {
        console.warn(`MCP Workbench: could not register ${id}: ${String(error)}`);
      }
    }
  }

  dispose(): void {
    this.disposed = true;
    this.subscriptions.forEach((s) => s.dispose());
    this.watched.forEach((subs) => subs.forEach((s) => s.dispose()));
    this.watched.clear();
    this.commands.forEach((c) => c.disposable.dispose());
    this.commands.clear();
  }
}

/** A keybinding's `args` as argument values: string fields only (numbers/booleans as text). */
function stringArgs(args: unknown): Record<string, string> | undefined {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(args)) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[k] = String(v);
  }
  return out;
}
