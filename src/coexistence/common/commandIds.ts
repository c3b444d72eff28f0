/** The ids of the coexistence commands (pure, no imports: see src/servers/common/commandIds.ts). */
export const CoexistenceCommands = {
  chooseRunner: 'mcpWorkbench.chooseWorkspaceServersRunner',
  runHere: 'mcpWorkbench.runServerHere',
} as const;
