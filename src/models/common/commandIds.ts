/** The ids of the model commands (pure, no imports: see src/servers/common/commandIds.ts). */
export const ModelCommands = {
  setOpenAiApiKey: 'mcpWorkbench.setOpenAiApiKey',
  selectSamplingModel: 'mcpWorkbench.selectSamplingModel',
} as const;
