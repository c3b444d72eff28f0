/** The ids of the Activity view's commands and context keys (pure, no imports: see src/servers/common/commandIds.ts). */
export const ActivityCommands = {
  showEntry: 'mcpWorkbench.showActivityEntry',
  rerunEntry: 'mcpWorkbench.rerunActivityEntry',
  clear: 'mcpWorkbench.clearActivity',
  filter: 'mcpWorkbench.filterActivity',
  clearFilter: 'mcpWorkbench.clearActivityFilter',
  log: '_mcpWorkbench.activityLog',
  openSelected: '_mcpWorkbench.openSelectedActivityEntry',
} as const;

/** Commands above that package.json does not contribute, and why they exist. */
export const ActivityInternal: { readonly [K in keyof typeof ActivityCommands]?: string } = {
  log: 'returns the log behind the view, for the integration tests and the benchmark',
  openSelected: 'a click on an entry: opens the selected entry in the Inspector (src/shared/selectionCommand.ts)',
};

export const ActivityContextKeys = {
  filtered: 'mcpWorkbench.activityFiltered',
} as const;
