/**
 * One log channel per server ("MCP: <name>"), created on first use. Every line written through
 * `logFor` is redacted with the server's secrets: connections, traces and panels log through it.
 */
import * as vscode from 'vscode';
import type { ServerDefinition } from '../config/common/launchDefinition';
import type { ServerLog } from '../mcp/connection/connectionTypes';
import { redactText } from '../shared/common/redact';

export class ServerOutputs implements vscode.Disposable {
  private readonly channels = new Map<string, vscode.LogOutputChannel>();

  /** `secretsOf`: what must never appear in a server's log (its config's secrets, its OAuth tokens). */
  constructor(private readonly secretsOf: (def: ServerDefinition) => readonly string[] = (def) => def.secrets) {}

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
      log: (level, message) => this.channel(def)[level](redactText(message, this.secretsOf(def))),
      stderr: (line) => this.channel(def).appendLine(redactText(line, this.secretsOf(def))),
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
