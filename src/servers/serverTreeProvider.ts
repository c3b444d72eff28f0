/**
 * The Servers tree: one node per configured server; under a running one, a group per list the
 * server advertises. Updates are targeted: a state change refreshes its server node, a
 * list_changed refreshes its group, so large lists are not rebuilt on every event and
 * what the user expanded stays expanded (nodes have stable ids).
 */
import * as vscode from 'vscode';
import type { McpServerConnection } from '../mcp/connection/serverConnection';
import type { ListKind } from '../mcp/connection/connectionTypes';
import type { Workbench } from '../workbench';
import {
  GROUP_ORDER,
  GroupNode,
  PromptNode,
  ResourceNode,
  ServerNode,
  SkillNode,
  SkillsGroupNode,
  TaskNode,
  TasksGroupNode,
  TemplateNode,
  ToolNode,
  type TreeNode,
} from './serverTreeNodes';
import { showErrorMessage } from '../shared/notifications';
import { errorMessage } from '../shared/common/errors';
import { ServerContextKeys } from './common/commandIds';
import { toolHiddenByConfig } from '../config/common/entryPolicy';
import { RunnerAnswerNode, RunnerChoiceNode } from './runnerChoiceNodes';
import { SecondCopyWatch } from './secondCopyWatch';
import { DisposableStore } from '../shared/common/disposables';

export class ServerTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly onDidChangeEmitter = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.onDidChangeEmitter.event;
  private readonly serverNodes = new Map<string, ServerNode>();
  private readonly groupNodes = new Map<string, GroupNode>();
  private readonly taskGroups = new Map<string, TasksGroupNode>();
  private readonly skillGroups = new Map<string, SkillsGroupNode>();
  /** Connections whose `tasks/list` was fetched in their current launch. */
  private readonly listedTasks = new WeakSet<McpServerConnection>();
  /** The tool nodes last returned, by server id, then tool name: a chat toggle refreshes just its node. */
  private readonly toolNodes = new Map<string, Map<string, ToolNode>>();
  private readonly perServer = new Map<string, vscode.Disposable[]>();
  private readonly disposables = new DisposableStore();
  private toolFilter = '';
  private rootRefresh: NodeJS.Timeout | undefined;
  /** Ids and labels of the servers last shown at the root; state changes alone do not refresh it. */
  private rootSnapshot = '';
  /** The who-runs-them choice last shown at the top, if any. */
  private choiceNode: RunnerChoiceNode | undefined;
  /** The view that shows this tree, once made (its selection is what a click opens; tests select through it). */
  view: vscode.TreeView<TreeNode> | undefined;
  /** Copies of our servers that VS Code's own host started (the process tree of this extension host). */
  readonly copies: SecondCopyWatch;

  constructor(private readonly workbench: Workbench) {
    const { registry } = workbench;
    for (const c of registry.all()) this.watch(c);
    this.copies = new SecondCopyWatch(registry);
    this.disposables.push(
      this.onDidChangeEmitter,
      this.copies,
      this.copies.onDidChange((id) => {
        const node = this.serverNodes.get(id);
        if (node) this.onDidChangeEmitter.fire(node);
      }),
      registry.onDidAddConnection((c) => this.watch(c)),
      workbench.chatTools.onDidChange(({ serverName, toolName }) => {
        for (const c of registry.all()) {
          const node = c.definition.name === serverName ? this.toolNodes.get(c.definition.id)?.get(toolName) : undefined;
          if (node) this.onDidChangeEmitter.fire(node);
        }
      }),
      workbench.onDidChangeDevRestarting((id) => {
        const node = this.serverNodes.get(id);
        if (node) this.onDidChangeEmitter.fire(node);
      }),
      // Added/removed/relabelled servers, the who-runs-them choice shown or gone: refresh the root, coalescing bursts.
      registry.onDidChange(() => {
        if (this.snapshot() !== this.rootSnapshot) this.scheduleRootRefresh();
      }),
      workbench.builtinHost.onDidChange(() => {
        if (this.snapshot() !== this.rootSnapshot) this.scheduleRootRefresh();
      }),
    );
  }

  get filter(): string {
    return this.toolFilter;
  }

  setToolFilter(text: string): void {
    this.toolFilter = text.trim().toLowerCase();
    void vscode.commands.executeCommand('setContext', ServerContextKeys.toolFilterActive, this.toolFilter !== '');
    this.groupNodes.clear();
    this.onDidChangeEmitter.fire(undefined);
  }

  refresh(): void {
    this.groupNodes.clear();
    this.onDidChangeEmitter.fire(undefined);
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return node.toTreeItem();
  }

  /** The tooltips of list items, built for the item hovered (see serverTreeNodes.ts). */
  resolveTreeItem(item: vscode.TreeItem, node: TreeNode): vscode.TreeItem {
    if (item.tooltip === undefined && 'tooltip' in node) item.tooltip = node.tooltip();
    return item;
  }

  getParent(node: TreeNode): TreeNode | undefined {
    if (node instanceof ServerNode || node instanceof RunnerChoiceNode) return undefined;
    if (node instanceof RunnerAnswerNode) return this.choiceNode;
    if (node instanceof GroupNode || node instanceof TasksGroupNode || node instanceof SkillsGroupNode) return this.serverNodes.get(node.serverId);
    if (node instanceof TaskNode) return this.taskGroups.get(node.serverId);
    if (node instanceof SkillNode) return this.skillGroups.get(node.serverId);
    const list: ListKind =
      node instanceof ToolNode ? 'tools' : node instanceof ResourceNode ? 'resources' : node instanceof TemplateNode ? 'resourceTemplates' : 'prompts';
    return this.groupNodes.get(`${node.serverId}/${list}`);
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    if (!node) {
      this.rootSnapshot = this.snapshot();
      // Asked at the top while the choice is needed; gone once made.
      this.choiceNode = this.needsChoice() ? new RunnerChoiceNode(this.workbench.builtinHost.canOfferAutostartNever()) : undefined;
      const servers = this.workbench.registry.all().map((c) => this.serverNode(c));
      return this.choiceNode ? [this.choiceNode, ...servers] : servers;
    }
    if (node instanceof RunnerChoiceNode) return node.children();
    if (node instanceof ServerNode) return this.groups(node.connection);
    if (node instanceof GroupNode) return this.items(node);
    if (node instanceof TasksGroupNode) return this.tasks(node);
    if (node instanceof SkillsGroupNode) return this.skills(node);
    return [];
  }

  private serverNode(c: McpServerConnection): ServerNode {
    let node = this.serverNodes.get(c.definition.id);
    if (!node || node.connection !== c) {
      node = new ServerNode(
        c,
        () => this.workbench.devRestarting(c.definition.id),
        () => this.copyNote(c),
      );
      this.serverNodes.set(c.definition.id, node);
    }
    return node;
  }

  /** A second copy VS Code started (seen in the process tree), else one its Copilot agent host may run. */
  private copyNote(c: McpServerConnection): string | undefined {
    const copies = this.copies.of(c.definition.id);
    if (copies.length)
      return vscode.l10n.t(
        'VS Code runs a second copy (pid {0}): stop it in MCP: List Servers and set chat.mcp.autostart to "never", or leave this server to VS Code',
        copies.join(', '),
      );
    return this.workbench.builtinHost.agentHostMayRunCopy(c.definition) ? vscode.l10n.t("VS Code's Copilot agent host may run its own copy") : undefined;
  }

  private groups(c: McpServerConnection): (GroupNode | TasksGroupNode | SkillsGroupNode)[] {
    if (c.state.kind !== 'running') return [];
    const groups: (GroupNode | TasksGroupNode | SkillsGroupNode)[] = [];
    for (const list of GROUP_ORDER) {
      if (!c.advertises(list)) continue;
      const filtering = this.toolFilter !== '' && list === 'tools';
      // Counted from the cache, never awaited here: a server's row refreshed while its groups were
      // awaited would register them twice (see serverTreeNodes.ts). A list not fetched yet is
      // fetched now; its arrival refreshes the group (onDidChangeList).
      if (filtering && !c.cached('tools')) c.list('tools').catch(() => undefined);
      const count = filtering ? () => c.cached('tools')?.filter((t) => this.matches(t)).length : () => c.cached(list)?.length;
      const node = new GroupNode(c, list, count, filtering);
      this.groupNodes.set(`${c.definition.id}/${list}`, node);
      groups.push(node);
    }
    // Only for servers that declare the skills extension: listing reads no skill file.
    if (c.skills.offered) {
      const node = new SkillsGroupNode(c);
      this.skillGroups.set(c.definition.id, node);
      groups.push(node);
    }
    if (c.offersTasks || c.tasks.list().length) {
      const node = new TasksGroupNode(c);
      this.taskGroups.set(c.definition.id, node);
      groups.push(node);
    }
    return groups;
  }

  /**
   * The tasks this window started, and the ones the server lists (`tasks/list`, once per
   * launch: later changes come from the calls being followed, not from listing again).
   */
  private async tasks(group: TasksGroupNode): Promise<TaskNode[]> {
    const c = group.connection;
    if (!this.listedTasks.has(c)) {
      this.listedTasks.add(c);
      // A server that cannot list still shows the tasks started here.
      await c.refreshTasks().catch(() => undefined);
    }
    return c.tasks.list().map((t) => new TaskNode(c.definition.id, t));
  }

  /** The skills as listed (names and descriptions only; SKILL.md is read when one is opened). */
  private async skills(group: SkillsGroupNode): Promise<SkillNode[]> {
    const c = group.connection;
    try {
      return (await c.skills.list()).skills.map((s) => new SkillNode(c.definition.id, s));
    } catch (error) {
      void showErrorMessage(vscode.l10n.t('Could not list the skills of {0}: {1}', c.definition.label, errorMessage(error)));
      return [];
    }
  }

  private async items(group: GroupNode): Promise<TreeNode[]> {
    const c = group.connection;
    const id = c.definition.id;
    try {
      switch (group.list) {
        case 'tools': {
          const tools = await c.list('tools');
          const chat = this.workbench.chatTools;
          const name = c.definition.name;
          const nodes = new Map<string, ToolNode>();
          this.toolNodes.set(id, nodes);
          return (this.toolFilter ? tools.filter((t) => this.matches(t)) : tools).map((t) => {
            const node = new ToolNode(id, t, () => chat.isDisabled(name, t.name), toolHiddenByConfig(c.definition.toolLists, t.name));
            nodes.set(t.name, node);
            return node;
          });
        }
        case 'resources':
          return (await c.list('resources')).map((r) => new ResourceNode(id, r));
        case 'resourceTemplates':
          return (await c.list('resourceTemplates')).map((t) => new TemplateNode(id, t));
        case 'prompts':
          return (await c.list('prompts')).map((p) => new PromptNode(id, p));
      }
    } catch (error) {
      void showErrorMessage(vscode.l10n.t('Could not list {0} of {1}: {2}', group.list, c.definition.label, errorMessage(error)));
      return [];
    }
  }

  private matches(tool: { name: string; title?: string; description?: string }): boolean {
    const f = this.toolFilter;
    return tool.name.toLowerCase().includes(f) || !!tool.title?.toLowerCase().includes(f) || !!tool.description?.toLowerCase().includes(f);
  }

  private watch(c: McpServerConnection): void {
    const id = c.definition.id;
    this.perServer.get(id)?.forEach((d) => d.dispose());
    this.perServer.set(id, [
      c.onDidChangeState(() => {
        for (const list of GROUP_ORDER) this.groupNodes.delete(`${id}/${list}`);
        this.taskGroups.delete(id);
        this.skillGroups.delete(id);
        this.listedTasks.delete(c);
        const node = this.serverNodes.get(id);
        this.onDidChangeEmitter.fire(node && node.connection === c ? node : undefined);
      }),
      c.tasks.onDidChange(() => {
        // The group's count and children; before the group was shown, its server.
        const group = this.taskGroups.get(id);
        const server = this.serverNodes.get(id);
        if (group && group.connection === c) this.onDidChangeEmitter.fire(group);
        else if (server && server.connection === c) this.onDidChangeEmitter.fire(server);
      }),
      c.skills.onDidChange(() => {
        // The group's count and children; before the group was shown, its server.
        const group = this.skillGroups.get(id);
        const server = this.serverNodes.get(id);
        if (group && group.connection === c) this.onDidChangeEmitter.fire(group);
        else if (server && server.connection === c) this.onDidChangeEmitter.fire(server);
      }),
      c.onDidChangeList((list) => {
        // Refresh just that group (its count and items); before it was shown, its server.
        const group = this.groupNodes.get(`${id}/${list}`);
        const server = this.serverNodes.get(id);
        if (group && group.connection === c) this.onDidChangeEmitter.fire(group);
        else if (server && server.connection === c) this.onDidChangeEmitter.fire(server);
      }),
    ]);
  }

  private snapshot(): string {
    const servers = this.workbench.registry
      .all()
      .map((c) => `${c.definition.id}\u0000${c.definition.label}`)
      .join('\n');
    return `${this.needsChoice() ? `choice:${this.workbench.builtinHost.canOfferAutostartNever()}\n` : ''}${servers}`;
  }

  /** Whether the who-runs-them choice shows at the top (src/coexistence/builtinHost.ts). */
  private needsChoice(): boolean {
    return this.workbench.builtinHost.needsChoice(this.workbench.registry.all().map((c) => c.definition));
  }

  private scheduleRootRefresh(): void {
    if (this.rootRefresh) return;
    this.rootRefresh = setTimeout(() => {
      this.rootRefresh = undefined;
      const live = new Set(this.workbench.registry.all().map((c) => c.definition.id));
      for (const [id, subs] of this.perServer) {
        if (!live.has(id)) {
          subs.forEach((d) => d.dispose());
          this.perServer.delete(id);
          this.serverNodes.delete(id);
          this.toolNodes.delete(id);
        }
      }
      this.onDidChangeEmitter.fire(undefined);
    }, 50);
  }

  dispose(): void {
    clearTimeout(this.rootRefresh);
    for (const subs of this.perServer.values()) subs.forEach((d) => d.dispose());
    this.disposables.dispose();
  }
}
