/**
 * MCP Apps (SEP-1865): servers' interactive UIs (`ui://` resources) shown in Run Tool's result
 * area or in their own tab, sandboxed, talking to the host over the ui/* protocol.
 *
 * The Apps feature's shared parts, built once by the composition root (src/extension.ts) and
 * handed to Run Tool: the local sandbox server (started on the first app shown), the origin
 * webviews reach it at, and loading an app's resource into a session.
 */
import * as vscode from 'vscode';
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { AppSandboxServer, type AppSandbox } from './common/sandboxServer';
import { appResourceFrom } from './common/appResource';
import { toolAppUri } from './common/appTools';
import type { AppSession } from './appSession';
import type { Workbench } from '../workbench';
import type { SampleForApp } from './appRequestPolicy';
import type { AppChatRoute } from './appMessageRoute';
import { appModelToolsFrom, type AppModelContext, type AppModelTool, type AppsChatLink } from './common/appChat';
import { errorMessage } from '../shared/common/errors';

/** How long an app may take to list its tools for a chat request (it answers from memory; a hung one must not stall chat). */
const LIST_APP_TOOLS_MS = 3000;
/** How long an app's tool may run for the model. */
const CALL_APP_TOOL_MS = 120_000;

export class AppsService implements vscode.Disposable, AppsChatLink {
  private readonly server = new AppSandboxServer();
  /** The sessions not yet disposed (their model contexts go to chat). */
  private readonly sessions = new Set<AppSession>();
  /** The chat participant that takes apps' messages, once chat registered it. */
  private participant: string | undefined;
  private readonly chatRoute: AppChatRoute = { participant: () => this.participant };
  private external: Promise<string> | undefined;
  readonly sandbox: AppSandbox = {
    origin: () => this.origin(),
    register: (policy, allow, html) => this.server.register(policy, allow, html),
  };

  /** `sample`: an app's sampling requests, answered like its server's own (the approval service). */
  constructor(
    private readonly workbench: Workbench,
    private readonly sample: SampleForApp,
  ) {}

  private origin(): Promise<string> {
    // The webview loads the sandbox from 127.0.0.1 directly: right when the window and the
    // extension host share a machine. `asExternalUri` is not used: in a browser window of a
    // VS Code server it points at a port-forwarding proxy path that server may not serve, and
    // a proxy on the workbench's own origin would weaken the isolation. Remote windows
    // (SSH, containers) therefore need this port forwarded; see the README.
    this.external ??= this.server.origin();
    return this.external;
  }

  /** The `frame-src` sources a webview that shows apps must allow. */
  async frameSources(): Promise<string[]> {
    return [await this.origin()];
  }

  /**
   * Reads the tool's `ui://` resource from its server and makes a session of it, or says in
   * one line why the app cannot be shown.
   */
  async createSession(
    serverId: string,
    tool: Tool,
    toolInput: Record<string, unknown>,
    toolResult: CallToolResult | undefined,
  ): Promise<AppSession | { error: string }> {
    const uri = toolAppUri(tool);
    if (!uri) return { error: vscode.l10n.t('The tool "{0}" declares no app.', tool.name) };
    const connection = this.workbench.registry.find(serverId);
    if (connection?.state.kind !== 'running') return { error: vscode.l10n.t('The server is not running, so its app cannot be loaded.') };
    let read;
    try {
      read = await connection.readResource(uri);
    } catch (error) {
      return { error: vscode.l10n.t('Could not read the app {0}: {1}', uri, errorMessage(error)) };
    }
    const resource = appResourceFrom(read, uri);
    if ('error' in resource) return { error: resource.error };
    // The session's code loads with the first app (dist/features.js, esbuild.mjs lazyFeatures).
    const { AppSession } = await import('./appSession.js');
    const session = new AppSession(
      this.workbench,
      serverId,
      connection.definition.label,
      tool,
      uri,
      resource,
      this.sandbox,
      this.sample,
      this.chatRoute,
      toolInput,
      toolResult,
    );
    this.sessions.add(session);
    session.onDidDispose(() => this.sessions.delete(session));
    return session;
  }

  modelContexts(): AppModelContext[] {
    return [...this.sessions].flatMap((s) => (s.modelContext ? [{ label: `${s.tool.title ?? s.tool.name} (${s.serverLabel})`, text: s.modelContext }] : []));
  }

  async modelTools(): Promise<AppModelTool[]> {
    const perApp = await Promise.all(
      [...this.sessions].map(async (session) => {
        const bridge = session.bridge;
        if (!bridge?.getAppCapabilities()?.tools) return [];
        const listed = await bridge.listTools({}, { timeout: LIST_APP_TOOLS_MS }).catch(() => undefined);
        const label = `${session.tool.title ?? session.tool.name} (${session.serverLabel})`;
        return appModelToolsFrom(listed).map((tool): AppModelTool => ({
          label,
          tool,
          call: async (args, signal) => {
            // The frame shown at call time (the app may have moved since it was listed).
            const now = session.bridge;
            if (!now) throw new Error(vscode.l10n.t('The app {0} is not open any more.', label));
            return now.callTool({ name: tool.name, arguments: args }, { signal, timeout: CALL_APP_TOOL_MS });
          },
        }));
      }),
    );
    return perApp.flat();
  }

  chatParticipantReady(name: string): void {
    this.participant = name;
  }

  dispose(): void {
    this.sessions.clear();
    this.server.dispose();
  }
}
