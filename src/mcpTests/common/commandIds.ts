/** The ids of the saved tests' commands (pure, no imports: see src/servers/common/commandIds.ts). */
export const McpTestsCommands = {
  testing: '_mcpWorkbench.testing.mcpTests',
  state: '_mcpWorkbench.testing.mcpTestsState',
} as const;

/** Commands above that package.json does not contribute, and why they exist. */
export const McpTestsInternal: { readonly [K in keyof typeof McpTestsCommands]?: string } = {
  testing: "returns the Testing view's discover, run and last run (making the controller), for the integration tests",
  state: 'says whether and why the test controller was made, without making it, for the integration tests',
};
