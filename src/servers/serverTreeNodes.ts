/**
 * Node kinds of the Servers tree. Each node knows how to render itself and carries the
 * command argument fields (`serverId`, `toolName`, `uri`, …) so a menu command invoked on
 * it gets a `ToolRef`/`ResourceRef`/… directly. `contextValue` drives the menus.
 */
import * as vscode from 'vscode';
import type { Prompt, Resource, ResourceTemplateType as ResourceTemplate, Tool } from '@modelcontextprotocol/client';
import { describeProtocol, describeState } from '../mcp/serverState';
import type { McpServerConnection } from '../mcp/connection/serverConnection';
import type { ListKind } from '../mcp/connection/connectionTypes';

export type TreeNode = ServerNode | GroupNode | ToolNode | ResourceNode | TemplateNode | PromptNode;

const GROUPS: Record<ListKind, { label: string; icon: string; contextValue: string }> = {
  tools: { label: 'Tools', icon: 'tools', contextValue: 'group.tools' },
  resources: { label: 'Resources', icon: 'file', contextValue: 'group.resources' },
  resourceTemplates: { label: 'Resource Templates', icon: 'file-symlink-file', contextValue: 'group.resourceTemplates' },
  prompts: { label: 'Prompts', icon: 'comment-discussion', contextValue: 'group.prompts' },
};

export const GROUP_ORDER: ListKind[] = ['tools', 'resources', 'resourceTemplates', 'prompts'];

export class ServerNode {
  readonly kind = 'server';
  constructor(readonly connection: McpServerConnection) {}

  get serverId(): string {
    return this.connection.definition.id;
  }

  toTreeItem(): vscode.TreeItem {
    const { state, definition } = this.connection;
    const item = new vscode.TreeItem(definition.label,
      state.kind === 'running' ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = `server:${definition.id}`;
    const transport = definition.launch.type;
    item.description = state.kind === 'running'
      ? `${state.transport} · ${state.protocolVersion}${state.serverInfo.version ? ` · v${state.serverInfo.version}` : ''}`
      : `${transport} · ${describeState(state).toLowerCase()}`;
    // Servers of other apps' configs say so, and get the "Import into .vscode/mcp.json" action.
    const discovered = definition.source.discovered !== undefined;
    if (discovered) item.description += ` · ${vscode.l10n.t('from {0}', definition.source.label)}`;
    item.iconPath = stateIcon(this.connection);
    item.contextValue = `server.${state.kind}.${transport}${discovered ? '.discovered' : ''}`;
    item.tooltip = serverTooltip(this.connection);
    item.accessibilityInformation = { label: `${definition.label}, ${describeState(state)}` };
    return item;
  }
}

export class GroupNode {
  readonly kind = 'group';
  /** `count` is read when rendering, so refreshing just this node updates it after list_changed. */
  constructor(readonly connection: McpServerConnection, readonly list: ListKind, private readonly count: () => number | undefined, readonly filtered: boolean) {}

  get serverId(): string {
    return this.connection.definition.id;
  }

  toTreeItem(): vscode.TreeItem {
    const group = GROUPS[this.list];
    const item = new vscode.TreeItem(group.label, this.filtered ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
    // A different id while filtering makes VS Code expand the matches instead of keeping the old state.
    item.id = `server:${this.serverId}/${this.list}${this.filtered ? '/filtered' : ''}`;
    const count = this.count();
    item.description = count === undefined ? '…' : String(count);
    item.iconPath = new vscode.ThemeIcon(group.icon);
    item.contextValue = group.contextValue;
    return item;
  }
}

export class ToolNode {
  readonly kind = 'tool';
  constructor(readonly serverId: string, readonly tool: Tool, readonly disabledInChat = false) {}

  get toolName(): string {
    return this.tool.name;
  }

  toTreeItem(): vscode.TreeItem {
    const { tool } = this;
    const title = tool.title ?? tool.annotations?.title;
    const item = new vscode.TreeItem(title ?? tool.name, vscode.TreeItemCollapsibleState.None);
    item.id = `server:${this.serverId}/tool/${tool.name}`;
    const badges = toolBadges(tool);
    item.description = [title && title !== tool.name ? tool.name : undefined, ...badges, this.disabledInChat ? vscode.l10n.t('not in chat') : undefined].filter(Boolean).join(' · ');
    // Not the group's wrench: items and their group should look different.
    item.iconPath = new vscode.ThemeIcon(tool.annotations?.destructiveHint ? 'warning' : tool.annotations?.readOnlyHint ? 'eye' : 'symbol-method');
    item.contextValue = this.disabledInChat ? 'tool.disabledInChat' : 'tool';
    const md = new vscode.MarkdownString();
    md.appendMarkdown(`**${escapeMd(title ?? tool.name)}**${title ? ` \`${tool.name}\`` : ''}\n\n`);
    if (tool.description) md.appendText(tool.description + '\n\n');
    if (badges.length) md.appendMarkdown(`_${badges.join(', ')}_\n\n`);
    if (this.disabledInChat) md.appendMarkdown(`${vscode.l10n.t('Not offered to chat in this workspace.')}\n\n`);
    md.appendMarkdown('Input schema:\n');
    md.appendCodeblock(JSON.stringify(tool.inputSchema, null, 2), 'json');
    if (tool.outputSchema) {
      md.appendMarkdown('Output schema:\n');
      md.appendCodeblock(JSON.stringify(tool.outputSchema, null, 2), 'json');
    }
    item.tooltip = md;
    item.command = { command: 'mcpWorkbench.runTool', title: vscode.l10n.t('Run Tool…'), arguments: [{ serverId: this.serverId, toolName: tool.name }] };
    return item;
  }
}

export class ResourceNode {
  readonly kind = 'resource';
  constructor(readonly serverId: string, readonly resource: Resource) {}

  get uri(): string {
    return this.resource.uri;
  }

  toTreeItem(): vscode.TreeItem {
    const r = this.resource;
    const item = new vscode.TreeItem(r.title ?? r.name, vscode.TreeItemCollapsibleState.None);
    item.id = `server:${this.serverId}/resource/${r.uri}`;
    item.description = r.uri;
    item.iconPath = new vscode.ThemeIcon(r.mimeType?.startsWith('image/') ? 'file-media' : 'file');
    item.contextValue = 'resource';
    const md = new vscode.MarkdownString();
    md.appendMarkdown(`**${escapeMd(r.title ?? r.name)}**\n\n`);
    md.appendCodeblock(r.uri, 'text');
    if (r.description) md.appendText(r.description + '\n\n');
    if (r.mimeType) md.appendMarkdown(`MIME type: \`${r.mimeType}\``);
    if (r.size !== undefined) md.appendMarkdown(` · ${r.size} bytes`);
    item.tooltip = md;
    item.command = { command: 'mcpWorkbench.openResource', title: vscode.l10n.t('Open Resource'), arguments: [{ serverId: this.serverId, uri: r.uri }] };
    return item;
  }
}

export class TemplateNode {
  readonly kind = 'resourceTemplate';
  constructor(readonly serverId: string, readonly template: ResourceTemplate) {}

  get uriTemplate(): string {
    return this.template.uriTemplate;
  }

  toTreeItem(): vscode.TreeItem {
    const t = this.template;
    const item = new vscode.TreeItem(t.title ?? t.name, vscode.TreeItemCollapsibleState.None);
    item.id = `server:${this.serverId}/template/${t.uriTemplate}`;
    item.description = t.uriTemplate;
    item.iconPath = new vscode.ThemeIcon('file-symlink-file');
    item.contextValue = 'resourceTemplate';
    const md = new vscode.MarkdownString();
    md.appendMarkdown(`**${escapeMd(t.title ?? t.name)}**\n\n`);
    md.appendCodeblock(t.uriTemplate, 'text');
    if (t.description) md.appendText(t.description);
    item.tooltip = md;
    item.command = {
      command: 'mcpWorkbench.openResourceTemplate',
      title: vscode.l10n.t('Open Resource from Template'),
      arguments: [{ serverId: this.serverId, uriTemplate: t.uriTemplate }],
    };
    return item;
  }
}

export class PromptNode {
  readonly kind = 'prompt';
  constructor(readonly serverId: string, readonly prompt: Prompt) {}

  get promptName(): string {
    return this.prompt.name;
  }

  toTreeItem(): vscode.TreeItem {
    const p = this.prompt;
    const item = new vscode.TreeItem(p.title ?? p.name, vscode.TreeItemCollapsibleState.None);
    item.id = `server:${this.serverId}/prompt/${p.name}`;
    const args = p.arguments ?? [];
    item.description = args.length ? args.map((a) => (a.required ? `${a.name}*` : a.name)).join(', ') : undefined;
    item.iconPath = new vscode.ThemeIcon('comment-discussion');
    item.contextValue = 'prompt';
    const md = new vscode.MarkdownString();
    md.appendMarkdown(`**${escapeMd(p.title ?? p.name)}**${p.title ? ` \`${p.name}\`` : ''}\n\n`);
    if (p.description) md.appendText(p.description + '\n\n');
    for (const a of args) md.appendMarkdown(`- \`${a.name}\`${a.required ? ' (required)' : ''}${a.description ? `: ${escapeMd(a.description)}` : ''}\n`);
    item.tooltip = md;
    return item;
  }
}

export function toolBadges(tool: Tool): string[] {
  const a = tool.annotations ?? {};
  const badges: string[] = [];
  if (a.readOnlyHint) badges.push(vscode.l10n.t('read-only'));
  if (a.destructiveHint) badges.push(vscode.l10n.t('destructive'));
  if (a.idempotentHint) badges.push(vscode.l10n.t('idempotent'));
  if (a.openWorldHint) badges.push(vscode.l10n.t('open-world'));
  return badges;
}

function stateIcon(connection: McpServerConnection): vscode.ThemeIcon {
  switch (connection.state.kind) {
    case 'running':
      return new vscode.ThemeIcon('pass-filled', new vscode.ThemeColor('testing.iconPassed'));
    case 'starting':
      return new vscode.ThemeIcon('loading~spin');
    case 'error':
      return new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'));
    case 'stopped':
      return new vscode.ThemeIcon(connection.state.reason ? 'circle-slash' : 'circle-outline', new vscode.ThemeColor('disabledForeground'));
    case 'needsAuth':
      return new vscode.ThemeIcon('account', new vscode.ThemeColor('list.warningForeground'));
  }
}

function serverTooltip(connection: McpServerConnection): vscode.MarkdownString {
  const { state, definition } = connection;
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`**${escapeMd(definition.label)}** — ${escapeMd(describeState(state))}\n\n`);
  const launch = definition.launch;
  md.appendMarkdown(launch.type === 'stdio' ? `$(terminal) \`${escapeMd(launch.command)}\`` : `$(globe) ${escapeMd(launch.url)}`);
  md.appendMarkdown(` (${launch.type})\n\n`);
  if (state.kind === 'running') {
    md.appendMarkdown(`Server: **${escapeMd(state.serverInfo.title ?? state.serverInfo.name)}** ${escapeMd(state.serverInfo.version)}  \n`);
    md.appendMarkdown(`Protocol: ${escapeMd(describeProtocol(state))}  \n`);
    const caps = Object.keys(state.capabilities);
    md.appendMarkdown(`Capabilities: ${caps.length ? caps.map((c) => `\`${c}\``).join(', ') : 'none'}\n\n`);
    if (state.instructions) {
      md.appendMarkdown('Instructions:\n\n');
      md.appendText(state.instructions.length > 1200 ? state.instructions.slice(0, 1200) + '…' : state.instructions);
      md.appendMarkdown('\n\n');
    }
  }
  if (state.kind === 'needsAuth') {
    md.appendMarkdown('$(account) Sign in required:\n\n');
    md.appendText(state.message);
    md.appendMarkdown('\n\n');
  }
  if (state.kind === 'error') {
    md.appendMarkdown('Last error:\n\n');
    md.appendText(state.message);
    md.appendMarkdown('\n\n');
    if (state.detail) md.appendCodeblock(state.detail.slice(-1500), 'text');
  }
  const src = definition.source;
  md.appendMarkdown(`Config: ${escapeMd(src.folder ? `${src.folder}/` : '')}${escapeMd(src.label)}${src.line !== undefined ? `, line ${src.line + 1}` : ''}`);
  if (src.discovered && src.file) {
    md.appendMarkdown(`\n\n$(info) ${escapeMd(vscode.l10n.t('Found by discovery in the config of {0}:', src.label))} \`${src.file.replace(/`/g, '')}\``);
  }
  return md;
}

/** Escapes what would change inline markdown; labels never start a line, so list markers can stay. */
function escapeMd(text: string): string {
  return text.replace(/[\\`*_[\]<>|]/g, '\\$&');
}
