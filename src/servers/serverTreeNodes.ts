/**
 * Node kinds of the Servers tree. Each node knows how to render itself and carries the
 * command argument fields (`serverId`, `toolName`, `uri`, …) so a menu command invoked on
 * it gets a `ToolRef`/`ResourceRef`/… directly. `contextValue` drives the menus.
 *
 * The items of lists (tools, resources, templates, prompts) leave `tooltip` unset: a server may
 * list tens of thousands, and VS Code asks `resolveTreeItem` for the tooltip of the one the
 * user hovers (ServerTreeProvider calls `tooltip()`).
 *
 * Servers and groups have ids (their rows keep expansion and selection); the items listed under a
 * group (tools, resources, templates, prompts, skills, tasks) have none. A group lists its items
 * over the wire, and VS Code 1.100's extension host, when the group's or its server's row is
 * refreshed during that listing, registers the late answer under the row it has just dropped:
 * with ids, every later listing of the group then throws "Element with id … is already
 * registered" and the group shows no rows. Without ids, VS Code names an item by its group and
 * label, which stays the same from listing to listing (test/integration/main/serverTree.test.ts).
 */
import * as vscode from 'vscode';
import { onClick } from '../shared/selectionCommand';
import { isAppOnly, toolAppUri } from '../apps/common/appTools';
import type { Prompt, Resource, ResourceTemplateType as ResourceTemplate, Tool } from '@modelcontextprotocol/client';
import { describeState, redactState } from '../mcp/serverState';
import type { McpServerConnection } from '../mcp/connection/serverConnection';
import type { ListKind } from '../mcp/connection/connectionTypes';
import {
  promptItemText,
  promptTooltip,
  resourceItemText,
  resourceTooltip,
  serverItemText,
  serverTooltip as serverTooltipParts,
  stateSummary,
  taskItemText,
  taskTooltip,
  templateItemText,
  templateTooltip,
  toolItemText,
  toolTooltip,
  type MarkdownPart,
  protocolAndEra,
} from './common/treeText';
import { isTerminal, type TaskStatus, type ToolTask } from '../mcp/connection/toolTasks';
import { redactText } from '../shared/common/redact';
import type { Skill } from '../mcp/connection/serverSkills';
import { skillItemText, skillName, skillTooltip } from './common/skillText';
import { ToolRunnerCommands } from '../toolRunner/common/commandIds';
import { ResourceCommands } from '../resources/common/commandIds';
import { ServerCommands } from './common/commandIds';
import { leftToVsCode } from '../coexistence/common/builtinHost';
import type { RunnerAnswerNode, RunnerChoiceNode } from './runnerChoiceNodes';

export type TreeNode =
  | ServerNode
  | GroupNode
  | ToolNode
  | ResourceNode
  | TemplateNode
  | PromptNode
  | TasksGroupNode
  | TaskNode
  | SkillsGroupNode
  | SkillNode
  | RunnerChoiceNode
  | RunnerAnswerNode;

const GROUPS: Record<ListKind, { label: string; icon: string; contextValue: string }> = {
  tools: { label: 'Tools', icon: 'tools', contextValue: 'group.tools' },
  resources: { label: 'Resources', icon: 'file', contextValue: 'group.resources' },
  resourceTemplates: { label: 'Resource Templates', icon: 'file-symlink-file', contextValue: 'group.resourceTemplates' },
  prompts: { label: 'Prompts', icon: 'comment-discussion', contextValue: 'group.prompts' },
};

export const GROUP_ORDER: ListKind[] = ['tools', 'resources', 'resourceTemplates', 'prompts'];

export class ServerNode {
  readonly kind = 'server';
  /**
   * `restartingFor`: the changed `dev.watch` file the server restarts for, if it does.
   * `copyNote`: that another copy of it runs or may run (VS Code's host, its Copilot agent host), with the fix.
   */
  constructor(
    readonly connection: McpServerConnection,
    private readonly restartingFor: () => string | undefined = () => undefined,
    private readonly copyNote: () => string | undefined = () => undefined,
  ) {}

  get serverId(): string {
    return this.connection.definition.id;
  }

  toTreeItem(): vscode.TreeItem {
    const { definition } = this.connection;
    // Redacted before anything is derived from it.
    const state = redactState(this.connection.state, definition.secrets);
    const transport = definition.launch.type;
    // Servers of other apps' configs say so, and get the "Import into .vscode/mcp.json" action;
    // those of VS Code's own user config (mcp.json, the older `mcp` setting) and of GitHub
    // Copilot's places (.github/mcp.json, Copilot mcp-config.json) say where they come from too.
    const discovered = definition.source.discovered !== undefined;
    const fromElsewhere =
      discovered || definition.source.vscodeProfile === true || definition.source.vscodeSetting === true || definition.source.copilotPlace === true;
    const copyNote = state.kind === 'running' ? this.copyNote() : undefined;
    const changedFile = this.restartingFor();
    const text = serverItemText(
      definition.label,
      (changedFile !== undefined
        ? `${transport} · ${vscode.l10n.t('restarting (file changed: {0})', changedFile)}`
        : state.kind === 'running'
          ? `${state.transport} · ${state.protocolVersion}${state.serverInfo.version ? ` · v${state.serverInfo.version}` : ''}`
          : `${transport} · ${stateSummary(state, stateWords())}`) +
        (fromElsewhere ? ` · ${vscode.l10n.t('from {0}', definition.source.label)}` : '') +
        (copyNote ? ` · ${copyNote}` : ''),
    );
    const item = new vscode.TreeItem(text.label, state.kind === 'running' ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = `server:${definition.id}`;
    item.description = text.description;
    item.iconPath = changedFile !== undefined ? new vscode.ThemeIcon('loading~spin') : stateIcon(this.connection);
    // `.vscodeRuns`: left to VS Code's own MCP support, with the inline "Run Here".
    const vscodeRuns = state.kind === 'stopped' && leftToVsCode(state.reason);
    item.contextValue = `server.${state.kind}.${transport}${discovered ? '.discovered' : ''}${vscodeRuns ? '.vscodeRuns' : ''}`;
    item.tooltip = serverTooltip(this.connection);
    item.accessibilityInformation = { label: `${text.label}, ${describeState(state)}` };
    return item;
  }
}

export class GroupNode {
  readonly kind = 'group';
  /** `count` is read when rendering, so refreshing just this node updates it after list_changed. */
  constructor(
    readonly connection: McpServerConnection,
    readonly list: ListKind,
    private readonly count: () => number | undefined,
    readonly filtered: boolean,
  ) {}

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
  /** `chatDisabled` is asked on every render, so refreshing this node shows a chat toggle. */
  constructor(
    readonly serverId: string,
    readonly tool: Tool,
    private readonly chatDisabled: () => boolean = () => false,
    /** The config key that keeps it out of chat (the entry's `includeTools` / `excludeTools`), if any. */
    readonly hiddenByConfig?: 'includeTools' | 'excludeTools',
  ) {}

  get toolName(): string {
    return this.tool.name;
  }

  get disabledInChat(): boolean {
    return this.chatDisabled();
  }

  toTreeItem(): vscode.TreeItem {
    const { tool } = this;
    const badges = this.badges();
    const disabledInChat = this.disabledInChat;
    const notInChat = this.hiddenByConfig ? vscode.l10n.t('not in chat ({0})', this.hiddenByConfig) : disabledInChat ? vscode.l10n.t('not in chat') : undefined;
    const text = toolItemText(tool, badges, notInChat);
    const item = new vscode.TreeItem(text.label, vscode.TreeItemCollapsibleState.None);
    item.description = text.description;
    // Not the group's wrench: items and their group should look different. A tool with an app
    // (MCP Apps) gets the window icon.
    item.iconPath = new vscode.ThemeIcon(
      toolAppUri(tool) !== undefined ? 'window' : tool.annotations?.destructiveHint ? 'warning' : tool.annotations?.readOnlyHint ? 'eye' : 'symbol-method',
    );
    // Hidden by the config file: the workspace toggle cannot bring it back, so neither toggle is offered.
    item.contextValue = this.hiddenByConfig ? 'tool.hiddenByConfig' : disabledInChat ? 'tool.disabledInChat' : 'tool';
    item.command = onClick(ServerCommands.openSelected, this.openCommand());
    return item;
  }

  /** What a click on the item runs (through the view's selection: src/shared/selectionCommand.ts). */
  openCommand(): vscode.Command {
    return { command: ToolRunnerCommands.run, title: vscode.l10n.t('Run Tool…'), arguments: [{ serverId: this.serverId, toolName: this.tool.name }] };
  }

  /** Built on hover (resolveTreeItem), not with the item: a server may have thousands of tools. */
  tooltip(): vscode.MarkdownString {
    const { tool } = this;
    const note = [
      this.hiddenByConfig
        ? vscode.l10n.t('Not offered to chat: "{0}" of its config entry leaves it out.', this.hiddenByConfig)
        : this.disabledInChat
          ? vscode.l10n.t('Not offered to chat in this workspace.')
          : undefined,
      toolAppUri(tool) !== undefined ? vscode.l10n.t('Has an app (MCP Apps): Run Tool shows it with the result.') : undefined,
      isAppOnly(tool) ? vscode.l10n.t("Only its server's apps may call it: not offered to chat.") : undefined,
    ]
      .filter(Boolean)
      .join(' ');
    return toMarkdown(toolTooltip(tool, this.badges(), note || undefined));
  }

  /** Annotation badges, plus MCP Apps: a tool with a UI, and one only its app may call (hidden from chat). */
  private badges(): string[] {
    const { tool } = this;
    return [...toolBadges(tool), ...(toolAppUri(tool) !== undefined ? [vscode.l10n.t('app')] : []), ...(isAppOnly(tool) ? [vscode.l10n.t('app only')] : [])];
  }
}

export class ResourceNode {
  readonly kind = 'resource';
  constructor(
    readonly serverId: string,
    readonly resource: Resource,
  ) {}

  get uri(): string {
    return this.resource.uri;
  }

  toTreeItem(): vscode.TreeItem {
    const r = this.resource;
    const text = resourceItemText(r);
    const item = new vscode.TreeItem(text.label, vscode.TreeItemCollapsibleState.None);
    item.description = text.description;
    item.iconPath = new vscode.ThemeIcon(r.mimeType?.startsWith('image/') ? 'file-media' : 'file');
    item.contextValue = 'resource';
    item.command = onClick(ServerCommands.openSelected, this.openCommand());
    return item;
  }

  openCommand(): vscode.Command {
    return { command: ResourceCommands.open, title: vscode.l10n.t('Open Resource'), arguments: [{ serverId: this.serverId, uri: this.resource.uri }] };
  }

  tooltip(): vscode.MarkdownString {
    return toMarkdown(resourceTooltip(this.resource));
  }
}

export class TemplateNode {
  readonly kind = 'resourceTemplate';
  constructor(
    readonly serverId: string,
    readonly template: ResourceTemplate,
  ) {}

  get uriTemplate(): string {
    return this.template.uriTemplate;
  }

  toTreeItem(): vscode.TreeItem {
    const t = this.template;
    const text = templateItemText(t);
    const item = new vscode.TreeItem(text.label, vscode.TreeItemCollapsibleState.None);
    item.description = text.description;
    item.iconPath = new vscode.ThemeIcon('file-symlink-file');
    item.contextValue = 'resourceTemplate';
    item.command = onClick(ServerCommands.openSelected, this.openCommand());
    return item;
  }

  openCommand(): vscode.Command {
    const args = [{ serverId: this.serverId, uriTemplate: this.template.uriTemplate }];
    return { command: ResourceCommands.openTemplate, title: vscode.l10n.t('Open Resource from Template'), arguments: args };
  }

  tooltip(): vscode.MarkdownString {
    return toMarkdown(templateTooltip(this.template));
  }
}

export class PromptNode {
  readonly kind = 'prompt';
  constructor(
    readonly serverId: string,
    readonly prompt: Prompt,
  ) {}

  get promptName(): string {
    return this.prompt.name;
  }

  toTreeItem(): vscode.TreeItem {
    const p = this.prompt;
    const text = promptItemText(p);
    const item = new vscode.TreeItem(text.label, vscode.TreeItemCollapsibleState.None);
    item.description = text.description;
    item.iconPath = new vscode.ThemeIcon('comment-discussion');
    item.contextValue = 'prompt';
    return item;
  }

  tooltip(): vscode.MarkdownString {
    return toMarkdown(promptTooltip(this.prompt));
  }
}

/** The tool calls of a server that run as tasks (servers that offer tasks only). */
export class TasksGroupNode {
  readonly kind = 'tasks';
  constructor(readonly connection: McpServerConnection) {}

  get serverId(): string {
    return this.connection.definition.id;
  }

  toTreeItem(): vscode.TreeItem {
    const tasks = this.connection.tasks.list();
    const running = tasks.filter((t) => !isTerminal(t.status)).length;
    const item = new vscode.TreeItem(vscode.l10n.t('Tasks'), running ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `server:${this.serverId}/tasks`;
    item.description = running ? vscode.l10n.t('{0} running', running) : String(tasks.length);
    item.iconPath = new vscode.ThemeIcon('tasklist');
    item.contextValue = 'group.tasks';
    return item;
  }
}

/** The skills of a server that offers them (Skills over MCP, SEP-2640). */
export class SkillsGroupNode {
  readonly kind = 'skills';
  constructor(readonly connection: McpServerConnection) {}

  get serverId(): string {
    return this.connection.definition.id;
  }

  toTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t('Skills'), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `server:${this.serverId}/skills`;
    const count = this.connection.skills.cached()?.skills.length;
    item.description = count === undefined ? '…' : String(count);
    item.iconPath = new vscode.ThemeIcon('mortar-board');
    item.contextValue = 'group.skills';
    return item;
  }
}

/** One skill: opening it shows its SKILL.md, verified, in the markdown preview. Nothing is read before. */
export class SkillNode {
  readonly kind = 'skill';
  constructor(
    readonly serverId: string,
    readonly skill: Skill,
  ) {}

  get skillUri(): string {
    return this.skill.uri;
  }

  toTreeItem(): vscode.TreeItem {
    const text = skillItemText(this.skill);
    const item = new vscode.TreeItem(text.label, vscode.TreeItemCollapsibleState.None);
    item.description = text.description;
    item.iconPath = new vscode.ThemeIcon('book');
    item.contextValue = 'skill';
    item.accessibilityInformation = { label: vscode.l10n.t('Skill {0}', skillName(this.skill)) };
    item.command = onClick(ServerCommands.openSelected, this.openCommand());
    return item;
  }

  openCommand(): vscode.Command {
    return { command: ServerCommands.openSkill, title: vscode.l10n.t('Open Skill'), arguments: [{ serverId: this.serverId, skillUri: this.skill.uri }] };
  }

  tooltip(): vscode.MarkdownString {
    return toMarkdown(skillTooltip(this.skill));
  }
}

const TASK_ICONS: Record<TaskStatus, [string, string?]> = {
  working: ['loading~spin'],
  input_required: ['bell-dot', 'list.warningForeground'],
  completed: ['pass', 'testing.iconPassed'],
  failed: ['error', 'testing.iconFailed'],
  cancelled: ['circle-slash', 'disabledForeground'],
};

export class TaskNode {
  readonly kind = 'task';
  constructor(
    readonly serverId: string,
    readonly task: ToolTask,
  ) {}

  get taskId(): string {
    return this.task.taskId;
  }

  toTreeItem(): vscode.TreeItem {
    const text = taskItemText(this.task);
    const item = new vscode.TreeItem(text.label, vscode.TreeItemCollapsibleState.None);
    item.description = text.description;
    const [icon, color] = TASK_ICONS[this.task.status];
    item.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
    item.contextValue = isTerminal(this.task.status) ? `task.${this.task.status}` : 'task.running';
    item.tooltip = toMarkdown(taskTooltip(this.task));
    const open = this.openCommand();
    if (open) item.command = onClick(ServerCommands.openSelected, open);
    return item;
  }

  /** A finished task's result; nothing while it runs. */
  openCommand(): vscode.Command | undefined {
    const args = [{ serverId: this.serverId, taskId: this.task.taskId }];
    return this.task.result ? { command: ServerCommands.showTaskResult, title: vscode.l10n.t('Show Task Result'), arguments: args } : undefined;
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

function stateWords(): Record<'stopped' | 'starting' | 'error' | 'needsAuth', string> {
  return {
    stopped: vscode.l10n.t('stopped'),
    starting: vscode.l10n.t('starting…'),
    error: vscode.l10n.t('error'),
    needsAuth: vscode.l10n.t('sign-in required'),
  };
}

function serverTooltip(connection: McpServerConnection): vscode.MarkdownString {
  const { definition } = connection;
  const state = redactState(connection.state, definition.secrets);
  const launch = definition.launch;
  const src = definition.source;
  return toMarkdown(
    serverTooltipParts({
      label: definition.label,
      // The message follows as "Last error" / "Sign in required": the heading does not repeat it.
      stateText: state.kind === 'error' || state.kind === 'needsAuth' ? stateWords()[state.kind] : describeState(state),
      launch:
        launch.type === 'stdio'
          ? { type: 'stdio', command: redactText(launch.command, definition.secrets) }
          : { type: launch.type, url: redactText(launch.url, definition.secrets) },
      ...(state.kind === 'running'
        ? {
            running: {
              serverName: state.serverInfo.title ?? state.serverInfo.name,
              version: state.serverInfo.version,
              protocolVersion: protocolAndEra(state),
              capabilities: Object.keys(state.capabilities),
              instructions: state.instructions,
            },
          }
        : {}),
      ...(state.kind === 'needsAuth' ? { needsAuth: state.message } : {}),
      ...(state.kind === 'error' ? { error: { message: state.message, detail: state.detail } } : {}),
      config: { folder: src.folder, label: src.label, line: src.line },
      ...(src.discovered && src.file ? { discovered: { note: vscode.l10n.t('Found by discovery in the config of {0}:', src.label), file: src.file } } : {}),
    }),
    true,
  );
}

/** A MarkdownString from the parts of ./common/treeText.ts; `text` parts are escaped by appendText. */
function toMarkdown(parts: readonly MarkdownPart[], supportThemeIcons = false): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, supportThemeIcons);
  for (const part of parts) {
    if ('markdown' in part) md.appendMarkdown(part.markdown);
    else if ('text' in part) md.appendText(part.text);
    else md.appendCodeblock(part.code, part.language);
  }
  return md;
}
