/** Which MCP tools are kept out of chat in this workspace (the tree shows it too). */
import * as vscode from 'vscode';
import { DISABLED_CHAT_TOOLS_KEY, toolKey } from './common/chatTools';

/** One tool whose chat setting changed, by server name (as in `toolKey`). */
export interface ChatToolChange {
  serverName: string;
  toolName: string;
}

/** The tools disabled for chat in this workspace, by `toolKey(serverName, toolName)`. */
export class ChatToolSettings {
  private readonly onDidChangeEmitter = new vscode.EventEmitter<ChatToolChange>();
  readonly onDidChange = this.onDidChangeEmitter.event;
  /** The stored keys as a Set: asked once per tool on every listing (the tree, each chat request). */
  private disabled: Set<string> | undefined;

  constructor(private readonly state: vscode.Memento) {}

  disabledKeys(): string[] {
    return this.state.get<string[]>(DISABLED_CHAT_TOOLS_KEY, []);
  }

  isDisabled(serverName: string, toolName: string): boolean {
    this.disabled ??= new Set(this.disabledKeys());
    return this.disabled.has(toolKey(serverName, toolName));
  }

  async setEnabled(serverName: string, toolName: string, enabled: boolean): Promise<string[]> {
    const key = toolKey(serverName, toolName);
    const keys = new Set(this.disabledKeys());
    if (enabled) keys.delete(key);
    else keys.add(key);
    const next = [...keys].sort();
    await this.state.update(DISABLED_CHAT_TOOLS_KEY, next.length ? next : undefined);
    this.disabled = new Set(next);
    this.onDidChangeEmitter.fire({ serverName, toolName });
    return next;
  }

  dispose(): void {
    this.onDidChangeEmitter.dispose();
  }
}
