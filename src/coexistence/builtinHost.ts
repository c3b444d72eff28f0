/**
 * VS Code's own MCP host as this window sees it: whether it is active (re-read when its
 * settings change) and who runs the servers of the files both hosts read in this workspace,
 * kept in workspace state (a workspace setting would let a cloned repository decide).
 */
import * as vscode from 'vscode';
import type { ServerDefinition } from '../config/common/launchDefinition';
import { Emitter } from '../shared/common/emitter';
import { builtinHostActive, heldBackReason, parseRunner, readsProfileMcpJson, type BuiltinHostSettings, type WorkspaceServersRunner } from './common/builtinHost';

const RUNNER_KEY = 'mcpWorkbench.coexistence.runner';
const ASKED_KEY = 'mcpWorkbench.coexistence.asked';
const WATCHED_SETTINGS = ['chat.mcp.access', 'chat.mcp.enabled', 'chat.disableAIFeatures'];

export class BuiltinHost implements vscode.Disposable {
  private _active: boolean;
  private readonly onDidChangeEmitter = new Emitter<void>();
  /** Fires when VS Code's host turns on or off, or the runner choice changes. */
  readonly onDidChange = this.onDidChangeEmitter.event;
  private readonly subscription: vscode.Disposable;
  /** Starting a server VS Code runs warns once per window that it may run its own copy. */
  warnedAboutSecondCopy = false;

  constructor(private readonly workspaceState: vscode.Memento) {
    this._active = readActive();
    this.subscription = vscode.workspace.onDidChangeConfiguration((e) => {
      if (!WATCHED_SETTINGS.some((s) => e.affectsConfiguration(s))) return;
      const now = readActive();
      if (now === this._active) return;
      this._active = now;
      this.onDidChangeEmitter.fire();
    });
  }

  /** Whether VS Code's own MCP host may run the servers of `.vscode/mcp.json` and `.mcp.json`. */
  get active(): boolean {
    return this._active;
  }

  /** The user's choice for this workspace, undefined while not answered. */
  get runner(): WorkspaceServersRunner | undefined {
    return parseRunner(this.workspaceState.get(RUNNER_KEY));
  }

  async setRunner(runner: WorkspaceServersRunner): Promise<void> {
    await this.workspaceState.update(ASKED_KEY, true);
    if (runner === this.runner) return;
    await this.workspaceState.update(RUNNER_KEY, runner);
    this.onDidChangeEmitter.fire();
  }

  /** Whether the one-time question was shown in this workspace (answered or dismissed). */
  get asked(): boolean {
    return this.workspaceState.get(ASKED_KEY) === true;
  }

  markAsked(): Thenable<void> {
    return this.workspaceState.update(ASKED_KEY, true);
  }

  /** Why we do not start this server on our own (VS Code runs it), or undefined. */
  heldBackReason(def: ServerDefinition): string | undefined {
    return heldBackReason(def.source, this._active, this.runner, readsProfileMcpJson(vscode.version));
  }

  dispose(): void {
    this.subscription.dispose();
    this.onDidChangeEmitter.dispose();
  }
}

function readActive(): boolean {
  const config = vscode.workspace.getConfiguration();
  const settings: BuiltinHostSettings = {
    access: config.get('chat.mcp.access'),
    enabled: config.get('chat.mcp.enabled'),
    disableAIFeatures: config.get('chat.disableAIFeatures'),
  };
  return builtinHostActive(vscode.version, settings);
}
