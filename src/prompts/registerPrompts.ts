/**
 * Prompts in the editor: **MCP: Run Prompt…** (palette and prompt nodes), one command per
 * prompt (`mcpWorkbench.prompt.<server>.<prompt>`, registered while the prompt exists), and
 * the result as a read-only markdown document with editor-title actions: Send to Chat, Copy,
 * Insert at Cursor, Run with Model.
 *
 * Why a markdown document and not a webview: it is readable and searchable as text, the user
 * can copy any part of it, the built-in Markdown preview renders it (images included) one
 * click away, and the actions are ordinary commands a user can bind keys to.
 */
import * as vscode from 'vscode';
import type { GetPromptResult } from '@modelcontextprotocol/client';
import type { PromptRef } from '../shared/common/commandArgs';
import { promptResultMarkdown, promptResultModelMessages, promptResultText } from './common/promptPreview';
import { ManualBackend, NoManualAnswerError, type ManualAnswer } from '../models/common/manualBackend';
import type { ModelRequest, ModelResponse } from '../models/common/modelBackend';
import type { ModelService } from '../models/common/modelService';
import type { Workbench } from '../workbench';
import { PromptCommandRegistry } from './promptCommandRegistry';
import { choosePromptAndArguments, NoPromptsError, type GotPrompt, type PromptPrompter } from './common/promptFlow';
import { quickInputPromptPrompter } from './promptPrompter';
import { showErrorMessage, showInformationMessage, withNotificationProgress } from '../shared/notifications';
import { errorMessage } from '../shared/common/errors';
import { PromptCommands, PromptContextKeys } from './common/commandIds';
import { registerCommandTable } from '../shared/commandTable';

export const PROMPT_SCHEME = 'mcp-prompt';

/** Options of `mcpWorkbench.runPrompt` (second argument, or fields of the first). */
export interface RunPromptOptions {
  /** Argument values that are not asked for (a keybinding's `args` lands here). */
  arguments?: Record<string, string>;
  /** Who answers the questions; the quick pick by default. */
  prompter?: PromptPrompter;
  /** Don't open the preview (callers that only want the result). */
  noPreview?: boolean;
}

/** What `mcpWorkbench.runPrompt` returns, for callers and tests. */
export interface RunPromptResult {
  serverId: string;
  promptName: string;
  arguments: Record<string, string>;
  result: GetPromptResult;
  /** The preview document. */
  uri: vscode.Uri;
  markdown: string;
  /** What Copy and Send to Chat use. */
  text: string;
}

/** What "Run with model" returns (undefined when nothing ran: no model, none picked, or it failed). */
export interface RunWithModelResult {
  /** The editor document the answer streamed into (it keeps what arrived before a cancel). */
  document: vscode.TextDocument;
  /** The model's response; absent when the run was cancelled. */
  response?: ModelResponse;
  /** True when the user (or `options.token`) stopped the run before the model finished. */
  cancelled?: boolean;
}

/** Options of `mcpWorkbench.promptPreview.runWithModel` (second argument). */
export interface RunWithModelOptions {
  /** Use this model (a `ModelInfo.id`) without asking. */
  modelId?: string;
  /** Another model service (tests); the extension's own by default. */
  models?: PromptModelService;
  /**
   * Who types the assistant message when the model is "Answer by hand". This is the human
   * boundary: by default the manual backend asks in an input box (src/models/modelService.ts
   * `answerInInputBox`); tests inject the typed text here. Only this run uses it.
   */
  answerByHand?: ManualAnswer;
  /** Stops the run like the notification's Cancel button (callers and tests). */
  token?: vscode.CancellationToken;
}

/** The part of the extension's model service "Run with model" uses (tests hand in their own). */
export type PromptModelService = Pick<ModelService, 'models' | 'generate'>;

/**
 * The prompt as people read it: rendered by the built-in Markdown preview (its "Open Source"
 * shows the text); the source itself when that preview is not available (markdown extension disabled).
 */
async function showRendered(uri: vscode.Uri): Promise<void> {
  await vscode.commands.executeCommand('setContext', PromptContextKeys.previewOpen, true);
  try {
    await vscode.commands.executeCommand('markdown.showPreview', uri);
    return;
  } catch {
    // fall through to the source
  }
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
}

class PromptPreviews implements vscode.TextDocumentContentProvider {
  private readonly entries = new Map<string, RunPromptResult>();
  private counter = 0;
  private readonly onDidChangeEmitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.onDidChangeEmitter.event;
  last: RunPromptResult | undefined;

  add(got: GotPrompt): RunPromptResult {
    const label = got.connection.definition.label;
    const uri = vscode.Uri.from({
      scheme: PROMPT_SCHEME,
      path: `/${label.replace(/[/\\]/g, '_')}/${got.prompt.name.replace(/[/\\]/g, '_')}.md`,
      query: String(++this.counter),
    });
    const markdown = promptResultMarkdown(got.result, { serverLabel: label, promptName: got.prompt.name, title: got.prompt.title, arguments: got.arguments });
    const entry: RunPromptResult = {
      serverId: got.connection.definition.id,
      promptName: got.prompt.name,
      arguments: got.arguments,
      result: got.result,
      uri,
      markdown,
      text: promptResultText(got.result),
    };
    this.entries.set(uri.toString(), entry);
    this.last = entry;
    return entry;
  }

  get(uri: vscode.Uri | undefined): RunPromptResult | undefined {
    if (uri) return this.entries.get(uri.toString());
    const active = vscode.window.activeTextEditor?.document.uri;
    return (active?.scheme === PROMPT_SCHEME ? this.entries.get(active.toString()) : undefined) ?? this.last;
  }

  forget(uri: vscode.Uri): void {
    this.entries.delete(uri.toString());
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.entries.get(uri.toString())?.markdown ?? vscode.l10n.t('This prompt preview is no longer available. Run the prompt again.');
  }

  dispose(): void {
    this.onDidChangeEmitter.dispose();
    this.entries.clear();
  }
}

function isPromptRef(arg: unknown): arg is PromptRef {
  const ref = arg as Partial<PromptRef> | undefined;
  return typeof ref?.serverId === 'string' && typeof ref.promptName === 'string';
}

/** `modelService`: the extension's one model service (Run with model), built by the composition root. */
export function registerPrompts(workbench: Workbench, modelService: PromptModelService): vscode.Disposable[] {
  const { registry } = workbench;
  const previews = new PromptPreviews();
  /** The last editor that is not a preview: where Insert at Cursor writes. */
  let targetEditor: vscode.TextEditor | undefined =
    vscode.window.activeTextEditor?.document.uri.scheme === PROMPT_SCHEME ? undefined : vscode.window.activeTextEditor;

  const runPrompt = async (arg?: unknown, second?: RunPromptOptions): Promise<RunPromptResult | undefined> => {
    const options: RunPromptOptions = { ...(arg && typeof arg === 'object' && !(arg instanceof vscode.Uri) ? (arg as RunPromptOptions) : {}), ...second };
    const prompter = options.prompter ?? quickInputPromptPrompter;
    let filled;
    try {
      let choice;
      if (isPromptRef(arg)) {
        const connection = registry.find(arg.serverId);
        if (!connection) {
          void showErrorMessage(vscode.l10n.t('There is no MCP server "{0}" in the configuration.', arg.serverId));
          return undefined;
        }
        if (!connection.client) {
          void showErrorMessage(
            vscode.l10n.t('MCP server "{0}" is not running, so its prompt "{1}" cannot be run.', connection.definition.label, arg.promptName),
          );
          return undefined;
        }
        const prompt = (await connection.list('prompts')).find((p) => p.name === arg.promptName);
        if (!prompt) {
          void showErrorMessage(vscode.l10n.t('MCP server "{0}" has no prompt "{1}" (it may have been removed).', connection.definition.label, arg.promptName));
          return undefined;
        }
        choice = { serverId: connection.definition.id, serverLabel: connection.definition.label, prompt };
      }
      filled = await choosePromptAndArguments(registry, prompter, choice, options.arguments);
    } catch (error) {
      if (error instanceof NoPromptsError) void showInformationMessage(error.message);
      else void showErrorMessage(vscode.l10n.t('Could not run the prompt: {0}', errorMessage(error)));
      return undefined;
    }
    if (!filled) return undefined;
    let result: GetPromptResult;
    try {
      result = await withNotificationProgress(
        { title: vscode.l10n.t('Getting prompt "{0}" from {1}…', filled.prompt.name, filled.connection.definition.label), cancellable: true },
        (_progress, token) => {
          const controller = new AbortController();
          token.onCancellationRequested(() => controller.abort());
          return filled.connection.getPrompt(filled.prompt.name, filled.arguments, { signal: controller.signal });
        },
      );
    } catch (error) {
      void showErrorMessage(
        vscode.l10n.t('MCP server "{0}" could not produce prompt "{1}": {2}', filled.connection.definition.label, filled.prompt.name, errorMessage(error)),
      );
      return undefined;
    }
    const entry = previews.add({ ...filled, result });
    if (!options.noPreview) await showRendered(entry.uri);
    return entry;
  };

  const sendToChat = async (uri?: vscode.Uri): Promise<'chat' | 'clipboard' | undefined> => {
    const entry = previews.get(uri);
    if (!entry) return undefined;
    const commands = await vscode.commands.getCommands(true);
    if (commands.includes('workbench.action.chat.open')) {
      try {
        await vscode.commands.executeCommand('workbench.action.chat.open', { query: entry.text });
        return 'chat';
      } catch {
        // fall through to the clipboard
      }
    }
    await vscode.env.clipboard.writeText(entry.text);
    void showInformationMessage(vscode.l10n.t('This VS Code has no chat view. The prompt was copied to the clipboard; paste it into your assistant.'));
    return 'clipboard';
  };

  const copy = async (uri?: vscode.Uri): Promise<string | undefined> => {
    const entry = previews.get(uri);
    if (!entry) return undefined;
    await vscode.env.clipboard.writeText(entry.text);
    void vscode.window.setStatusBarMessage(vscode.l10n.t('Copied prompt "{0}"', entry.promptName), 3000);
    return entry.text;
  };

  const insertAtCursor = async (uri?: vscode.Uri): Promise<boolean> => {
    const entry = previews.get(uri);
    if (!entry) return false;
    const editor = targetEditor && !targetEditor.document.isClosed ? targetEditor : undefined;
    if (!editor) {
      void showInformationMessage(vscode.l10n.t('Open the editor to insert into first, then use Insert at Cursor again.'));
      return false;
    }
    await vscode.window.showTextDocument(editor.document, { viewColumn: editor.viewColumn, selection: editor.selection });
    const shown = vscode.window.activeTextEditor ?? editor;
    return shown.edit((b) => shown.selections.forEach((s) => b.replace(s, entry.text)));
  };

  const runWithModel = async (uri?: vscode.Uri, options: RunWithModelOptions = {}): Promise<RunWithModelResult | undefined> => {
    const entry = previews.get(uri);
    if (!entry) return undefined;
    const service = options.models ?? modelService;
    const models = await service.models();
    let model = options.modelId ? models.find((m) => m.id === options.modelId) : undefined;
    if (!model && options.modelId) {
      void showErrorMessage(vscode.l10n.t('No model "{0}" is available.', options.modelId));
      return undefined;
    }
    if (!model) {
      if (!models.length) {
        void showErrorMessage(vscode.l10n.t('No model is available. Install a chat model provider or configure an OpenAI-compatible endpoint.'));
        return undefined;
      }
      const picked =
        models.length === 1
          ? { model: models[0] }
          : await vscode.window.showQuickPick(
              models.map((m) => ({ label: m.label, description: m.backend, model: m })),
              { title: vscode.l10n.t('Run prompt "{0}" with', entry.promptName) },
            );
      if (!picked) return undefined;
      model = picked.model;
    }
    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: `<!-- ${entry.promptName} · ${model.label} -->\n\n` });
    await vscode.window.showTextDocument(document, { preview: false, viewColumn: vscode.ViewColumn.Beside });
    // Edits are chained so chunks land in order even when the model streams faster than edits apply.
    const controller = new AbortController();
    let writing: Thenable<unknown> = Promise.resolve();
    const append = (text: string) => {
      // Nothing lands after a cancel, even a chunk the backend had already read.
      if (controller.signal.aborted) return;
      writing = writing.then(() => {
        const edit = new vscode.WorkspaceEdit();
        edit.insert(document.uri, document.lineAt(document.lineCount - 1).range.end, text);
        return vscode.workspace.applyEdit(edit);
      });
    };
    const request: ModelRequest = { messages: promptResultModelMessages(entry.result) };
    const chosen = model;
    const generate = (signal: AbortSignal) =>
      chosen.backend === 'manual' && options.answerByHand
        ? new ManualBackend(options.answerByHand).generate(chosen, request, append, signal)
        : service.generate(chosen, request, append, signal);
    const subscriptions: vscode.Disposable[] = [];
    if (options.token) subscriptions.push(options.token.onCancellationRequested(() => controller.abort()));
    try {
      if (options.token?.isCancellationRequested) controller.abort();
      const response = await withNotificationProgress(
        { title: vscode.l10n.t('Running prompt "{0}" with {1}…', entry.promptName, model.label), cancellable: true },
        (_p, token) => {
          subscriptions.push(token.onCancellationRequested(() => controller.abort()));
          return generate(controller.signal);
        },
      );
      await writing;
      return { document, response };
    } catch (error) {
      await writing;
      // A cancel (or an answer by hand left empty) is the user's choice, not a model failure:
      // keep what arrived, say it stopped.
      if (controller.signal.aborted || error instanceof NoManualAnswerError) {
        void vscode.window.setStatusBarMessage(vscode.l10n.t('Stopped running prompt "{0}"', entry.promptName), 5000);
        return { document, cancelled: true };
      }
      void showErrorMessage(vscode.l10n.t('The model failed: {0}', errorMessage(error)));
      return undefined;
    } finally {
      subscriptions.forEach((d) => d.dispose());
    }
  };

  const commandRegistry = new PromptCommandRegistry(registry, (ref, args) => runPrompt(ref, args ? { arguments: args } : undefined));

  return [
    previews,
    commandRegistry,
    vscode.workspace.registerTextDocumentContentProvider(PROMPT_SCHEME, previews),
    vscode.workspace.onDidCloseTextDocument((doc) => {
      if (doc.uri.scheme === PROMPT_SCHEME && doc.uri.toString() !== previews.last?.uri.toString()) previews.forget(doc.uri);
    }),
    vscode.window.onDidChangeActiveTextEditor((editor) => {
      if (editor && editor.document.uri.scheme !== PROMPT_SCHEME && editor.document.uri.scheme !== 'output') targetEditor = editor;
    }),
    ...registerCommandTable({
      [PromptCommands.run]: runPrompt,
      [PromptCommands.previewSendToChat]: sendToChat,
      [PromptCommands.previewCopy]: copy,
      [PromptCommands.previewInsertAtCursor]: insertAtCursor,
      [PromptCommands.previewRunWithModel]: runWithModel,
    }),
  ];
}
