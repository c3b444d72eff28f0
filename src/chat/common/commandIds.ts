/** The ids of the chat commands (pure, no imports: see src/servers/common/commandIds.ts). */
export const ChatCommands = {
  enableTool: 'mcpWorkbench.enableToolInChat',
  disableTool: 'mcpWorkbench.disableToolInChat',
} as const;
