/** The ids of the Requests panel's and sampling's commands (pure, no imports: see src/servers/common/commandIds.ts). */
export const ApprovalCommands = {
  showRequests: 'mcpWorkbench.showRequests',
  setOpenAiApiKey: 'mcpWorkbench.setOpenAiApiKey',
  selectSamplingModel: 'mcpWorkbench.selectSamplingModel',
} as const;
