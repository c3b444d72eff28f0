/** The ids of the coexistence commands (pure, no imports: see src/servers/common/commandIds.ts). */
export const CoexistenceCommands = {
  chooseRunner: 'mcpWorkbench.chooseWorkspaceServersRunner',
  runHere: 'mcpWorkbench.runServerHere',
  warnBeforeSecondCopy: '_mcpWorkbench.warnBeforeSecondCopy',
} as const;

export const CoexistenceInternal: { readonly [K in keyof typeof CoexistenceCommands]?: string } = {
  warnBeforeSecondCopy: "Start (src/servers) asks for the once-per-window warning that VS Code's own host may run another copy",
};
