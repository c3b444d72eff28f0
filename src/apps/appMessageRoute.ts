/**
 * An app's `ui/message` (a user message it proposes for chat). It is shown beside the app, as
 * plain text, with **Ask @mcp in Chat** (puts `@mcp <text>` into the chat input, not sent: the
 * user reads it and presses Enter) and **Copy Message**; without chat in this VS Code, the line
 * says so. Nothing happens until the user presses a button, so an app can neither start a chat
 * turn nor take the focus by itself. The host keeps the text: the button press names the
 * notice, never the text. The text is the app's: bounded, invisible characters revealed
 * (appChat.ts).
 */
import * as vscode from 'vscode';
import { randomUUID } from 'node:crypto';
import { appMessageText } from './common/appChat';
import type { AppNotice, AppNoticeAction } from './common/appsProtocol';

/** Where an app's `ui/message` can go: the chat participant that takes it, if this VS Code has one. */
export interface AppChatRoute {
  /** The participant's name (`mcp` for `@mcp`), or undefined without chat. */
  participant(): string | undefined;
}

/** VS Code's command that opens the chat view with a query in its input. */
const OPEN_CHAT_COMMAND = 'workbench.action.chat.open';

export class AppMessages {
  private pending: { noticeId: string; text: string; participant?: string } | undefined;

  constructor(
    private readonly chat: AppChatRoute,
    private readonly notice: (notice: AppNotice) => void,
    private readonly log: (level: 'info' | 'warn', text: string) => void,
  ) {}

  /** The app's `ui/message`: shown beside the app, with what the user can do with it. */
  async receive(params: unknown): Promise<{ isError?: boolean }> {
    const text = appMessageText(params);
    if (!text) return { isError: true };
    const participant = this.chat.participant();
    const hasChat = participant !== undefined && (await vscode.commands.getCommands(true)).includes(OPEN_CHAT_COMMAND);
    const noticeId = randomUUID();
    this.pending = { noticeId, text, ...(hasChat ? { participant } : {}) };
    const quoted = text.length > 300 ? `${text.slice(0, 300)}…` : text;
    if (!hasChat) {
      this.log('info', `ui/message: this VS Code has no chat for it: ${text.slice(0, 500)}`);
      this.notice({ noticeId, text: vscode.l10n.t('The app wants to send a message to chat, but this VS Code has no chat: "{0}"', quoted), actions: ['copy'] });
      return { isError: true };
    }
    this.notice({ noticeId, text: vscode.l10n.t('The app proposes a message for chat: "{0}"', quoted), actions: ['openChat', 'copy'], participant });
    return {};
  }

  /** A button pressed beside the app, for the message shown now (an older notice's button does nothing). */
  async act(noticeId: string, action: AppNoticeAction): Promise<void> {
    const pending = this.pending;
    if (!pending || pending.noticeId !== noticeId) return;
    if (action === 'copy') {
      await vscode.env.clipboard.writeText(pending.text);
      this.notice({ noticeId, text: vscode.l10n.t("The app's message was copied to the clipboard.") });
      return;
    }
    if (!pending.participant) return;
    try {
      await vscode.commands.executeCommand(OPEN_CHAT_COMMAND, { query: `@${pending.participant} ${pending.text}`, isPartialQuery: true });
      this.notice({
        noticeId,
        text: vscode.l10n.t("The app's message is in the chat input (@{0}): review it and press Enter to send it.", pending.participant),
      });
    } catch (error) {
      this.log('warn', `could not open chat for the app's message: ${String(error)}`);
      this.notice({ noticeId, text: vscode.l10n.t('Chat did not open: {0}', String(error).slice(0, 200)), actions: ['copy'] });
    }
  }
}
