/** The ids of the Requests panel's commands (pure, no imports: see src/servers/common/commandIds.ts; the model commands are src/models'). */
export const ApprovalCommands = {
  showRequests: 'mcpWorkbench.showRequests',
} as const;
