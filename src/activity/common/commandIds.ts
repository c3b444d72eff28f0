/** The ids of the Activity view's commands and context keys (pure, no imports: see src/servers/common/commandIds.ts). */
export const ActivityCommands = {
  showEntry: 'mcpWorkbench.showActivityEntry',
  rerunEntry: 'mcpWorkbench.rerunActivityEntry',
  clear: 'mcpWorkbench.clearActivity',
  filter: 'mcpWorkbench.filterActivity',
  clearFilter: 'mcpWorkbench.clearActivityFilter',
  log: '_mcpWorkbench.activityLog',
} as const;

/** Commands above that package.json does not contribute, and why they exist. */
export const ActivityInternal: { readonly [K in keyof typeof ActivityCommands]?: string } = {
  log: 'returns the log behind the view, for the integration tests and the benchmark',
};

export const ActivityContextKeys = {
  filtered: 'mcpWorkbench.activityFiltered',
} as const;
