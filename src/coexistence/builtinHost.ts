/**
 * VS Code's own MCP host as this window sees it: whether it is active (re-read when its
 * settings change), whether a chat model could make its agent use the servers (re-read when
 * models change), and who runs the servers of the files both hosts read in this workspace,
 * kept in workspace state (a workspace setting would let a cloned repository decide), with
 * the servers the user chose to run here one by one ("Run Here").
 */
import * as vscode from 'vscode';
import type { ServerDefinition } from '../config/common/launchDefinition';
import { Emitter } from '../shared/common/emitter';
import {
  agentCanUseServers,
  agentHostMayRunCopy,
  builtinHostActive,
  coveredByRunnerChoice,
  decideRunner,
  hasCopilotAgentHost,
  heldBackReason,
  type HostFacts,
  waitsForRunnerDecision,
  DECIDING_RUNNER_REASON,
  parseRunner,
  readsProfileMcpJson,
  shouldAskRunner,
  shouldOfferAutostartNever,
  type BuiltinHostSettings,
  type RunnerDecision,
  type WorkspaceServersRunner,
} from './common/builtinHost';

const RUNNER_KEY = 'mcpWorkbench.coexistence.runner';
/** Workspace state: ids of the servers the user chose to run here one by one. */
const RUN_HERE_KEY = 'mcpWorkbench.coexistence.runHere';
const WATCHED_SETTINGS = ['chat.mcp.access', 'chat.mcp.enabled', 'chat.disableAIFeatures'];
/**
 * How long the first start of the servers waits for VS Code to say whether there is a chat
 * model. `selectChatModels` may wait on model providers being activated; the servers must not
 * wait on that. Past the bound the window counts as having no model: the servers start here, and
 * a model that answers later brings the question in the Servers view without stopping them.
 */
const MODELS_WAIT_MS = 3000;

export class BuiltinHost implements vscode.Disposable {
  /**
   * Whether VS Code's host is on, read when first asked (the first config load), not in the
   * constructor: the first settings read of an extension host builds VS Code's merged
   * configuration, 10-20 ms of activate() in VS Code 1.100 (issue 30).
   */
  private activeRead: boolean | undefined;
  private readonly onDidChangeEmitter = new Emitter<void>();
  /** Fires when VS Code's host turns on or off, chat models come or go, or a runner choice changes. */
  readonly onDidChange = this.onDidChangeEmitter.event;
  private readonly subscription: vscode.Disposable;
  /** Starting a server VS Code runs warns once per window that it may run its own copy. */
  warnedAboutSecondCopy = false;

  private hasChatModel = false;
  private modelsRead = false;
  /** A server was told to wait for the models (DECIDING_RUNNER_REASON): their answer must be applied. */
  private heldForModels = false;
  /** Reads of the chat models started; only the newest one's answer counts. */
  private modelReads = 0;
  private modelsWait: NodeJS.Timeout | undefined;
  /** This window started the shared servers here because VS Code's agent could not use them. */
  private startedHereUnasked = false;
  /** Resolves once the chat models were looked at: the first start of a server whose runner depends on them waits for it. */
  readonly ready: Promise<void>;

  constructor(private readonly workspaceState: vscode.Memento) {
    const configuration = vscode.workspace.onDidChangeConfiguration((e) => {
      // The question in the Servers view offers "no copies in chat" only while chat.mcp.autostart is not "never".
      const autostart = e.affectsConfiguration('chat.mcp.autostart');
      if (!autostart && !WATCHED_SETTINGS.some((s) => e.affectsConfiguration(s))) return;
      const before = this.activeRead;
      const now = (this.activeRead = readActive());
      if (now === before && !autostart) return;
      this.changed();
    });
    // Models come and go (Copilot signs in, an extension registers one): re-read each time.
    const models = vscode.lm.onDidChangeChatModels(() => void this.readChatModels());
    this.subscription = vscode.Disposable.from(configuration, models);
    const bound = new Promise<void>((resolve) => (this.modelsWait = setTimeout(resolve, MODELS_WAIT_MS)));
    this.ready = Promise.race([this.readChatModels(), bound]).then(() => {
      clearTimeout(this.modelsWait);
      this.modelsRead = true;
      this.noteDecision();
      // The servers that waited for this answer start now, or show who runs them (Workbench: applyHeldBack).
      if (this.heldForModels) this.onDidChangeEmitter.fire();
    });
  }

  private async readChatModels(): Promise<void> {
    const read = ++this.modelReads;
    // No selector: any model at all lets VS Code's agent run (a failure counts as none).
    const now = await Promise.resolve()
      .then(() => vscode.lm.selectChatModels())
      .then(
        (m) => m.length > 0,
        () => false,
      );
    // A change event during a slow read starts a newer one: an older answer must not win.
    if (read !== this.modelReads || now === this.hasChatModel) return;
    this.hasChatModel = now;
    this.changed();
  }

  private changed(): void {
    this.noteDecision();
    this.onDidChangeEmitter.fire();
  }

  /** Remembers that the shared servers were started here without a question (see decideRunner). */
  private noteDecision(): void {
    if (this.modelsRead && this.runner === undefined && !this.agentCanUse) this.startedHereUnasked = true;
  }

  /** Whether VS Code's agent can use the workspace's servers here (its host on, a chat model). */
  get agentCanUse(): boolean {
    return agentCanUseServers(this.activeNow, this.hasChatModel);
  }

  /** Who runs the shared servers now and whether the Servers view asks (common/builtinHost.ts). */
  get decision(): RunnerDecision {
    return decideRunner(this.agentCanUse, this.runner, this.startedHereUnasked);
  }

  /** Whether the Servers view asks who runs the shared servers: the decision asks and some are configured. */
  needsChoice(definitions: readonly ServerDefinition[]): boolean {
    const agentHost = hasCopilotAgentHost(vscode.version);
    return shouldAskRunner(this.decision, definitions.filter((d) => coveredByRunnerChoice(d.source, agentHost)).length);
  }

  /** Whether "Run them here" can also keep VS Code from starting copies: 1.101+ has `chat.mcp.autostart`, not "never" yet. */
  canOfferAutostartNever(): boolean {
    const config = vscode.workspace.getConfiguration('chat.mcp');
    return shouldOfferAutostartNever(config.inspect('autostart')?.defaultValue !== undefined, config.get('autostart'));
  }

  /** The servers the user chose to run here one by one (by definition id). */
  private get runHere(): string[] {
    const ids = this.workspaceState.get(RUN_HERE_KEY);
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  }

  /** "Run Here" on one server VS Code runs: recorded, so it keeps running here in later windows. */
  async runServerHere(id: string): Promise<void> {
    if (this.runHere.includes(id)) return;
    await this.workspaceState.update(RUN_HERE_KEY, [...this.runHere, id]);
    this.onDidChangeEmitter.fire();
  }

  /** Whether VS Code's own MCP host may run the servers of `.vscode/mcp.json` and `.mcp.json`. */
  get active(): boolean {
    return this.activeNow;
  }

  private get activeNow(): boolean {
    return (this.activeRead ??= readActive());
  }

  /** The user's choice for this workspace, undefined while not answered. */
  get runner(): WorkspaceServersRunner | undefined {
    return parseRunner(this.workspaceState.get(RUNNER_KEY));
  }

  async setRunner(runner: WorkspaceServersRunner): Promise<void> {
    // A choice for all of them replaces the choices made one by one.
    const hadRunHere = this.runHere.length > 0;
    if (hadRunHere) await this.workspaceState.update(RUN_HERE_KEY, undefined);
    if (runner === this.runner && !hadRunHere) return;
    await this.workspaceState.update(RUNNER_KEY, runner);
    this.onDidChangeEmitter.fire();
  }

  /** Why we do not start this server on our own (VS Code runs it), or undefined. */
  heldBackReason(def: ServerDefinition): string | undefined {
    const facts: HostFacts = {
      builtinActive: this.activeNow,
      readsProfile: readsProfileMcpJson(vscode.version),
      runHere: this.runHere.includes(def.id),
      agentHost: hasCopilotAgentHost(vscode.version),
    };
    if (!this.modelsRead && waitsForRunnerDecision(def.source, this.runner, facts)) {
      this.heldForModels = true;
      return DECIDING_RUNNER_REASON;
    }
    return heldBackReason(def.source, this.decision.runner, facts);
  }

  /** Whether VS Code's Copilot agent host may run its own copy of this server (1.140+, GitHub Copilot's places). */
  agentHostMayRunCopy(def: ServerDefinition): boolean {
    return agentHostMayRunCopy(def.source, this.activeNow, hasCopilotAgentHost(vscode.version));
  }

  dispose(): void {
    clearTimeout(this.modelsWait);
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
