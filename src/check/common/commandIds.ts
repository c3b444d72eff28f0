/** The ids of Check Server's commands (pure, no imports: see src/servers/common/commandIds.ts). */
export const CheckCommands = {
  check: 'mcpWorkbench.checkServer',
  showFindings: 'mcpWorkbench.showCheckFindings',
} as const;
