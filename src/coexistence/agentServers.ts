/**
 * Mode 2 of docs/coexistence.md, "MCP Workbench runs them; VS Code's agent uses them through
 * us": where VS Code has `vscode.lm.registerMcpServerDefinitionProvider` (1.101+), the servers
 * of `.vscode/mcp.json` and `.mcp.json` we run are given to VS Code as HTTP servers at our
 * loopback endpoint (common/agentEndpoint.ts), which forwards to our connection: one process,
 * whose traffic shows in our Activity view. On 1.100 (the engines minimum) the API is absent
 * and nothing is registered.
 *
 * Approvals: VS Code confirms an agent's tool call on its side (unless the tool says it is
 * read-only or the user auto-approved it there); MCP Workbench then applies its own rule as
 * for every call it makes (Run Tool, @mcp): a tool not marked read-only asks, unless approved
 * with "Don't ask again". The safe side: VS Code's auto-approval never skips ours.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import type { McpServerConnection } from '../mcp/connection/serverConnection';
import type { ConfirmCall, ToolApprovalGate } from '../toolRunner/common/toolApprovals';
import type { Workbench } from '../workbench';
import type { BuiltinHost } from './builtinHost';
import type { AgentEndpoint, AgentRoute } from './common/agentEndpoint';
import { newRouteId } from './common/agentEndpointGate';
import { offeredToAgent } from './common/builtinHost';

/** `contributes.mcpServerDefinitionProviders[].id` in package.json. */
export const AGENT_PROVIDER_ID = 'mcpWorkbench.workspaceServers';

/** What VS Code 1.101+ has; declared here because @types/vscode is that of the engines minimum (1.100). */
interface HttpServerDefinition {
  readonly label: string;
  uri: vscode.Uri;
  headers: Record<string, string>;
  version?: string;
}
type HttpServerDefinitionClass = new (label: string, uri: vscode.Uri, headers?: Record<string, string>, version?: string) => HttpServerDefinition;
interface McpDefinitionProvider {
  readonly onDidChangeMcpServerDefinitions?: vscode.Event<void>;
  provideMcpServerDefinitions(token: vscode.CancellationToken): vscode.ProviderResult<HttpServerDefinition[]>;
  resolveMcpServerDefinition?(server: HttpServerDefinition, token: vscode.CancellationToken): vscode.ProviderResult<HttpServerDefinition>;
}
type RegisterProvider = (id: string, provider: McpDefinitionProvider) => vscode.Disposable;

/**
 * The label VS Code shows for one of ours. Not the bare name: VS Code (1.139) groups servers of
 * the same label across all sources and enables only the first ("chat.mcp.collisionBehavior":
 * "disable"), which is its own entry read from the same `.vscode/mcp.json`; ours would be
 * disabled there and its agent would never see it. Also tells the two apart in its lists.
 */
export function agentLabel(label: string): string {
  return `${label} (MCP Workbench)`;
}

/** A definition as given to VS Code (for the integration tests). */
export interface AgentDefinition {
  label: string;
  uri: string;
  headers: Record<string, string>;
}

export class AgentServers implements vscode.Disposable {
  private endpoint: AgentEndpoint | undefined;
  /** Definition id → route id, kept for the window: a restarted server keeps its URL. */
  private readonly routeIds = new Map<string, string>();
  private offeredKey = '';
  /** When a line of the endpoint was last logged, and how many were not since. */
  private lastEndpointLog = 0;
  private quietEndpointLines = 0;
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly subscriptions: vscode.Disposable[];
  /** Our confirmation of an agent's call (replaceable: the integration tests answer it); undefined: the gate's own, Run Tool's modal. */
  confirm: ConfirmCall | undefined;

  constructor(
    private readonly wb: Workbench,
    private readonly gate: ToolApprovalGate,
    private readonly builtinHost: BuiltinHost,
    private readonly HttpDefinition: HttpServerDefinitionClass,
  ) {
    const update = () => this.update();
    this.subscriptions = [wb.registry.onDidChange(update), builtinHost.onDidChange(update), this.changed];
  }

  /** The provider VS Code asks for our servers. */
  readonly provider: McpDefinitionProvider = {
    onDidChangeMcpServerDefinitions: this.changed.event,
    provideMcpServerDefinitions: async () => (await this.definitions()).map((d) => new this.HttpDefinition(d.label, vscode.Uri.parse(d.uri), d.headers)),
    resolveMcpServerDefinition: (server) => {
      // VS Code is about to connect: say so in its own words when ours is not running (any more).
      const connection = this.connectionOfRoute(server.uri.path.split('/').pop() ?? '');
      if (connection?.state.kind !== 'running') {
        throw new Error(
          vscode.l10n.t("{0} is not running in MCP Workbench. Start it in the MCP view, where MCP Workbench runs this workspace's servers.", server.label),
        );
      }
      return server;
    },
  };

  /** The servers VS Code's agent is offered now. */
  offered(): McpServerConnection[] {
    const { active, runner } = this.builtinHost;
    return this.wb.registry.all().filter((c) => offeredToAgent(c.definition.source, c.state.kind === 'running', active, runner));
  }

  /** One definition per offered server; starts the endpoint (not the SDK) when there is one. */
  async definitions(): Promise<AgentDefinition[]> {
    const offered = this.offered();
    if (!offered.length) return [];
    // The endpoint's code loads when there is a server to offer (dist/features.js, esbuild.mjs lazyFeatures).
    if (!this.endpoint) {
      const { AgentEndpoint } = await import('./common/agentEndpoint.js');
      this.endpoint ??= new AgentEndpoint(
        (id) => this.routeOf(id),
        (line) => this.logEndpoint(line),
      );
    }
    const endpoint = this.endpoint;
    await endpoint.listen();
    return offered.map((c) => ({ label: agentLabel(c.definition.label), uri: endpoint.url(this.routeIdOf(c.definition.id)), headers: endpoint.headers() }));
  }

  /** The 2025-era sessions the endpoint holds (VS Code's host opens one per start of a definition); for tests. */
  sessionCount(): number {
    return this.endpoint?.sessionCount() ?? 0;
  }

  /** Disposed with this (the provider's registration). */
  adopt(disposable: vscode.Disposable): void {
    this.subscriptions.push(disposable);
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    void this.endpoint?.close();
    this.endpoint = undefined;
  }

  /** Tells VS Code when the set of offered servers changed; closes the endpoint when mode 2 is off. */
  private update(): void {
    const key = this.offered()
      .map((c) => c.definition.id)
      .sort()
      .join('\n');
    if (key === this.offeredKey) return;
    this.offeredKey = key;
    const { active, runner } = this.builtinHost;
    if ((!active || runner !== 'workbench') && this.endpoint) {
      void this.endpoint.close();
      this.endpoint = undefined;
    }
    this.changed.fire();
  }

  /**
   * What the endpoint refused or failed at, in the logs of the servers it serves: once a
   * minute at most (a local process knocking without the secret must not flood them).
   */
  private logEndpoint(line: string): void {
    const now = Date.now();
    if (now - this.lastEndpointLog < 60_000) {
      this.quietEndpointLines++;
      return;
    }
    const quiet = this.quietEndpointLines ? ` (${this.quietEndpointLines} more such lines in the last minute not shown)` : '';
    this.lastEndpointLog = now;
    this.quietEndpointLines = 0;
    for (const c of this.offered()) this.wb.outputs.logFor(c.definition).log('warn', `${line}${quiet}`);
  }
  private routeIdOf(definitionId: string): string {
    let id = this.routeIds.get(definitionId);
    if (!id) {
      id = newRouteId(randomBytes);
      this.routeIds.set(definitionId, id);
    }
    return id;
  }

  private connectionOfRoute(routeId: string): McpServerConnection | undefined {
    for (const [definitionId, id] of this.routeIds) if (id === routeId) return this.wb.registry.get(definitionId);
    return undefined;
  }

  /** A route is served only while its server is offered (mode 2 on, running, from a shared file). */
  private routeOf(routeId: string): AgentRoute | undefined {
    const connection = this.connectionOfRoute(routeId);
    const { active, runner } = this.builtinHost;
    if (!connection || !offeredToAgent(connection.definition.source, true, active, runner)) return undefined;
    return {
      target: connection,
      hooks: {
        confirmToolCall: (tool, name, args) => this.confirmToolCall(connection, tool as Tool | undefined, name, args),
        secrets: () => this.wb.secretsOf(connection.definition),
      },
    };
  }

  private confirmToolCall(connection: McpServerConnection, tool: Tool | undefined, name: string, args: Record<string, unknown>): Promise<boolean> {
    return this.gate.approve(
      connection.definition,
      name,
      tool,
      args,
      this.confirm,
      vscode.l10n.t("VS Code's agent (chat) asks to run it; VS Code's own confirmation came first."),
    );
  }
}

/**
 * Registers the provider where VS Code has the API (1.101+); returns undefined on 1.100, where
 * VS Code's agent cannot reach our servers (docs/coexistence.md says what users do there).
 * Built by the composition root (the test API reads it) and handed to registerCoexistence.
 */
export function createAgentServers(wb: Workbench, gate: ToolApprovalGate, builtinHost: BuiltinHost): AgentServers | undefined {
  const register = (vscode.lm as unknown as { registerMcpServerDefinitionProvider?: RegisterProvider } | undefined)?.registerMcpServerDefinitionProvider;
  const HttpDefinition = (vscode as unknown as { McpHttpServerDefinition?: HttpServerDefinitionClass }).McpHttpServerDefinition;
  if (typeof register !== 'function' || typeof HttpDefinition !== 'function') return undefined;
  const agent = new AgentServers(wb, gate, builtinHost, HttpDefinition);
  try {
    agent.adopt(register.call(vscode.lm, AGENT_PROVIDER_ID, agent.provider));
  } catch (error) {
    // 1.100 has the function behind an API proposal (it throws for us): the expected way out
    // there. Anything else (say, our contribution point unknown) is worth a line in the log.
    // Either way mode 2 stays off and mode 1 works.
    if (!/proposal/i.test(String(error))) console.warn(`MCP Workbench: could not offer servers to VS Code's agent: ${String(error)}`);
    agent.dispose();
    return undefined;
  }
  return agent;
}
