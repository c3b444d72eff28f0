/** The ids of the config discovery commands (pure, no imports: see src/servers/common/commandIds.ts). */
export const ConfigCommands = {
  importServer: 'mcpWorkbench.importServer',
} as const;
