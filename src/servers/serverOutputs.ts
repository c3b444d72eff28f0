/**
 * One log channel per server ("MCP: <name>"), created on first use. Every line written through
 * `logFor` is redacted with the server's secrets: connections, traces and panels log through it.
 */
import * as vscode from 'vscode';
import type { ServerDefinition } from '../config/common/launchDefinition';
import type { ServerLog } from '../mcp/connection/connectionTypes';
import { redactText } from '../shared/common/redact';
import { channelLevelFor } from '../shared/common/logLevels';
import { Emitter } from '../shared/common/emitter';
import type { ServerOutput } from '../workbench';

/** Built by the composition root (src/extension.ts) and handed to the Workbench, which carries it to features (as ServerChannels). */
export class ServerOutputs implements vscode.Disposable {
  private readonly channels = new Map<string, vscode.LogOutputChannel>();
  private readonly onDidOutputEmitter = new Emitter<ServerOutput>();
  /** Every stderr line and log message of every server, redacted (the Inspector's Console records them). */
  readonly onDidOutput = this.onDidOutputEmitter.event;

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
      stderr: (line) => {
        const text = redactText(line, this.secretsOf(def));
        this.channel(def).appendLine(text);
        this.onDidOutputEmitter.fire({ server: def, level: 'stderr', text });
      },
      message: (level, message) => {
        const text = redactText(message, this.secretsOf(def));
        this.channel(def)[channelLevelFor(level)](text);
        this.onDidOutputEmitter.fire({ server: def, level, text });
      },
    };
  }

  show(def: ServerDefinition): void {
    this.channel(def).show(true);
  }

  dispose(): void {
    this.onDidOutputEmitter.dispose();
    for (const channel of this.channels.values()) channel.dispose();
    this.channels.clear();
  }
}
