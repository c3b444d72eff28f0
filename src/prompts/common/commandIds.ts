/** The ids of the prompt commands and context keys (pure, no imports: see src/servers/common/commandIds.ts). */
export const PromptCommands = {
  run: 'mcpWorkbench.runPrompt',
  previewSendToChat: 'mcpWorkbench.promptPreview.sendToChat',
  previewCopy: 'mcpWorkbench.promptPreview.copy',
  previewInsertAtCursor: 'mcpWorkbench.promptPreview.insertAtCursor',
  previewRunWithModel: 'mcpWorkbench.promptPreview.runWithModel',
} as const;

/**
 * Each running server's prompts also get a command of their own, `<prefix><server>.<prompt>`
 * (see promptCommands.ts): registered while the prompt exists, never contributed.
 */
export const PROMPT_COMMAND_PREFIX = 'mcpWorkbench.prompt.';

export const PromptContextKeys = {
  previewOpen: 'mcpWorkbench.promptPreviewOpen',
} as const;
