/** One log channel per server ("MCP: <name>"), created on first use. */
import * as vscode from 'vscode';
import type { ServerDefinition } from '../config/common/launchDefinition';
import type { ServerLog } from '../mcp/connection/connectionTypes';

export class ServerOutputs implements vscode.Disposable {
  private readonly channels = new Map<string, vscode.LogOutputChannel>();

  channel(def: ServerDefinition): vscode.LogOutputChannel {
    let channel = this.channels.get(def.id);
    if (!channel) {
      channel = vscode.window.createOutputChannel(`MCP: ${def.label}`, { log: true });
      this.channels.set(def.id, channel);
    }
    return channel;
  }

  /** A `ServerLog` that looks the channel up on each write, so a relabelled server keeps one channel. */
  logFor(def: ServerDefinition): ServerLog {
    return {
      log: (level, message) => this.channel(def)[level](message),
      stderr: (line) => this.channel(def).appendLine(line),
    };
  }

  show(def: ServerDefinition): void {
    this.channel(def).show(true);
  }

  dispose(): void {
    for (const channel of this.channels.values()) channel.dispose();
    this.channels.clear();
  }
}
