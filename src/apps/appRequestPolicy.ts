/**
 * What an app may ask of the host, decided here and nowhere else. An app reaches only its own
 * server; it may call only the tools whose `_meta.ui.visibility` includes "app", under the same
 * approval as Run Tool (read-only tools run at once, others after the user confirms next to the
 * app's frame, where the app cannot click), and every
 * call goes through the connection, so the Activity view and the trace record it. Links open
 * after a confirmation through `vscode.env.openExternal`; downloads go through a save dialog.
 * Sampling from an app goes to the MCP Requests panel like its server's own requests.
 */
import * as vscode from 'vscode';
import {
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type ReadResourceResult,
  type Tool,
} from '@modelcontextprotocol/client';
import { isAppVisible } from './common/appTools';
import { needsConfirmation } from '../shared/common/toolConfirmation';
import { checkExternalUrl } from '../shared/common/urlSafety';
import { showWarningMessage } from '../shared/notifications';
import type { Workbench } from '../workbench';
import type { ServerDefinition } from '../config/common/launchDefinition';

/** Asks the user whether the app may run a tool that is not read-only (next to the app's frame). */
export type ConfirmAppToolCall = (tool: Tool, args: Record<string, unknown>) => Promise<boolean>;

/** Replaceable confirmations (the integration tests answer them). */
export const appPrompts = {
  async confirmLink(url: string, appLabel: string): Promise<boolean> {
    const open = vscode.l10n.t('Open Link');
    const answer = await showWarningMessage(
      vscode.l10n.t('The app of "{0}" wants to open a link outside VS Code.', appLabel),
      { modal: true, detail: url },
      open,
    );
    return answer === open;
  },
};

/**
 * Sampling asked by an app, answered as its server's own request would be (the approval
 * service's policy, rate limit and panel): handed in by the composition root through AppsService.
 */
export type SampleForApp = (server: ServerDefinition, params: CreateMessageRequestParams, signal: AbortSignal) => Promise<CreateMessageResult>;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export class AppRequestPolicy {
  constructor(
    private readonly workbench: Workbench,
    private readonly serverId: string,
    private readonly serverLabel: string,
    /** The tool whose app this is. */
    private readonly appTool: Tool,
    private readonly confirm: ConfirmAppToolCall,
    private readonly sampleForApp: SampleForApp,
  ) {}

  private connection() {
    const connection = this.workbench.registry.find(this.serverId);
    if (connection?.state.kind !== 'running') {
      throw new ProtocolError(ProtocolErrorCode.InternalError, `Server "${this.serverLabel}" is not running; start it and try again.`);
    }
    return connection;
  }

  async callTool(params: { name: string; arguments?: Record<string, unknown> }, signal: AbortSignal): Promise<CallToolResult> {
    const connection = this.connection();
    const tool = (await connection.list('tools')).find((t) => t.name === params.name);
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Server "${this.serverLabel}" has no tool "${params.name}".`);
    if (!isAppVisible(tool)) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        `Tool "${params.name}" is not visible to apps (its _meta.ui.visibility does not include "app").`,
      );
    }
    const args = isRecord(params.arguments) ? params.arguments : {};
    if (needsConfirmation(tool) && !(await this.confirm(tool, args))) {
      throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `The user declined to run "${params.name}".`);
    }
    return connection.callTool(tool.name, args, { signal });
  }

  async readResource(uri: string, signal: AbortSignal): Promise<ReadResourceResult> {
    return this.connection().readResource(uri, { signal });
  }

  async listResources() {
    return { resources: await this.connection().list('resources') };
  }

  async listResourceTemplates() {
    return { resourceTemplates: await this.connection().list('resourceTemplates') };
  }

  async openLink(url: string): Promise<{ isError?: boolean }> {
    const check = checkExternalUrl(url);
    if (!check.ok) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `The link ${url.slice(0, 200)} is not opened: ${check.reason}.`);
    if (!(await appPrompts.confirmLink(check.url, this.appTool.title ?? this.appTool.name))) return { isError: true };
    const opened = await vscode.env.openExternal(vscode.Uri.parse(check.url, true));
    return opened ? {} : { isError: true };
  }

  async downloadFile(contents: unknown[]): Promise<{ isError?: boolean }> {
    let saved = 0;
    for (const item of contents) {
      if (!isRecord(item) || item.type !== 'resource' || !isRecord(item.resource)) continue;
      const resource = item.resource;
      const name =
        typeof resource.uri === 'string'
          ? resource.uri
              .split(/[/\\]/)
              .pop()
              ?.replace(/[^\w.-]+/g, '_') || 'download'
          : 'download';
      const bytes =
        typeof resource.blob === 'string'
          ? Buffer.from(resource.blob, 'base64')
          : typeof resource.text === 'string'
            ? Buffer.from(resource.text, 'utf8')
            : undefined;
      if (!bytes) continue;
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      const target = await vscode.window.showSaveDialog({
        title: vscode.l10n.t('Save the file the app offers'),
        ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
      });
      if (!target) continue;
      await vscode.workspace.fs.writeFile(target, bytes);
      saved++;
    }
    return saved ? {} : { isError: true };
  }

  /** Sampling for the app: the same policy, rate limit and MCP Requests panel as its server's own requests. */
  async sample(params: CreateMessageRequestParams, signal: AbortSignal): Promise<CreateMessageResult> {
    return this.sampleForApp(this.connection().definition, params, signal);
  }
}
