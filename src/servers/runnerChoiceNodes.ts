/**
 * The who-runs-them choice at the top of the Servers view, shown while it is needed
 * (BuiltinHost.needsChoice, src/coexistence): one item saying what is asked, and under it one item
 * per answer saying what it means; clicking an answer chooses it. In the view rather than a
 * notification, which a new user may never see (it can land in the notification centre alone).
 */
import * as vscode from 'vscode';
import type { ChooseOptions, WorkspaceServersRunner } from '../coexistence/common/builtinHost';
// Registered by src/coexistence/registerCoexistence.ts: a command, so the tree imports no coexistence glue.
import { CoexistenceCommands } from '../coexistence/common/commandIds';
import { ServerCommands } from './common/commandIds';
import { onClick } from '../shared/selectionCommand';

export class RunnerChoiceNode {
  readonly kind = 'runnerChoice';
  /** `offerAutostartNever`: VS Code has `chat.mcp.autostart` and it is not "never" yet. */
  constructor(private readonly offerAutostartNever: boolean) {}

  toTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t('Who runs the servers of .vscode/mcp.json?'), vscode.TreeItemCollapsibleState.Expanded);
    item.id = 'runnerChoice';
    item.description = vscode.l10n.t("VS Code's chat can run them too");
    item.iconPath = new vscode.ThemeIcon('question', new vscode.ThemeColor('notificationsInfoIcon.foreground'));
    item.tooltip = vscode.l10n.t(
      "VS Code's own MCP support reads .vscode/mcp.json and .mcp.json too. Until you choose, VS Code's chat runs their servers and MCP Workbench lists them stopped.",
    );
    item.contextValue = 'runnerChoice';
    // Read out whole: the question, then why it is asked.
    item.accessibilityInformation = { label: `${item.label as string}, ${item.tooltip}` };
    return item;
  }

  children(): RunnerAnswerNode[] {
    return [
      new RunnerAnswerNode(
        'workbench',
        {},
        vscode.l10n.t('Run them here'),
        vscode.l10n.t('MCP Workbench starts them and shows their tools'),
        'play',
        vscode.l10n.t(
          "MCP Workbench starts them and shows their tools. VS Code's chat reaches them through MCP Workbench (VS Code 1.101+), but may still start copies of its own.",
        ),
      ),
      ...(this.offerAutostartNever
        ? [
            new RunnerAnswerNode(
              'workbench',
              { autostartNever: true },
              vscode.l10n.t('Run them here, no copies in chat'),
              vscode.l10n.t('also sets "chat.mcp.autostart": "never"'),
              'play-circle',
              vscode.l10n.t(
                'As "Run them here", and writes "chat.mcp.autostart": "never" to the workspace settings, so VS Code starts no MCP server on its own: one process each.',
              ),
            ),
          ]
        : []),
      new RunnerAnswerNode(
        'vscode',
        {},
        vscode.l10n.t("Leave them to VS Code's chat"),
        vscode.l10n.t('listed stopped here, Run Here on each'),
        'comment-discussion',
        vscode.l10n.t('VS Code starts them when chat uses tools. MCP Workbench lists them stopped; Run Here (or Start) runs one here.'),
      ),
    ];
  }
}

export class RunnerAnswerNode {
  readonly kind = 'runnerAnswer';
  constructor(
    readonly runner: WorkspaceServersRunner,
    private readonly options: ChooseOptions,
    private readonly label: string,
    private readonly description: string,
    private readonly icon: string,
    private readonly hoverText: string,
  ) {}

  toTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.label, vscode.TreeItemCollapsibleState.None);
    item.id = `runnerChoice/${this.runner}${this.options.autostartNever ? '/autostartNever' : ''}`;
    item.description = this.description;
    item.iconPath = new vscode.ThemeIcon(this.icon);
    item.tooltip = this.hoverText;
    item.contextValue = 'runnerAnswer';
    item.accessibilityInformation = { label: `${this.label}, ${this.hoverText}` };
    item.command = onClick(ServerCommands.openSelected, this.openCommand());
    return item;
  }

  /** What a click on the answer runs (through the view's selection: src/shared/selectionCommand.ts). */
  openCommand(): vscode.Command {
    return { command: CoexistenceCommands.chooseRunner, title: this.label, arguments: [this.runner, this.options] };
  }
}
