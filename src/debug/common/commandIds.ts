/** The ids of the debug commands (pure, no imports: see src/servers/common/commandIds.ts). */
export const DebugCommands = {
  debugServer: 'mcpWorkbench.debugServer',
} as const;
