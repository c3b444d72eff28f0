/** The ids of Run Tool's commands (pure, no imports: see src/servers/common/commandIds.ts). */
export const ToolRunnerCommands = {
  /** Opens the Run Tool panel; the argument is a ToolRef (src/shared/common/commandArgs.ts). */
  run: 'mcpWorkbench.runTool',
  rerunLast: 'mcpWorkbench.toolRunner.rerunLast',
  resetApprovals: 'mcpWorkbench.resetToolApprovals',
  /** Saves the active Run Tool panel's last run as a test case in a `*.mcptest.json` file; returns { uri, name }. */
  saveAsTest: 'mcpWorkbench.saveRunAsTest',
  /** Saves a recorded tools/call (an Inspector row's menu: { seq }) as a test case, with Save as Test's writer; returns { uri, name }. */
  saveRecordedCallAsTest: 'mcpWorkbench.saveInspectorRowAsTest',
} as const;
