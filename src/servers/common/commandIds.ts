/**
 * The ids of the Servers view's commands and context keys, written once: the feature registers
 * them through its command table, other features call them by these names. Pure and without
 * imports, so any feature's glue may import it (importGraph.folderCycles does not count such an
 * import); test/unit/commandIds.test.ts checks these lists against package.json.
 */
export const ServerCommands = {
  start: 'mcpWorkbench.startServer',
  stop: 'mcpWorkbench.stopServer',
  restart: 'mcpWorkbench.restartServer',
  showOutput: 'mcpWorkbench.showOutput',
  openConfiguration: 'mcpWorkbench.openConfiguration',
  restartAll: 'mcpWorkbench.restartAll',
  clearStoredInputs: 'mcpWorkbench.clearStoredInputs',
  showServers: 'mcpWorkbench.showServers',
  manageTrust: 'mcpWorkbench.manageTrust',
  refresh: 'mcpWorkbench.refreshServers',
  filterTools: 'mcpWorkbench.filterTools',
  clearToolFilter: 'mcpWorkbench.clearToolFilter',
  add: 'mcpWorkbench.addServer',
  copyJson: 'mcpWorkbench.copyServerJson',
  cancelTask: 'mcpWorkbench.cancelTask',
  showTaskResult: 'mcpWorkbench.showTaskResult',
  openSkill: 'mcpWorkbench.openSkill',
  openSkillSource: 'mcpWorkbench.openSkillSource',
  addSkillToChat: 'mcpWorkbench.addSkillToChat',
  openSelected: '_mcpWorkbench.openSelectedServerItem',
} as const;

/** Commands above that package.json does not contribute, and why they exist. */
export const ServerInternal: { readonly [K in keyof typeof ServerCommands]?: string } = {
  openSelected: "a click on a tool, resource, template, skill or task: runs the selected item's command (src/shared/selectionCommand.ts)",
};

/** Context keys (`setContext`) that package.json's `when` clauses read. */
export const ServerContextKeys = {
  /** Set once the first load of the config files has finished: the welcome view waits for it. */
  configLoaded: 'mcpWorkbench.configLoaded',
  toolFilterActive: 'mcpWorkbench.toolFilterActive',
} as const;
